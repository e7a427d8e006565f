/**
 * A short fingerprint of what the page shows after a step: its address, its text, the values and
 * states of its controls (a spinner's number, a slider's position, a checked box, an open menu).
 * The loop guard (src/core/agent/guards.ts) compares the fingerprints after repeated clicks and
 * keys: "Up" pressed five times on a spinner shows five different pages and is progress; a
 * toggle clicked back and forth shows the same page again and is a loop.
 */
import { searchRoots } from '../locators'

/** Text read per document: enough to tell pages apart, bounded on a huge one. */
const kMaxTextChars = 400_000
/** Control states a click or key can change without touching text. */
const kStateful =
  'input, select, textarea, [aria-valuenow], [aria-valuetext], [aria-checked], [aria-selected], [aria-expanded], [aria-pressed], [aria-current], [open]'

/** FNV-1a over UTF-16 code units, as 8 hex digits. */
function fnv(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

export function pageDigest(doc: Document = document): string {
  let h = fnv(doc.location?.href ?? '')
  for (const root of searchRoots(doc)) {
    const text = (root.nodeType === 9 ? (root as Document).body?.textContent : root.textContent) ?? ''
    h = fnv(text.length > kMaxTextChars ? text.slice(0, kMaxTextChars) : text, h)
    for (const el of (root as ParentNode).querySelectorAll(kStateful)) {
      const v = (el as HTMLInputElement).value
      const state = `${typeof v === 'string' ? v : ''}|${(el as HTMLInputElement).checked ?? ''}|${el.getAttribute('aria-valuenow') ?? ''}|${el.getAttribute('aria-valuetext') ?? ''}|${el.getAttribute('aria-checked') ?? ''}|${el.getAttribute('aria-selected') ?? ''}|${el.getAttribute('aria-expanded') ?? ''}|${el.getAttribute('aria-pressed') ?? ''}|${el.getAttribute('aria-current') ?? ''}|${el.hasAttribute('open')}`
      h = fnv(state, h)
    }
  }
  return h.toString(16).padStart(8, '0')
}
