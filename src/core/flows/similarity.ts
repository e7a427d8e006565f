import type { ElementSnapshot } from './schema'

/**
 * How much an element found at replay looks like the one recorded (its element_snapshot):
 * tag, role, text and key attributes. A selector that still matches but now
 * points at another kind of thing — a link where a button was, "Delete" where "Save" was — is
 * refused rather than acted on.
 */

/** Below this a match is "another element" (calibrated in test/flows/similarity.test.ts). */
export const kMinSimilarity = 0.6
/** Texts this different name different things, whatever else agrees. */
const kMinTextSimilarity = 0.5

/** Attributes that say what an element is for; ids and classes say where it is and change with builds. */
export const kKeyAttributes = [
  'name',
  'type',
  'placeholder',
  'aria-label',
  'href',
  'data-testid',
  'title',
  'for',
  'alt',
] as const

/** Tags that play the same part, so a redesign swapping one for another is not a different element. */
const kTagFamilies: string[][] = [
  ['button', 'a', 'input', 'div', 'span'], // clickables (with the same role, checked below)
  ['input', 'textarea'],
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
]

export function normalizeText(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase()
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>()
  const padded = ` ${s} `
  for (let i = 0; i < padded.length - 1; i++) {
    const g = padded.slice(i, i + 2)
    m.set(g, (m.get(g) ?? 0) + 1)
  }
  return m
}

/** Sørensen–Dice on character bigrams: 1 for equal texts, 0 for nothing in common; works for CJK. */
export function textSimilarity(a: string | undefined, b: string | undefined): number {
  const x = normalizeText(a)
  const y = normalizeText(b)
  if (x === y) return 1
  if (!x || !y) return 0
  const bx = bigrams(x)
  const by = bigrams(y)
  let common = 0
  let total = 0
  for (const n of bx.values()) total += n
  for (const n of by.values()) total += n
  for (const [g, n] of bx) common += Math.min(n, by.get(g) ?? 0)
  return (2 * common) / total
}

function tagScore(a: string, b: string, sameRole: boolean): number {
  if (a === b) return 1
  if (sameRole && kTagFamilies.some((f) => f.includes(a) && f.includes(b))) return 0.7
  return 0
}

export interface Similarity {
  score: number
  /** Why it is low, for the failure message: "text "Delete" ≠ "Save"". */
  reasons: string[]
}

/** Compares a live element's snapshot with the recorded one; 1 is identical. */
export function similarity(recorded: ElementSnapshot, live: ElementSnapshot): Similarity {
  const reasons: string[] = []
  const parts: [number, number][] = [] // [weight, score]
  const sameRole = !recorded.role || !live.role || recorded.role === live.role
  const tag = tagScore(recorded.tag, live.tag, sameRole && !!recorded.role)
  parts.push([0.25, tag])
  if (tag < 1) reasons.push(`tag <${live.tag}> where <${recorded.tag}> was`)
  if (recorded.role && live.role) {
    parts.push([0.2, recorded.role === live.role ? 1 : 0])
    if (recorded.role !== live.role) reasons.push(`role ${live.role} where ${recorded.role} was`)
  }
  let textHard = false
  if (recorded.text || live.text) {
    const t = textSimilarity(recorded.text, live.text)
    parts.push([0.35, t])
    if (t < 1)
      reasons.push(`text "${(live.text ?? '').slice(0, 40)}" where "${(recorded.text ?? '').slice(0, 40)}" was`)
    textHard = !!recorded.text && t < kMinTextSimilarity
  }
  const keys = kKeyAttributes.filter((k) => recorded.attributes[k] !== undefined || live.attributes[k] !== undefined)
  if (keys.length) {
    const same = keys.filter((k) => recorded.attributes[k] === live.attributes[k]).length
    parts.push([0.2, same / keys.length])
    for (const k of keys)
      if (recorded.attributes[k] !== live.attributes[k])
        reasons.push(`${k}="${live.attributes[k] ?? ''}" where "${recorded.attributes[k] ?? ''}" was`)
  }
  const weight = parts.reduce((s, [w]) => s + w, 0)
  let score = parts.reduce((s, [w, v]) => s + w * v, 0) / weight
  // A different role or a different label is a different control, however the rest agrees.
  if (!sameRole || textHard || tag === 0) score = Math.min(score, kMinSimilarity - 0.01)
  return { score: Math.round(score * 1000) / 1000, reasons }
}

/** FNV-1a, 32 bits, as 8 hex digits: the `index` level's context hash. */
export function contextHash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(16).padStart(8, '0')
}
