/**
 * Relevance of each element to what the person asked, in any language: Latin words and numbers
 * match whole words (plural `s` folded), Chinese, Japanese and Korean match by character bigrams,
 * and every term is weighted by how rare it is on the page (inverse document frequency), so
 * "delete order 742" ranks row 742's delete button above the 999 other delete buttons.
 */
import type { ElementRecord } from './snapshot'

/** Words that carry no intent in a request. */
const kStopWords = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'in',
  'on',
  'at',
  'for',
  'and',
  'or',
  'with',
  'by',
  'from',
  'is',
  'it',
  'this',
  'that',
  'me',
  'my',
  'i',
  'you',
  'please',
  'pls',
  'can',
  'could',
  'would',
  'want',
  'need',
  'some',
  'all',
  'then',
  'be',
  '请',
  '的',
  '了',
  '把',
  '一下',
  '帮我',
])
/** A term found in the element's own label or id counts fully; in its row's text, this much. */
const kContextWeight = 0.7

const kCjk = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/
const kSplit = /[^\p{L}\p{N}]+/u

function fold(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word
}

/** Search terms of a text: folded words, numbers, CJK bigrams (single CJK characters alone). */
export function terms(text: string): string[] {
  const out: string[] = []
  for (const raw of text.toLowerCase().split(kSplit)) {
    if (!raw) continue
    let latin = ''
    let cjk = ''
    const flush = () => {
      if (latin && (latin.length > 1 || /\d/.test(latin)) && !kStopWords.has(latin)) out.push(fold(latin))
      latin = ''
      if (cjk) {
        if (cjk.length === 1) {
          if (!kStopWords.has(cjk)) out.push(cjk)
        } else for (let i = 0; i + 1 < cjk.length; i++) out.push(cjk.slice(i, i + 2))
      }
      cjk = ''
    }
    for (const ch of raw) {
      if (kCjk.test(ch)) {
        if (latin) flush()
        cjk += ch
      } else {
        if (cjk) flush()
        latin += ch
      }
    }
    flush()
  }
  return out
}

/** Relevance of every element to `request`, from 0 (nothing in common) to 1 (the best match). */
export function relevance(elements: ElementRecord[], request: string | undefined): Float64Array {
  const scores = new Float64Array(elements.length)
  if (!request) return scores
  const wanted = [...new Set(terms(request))]
  if (!wanted.length) return scores
  const own: Set<string>[] = []
  const near: Set<string>[] = []
  const df = new Map<string, number>()
  for (const e of elements) {
    const o = new Set(
      terms(
        `${e.label} ${e.id.replace(/_/g, ' ')} ${e.attrs.placeholder ?? ''} ${e.attrs.name ?? ''} ${e.state.value ?? ''}`,
      ),
    )
    const c = new Set(e.context ? terms(e.context) : [])
    own.push(o)
    near.push(c)
    for (const t of wanted) if (o.has(t) || c.has(t)) df.set(t, (df.get(t) ?? 0) + 1)
  }
  const n = elements.length
  const idf = new Map(wanted.map((t) => [t, Math.log(1 + n / Math.max(1, df.get(t) ?? 0))]))
  let best = 0
  for (let i = 0; i < n; i++) {
    let s = 0
    for (const t of wanted) {
      if (own[i].has(t)) s += idf.get(t)!
      else if (near[i].has(t)) s += kContextWeight * idf.get(t)!
    }
    scores[i] = s
    if (s > best) best = s
  }
  if (best > 0) for (let i = 0; i < n; i++) scores[i] /= best
  return scores
}
