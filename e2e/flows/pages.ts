/**
 * Variants of the component fixture app's plain page (e2e/fixtures/components/plain.html) served
 * by the fixture server: the same app after a redesign, with its target made ambiguous, or with
 * it removed. Each variant is a text transformation of the page as shipped, so the app's own
 * scripts keep working.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fixturesDir } from '../executor/server'

export function plainHtml(): string {
  return readFileSync(resolve(fixturesDir, 'plain.html'), 'utf8')
}

/** Regenerated ids (labels and scripts follow), renamed classes, a wrapper, Save moved out of the form. */
export function redesigned(html = plainHtml()): string {
  const ids = [...new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]))]
  let out = html
  ids.forEach((id, i) => {
    const fresh = `el-id-${1024 + i * 7}-${i + 3}`
    out = out
      .replaceAll(`id="${id}"`, `id="${fresh}"`)
      .replaceAll(`for="${id}"`, `for="${fresh}"`)
      .replaceAll(`getElementById('${id}')`, `getElementById('${fresh}')`)
      .replace(new RegExp(`#${id}\\b(?=[^"]*[{,])`, 'g'), `#${fresh}`)
  })
  for (const cls of ['modal-mask', 'spacer'])
    out = out
      .replaceAll(`.${cls}`, `.x-${cls}-v2`)
      .replaceAll(`class="${cls}`, `class="x-${cls}-v2`)
      .replaceAll(`'.${cls}'`, `'.x-${cls}-v2'`)
  const save = /\s*<button type="button" id="[^"]+" onclick="__state\.saved\+\+[^\n]*<\/button>/.exec(out)
  if (!save) throw new Error('plain.html changed: no Save button to move')
  out = out.replace(save[0], '')
  out = out.replace(/<form id="([^"]+)"/, '<div class="layout-v2"><section class="card-v2"><form id="$1"')
  out = out.replace('</form>', `</form></section><div class="toolbar-v2">${save[0].trim()}</div></div>`)
  return out
}

/** A second Save button, identical to the first, next to it. */
export function ambiguous(html = plainHtml()): string {
  const save = /<button type="button" id="save"[^\n]*<\/button>/.exec(html)
  if (!save) throw new Error('plain.html changed: no Save button')
  return html.replace(save[0], `${save[0]}\n  ${save[0].replace('id="save"', 'id="save-copy"')}`)
}

/** The Save button gone. */
export function withoutSave(html = plainHtml()): string {
  return html.replace(/<button type="button" id="save"[^\n]*<\/button>/, '')
}
