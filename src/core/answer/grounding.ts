/**
 * Whether an answer says only what the run read (docs/sourced-answers.md): each claim the model lists names the listing ids or collected items it came from,
 * and every number and proper name in the answer is looked for in everything the run read — the
 * pages' listings, the collected items, the person's own request. What is found nowhere is
 * flagged for the person; nothing is removed or rewritten.
 */
import { numbersIn } from './numbers'

/** A claim as the model wrote it in its `done` answer. */
export interface Claim {
  text: string
  /** Listing ids (`link_order_2`) or collected items (`2.5`: step 2, item 5). */
  sources?: string[]
}

export type SourceKind = 'element' | 'item'

export interface ClaimSource {
  ref: string
  kind: SourceKind
  /** Whether the run read it: an id that was in a listing, an item a collect step gathered. */
  read: boolean
}

export interface CheckedClaim {
  text: string
  sources: ClaimSource[]
  /** `sourced`: at least one source the run read; `unsourced`: none named; `unknown`: only sources nobody read. */
  status: 'sourced' | 'unsourced' | 'unknown'
}

export interface Unread {
  kind: 'number' | 'name'
  /** As the answer writes it. */
  text: string
}

/** What the run read, for the check: page text as it was shown to the model. */
export interface RunReading {
  /** Every listing and collected item text the model was shown, and the person's request. */
  texts: readonly string[]
  /** How many items each collect step gathered, by its 1-based step number. */
  items?: ReadonlyMap<number, number>
}

export interface CheckedAnswer {
  claims: CheckedClaim[]
  unread: Unread[]
}

const kItemRef = /^(\d+)\.(\d+)$/

/** Names at most this long are looked for; past it a "name" is a sentence the pattern misread. */
const kMaxNameWords = 5

/** Sentence-opening words and pronouns that are capitalised without being names. */
const kNotNames = new Set(['i', 'a', 'an', 'the', 'ok', 'yes', 'no'])

export function checkAnswer(answer: string, claims: readonly Claim[], reading: RunReading): CheckedAnswer {
  const corpus = comparable(reading.texts.join('\n'))
  const known = new Set(reading.texts.flatMap((t) => numbersIn(t).map((n) => n.value)))
  const unread: Unread[] = []
  const said = new Set<string>()
  const flag = (u: Unread) => {
    const key = `${u.kind}:${u.text}`
    if (said.has(key)) return
    said.add(key)
    unread.push(u)
  }
  const prose = withoutMarkup(answer)
  for (const n of numbersIn(prose)) if (!known.has(n.value)) flag({ kind: 'number', text: n.raw })
  for (const name of namesIn(prose)) if (!corpus.includes(comparable(name))) flag({ kind: 'name', text: name })
  return { claims: claims.map((c) => checkClaim(c, corpus, reading)), unread }
}

function checkClaim(claim: Claim, corpus: string, reading: RunReading): CheckedClaim {
  const sources = (claim.sources ?? [])
    .map((s) => s.trim())
    .filter(Boolean)
    .map((ref): ClaimSource => {
      const item = kItemRef.exec(ref)
      if (item) {
        const count = reading.items?.get(Number(item[1])) ?? 0
        return { ref, kind: 'item', read: Number(item[2]) >= 1 && Number(item[2]) <= count }
      }
      return { ref, kind: 'element', read: idWasListed(ref, corpus) }
    })
  const status = !sources.length ? 'unsourced' : sources.some((s) => s.read) ? 'sourced' : 'unknown'
  return { text: claim.text, sources, status }
}

/**
 * An id the listing showed: written out in full, or as a keyed row writes it (`2: btn_edit_`
 * for `btn_edit_near_2`, docs/page-representation.md).
 */
function idWasListed(id: string, corpus: string): boolean {
  const c = comparable(id)
  if (!/^[\p{L}\p{N}_-]+$/u.test(c)) return false
  const whole = new RegExp(`(^|[^\\p{L}\\p{N}_])${escape(c)}($|[^\\p{L}\\p{N}_])`, 'u')
  if (whole.test(corpus)) return true
  const keyed = /^(.*_)near_(.+)$/u.exec(c)
  if (!keyed) return false
  // The key may be followed by the row's text in quotes: `20 "blue mug ¥20": btn_add_to_cart_`.
  return new RegExp(
    `(^|\\n)\\s*${escape(keyed[2])}(?: "[^"\\n]*")?: [^\\n]*\\b${escape(keyed[1])}(\\s|=|$)`,
    'mu',
  ).test(corpus)
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Case, width and spacing do not make two texts different; lines stay lines (a keyed row is one). */
function comparable(s: string): string {
  return s
    .normalize('NFKC')
    .toLocaleLowerCase('en')
    .replace(/[^\S\n]+/g, ' ')
}

/** The answer's words without markdown's own: links' targets, code fences, list numbers. */
function withoutMarkup(md: string): string {
  return md
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/^\s*(\d+)[.)]\s/gm, ' ')
    .replace(/[*_`#>|]/g, ' ')
}

/**
 * Proper names in English-style text: runs of capitalised words. A run that opens a sentence
 * loses its first word (any sentence starts with a capital), so "Acme Kettle costs" yields
 * "Kettle", and "Yes." nothing. Chinese names have no such mark and are not looked for.
 */
export function namesIn(text: string): string[] {
  const out: string[] = []
  for (const sentence of text.split(/(?<=[.!?。！？:：;；])\s+|\n+/u)) {
    const words = sentence.split(/[\s,()"“”'‘’\u3000-\u303f\uff0c]+/u).filter(Boolean)
    let run: string[] = []
    const end = () => {
      if (run.length && run.length <= kMaxNameWords) out.push(run.join(' '))
      run = []
    }
    words.forEach((w, i) => {
      const word = w.replace(/[.!?;:]+$/u, '')
      const capital = /^\p{Lu}[\p{L}\p{M}\p{N}&'’-]*$/u.test(word) && !kNotNames.has(word.toLowerCase())
      if (capital && i > 0) run.push(word)
      else end()
    })
    end()
  }
  return out
}
