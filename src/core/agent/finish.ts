/**
 * The end of every run: the reason shown, the verdict on evidence (verdict.ts), the usage, the
 * plan kept for next time, the status, the run's record.
 */
import type { ChatMessage, RunStatus, StepView } from '../chat'
import { AvaError } from '../errors'
import { activeLlm } from '../settings'
import { pathPattern } from './cache-key'
import { avaError, errorMsg, msg, recoveryOf } from './outcome'
import { provenanceOf } from './provenance'
import { isTabAction, seesOnly } from '../vocabulary'
import { costOf } from './record'
import { quotedEvidence, verdictOf } from './verdict'
import { type Run, setStatus, show, hiddenOf } from './context'
import { guardedExec } from './step'

/** The end of every run: the reason shown, unfinished steps marked skipped, the usage, the cache, the status. */
export async function finish(run: Run, status: RunStatus, error?: AvaError, answer?: string): Promise<void> {
  const { state, ports } = run
  if (error) await ports.chat.add(errorMessage(error))
  if (error) run.recorder.failure({ at: ports.clock.now(), code: error.code, message: error.message })
  // What was asked is done only with evidence (verdict.ts); a `done` without is no success.
  const verdict = await verdictFor(run, status, answer).catch(() => undefined)
  if (verdict) state.verdict = verdict
  if (verdict && status === 'done' && !verdict.done) {
    const unverified = avaError(
      'UNVERIFIED',
      verdict.missing?.length
        ? `The model says it is done, but the page does not show ${verdict.missing.map((w) => `"${w}"`).join(', ')}.`
        : 'The model says it is done, but nothing on the page shows it.',
      msg('outcome.error.UNVERIFIED'),
    )
    await ports.chat.add(errorMessage(unverified))
    run.recorder.failure({ at: ports.clock.now(), code: unverified.code, message: unverified.message })
  }
  for (const step of run.steps)
    if (step && (step.status === 'pending' || step.status === 'running'))
      await show(run, { ...step, status: 'skipped' })
  // Priced only at the provider's own endpoint (record.ts `costOf`): a local server serving a priced name costs nothing.
  const usage = { ...state.usage, costUsd: costOf(activeLlm(run.settings), state.usage) }
  await ports.chat.patch(state.messageId, { usage, replayed: state.replay && usage.input + usage.output === 0 })
  // A plan that worked is kept for next time, unless it typed a password the person wrote out.
  // A step that named a point of a screenshot means nothing on the next visit's page: not kept.
  const pointed = state.executed.some((i) => i.params.x !== undefined || seesOnly(i.action_type))
  // A run across tabs answers from what it read there: its steps replayed would open them and say nothing.
  const tabbed = state.executed.some((i) => isTabAction(i.action_type))
  if (
    !tabbed &&
    status === 'done' &&
    !state.replay &&
    !state.noCache &&
    state.cacheKey &&
    !state.typedSecretLiteral &&
    state.executed.length &&
    !pointed
  ) {
    // [trust] Every planned step had the page in front of the model: where it came from is kept (provenance.ts).
    await ports.cache.save({
      key: state.cacheKey,
      request: state.request,
      origin: state.origin,
      path: pathPattern(state.startUrl),
      steps: state.executed,
      provenance: provenanceOf(state.executed, { pageShaped: true, asked: state.askedSteps }),
    })
  }
  await setStatus(run, status)
  if (ports.record) {
    const hidden = await hiddenOf(run).catch(() => run.typed)
    await ports.record
      .save(run.recorder.end({ at: state.endedAt ?? ports.clock.now(), status, verdict, answer }, hidden))
      .catch(() => undefined)
  }
}

/**
 * The verdict's facts gathered at the end (verdict.ts): the words the answer quotes are checked on
 * the page by the keyword verifier, as a `verify` step through the one guard.
 */
async function verdictFor(run: Run, status: RunStatus, answer?: string) {
  const { state, ports } = run
  const answered = status === 'done'
  const url = await ports.page.url(state.tabId).catch(() => undefined)
  const facts = {
    answered,
    acted: run.acted,
    ...(run.verified?.length ? { verified: run.verified } : {}),
    sawResult: !run.actedInReply && !state.replay,
    ...(url ? { url } : {}),
    ...(run.element ? { element: run.element } : {}),
  }
  const words = answered && run.acted && !run.verified?.length ? quotedEvidence(answer ?? '') : []
  if (!words.length) return verdictOf(facts)
  const view: StepView = {
    index: run.steps.length,
    instruction: {
      step_id: run.steps.length + 1,
      action_type: 'verify',
      params: { assertion: words.map((w) => `"${w}"`).join(' ') },
      description: 'Check the answer on the page',
    },
    status: 'pending',
  }
  const out = await guardedExec(run, view, view.instruction)
  return verdictOf({ ...facts, quoted: { words, missing: out.ok ? [] : words } })
}

/**
 * The one message of a failed outcome: the sentence in the person's language, the
 * recovery buttons, and the raw words behind "details". A failed step's own words are on its row
 * already, so its message adds none.
 */
export function errorMessage(error: AvaError): Omit<ChatMessage, 'id' | 'ts'> {
  const d = error.details ?? {}
  const details = d.step ? undefined : typeof d.details === 'string' ? d.details : d.msg ? undefined : error.message
  return {
    role: 'system',
    kind: 'error',
    text: error.message,
    hint: error.code,
    msg: errorMsg(error),
    recovery: recoveryOf(error),
    ...(details ? { details } : {}),
  }
}
