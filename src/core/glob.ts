/**
 * Glob matching for patterns that come from packs, flows and the model: `*` is any
 * run of characters, `?` exactly one, everything else itself. Never compiled to a RegExp: a
 * backtracking RegExp built from `*a*a*a…*!` froze the page for 20 s on a 60-character URL.
 *
 * The classic greedy two-pointer walk: on a mismatch it resumes just after the last `*`, one
 * character further into the text. Only the last `*` is ever revisited, so the cost is at most
 * (text length + 1) × (pattern length + 1) comparisons, whatever the input.
 */
export function globMatch(pattern: string, text: string): boolean {
  const m = pattern.length
  const n = text.length
  let p = 0
  let t = 0
  /** Index of the last `*` seen in the pattern, or -1. */
  let star = -1
  /** Where in the text that `*`'s current match ends. */
  let mark = 0
  while (t < n) {
    const c = p < m ? pattern[p] : undefined
    if (c === '*') {
      star = p++
      mark = t
    } else if (c !== undefined && (c === '?' || c === text[t])) {
      p++
      t++
    } else if (star >= 0) {
      // Let the last `*` swallow one more character and retry the rest of the pattern from there.
      p = star + 1
      t = ++mark
    } else {
      return false
    }
  }
  while (p < m && pattern[p] === '*') p++
  return p === m
}

/**
 * A URL condition: a pattern with `*` must match the whole URL (its
 * `?` then stands for one character, a literal `?` included); one without is a substring of it,
 * so `/search?q=` keeps meaning the query string.
 */
export function urlMatches(url: string, pattern: string): boolean {
  if (!pattern.includes('*')) return url.includes(pattern)
  return globMatch(pattern, url)
}
