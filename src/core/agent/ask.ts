/**
 * The run asks the person (docs/agent.md, "Asking the person"): an OK for a step the guard holds
 * (`confirm`), an answer to the model's `ask` (`askPerson`), and the wait for either across
 * navigations and a worker restart (`awaitAnswer`). The guard decides what is asked; this only
 * puts the question in the panel, waits, and says the answer, worded for the card.
 */
import type { Answer, Refusal } from '../gate/guard'
import type { StepView, Msg } from '../chat'
import { stepResult, type ExecFailure } from '../exec'
import type { Instruction } from '../instruction/schema'
import { compactPage, type AnswerReport } from './prompt'
import type { PersonAnswer } from './ports'
import { avaError, msg, refusalAsk, riskAsk } from './outcome'
import type { RunState } from './state'
import { drawnLabel } from '../gate/drawn'
import { pageSeen } from './takeover'
import { type Run, save, setStatus, show, compact, unechoed, stepName } from './context'

/** A step the guard refused (core/gate/guard.ts `refusalOf`): the person's no, nobody there, or a list. */
export function refused(r: Refusal): ExecFailure {
  return { ok: false, code: r.code, message: r.message }
}

/** The page's question about a step (`refusalAsk`), naming the step as the model described it. */
export function pageAsk(view: StepView, out: ExecFailure, run: Run): Msg {
  // [trust] A form that takes a saved secret to another site says which secret (src/dom/secret-trust.ts).
  if (out.carriesSecret && out.offsite)
    return riskAsk('cross_site_secret', { step: stepName(view), host: out.offsite, names: secretsTyped(run) })
  return refusalAsk(stepName(view), out)
}

/** The secrets this run typed, by name, for a question about a form that carries them. */
function secretsTyped(run: Run): string {
  return [...new Set(run.typedNames)].join(', ') || 'a saved secret'
}

/** The page's reason for a question, with the secret named when the step carries one off its site. */
export function secretReason(run: Run, out: ExecFailure, reason = out.message): string {
  return out.carriesSecret && out.offsite
    ? `Sends the form with the saved secret ${secretsTyped(run)} to another site: ${out.offsite}`
    : reason
}

/**
 * Shows the question in the panel and waits for the answer; Stop counts as no. The card is drawn
 * under the step that asked (`messageId`), so it sits where it was asked, before any answer.
 */
export async function confirm(
  run: Run,
  view: StepView,
  reason: string,
  ask: Msg,
  asked?: Pick<ExecFailure, 'drawn' | 'label' | 'category'>,
): Promise<Answer> {
  const { state, ports, signal } = run
  const question = await ports.chat.add({
    role: 'system',
    kind: 'confirm',
    text: `${stepName(view)}: ${reason}`,
    confirm: { runId: state.id, step: view.index, reason, state: 'pending', msg: ask, messageId: state.messageId },
  })
  await setStatus(run, 'waiting')
  const stopped = new Promise<boolean>((resolve) => {
    if (signal.aborted) resolve(false)
    signal.addEventListener('abort', () => resolve(false), { once: true })
  })
  const askedAt = ports.clock.now()
  run.asks++
  const allow: Answer = await Promise.race([
    stopped,
    ports.ask.confirm({ runId: state.id, cardId: question.id, step: view.index, reason }, signal).catch(() => false),
  ])
  run.askedMs = (run.askedMs ?? 0) + (ports.clock.now() - askedAt)
  const element = asked?.drawn ? drawnLabel(asked.drawn) : asked?.label
  run.recorder.question({
    at: askedAt,
    step: view.index,
    type: 'confirm',
    question: `${stepName(view)}: ${reason}`,
    ...(element ? { element } : {}),
    category: asked?.category ?? ask.key.replace(/^risk\.ask\./, ''),
    answer: allow === true ? 'yes' : 'no',
  })
  await ports.chat.patch(question.id, {
    confirm: { ...question.confirm!, state: allow === true ? 'allowed' : 'denied' },
  })
  await setStatus(run, 'running')
  return allow
}

/**
 * An `ask` step: the model's question in the panel (with its choices), the run waiting until the
 * person answers in their own words, picks a choice or presses Continue — across navigations, and
 * across a worker restart (the question is in the run's state: resumeRun waits on it again).
 */
export async function askPerson(run: Run, view: StepView, ins: Instruction): Promise<AnswerReport> {
  const { state, ports } = run
  if (!ports.ask.answer)
    throw avaError(
      'STEP_FAILED',
      'The model asked you a question, but nobody can answer here; run the request in the panel.',
      msg('outcome.askNobody'),
    )
  const question = ins.params.question!.trim()
  const choices = ins.params.choices?.map((c) => c.trim()).filter(Boolean)
  void show(run, { ...view, status: 'running' })
  const card = await ports.chat.add({
    role: 'system',
    kind: 'ask',
    text: question,
    ask: {
      runId: state.id,
      step: view.index,
      question,
      ...(choices?.length ? { choices } : {}),
      state: 'pending',
      messageId: state.messageId,
    },
  })
  state.pendingAsk = { cardId: card.id, step: view.index, question, ...(choices?.length ? { choices } : {}) }
  state.noCache = true // an answer only the person could give is no plan to replay
  run.asks++
  return awaitAnswer(run, state.pendingAsk, view)
}

/** Waits (status `waiting`) for the answer to the pending question; Stop closes the card and ends the run. */
export async function awaitAnswer(
  run: Run,
  pending: NonNullable<RunState['pendingAsk']>,
  view?: StepView,
): Promise<AnswerReport> {
  const { state, ports, signal } = run
  await setStatus(run, 'waiting')
  const askedAt = ports.clock.now()
  const cardOf = (st: 'pending' | 'answered' | 'closed', text?: string) => ({
    runId: state.id,
    step: pending.step,
    question: pending.question,
    ...(pending.choices ? { choices: pending.choices } : {}),
    state: st,
    ...(text ? { answer: text } : {}),
    messageId: state.messageId,
    ...(pending.takeover ? { takeover: pending.takeover.reason } : {}),
    ...(pending.takeover?.challenge ? { challenge: pending.takeover.challenge } : {}),
  })
  let answer: PersonAnswer
  try {
    answer = await ports.ask.answer!({ runId: state.id, cardId: pending.cardId }, signal)
  } catch (e) {
    // Stored before the card says so: an answer that comes now finds no open question.
    state.pendingAsk = undefined
    await save(run).catch(() => undefined)
    await ports.chat.patch(pending.cardId, { ask: cardOf('closed') }).catch(() => undefined)
    throw signal.aborted ? signal.reason : e
  }
  run.askedMs = (run.askedMs ?? 0) + (ports.clock.now() - askedAt)
  if ('takeover' in answer && !pending.takeover) {
    // "I'll do it myself": the same card now waits for Resume, and the page as it is now is what
    // the model will be told changes against.
    const now = await unechoed(run, await ports.page.read(state.tabId, state.request, { signal }))
    const taken = {
      ...pending,
      takeover: { reason: 'asked' as const, before: pageSeen(compact(run) ? compactPage(now) : now) },
    }
    state.pendingAsk = taken
    state.noCache = true
    await ports.chat.patch(pending.cardId, {
      ask: { ...cardOf('pending'), takeover: 'asked' },
    })
    return awaitAnswer(run, taken, view)
  }
  const text = 'text' in answer ? answer.text.trim() : undefined
  run.recorder.question({
    at: askedAt,
    step: pending.step,
    type: 'ask',
    question: pending.question,
    answer: text ?? 'continued',
  })
  if (text) run.personWords.push(text)
  await ports.chat.patch(pending.cardId, { ask: cardOf('answered', text) })
  state.pendingAsk = undefined
  await setStatus(run, 'running')
  const shown = view ?? run.steps[pending.step]
  if (shown)
    await show(run, {
      ...shown,
      status: 'ok',
      msg: pending.takeover
        ? stepResult('tookOver')
        : text
          ? stepResult('answered', { answer: text })
          : stepResult('continued'),
    })
  if (pending.takeover) {
    const { reason, before, pausedBefore, challenge } = pending.takeover
    return {
      question: pending.question,
      takeover: {
        before,
        report: {
          reason,
          ...(pausedBefore ? { pausedBefore } : {}),
          ...(challenge ? { challenge } : {}),
          ...(pending.question ? { question: pending.question } : {}),
        },
      },
    }
  }
  // A pick is a pick only of what was offered; any other text is the person's own.
  const picked = 'picked' in answer && !!answer.picked && !!text && !!pending.choices?.includes(text)
  // [trust] Every plan is written with the page in front of the model, so its question and choices
  // may be the page's words: they come back framed, and only what the person typed is theirs (prompt.ts describeAnswer).
  return {
    question: pending.question,
    ...(pending.choices ? { choices: pending.choices } : {}),
    ...(text ? { answer: text } : {}),
    ...(picked ? { picked } : {}),
    pageRead: true,
  }
}
