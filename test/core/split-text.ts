/** `text` cut at `cuts` (taken modulo its length, deduplicated), as a stream might deliver it. */
export function splitAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let prev = 0
  for (const p of points) {
    out.push(text.slice(prev, p))
    prev = p
  }
  out.push(text.slice(prev))
  return out
}
