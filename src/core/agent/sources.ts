/**
 * What a run read, kept as it reads it, so its answer can be checked against it when it ends
 * (src/core/answer/grounding.ts; docs/sourced-answers.md). Held in the
 * run's memory: a run resumed after a worker restart checks its answer against what it read
 * since, so more of it may be flagged, never less.
 */
import type { Claim, CheckedAnswer } from '../answer/grounding'
import type { CollectedItem } from '../page/collect'
import { checkAnswer } from '../answer/grounding'
import type { PageContext } from './prompt'

export interface Reading {
  texts: string[]
  /** Items each collect step gathered, by its 1-based step number, as the prompt numbers them. */
  items: Map<number, number>
  /** The collected items themselves, for the rows of an asked shape (extraction.ts). */
  gathered: CollectedItem[]
}

export function newReading(request: string): Reading {
  // The person's own request counts as read: "orders over ¥500" may say 500 in the answer.
  return { texts: [request], items: new Map(), gathered: [] }
}

export function readPage(r: Reading, page: PageContext): void {
  r.texts.push(page.title, page.url, page.listing)
}

export function readItems(
  r: Reading,
  stepIndex: number,
  items: readonly string[],
  gathered: readonly CollectedItem[],
): void {
  r.texts.push(...items)
  r.gathered.push(...gathered)
  r.items.set(stepIndex + 1, items.length)
}

/** The answer's marks for the panel, or nothing when it has neither claims nor anything unread. */
export function groundingOf(r: Reading, answer: string, claims: readonly Claim[] = []): CheckedAnswer | undefined {
  const checked = checkAnswer(answer, claims, r)
  return checked.claims.length || checked.unread.length ? checked : undefined
}
