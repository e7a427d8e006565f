/** Text helpers shared by the scanner, the id maker and the serialiser. */

/** Longest text kept for an element's text, label, value and context. */
export const kTextMax = 50
/** Longest label part of a semantic id; longer labels still show in full in the listing. */
export const kIdTextMax = 24

const kSpaces = /\s+/g

/** Collapses runs of whitespace to one space and trims. */
export function normalizeText(text: string): string {
  return text.replace(kSpaces, ' ').trim()
}

/**
 * Cuts `text` to at most `max` characters, counting UTF-16 code units as `String.length` does, so
 * that a text longer than 50 comes back with length exactly 50. A surrogate
 * pair that would be split at the cut is dropped whole and replaced by U+2026 so the result stays
 * well-formed and still exactly `max` long.
 */
export function truncate(text: string, max = kTextMax): string {
  if (text.length <= max) return text
  const last = text.charCodeAt(max - 1)
  if (last >= 0xd800 && last <= 0xdbff) return text.slice(0, max - 1) + '\u2026'
  return text.slice(0, max)
}

/** `normalizeText` then `truncate`: the form every text field of a record takes. */
export function clip(text: string | null | undefined, max = kTextMax): string {
  return text ? truncate(normalizeText(text), max) : ''
}

const kNotIdChar = /[^\p{L}\p{N}_-]+/gu
/**
 * Labels remembered per length limit: a page repeats the same few labels (every row's "Edit")
 * and rescans repeat them all, while each slug costs a handful of regex passes.
 */
const kSlugCacheSize = 10_000
/** Longer labels are made afresh rather than kept alive by the cache. */
const kSlugCacheKeyMax = 200
const slugCache = new Map<number, Map<string, string>>()

/**
 * Turns a label into the label part of a semantic id: `了解 更多!` → `了解_更多`, `Sign In` →
 * `sign_in`. Lower case because ids are snake_case and because BPE tokenizers split capitalised
 * short words (`_Buy` is two tokens, `_buy` one).
 */
export function slug(text: string, max = kIdTextMax): string {
  if (text.length > kSlugCacheKeyMax) return makeSlug(text, max)
  let cache = slugCache.get(max)
  if (!cache) slugCache.set(max, (cache = new Map()))
  let out = cache.get(text)
  if (out === undefined) {
    if (cache.size >= kSlugCacheSize) cache.clear()
    out = makeSlug(text, max)
    cache.set(text, out)
  }
  return out
}

function makeSlug(text: string, max: number): string {
  const s = normalizeText(text).toLowerCase().replace(kNotIdChar, '_').replace(/_+/g, '_').replace(/^_|_$/g, '')
  // No more code units than `max` means no more code points either: nothing to cut.
  const cut = s.length <= max ? s : Array.from(s).slice(0, max).join('')
  return cut.replace(/_$/, '')
}
