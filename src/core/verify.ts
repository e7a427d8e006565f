/**
 * Keyword verification: the planner quotes the words that must be on the page,
 * and the page's own text is checked for them — tens of milliseconds instead of an AI call.
 */
const kQuoted = /"([^"]+)"|“([^”]+)”|「([^」]+)」|'([^']{2,})'/g

/** The quoted keywords of an assertion; an assertion with no quotes is taken whole. */
export function extractKeywords(assertion: string): string[] {
  const out: string[] = []
  for (const m of assertion.matchAll(kQuoted)) {
    const k = (m[1] ?? m[2] ?? m[3] ?? m[4]).trim()
    if (k) out.push(k)
  }
  if (out.length === 0 && assertion.trim()) out.push(assertion.trim())
  return out
}

/** Whitespace-insensitive, case-insensitive containment, so line breaks in the page don't matter. */
export function normaliseText(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase()
}

export function missingKeywords(keywords: string[], pageText: string): string[] {
  const hay = normaliseText(pageText)
  return keywords.filter((k) => !hay.includes(normaliseText(k)))
}
