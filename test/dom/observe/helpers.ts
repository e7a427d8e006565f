import { Window } from 'happy-dom'

/** A happy-dom document at `url` with `body` as its body (no layout: every box counts as visible). */
export function page(body: string, opts: { url?: string; title?: string } = {}): Document {
  const window = new Window({ url: opts.url ?? 'https://example.test/', width: 1280, height: 800 })
  const doc = window.document as unknown as Document
  doc.title = opts.title ?? ''
  doc.body.innerHTML = body
  return doc
}
