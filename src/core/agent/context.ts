/**
 * The run as its parts share it (docs/agent.md, "The run's parts"): the `Run` each part is handed,
 * and the few writes every part makes the same way — the state saved in order, the status changed
 * in one place, a step shown, the answer said through the one redactor — with the step limit and
 * what no page text may carry out of the run.
 */
import { counts, type StepCount } from '../gate/guard'
import type { RunStatus, StepView } from '../chat'
import { AvaError } from '../errors'
import type { ExecFailure } from '../exec'
import type { Instruction } from '../instruction/schema'
import { promptProfile, seesImages } from '../providers'
import { activeLlm, type Settings } from '../settings'
import type { AgentPorts } from './ports'
import type { PageContext } from './prompt'
import type { CollectedTable } from '../page/collect'
import type { PlanApproval } from '../gate/plan'
import { shownAnswer } from './answer-text'
import { msg } from './outcome'
import { redactText } from './secrets'
import type { PlannerMessage, RunState } from './state'
import { agentWork, isTabAction } from '../vocabulary'
import type { RunRecorder } from './record'
import type { Reading } from './sources'
import type { Challenge } from '../page/challenge'

export interface RunOptions {
  settings: Settings
  /** Aborted by Stop; a question waiting for the person counts as "no". */
  signal: AbortSignal
  /** The person pressed Pause: the run stops before its next step and hands them the page (handover.ts). */
  pause?: PauseSwitch
}

/** Pause, as the background holds it for a live run: asked for, and taken (cleared) when the run stops for it. */
export interface PauseSwitch {
  requested(): boolean
  clear(): void
}

export interface Run {
  state: RunState
  ports: AgentPorts
  settings: Settings
  signal: AbortSignal
  /** The steps of the run's message, by index, as last shown. */
  steps: StepView[]
  /** The run's message text as shown so far: redacted (answer-text.ts). */
  text: string
  /** …and as the model wrote it, which is never shown. */
  raw: string
  /** What no answer may show: every vault value and what this run typed, as of the current reply. */
  hidden: string[]
  /** The model's reasoning shown so far, across the run's replies. */
  thinking: string
  /** The site's earlier requests and answers, so "do the same for bob" makes sense. */
  earlier: PlannerMessage[]
  /** The last state write: saves go out in the order they were made. */
  saving: Promise<void>
  /**
   * Steps executed so far from every source — the model's, each page step of a pack, a cached
   * replay's — against the step limit. Kept in memory: a run resumed after a worker
   * restart counts from the steps it recorded. The guard's one count (core/gate/guard.ts).
   */
  count: StepCount
  /** Secret values typed in this run: a page that echoes one back ("code 123456 sent") is read with it redacted. */
  typed: string[]
  /** When the first of them was typed (the clock's ms): a picture loaded or drawn since may show it. */
  typedAt?: number
  /** …and their names, for a question about a form that would carry them to another site. */
  typedNames: string[]
  /** Time spent waiting for the person's answers, so a step's duration is the page's, not their pause. */
  askedMs?: number
  /** Questions put to the person so far in this run. */
  asks: number
  /** What each `collect` step of the current reply gathered, by step index, for the next prompt. */
  collected: Map<number, string[]>
  /** …and as the table the person may save, shown under the step. */
  tables: Map<number, CollectedTable>
  /** A replayed plan the person approved as a whole: each step carries its approved element (core/gate/plan.ts). */
  plan?: PlanApproval
  /** The run's record (record.ts), written as it goes, kept when it ends. */
  recorder: RunRecorder
  /** For the verdict (verdict.ts): a step acted; a verify passed since the last that did; one acted in this reply; what it acted on. */
  acted: boolean
  verified?: string[]
  actedInReply: boolean
  element?: string
  /** Everything the model was shown, for the check of its answer (sources.ts). */
  reading: Reading
  pause?: PauseSwitch
  /** The code field or CAPTCHA the last read of the page showed. */
  challenge?: Challenge
  /** The person's own words this run (the request, their typed answers): a code in them is theirs to have typed. */
  personWords: string[]
}

/**
 * A step that changes the page or goes somewhere (not a check, a wait or a read): its effect needs
 * evidence. Opening and closing the run's own tabs gathers and tidies; the pages read there are
 * the evidence, and the person's page is not changed by them.
 */
export function acts(ins: Instruction): boolean {
  return usesLimit(ins) && agentWork(ins.action_type) !== 'gather' && !isTabAction(ins.action_type)
}

/** Writes the state as it is now, after the writes before it. */
export function save(run: Run): Promise<void> {
  run.state.stepsUsed = run.count.used
  const snapshot = structuredClone(run.state)
  const next = run.saving.then(() => run.ports.store.save(snapshot))
  run.saving = next.catch(() => undefined)
  return next
}

/** The one place the run's status changes. */
export function setStatus(run: Run, status: RunStatus): Promise<void> {
  run.state.status = status
  if (status === 'done' || status === 'failed' || status === 'stopped') run.state.endedAt = run.ports.clock.now()
  return save(run)
}

/** Shows a step. Writes to one history are applied in the order they are issued. */
export function show(run: Run, step: StepView): Promise<void> {
  run.steps[step.index] = step
  return run.ports.chat.step(run.state.messageId, step)
}

export function say(run: Run, text: string): Promise<void> {
  run.raw += text
  // [trust] The answer passes the one redactor, whole, with each piece (answer-text.ts).
  const next = shownAnswer(run.text, run.raw, [...run.hidden, ...run.typed])
  if ('replace' in next) {
    run.text = next.replace
    return run.ports.chat.patch(run.state.messageId, { text: run.text })
  }
  run.text += next.append
  return run.ports.chat.text(run.state.messageId, next.append)
}

/** `stop`: a guard ended the run, which waits for the person rather than failing. */
export type Failure = {
  error: AvaError
  step?: { index: number; instruction: Instruction; outcome: ExecFailure }
  stop?: boolean
}

/** Thrown by a step the step limit refuses, from wherever the step came. */
class StepLimitReached extends AvaError {}

/** Whether an instruction uses up the step limit: the guard's one rule; a pack action at least one. */
export function usesLimit(ins: Instruction): boolean {
  return agentWork(ins.action_type) === 'pack' || counts({ instruction: ins.action_type })
}

export function atLimit(run: Run): boolean {
  return run.count.atLimit()
}

export function limitError(run: Run): StepLimitReached {
  return limitErrorOf(run.settings.agent.stepLimit)
}

export function limitErrorOf(n: number): StepLimitReached {
  return new StepLimitReached(
    'STEP_FAILED',
    `Ava reached the step limit (${n}) before finishing. Ask again to go on, or raise the limit in options.`,
    { msg: msg('outcome.stepLimit', { n }), recovery: ['retry', 'options'] },
  )
}

/** Whether the run's model gets the compact prompt (src/core/providers.ts `promptProfile`); a model that is sent images gets the full one, which says how to point into them. */
export function compact(run: Run): boolean {
  return promptProfile(activeLlm(run.settings)) === 'compact' && !sees(run)
}

/** Whether the run's model is sent screenshots: its profile sees images and something can capture. */
export function sees(run: Run): boolean {
  return !!run.ports.page.screenshot && seesImages(activeLlm(run.settings))
}

/** What no page text may carry out of the run: every vault value, and what this run typed. */
export async function hiddenOf(run: Run): Promise<string[]> {
  return [...run.typed, ...Object.values(await run.ports.secrets.vault().catch(() => ({})))]
}

/**
 * The page as read, with every saved secret cut out of it in any shape (redact.ts): a page may
 * echo what was typed into it, spaced out or reversed, or show a vault value it holds.
 */
export async function unechoed(run: Run, page: PageContext): Promise<PageContext> {
  const hidden = await hiddenOf(run)
  if (!hidden.length) return page
  const intents = page.intents?.map((i) => ({ name: i.name, targets: i.targets.map((t) => redactText(t, hidden)) }))
  return {
    url: redactText(page.url, hidden),
    title: redactText(page.title, hidden),
    listing: redactText(page.listing, hidden),
    ...(intents ? { intents } : {}),
    ...(page.challenge ? { challenge: page.challenge } : {}),
  }
}

/** The run follows a link into a new tab: the new tab's panel opens on the same conversation. */
export function moveTab(run: Run, to: number): void {
  const from = run.state.tabId
  if (from === to) return
  run.state.tabId = to
  run.ports.store.moveTab(from, to)
  void save(run)
}

export function addUsage(state: RunState, u: { inputTokens?: number; outputTokens?: number }) {
  state.usage.input += u.inputTokens ?? 0
  state.usage.output += u.outputTokens ?? 0
}

export function toAvaError(e: unknown): AvaError {
  if (e instanceof AvaError) return e
  const code = (e as { code?: string })?.code
  // A runtime's own words ("message channel closed…") are kept for the details, never said as the message.
  const raw = String((e as Error)?.message ?? e)
  return new AvaError(code === 'NO_PAGE' ? 'NO_PAGE' : 'UNKNOWN', raw, { details: raw })
}

/** What the step does, as the card names it: the model's description, else its action. */
export function stepName(view: StepView): string {
  return view.instruction.description ?? view.instruction.action_type
}
