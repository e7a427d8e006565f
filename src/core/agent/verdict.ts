/**
 * The verdict at the end of a run (docs/run-record.md, "The verdict"): whether what was asked is
 * done, and what on the page shows it. A model's `done` is a claim; it is reported as success only
 * with evidence: a verify step that passed after the last step that acted, words the answer quotes
 * found on the page by the keyword verifier (core/verify.ts, run in the page as a `verify` step), or
 * a `done` the model wrote with the page after its last action in front of it. A `done` written in
 * the same reply as the actions it claims succeeded, before the model could see their effect, with
 * nothing checked, is `unverified`: not a success.
 */
import type { Verdict } from './record'

/** Quotes an answer cites the page with: straight and curly double quotes, CJK corner brackets (not apostrophes: "can't … user's"). */
const kAnswerQuote = /"([^"\n]{2,200})"|“([^”\n]{2,200})”|「([^」\n]{2,200})」/g

/** The words an answer quotes, as the evidence it claims is on the page. */
export function quotedEvidence(answer: string): string[] {
  const out: string[] = []
  for (const m of answer.matchAll(kAnswerQuote)) {
    const k = (m[1] ?? m[2] ?? m[3]).trim()
    if (k && !out.includes(k)) out.push(k)
  }
  return out
}

export interface VerdictFacts {
  /** The run ended with the model's `done` (anything else is not done). */
  answered: boolean
  /** A step acted on the page (a click, a typed value, a navigation…) in this run. */
  acted: boolean
  /** A verify step passed after the last step that acted: its words. */
  verified?: string[]
  /** The `done` came in a reply in which no step acted: the model had the page after its actions in front of it. */
  sawResult: boolean
  /** The answer's quoted words, checked on the page: those the verifier did not find. */
  quoted?: { words: string[]; missing: string[] }
  url?: string
  /** The element the last acting step acted on, as drawn or described. */
  element?: string
}

export function verdictOf(f: VerdictFacts): Verdict {
  const at = { ...(f.url ? { url: f.url } : {}), ...(f.element ? { element: f.element } : {}) }
  if (!f.answered) return { done: false, kind: 'not-done' }
  if (!f.acted) return { done: true, kind: 'answered', evidence: at }
  if (f.verified?.length) return { done: true, kind: 'verified', evidence: { text: f.verified, ...at } }
  if (f.quoted?.words.length) {
    if (!f.quoted.missing.length) return { done: true, kind: 'verified', evidence: { text: f.quoted.words, ...at } }
    return { done: false, kind: 'unverified', missing: f.quoted.missing, evidence: at }
  }
  if (f.sawResult) return { done: true, kind: 'judged', evidence: at }
  return { done: false, kind: 'unverified', evidence: at }
}
