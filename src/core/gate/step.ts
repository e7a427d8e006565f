/**
 * The one question loop every step passes, whatever wrote it (the model's step in run.ts, a pack's
 * and a flow's in core/page/channel.ts, an MCP client's in the extension and in `ava mcp`), so the
 * same page in the same state gets the same answer: the page judges the element it will act on
 * (src/dom/page/receiver.ts) and refuses a risky one with NEEDS_CONFIRMATION and a handle; the
 * person is asked; a yes goes again bound to that handle (the page acts on that element only, or
 * asks again when it changed); a no ends the step. Counting is the vocabulary's one rule
 * (`countsAsStep`, src/core/vocabulary.ts), kept by the step guard (core/gate/guard.ts).
 */
import type { ExecFailure } from '../exec'
import type { PageOutcome } from '../page/command'

/** Questions about one step: the first, then one each time its element changed after a yes (docs/architecture.md, the step pipeline). */
export const kMaxStepQuestions = 3

/**
 * An answer to a question. `true`: yes. `false`: the person said no. `{ unattended }`: nobody is
 * there to ask and nothing allowed it; `unattended` names what would (`--allow credentials`,
 * `--yes`, a setting), so the refusal can say it.
 */
export type Answer = boolean | { unattended: string }

/** What the person (or the door's standing answer) says to a question; `asked`: how many questions of this step came before. */
export type Decide = (question: ExecFailure, asked: number) => Promise<Answer>

/** A yes sends the command again with these: confirmed, and bound to the element the question showed. */
export interface Confirmation {
  confirmed?: boolean
  bound?: string
}

/** The command again after a yes: confirmed, bound to the element the question showed (its handle). */
export function confirmedCommand<C extends object>(command: C, question: ExecFailure): C & Confirmation {
  return { ...command, confirmed: true, ...(question.handle ? { bound: question.handle } : {}) }
}

/**
 * Sends a step's command, and while the page asks, asks. `declined`: the question that got a no
 * (nothing was done), with `answer`, who said it. After `kMaxStepQuestions` the page's last
 * refusal is the answer: an element that keeps changing under the question is not acted on.
 */
export async function askUntilDecided<C extends object, T>(
  command: C,
  send: (command: C | (C & Confirmation)) => Promise<T>,
  questionOf: (out: T) => ExecFailure | null,
  decide: Decide,
): Promise<{ out: T; declined?: ExecFailure; answer?: Exclude<Answer, true> }> {
  let out = await send(command)
  for (let asked = 0; asked < kMaxStepQuestions; asked++) {
    const question = questionOf(out)
    if (!question) break
    const answer = await decide(question, asked)
    if (answer !== true) return { out, declined: question, answer }
    out = await send(confirmedCommand(command, question))
  }
  return { out }
}

/** The question an answer of the page holds: an `act` refused, or a flow step whose outcome was. */
export function questionOf(out: PageOutcome<'act'> | PageOutcome<'flow.step'>): ExecFailure | null {
  if (!out.ok) return out.code === 'NEEDS_CONFIRMATION' ? out : null
  if (!('outcome' in out) || out.outcome.ok || out.outcome.code !== 'NEEDS_CONFIRMATION') return null
  const r = out.outcome
  return {
    ok: false,
    code: 'NEEDS_CONFIRMATION',
    message: r.message,
    offsite: r.offsite,
    category: r.category,
    ask: r.ask,
    ...r.question,
  }
}
