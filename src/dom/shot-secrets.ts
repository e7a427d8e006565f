/**
 * Where a secret is drawn in this document, for a screenshot (docs/security.md, "Pictures"). The
 * text listing is cut by the redactor (src/core/agent/redact.ts); a picture must be cut the same
 * way, and a page that got a secret can draw it anywhere: copy it into a `div`, another field, a
 * canvas, a picture it makes. So, before the capture:
 *
 * - every element whose text holds a secret in any shape the redactor knows (spaced, look-alike
 *   letters, full-width, zero-width, reversed, in part), the smallest such element, and every field
 *   whose value holds one, is boxed to be blacked out;
 * - what Ava cannot read once a secret was typed — a canvas, a video, a picture loaded (or made
 *   from `data:`/`blob:`) after the typing — is named in `unsure`, and the background sends no
 *   picture at all (src/background/screenshot.ts).
 */
import { holdsShape } from '../core/agent/redact'
import { kAvaUiAttr } from './executor/dom'
import { deepQuerySelectorAll, frameDocument } from './locators'
import { firstSecretTypedAt } from './secret-fields'

/** Text-free subtrees: nothing in them is drawn as text. */
const kNotDrawn = new Set(['script', 'style', 'noscript', 'template', 'head'])
/** A canvas, picture or video smaller than this (CSS px, each side) cannot draw a legible secret. */
const kMinDrawPx = 8
/** Elements walked at most looking for an echo: past it, the rest is not vouched for (unsure). */
const kMaxWalk = 50_000

export interface SecretDrawings {
  /** Elements to black out (their text, or a field's value, holds a secret). */
  covers: Element[]
  /** What could draw a secret where Ava cannot read it: `canvas`, `video`, `image`, `too_large`. */
  unsure: string[]
}

const holdsAny = (text: string, hide: readonly string[]) => !!text && hide.some((v) => holdsShape(text, v))

/**
 * The children a reader sees text from: the element's own, then its open shadow root's, and a
 * same-origin frame's page (an about:blank or srcdoc frame has no Ava of its own to cover it).
 */
function childrenOf(el: Element): Element[] {
  if (el.localName === 'iframe' || el.localName === 'frame') {
    const doc = frameDocument(el)
    return doc?.body ? [doc.body] : []
  }
  return [...el.children, ...(el.shadowRoot ? [...el.shadowRoot.children] : [])]
}

/** All text drawn under `el`, across open shadow roots, as one string (fields' values apart). */
function deepText(el: Element): string {
  if (kNotDrawn.has(el.localName) || el.hasAttribute(kAvaUiAttr)) return ''
  if (el.localName === 'iframe' || el.localName === 'frame') {
    const doc = frameDocument(el)
    return doc?.body ? deepText(doc.body) : ''
  }
  let out = ''
  const from = (parent: Node) => {
    for (const n of parent.childNodes) {
      if (n.nodeType === 3) out += n.nodeValue ?? ''
      else if (n.nodeType === 1) out += deepText(n as Element)
    }
  }
  from(el)
  if (el.shadowRoot) from(el.shadowRoot)
  return out
}

function visible(r: DOMRect | null): r is DOMRect {
  return !!r && r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight
}

/** When (epoch ms) the picture an element shows began to load, or null when Ava cannot tell. */
function loadedAt(src: string): number | null {
  if (!src) return null
  if (/^(data|blob):/i.test(src)) return null
  const entry = performance.getEntriesByName(src)[0]
  return entry ? performance.timeOrigin + entry.startTime : null
}

/**
 * The secret drawings of this document. `hide`: the values to look for; `since`: when a secret was
 * first typed in this tab (epoch ms), if the background knows of one.
 */
export function secretDrawings(hide: readonly string[], since?: number): SecretDrawings {
  const covers: Element[] = []
  const unsure = new Set<string>()
  const own = firstSecretTypedAt()
  const typedAt = Math.min(since ?? Infinity, own === undefined ? Infinity : performance.timeOrigin + own)

  if (hide.length && document.body && holdsAny(deepText(document.documentElement), hide)) {
    let walked = 0
    // The smallest elements holding an echo: a secret split over spans is held by their parent.
    const cover = (el: Element): boolean => {
      if (++walked > kMaxWalk) {
        unsure.add('too_large')
        return true
      }
      if (!holdsAny(deepText(el), hide)) return false
      let inner = false
      for (const child of childrenOf(el)) if (cover(child)) inner = true
      if (!inner) covers.push(el)
      return true
    }
    cover(document.body)
  }
  if (hide.length) {
    for (const field of deepQuerySelectorAll('input, textarea, select')) {
      const f = field as HTMLInputElement | HTMLSelectElement
      const shown =
        f.localName === 'select'
          ? [...(f as HTMLSelectElement).selectedOptions].map((o) => o.text).join(' ')
          : (f.value ?? '')
      if (!holdsAny(shown, hide) && !holdsAny(f.getAttribute('placeholder') ?? '', hide)) continue
      covers.push(field)
    }
  }

  if (typedAt !== Infinity) {
    const big = (el: Element) => {
      const r = el.getBoundingClientRect()
      return visible(r) && r.width >= kMinDrawPx && r.height >= kMinDrawPx
    }
    // A canvas can be drawn on at any moment, and what it shows is pixels Ava cannot read.
    if (deepQuerySelectorAll('canvas').some(big)) unsure.add('canvas')
    if (deepQuerySelectorAll('video').some(big)) unsure.add('video')
    const late = (el: Element) => {
      const src =
        (el as HTMLImageElement).currentSrc ||
        el.getAttribute('src') ||
        el.getAttribute('href') ||
        el.getAttribute('xlink:href') ||
        el.getAttribute('data') ||
        ''
      let url: string
      try {
        url = new URL(src, el.ownerDocument.baseURI).href
      } catch {
        return true
      }
      const at = loadedAt(url)
      return at === null || at >= typedAt
    }
    if (deepQuerySelectorAll('img, svg image, object, embed, input[type=image]').some((el) => big(el) && late(el)))
      unsure.add('image')
  }
  return { covers, unsure: [...unsure] }
}
