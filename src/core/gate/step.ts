/**
 * The one question loop every step passes, whatever wrote it (the model's step in run.ts, a pack's
 * and a flow's in core/page/channel.ts, an MCP client's in the extension and in `ava mcp`), so the
 * same page in the same state gets the same answer: the page judges the element it will act on
 * (src/dom/page/receiver.ts) and refuses a risky one with NEEDS_CONFIRMATION and a handle; the
 * person is asked; a yes goes again bound to that handle (the page acts on that element only, or
 * asks again when it changed); a no ends the step. Counting is the vocabulary's one rule
 * (`countsAsStep`, src/core/vocabulary.ts), asked before a step is sent.
 */
import type { ExecFailure } from '../exec'
import type { PageOutcome } from '../page/command'

/** Questions about one step: the first, then one each time its element changed after a yes (docs/architecture.md, the step pipeline). */
export const kMaxStepQuestions = 3

/** What the person answers a question with; `asked`: how many questions of this step came before. */
export type Decide = (question: ExecFailure, asked: number) => Promise<boolean>

/** The send of one step: again after a yes, bound to the element the question showed. */
export type SendStep<T> = (yes?: { bound?: string }) => Promise<T>

/**
 * Sends a step, and while the page asks, asks the person. `declined`: the question they said no
 * to (nothing was done). After `kMaxStepQuestions` the page's last refusal is the answer: an
 * element that keeps changing under the question is not acted on.
 */
export async function askUntilDecided<T>(send: SendStep<T>, questionOf: (out: T) => ExecFailure | null, decide: Decide): Promise<{ out: T; declined?: ExecFailure }> {
  let out = await send()
  for (let asked = 0; asked < kMaxStepQuestions; asked++) {
    const question = questionOf(out)
    if (!question) break
    if (!(await decide(question, asked))) return { out, declined: question }
    out = await send({ bound: question.handle })
  }
  return { out }
}

/** The question an answer of the page holds: an `act` refused, or a flow step whose outcome was. */
export function questionOf(out: PageOutcome<'act'> | PageOutcome<'flow.step'>): ExecFailure | null {
  if (!out.ok) return out.code === 'NEEDS_CONFIRMATION' ? out : null
  if (!('outcome' in out) || out.outcome.ok || out.outcome.code !== 'NEEDS_CONFIRMATION') return null
  const r = out.outcome
  return { ok: false, code: 'NEEDS_CONFIRMATION', message: r.message, offsite: r.offsite, category: r.category, ask: r.ask, ...r.question }
}
