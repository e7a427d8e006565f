/**
 * The run hands the page to the person (docs/agent.md, "Taking over"): on Pause, on a code or
 * CAPTCHA only they can answer, or when a step would type a code they did not give (the guard's
 * rule: core/gate/challenge.ts). What they changed meanwhile is told to the model by takeover.ts.
 */
import { compactPage, type AnswerReport, type PageContext } from './prompt'
import type { Challenge } from '../page/challenge'
import { personHasCode } from '../gate/challenge'
import { pageSeen, type TakeoverReason, type TakeoverReport } from './takeover'
import { type Run, compact, unechoed } from './context'
import { awaitAnswer } from './ask'

/** Whether the page's challenge is offered to the person on its own: once per page, and not when the person gave a code. */
export function offersTakeover(run: Run, page: PageContext): boolean {
  const key = `${page.challenge!.kind} ${page.url.split(/[?#]/)[0]}`
  if (run.state.handedOver?.includes(key)) return false
  // A code the person gave (core/gate/challenge.ts): the model may type it.
  if (page.challenge!.kind === 'code' && personHasCode(run.personWords)) return false
  ;(run.state.handedOver ??= []).push(key)
  return true
}

/** What the model is told of a code field or CAPTCHA known only by its words: Ava's sentence, no page text in it. */
export function challengeNote(c: Challenge): string {
  return c.kind === 'captcha'
    ? 'Ava sees a CAPTCHA on this page: only the person solves it. Do not try; if the task needs it, write ask so they can do it themselves.'
    : 'Ava sees a one-time code field on this page: a code sent to the person, which only they have. Never type a code the person did not give you; if the task needs it, write ask so they can enter it themselves.'
}

/**
 * Hands the page to the person (docs/agent.md, "Taking over"): a card says Ava is waiting, with
 * Resume and Stop; the run waits (status `waiting`) as for an `ask`, across navigations and a
 * worker restart, then goes on with what changed meanwhile. Rejects when the run is stopped.
 */
export async function takeOver(
  run: Run,
  reason: TakeoverReason,
  extra: Partial<Pick<TakeoverReport, 'pausedBefore' | 'question' | 'challenge'>> & { page?: PageContext },
): Promise<AnswerReport> {
  const { state, ports, signal } = run
  if (reason === 'paused') run.pause?.clear()
  let now = extra.page
  if (!now) {
    const read = await unechoed(run, await ports.page.read(state.tabId, state.request, { signal }))
    now = compact(run) ? compactPage(read) : read
  }
  const english =
    reason === 'paused'
      ? 'Paused. The page is yours; press Resume when Ava should go on.'
      : reason === 'asked'
        ? 'Ava is waiting while you do it on the page yourself; press Resume when you are done.'
        : extra.challenge === 'captcha'
          ? 'The page shows a CAPTCHA. Solve it yourself, then press Resume.'
          : 'The page asks for a one-time code. Type it yourself, then press Resume.'
  const step = run.steps.length
  const card = await ports.chat.add({
    role: 'system',
    kind: 'ask',
    text: english,
    ask: {
      runId: state.id,
      step,
      question: extra.question ?? '',
      state: 'pending',
      messageId: state.messageId,
      takeover: reason,
      ...(extra.challenge ? { challenge: extra.challenge } : {}),
    },
  })
  state.pendingAsk = {
    cardId: card.id,
    step,
    question: extra.question ?? '',
    takeover: {
      reason,
      before: pageSeen(now),
      ...(extra.pausedBefore ? { pausedBefore: extra.pausedBefore } : {}),
      ...(extra.challenge ? { challenge: extra.challenge } : {}),
    },
  }
  state.noCache = true // what the person did by hand is no plan to replay
  run.asks++
  return awaitAnswer(run, state.pendingAsk)
}
