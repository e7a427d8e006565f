import { createAsyncQueue } from '../async-queue'
import {
  actionQuestions,
  askThroughGuard,
  bindSecrets,
  counts,
  createStepCount,
  judgeNavigation,
  plannedOf,
  refusalOf,
  type Answer,
  type Refusal,
  type StepCount,
} from '../gate/guard'
import { isSendable, kMaxAnswerChars, kMaxRequestChars, type ChatMessage, type RunStatus, type StepView } from '../chat'
import { AvaError } from '../errors'
import { isFailureCode, isRepairable } from '../failure'
import { stepResult, type Candidate, type ExecFailure, type ExecOutcome } from '../exec'
import type { Instruction } from '../instruction/schema'
import { readInstructionText } from '../instruction/read'
import { createInstructionSplitter } from '../instruction/stream'
import { promptProfile, seesImages, thinksFirst } from '../providers'
import { screenshotNote, wantsScreenshot, type Screenshot, type ShotSkipped } from './vision'
import { activeLlm, domainAllowed, type Settings } from '../settings'
import { pathPattern, urlInRequest } from './cache-key'
import { isLooping } from './guards'
import type { StepGuard } from '../page/channel'
import type { AgentPorts } from './ports'
import {
  buildFollowUp,
  buildRepairPrompt,
  buildSystemPrompt,
  buildUserPrompt,
  compactPage,
  earlierAnswer,
  forgetPage,
  replyProse,
  type AnswerReport,
  type PageContext,
  type StepReport,
} from './prompt'
import { collectItems, kDefaultCollectLimit, tableOf, type CollectedTable } from '../page/collect'
import { actionOf, targetOf } from '../page/command'
import { approvePlan, planQuestion, type PlanApproval } from '../gate/plan'
import { planAsk, previewCachedPlan, showsEveryPlan } from './plan-approval'
import { shownAnswer } from './answer-text'
import type { PersonAnswer } from './ports'
import { kRiskReasons } from './risk'
import { avaError, errorMsg, msg, recoveryOf, refusalAsk, riskAsk, stepFailureMsg } from './outcome'
import type { Msg } from '../chat'
import { originOf, redactInstruction, redactText, resolveSecrets, secretNames, secretQuestion } from './secrets'
import { plainSecrets, redactDeep, vaultNamesIn } from './redact'
import { needsReview, provenanceOf, reviewQuestion } from './provenance'
import type { CacheEntry } from '../instruction/cache-entry'
import type { PlannerMessage, RunState } from './state'
import { resolveUpload, type AttachmentInfo } from './attachments'
import { readFileStep, servedTurn, uploadableFiles } from './files-step'
import type { UploadFile } from '../page/command'
import { isTabAction } from '../vocabulary'
import { kReadSections, kTabRuns, namedTabs, namesOnePage, tabLines, type TabOutcome } from './tabs'
import { describeTabs } from './prompt'
import { costOf, createRunRecorder, type RunRecorder } from './record'
import { quotedEvidence, verdictOf } from './verdict'
import { extractKeywords } from '../verify'
import { drawnLabel } from '../gate/drawn'
import { groundingOf, newReading, readItems, readPage, type Reading } from './sources'
import { extractForRun, itemForShape, shapeNote } from './extraction'
import { parseShape } from '../extract/shape'
import { codeFromPerson, codeShaped, personGaveCode, type Challenge } from '../page/challenge'
import { describeTakeover, pageChanges, pageSeen, type TakeoverReason, type TakeoverReport } from './takeover'

/**
 * The agent's run: plan → stream → act (→ confirm, → repair) → plan again,
 * until the model says `done`, the step limit or the loop guard ends it, or the person stops it.
 * Everything outside — the model, the page, storage, the person's answers, the clock — comes
 * through the ports (ports.ts), so each transition is tested on Node (test/core/agent/run.test.ts)
 * and the service worker only wires (src/background/agent.ts).
 *
 * The state that must outlive the worker is `RunState`, saved at every status change and every
 * step; what the run shows (its steps, its text) is kept here and only written, never read back.
 */

const kHistoryContext = 6 // earlier requests and answers of the site the planner sees
const kReplayElementWaitMs = 3_000 // a replayed step's page is the one it was recorded on: a missing element is a change, not a slow mount

export interface RunOptions {
  settings: Settings
  /** Aborted by Stop; a question waiting for the person counts as "no". */
  signal: AbortSignal
  /** The person pressed Pause: the run stops before its next step and hands them the page (takeover.ts). */
  pause?: PauseSwitch
}

/** Pause, as the background holds it for a live run: asked for, and taken (cleared) when the run stops for it. */
export interface PauseSwitch {
  requested(): boolean
  clear(): void
}

/** Refuses a request before anything is written. */
export function checkRequest(text: string): void {
  if (!isSendable(text)) throw avaError('UNKNOWN', 'Type a request first.', msg('outcome.emptyRequest'))
  if (text.length > kMaxRequestChars)
    throw avaError(
      'UNKNOWN',
      `The request is longer than ${kMaxRequestChars} characters; shorten it.`,
      msg('outcome.tooLong', { max: kMaxRequestChars }),
    )
}

/** Writes the request and an empty answer into the conversation and saves the new run's state. */
export async function beginRun(
  ports: AgentPorts,
  settings: Settings,
  r: {
    id: string
    tabId: number
    request: string
    url: string
    origin: string
    noCache?: boolean
    attachments?: AttachmentInfo[]
    /** A JSON Schema of the rows to extract (docs/extraction.md); a schema Ava cannot read is refused here. */
    shape?: Record<string, unknown>
  },
): Promise<RunState> {
  checkRequest(r.request)
  if (r.shape) parseShape(r.shape)
  await ports.chat.add({ role: 'user', text: r.request })
  if (!domainAllowed(r.url, settings.safety)) {
    const host = new URL(r.url).hostname
    await ports.chat.add({
      role: 'system',
      kind: 'error',
      text: `Ava is not allowed to act on ${host}. Change the allowed and blocked sites in Ava's options.`,
      msg: msg('outcome.siteBlocked', { host }),
      recovery: ['options'],
    })
    throw Object.assign(new Error('This site is blocked in Ava’s options.'), { code: 'FORBIDDEN' })
  }
  const assistant = await ports.chat.add({ role: 'assistant', text: '', steps: [], markdown: true })
  const state: RunState = {
    id: r.id,
    tabId: r.tabId,
    origin: r.origin,
    request: r.request,
    startUrl: r.url,
    messageId: assistant.id,
    status: 'planning',
    iteration: 0,
    executed: [],
    typedSecretLiteral: false,
    planner: [],
    usage: { input: 0, output: 0 },
    startedAt: ports.clock.now(),
    replay: false,
    noCache: !!r.noCache,
    ...(r.attachments?.length ? { attachments: r.attachments } : {}),
    ...(r.shape ? { shape: r.shape, noCache: true } : {}),
  }
  await ports.store.save(structuredClone(state))
  return state
}

/** Drives a run from its saved state to its end. Resolves with the final state; never rejects. */
export async function runAgent(
  state: RunState,
  ports: AgentPorts,
  opts: RunOptions & { resumed?: boolean },
): Promise<RunState> {
  const run = await open(state, ports, opts)
  await drive(run, !!opts.resumed)
  return run.state
}

/**
 * A run found in flight when the worker started again: one that waited for the person's answer
 * ends (the question died with the worker; nothing was done), any other goes on from the page as
 * it is now.
 */
export async function resumeRun(state: RunState, ports: AgentPorts, opts: RunOptions): Promise<RunState> {
  // A question to the person (an `ask`) is in the chat and in the state: it is waited on again,
  // and the run goes on with the answer (docs/agent.md, "Asking the person").
  if (state.status === 'waiting' && state.pendingAsk && ports.ask.answer) {
    const run = await open(state, ports, opts)
    try {
      const answer = await awaitAnswer(run, state.pendingAsk)
      await drive(run, true, { results: [], answer })
    } catch (e) {
      await endOnAbort(run, e)
    }
    return run.state
  }
  // The message goes out first: a panel reconnecting to the new worker is told at once.
  const waiting = state.status === 'waiting'
  if (waiting)
    await ports.chat.add({
      role: 'system',
      kind: 'error',
      text: "Ava's background restarted while waiting for your OK; the step was not done. Ask again to continue.",
      msg: msg('outcome.restartedWaiting'),
      recovery: ['retry'],
    })
  else
    await ports.chat.add({
      role: 'system',
      kind: 'info',
      text: "Ava's background was restarted; continuing from the page as it is now.",
      msg: msg('outcome.restarted'),
    })
  const run = await open(state, ports, opts)
  if (waiting) {
    // The question died with the worker (background/questions.ts): its card says so, not Allow / Cancel.
    for (const m of await ports.chat.messages().catch(() => [])) {
      if (m.confirm?.runId === state.id && m.confirm.state === 'pending')
        await ports.chat.patch(m.id, { confirm: { ...m.confirm, state: 'closed' } })
    }
    await finish(run, 'stopped')
  } else await drive(run, true)
  return run.state
}

interface Run {
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

/** The run's view of its conversation is taken once, when it starts (or restarts); after that it only writes. */
async function open(state: RunState, ports: AgentPorts, opts: RunOptions): Promise<Run> {
  const messages = await ports.chat.messages().catch((): ChatMessage[] => [])
  const idx = messages.findIndex((m) => m.id === state.messageId)
  const mine = messages[idx]
  const before = messages.slice(0, Math.max(0, idx - 1)).filter((m) => m.role !== 'system' && m.text.trim())
  return {
    state,
    ports,
    settings: opts.settings,
    signal: opts.signal,
    steps: [...(mine?.steps ?? [])],
    text: mine?.text ?? '',
    raw: mine?.text ?? '',
    hidden: [],
    thinking: mine?.thinking ?? '',
    // [trust] An earlier answer may quote a page: it comes back framed as page content (prompt.ts earlierAnswer).
    earlier: before
      .slice(-kHistoryContext)
      .map((m) =>
        m.role === 'user'
          ? { role: 'user', content: m.text.slice(0, 2_000) }
          : { role: 'assistant', content: earlierAnswer(m.text.slice(0, 2_000)) },
      ),
    saving: Promise.resolve(),
    count: createStepCount(
      opts.settings.agent.stepLimit,
      (n) => limitErrorOf(n),
      state.stepsUsed ?? state.executed.length,
    ),
    typed: [],
    typedNames: [],
    asks: 0,
    collected: new Map(),
    tables: new Map(),
    recorder: createRunRecorder({
      id: state.id,
      messageId: state.messageId,
      origin: state.origin,
      request: state.request,
      startUrl: state.startUrl,
      startedAt: state.startedAt,
      llm: activeLlm(opts.settings),
      resumed: state.iteration > 0 || state.executed.length > 0,
    }),
    acted: state.executed.some(acts),
    actedInReply: false,
    reading: newReading(state.request),
    ...(opts.pause ? { pause: opts.pause } : {}),
    personWords: [state.request],
  }
}

/**
 * A step that changes the page or goes somewhere (not a check, a wait or a read): its effect needs
 * evidence. Opening and closing the run's own tabs gathers and tidies; the pages read there are
 * the evidence, and the person's page is not changed by them.
 */
function acts(ins: Instruction): boolean {
  return usesLimit(ins) && ins.action_type !== 'collect' && !isTabAction(ins.action_type)
}

/** Writes the state as it is now, after the writes before it. */
function save(run: Run): Promise<void> {
  run.state.stepsUsed = run.count.used
  const snapshot = structuredClone(run.state)
  const next = run.saving.then(() => run.ports.store.save(snapshot))
  run.saving = next.catch(() => undefined)
  return next
}

/** The one place the run's status changes. */
function setStatus(run: Run, status: RunStatus): Promise<void> {
  run.state.status = status
  if (status === 'done' || status === 'failed' || status === 'stopped') run.state.endedAt = run.ports.clock.now()
  return save(run)
}

/** Shows a step. Writes to one history are applied in the order they are issued. */
function show(run: Run, step: StepView): Promise<void> {
  run.steps[step.index] = step
  return run.ports.chat.step(run.state.messageId, step)
}

function say(run: Run, text: string): Promise<void> {
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
type Failure = {
  error: AvaError
  step?: { index: number; instruction: Instruction; outcome: ExecFailure }
  stop?: boolean
}

/** Thrown by a step the step limit refuses, from wherever the step came. */
class StepLimitReached extends AvaError {}

/** Whether an instruction uses up the step limit: the guard's one rule; a pack action at least one. */
function usesLimit(ins: Instruction): boolean {
  return ins.action_type === 'run_action' || counts({ instruction: ins.action_type })
}

function atLimit(run: Run): boolean {
  return run.count.atLimit()
}

function limitError(run: Run): StepLimitReached {
  return limitErrorOf(run.settings.agent.stepLimit)
}

function limitErrorOf(n: number): StepLimitReached {
  return new StepLimitReached(
    'STEP_FAILED',
    `Ava reached the step limit (${n}) before finishing. Ask again to go on, or raise the limit in options.`,
    { msg: msg('outcome.stepLimit', { n }), recovery: ['retry', 'options'] },
  )
}

/** What one streamed reply did. */
interface Batch {
  /** The reply as the planner may remember it (prose, then the instructions redacted). */
  reply: string
  steps: number
  results: StepReport[]
  answer?: string
  /** The claims the `done` answer made, each with its sources. */
  claims?: Instruction['params']['claims']
  /** …and, for a run asked for a shape, each field's part of a collected item. */
  fields?: Instruction['params']['fields']
  /** The person's answer to an `ask` in this reply: the rest of the reply waits for the next one. */
  asked?: AnswerReport
  failure?: Failure
  /** The provider cut the reply at its token limit: the complete steps ran, this many of them. */
  cutAtLimit?: { complete: number }
  /** What the model is told when it is asked again for an invalid reply (the reader's own words). */
  modelNote?: string
}

/** Replies in a row cut at the token limit before any step: after this many the run ends (a limit too small for one step). */
const kMaxCutTurns = 3

async function drive(
  run: Run,
  resumed: boolean,
  carried?: { results: StepReport[]; answer: AnswerReport },
): Promise<void> {
  const { state, settings, signal, ports } = run
  try {
    let pendingNav: Promise<unknown> | null = null
    if (!resumed && state.iteration === 0) {
      // Parallel navigation: a page named in the request opens while the model plans.
      // Several addresses are pages to compare in tabs of their own (docs/agent.md, "Tabs"), not one to go to.
      const named = namesOnePage(state.request) ? urlInRequest(state.request) : null
      if (named && named !== state.startUrl && domainAllowed(named, settings.safety)) {
        pendingNav = ports.page.navigate(state.tabId, named, signal).catch(() => undefined)
      }
      if (settings.agent.useCache && !state.noCache) {
        // A plan that uploads names its files: it is kept for the same request with the same files.
        const files = state.attachments?.length ? `\n(files: ${state.attachments.map((f) => f.name).join(', ')})` : ''
        state.cacheKey = await ports.cache.key(state.request + files, state.startUrl)
        const hit = await ports.cache.lookup(state.cacheKey)
        // [trust] A plan page content could have shaped replays only after one review (provenance.ts).
        if (hit && (!(needsReview(hit) || showsEveryPlan(run)) || (await reviewPlan(run, hit)))) {
          await pendingNav
          return await replay(run, hit)
        }
      }
    }

    let results: StepReport[] = carried?.results ?? []
    let answer = carried?.answer
    let note: string | undefined
    let regenerated = false
    let cutTurns = 0
    for (;;) {
      if (signal.aborted) throw signal.reason
      if (atLimit(run)) return await finish(run, 'failed', limitError(run))
      await pendingNav
      pendingNav = null
      // Paused between two replies: the person has the wheel before the model is asked again.
      if (run.pause?.requested() && ports.ask.answer) {
        answer = await takeOver(run, 'paused', {})
        continue
      }
      await setStatus(run, state.iteration === 0 ? 'planning' : 'running')
      // After steps acted, the page gets to settle (quiet DOM, few requests) before it is read again.
      const page = await unechoed(
        run,
        await ports.page.read(state.tabId, state.request, { signal, settle: state.iteration > 0 || resumed }),
      )
      // A small model's prompt shows less of the page (docs/settings.md, "Prompt profiles").
      const shown = compact(run) ? compactPage(page) : page
      readPage(run.reading, shown)
      run.challenge = page.challenge
      if (answer?.takeover) {
        const { report, before } = answer.takeover
        note = [note, describeTakeover({ ...report, changes: pageChanges(before, pageSeen(shown)) })]
          .filter(Boolean)
          .join('\n')
        answer = undefined
      }
      // [trust] A code sent to the person or a CAPTCHA is theirs: the page goes to them before the
      // model can guess at it, once per page (docs/agent.md, "Taking over").
      if (page.challenge && !page.challenge.sure)
        note = [note, challengeNote(page.challenge)].filter(Boolean).join('\n')
      if (page.challenge?.sure && ports.ask.answer && offersTakeover(run, page)) {
        answer = await takeOver(run, 'challenge', { challenge: page.challenge.kind, page: shown })
        continue
      }
      const shot = await screenshotFor(run, state.iteration === 0 && !resumed)
      // Files a page downloaded since: named in the chat, and listed for the model (files-step.ts).
      const served = await servedTurn(ports, state.id, (t) => say(run, t))
      const userTurn =
        state.iteration === 0 && !resumed
          ? [
              buildUserPrompt(
                state.request,
                shown,
                await ports.actions.relevant(state.request).catch(() => []),
                state.attachments,
                // The notes of the page's own origin only, read where the page was read.
                await ports.notes?.forUrl(page.url).catch(() => null),
              ) + (state.shape ? `\n\n${shapeNote(parseShape(state.shape))}` : ''),
              // The person had the page before the first plan (a code page the run started on).
              ...(note ? [note] : []),
            ].join('\n\n')
          : buildFollowUp(
              results,
              shown,
              note ??
                (resumed && !answer
                  ? 'Ava was restarted; some of your last steps may not have run. Check the page.'
                  : undefined),
              answer,
            )
      resumed = false
      note = undefined
      answer = undefined
      // The run's tabs, each turn (docs/agent.md, "Tabs"): where the steps act, what it opened.
      const tabs = await tabsTurn(run, state.iteration === 0)
      // The image goes with this turn only: the planner's memory keeps the words (forgetPage below).
      const turn: PlannerMessage =
        'data' in shot
          ? {
              role: 'user',
              content: `${userTurn}${served}${tabs}\n\n${screenshotNote(shot)}`,
              image: { data: shot.data, mediaType: shot.mediaType },
            }
          : {
              role: 'user',
              content: shot.note ? `${userTurn}${served}${tabs}\n\n${shot.note}` : `${userTurn}${served}${tabs}`,
            }
      const batch = await planAndAct(run, [...run.earlier, ...state.planner, turn])
      // Earlier pages are dropped from the planner's memory: only the newest listing is worth its tokens.
      state.planner.push({ role: 'user', content: forgetPage(userTurn + tabs) })
      state.planner.push({ role: 'assistant', content: batch.reply })
      state.iteration++
      results = batch.results
      answer = batch.asked

      if (batch.answer !== undefined) {
        if (batch.answer) await say(run, run.text ? `\n\n${batch.answer}` : batch.answer)
        const grounding = groundingOf(run.reading, batch.answer, batch.claims)
        if (grounding) await ports.chat.patch(state.messageId, { grounding })
        if (state.shape) await extractRowsOf(run, batch.fields ?? {})
        return await finish(run, 'done', undefined, batch.answer)
      }
      if (batch.cutAtLimit && !batch.failure) {
        // The provider's token limit cut the reply: the complete steps ran; the model is asked for the rest.
        cutTurns = batch.steps > 0 ? 0 : cutTurns + 1
        const n = batch.cutAtLimit.complete
        await ports.chat.add({
          role: 'system',
          kind: 'info',
          text: `The model's answer was cut off by its token limit after ${n} complete step${n === 1 ? '' : 's'}; Ava ran them and asked for the rest.`,
          msg: msg('outcome.cutAtLimit', { n }),
        })
        if (cutTurns < kMaxCutTurns) {
          note = `Your last reply was cut off by the token limit after ${n} complete step${n === 1 ? '' : 's'}, which ran. Reply with only the remaining steps, shorter.`
          continue
        }
        return await finish(run, 'failed', cutError(run.steps.length))
      }
      if (batch.failure) {
        const f = batch.failure
        if (f.stop) return await finish(run, 'stopped', f.error)
        if (f.step && isRepairable(f.step.outcome.code)) {
          // AI fallback: ask for that one step with the candidates, then go on.
          const fixed = await repairStep(run, f.step, page)
          if (!fixed.ok) return await finish(run, 'failed', f.error)
          results = [...results.slice(0, -1), fixed.report]
          continue
        }
        if ((f.error.code === 'SCHEMA' || f.error.code === 'JSON_PARSE') && !regenerated) {
          regenerated = true
          note = `Your last reply had an invalid instruction: ${batch.modelNote ?? f.error.message} Reply again with valid instructions.`
          continue
        }
        return await finish(run, 'failed', f.error)
      }
      if (batch.steps === 0) return await finish(run, 'done') // prose only, or nothing left to do
    }
  } catch (e) {
    await endOnAbort(run, e)
  }
}

/** The end of a run that threw: an abort says why when it can (the off-site gate stopped the run); Stop is the rest. */
async function endOnAbort(run: Run, e: unknown): Promise<void> {
  const { signal } = run
  const stopped =
    signal.reason instanceof AvaError ? signal.reason : avaError('UNKNOWN', 'Stopped by you.', msg('outcome.stopped'))
  await finish(run, signal.aborted ? 'stopped' : 'failed', signal.aborted ? stopped : toAvaError(e)).catch(
    () => undefined,
  )
}

/** Whether the run's model gets the compact prompt (src/core/providers.ts `promptProfile`); a model that is sent images gets the full one, which says how to point into them. */
function compact(run: Run): boolean {
  return promptProfile(activeLlm(run.settings)) === 'compact' && !sees(run)
}

/** Whether the run's model is sent screenshots: its profile sees images and something can capture. */
function sees(run: Run): boolean {
  return !!run.ports.page.screenshot && seesImages(activeLlm(run.settings))
}

/**
 * The marked screenshot for this planning request, when the policy wants one (vision.ts
 * `wantsScreenshot`); else a note for the model when it asked and none could be taken.
 */
async function screenshotFor(run: Run, first: boolean): Promise<Screenshot | { note?: string }> {
  const { ports, state, signal } = run
  if (!sees(run) || !wantsScreenshot({ first, asked: !!state.shotAsked, poor: !!state.shotPoor })) return {}
  const asked = !!state.shotAsked
  state.shotAsked = false
  // [privacy] The secrets typed so far are blacked out wherever the page draws them again (docs/security.md, "Pictures").
  const typed = { values: run.typed, ...(run.typedAt !== undefined ? { at: run.typedAt } : {}) }
  const shot = await ports.page.screenshot!(state.tabId, signal, typed).catch((e): ShotSkipped => ({
    skipped: 'failed',
    detail: String((e as Error)?.message ?? e),
  }))
  if ('skipped' in shot) {
    state.shotPoor = false
    const why =
      shot.skipped === 'off'
        ? 'screenshots are off for this site'
        : shot.skipped === 'hidden'
          ? 'the tab is not the one shown in its window'
          : shot.skipped === 'secret'
            ? `a secret typed on this page could be drawn where Ava cannot black it out (${shot.detail ?? 'unknown'}), so the picture was not sent`
            : 'the capture failed'
    return asked || shot.skipped === 'secret'
      ? { note: `(No screenshot could be taken: ${why}. Work from the listing.)` }
      : {}
  }
  state.shot = shot.frame
  state.shotPoor = shot.poor.length > 0
  state.shots = (state.shots ?? 0) + 1
  // The person sees each picture that left the browser (issue: privacy), said in their language.
  await ports.chat.add({
    role: 'system',
    kind: 'info',
    text: 'Sent the model a screenshot of the page, secret fields blacked out.',
    msg: msg('outcome.screenshotSent'),
  })
  return shot
}

/** One LLM reply, streamed; each instruction runs as soon as it is complete, the rest wait. */
async function planAndAct(run: Run, messages: PlannerMessage[]): Promise<Batch> {
  const { state, signal } = run
  const queue = createAsyncQueue<{
    index: number
    instruction?: Instruction
    error?: string
    raw?: string
    askless?: boolean
  }>()
  const batch: Batch = { reply: '', steps: 0, results: [] }
  run.actedInReply = false
  // What the model said, as it may be remembered: prose, then each instruction as recorded
  // (values typed into password fields replaced), never the raw text.
  let prose = ''
  const said: Instruction[] = []
  let elements = 0
  const stream = new AbortController()
  const base = run.steps.length
  // Instructions queued and begun in this reply: once the queue holds more than the steps left,
  // the rest of the reply can never run, and is neither parsed nor waited for.
  let queued = 0
  let started = 0
  // Everything the model sent, for the message that says a reply held nothing Ava could use.
  let rawReply = ''
  const thinking = thinkingWriter(run)

  const consumer = (async () => {
    for await (const item of queue) {
      const view: StepView = {
        index: base + item.index,
        instruction: item.instruction ?? placeholder(item.index),
        status: 'pending',
      }
      if (signal.aborted) return
      if (batch.failure || batch.answer !== undefined || batch.asked) {
        await show(run, { ...view, status: 'skipped' })
        continue
      }
      if (item.error) {
        // The model's own words and zod's issues are for the details toggle, never the message itself,
        // and are said once: on the error message, not again on the step's row.
        const raw = item.raw?.trim() ?? ''
        const details = raw && !item.error.includes(raw) ? `${item.error}\n\n${raw}` : item.error
        // An ask with no question is said as such: the person is the one it was for.
        const askless = !!item.askless
        await show(run, { ...view, status: 'failed', title: msg(askless ? 'step.askNoQuestion' : 'step.invalid') })
        const n = view.index + 1
        batch.failure = {
          error: new AvaError(
            'SCHEMA',
            askless
              ? `Step ${n} was to ask you something, but it had no question (ask needs params.question), so Ava stopped before it.`
              : `Step ${n} was not a valid instruction, so Ava stopped before it.`,
            { msg: msg(askless ? 'outcome.askNoQuestion' : 'outcome.invalidStep', { n }), details },
          ),
        }
        stream.abort()
        continue
      }
      const ins = item.instruction!
      // Pause takes effect here, before the next step: this one and the rest of the reply do not run.
      // A one-time code the person did not give is never typed: the page goes to them instead.
      const takeover = run.pause?.requested()
        ? ({ reason: 'paused', pausedBefore: { index: view.index, description: ins.description } } as const)
        : inventedCode(run, ins)
          ? ({ reason: 'challenge', challenge: 'code' } as const)
          : undefined
      if (takeover && !run.ports.ask.answer && takeover.reason === 'challenge') {
        // Nobody can take the page here (the CLI): the made-up code is refused, never typed.
        await show(run, { ...view, status: 'failed' })
        batch.failure = {
          error: avaError(
            'STEP_FAILED',
            'The page asks for a one-time code that only you have, and Ava never types one you did not give. Run the request in Ava’s panel and type the code yourself.',
            msg('outcome.codeNobody'),
          ),
        }
        stream.abort()
        continue
      }
      if (takeover && run.ports.ask.answer) {
        await show(run, { ...view, status: 'skipped' })
        const handed = await takeOver(run, takeover.reason, takeover).catch((e: unknown) => ({ error: e }))
        if ('error' in handed) batch.failure = { error: toAvaError(handed.error) }
        else {
          // The reply is not over for the run: the model plans again from the page handed back.
          batch.steps++
          batch.asked = handed
        }
        stream.abort()
        continue
      }
      if (ins.action_type === 'done') {
        batch.answer = ins.params.answer ?? ''
        batch.claims = ins.params.claims
        batch.fields = ins.params.fields
        continue
      }
      if (ins.action_type === 'ask') {
        const asked = await askPerson(run, view, ins).catch((e: unknown) => ({ error: e }))
        if ('error' in asked) {
          batch.failure = { error: toAvaError(asked.error) }
          stream.abort()
          continue
        }
        batch.steps++
        batch.asked = asked
        batch.results.push({
          index: view.index,
          action: 'ask',
          description: ins.description,
          ok: true,
          detail: 'asked the person',
        })
        continue
      }
      if (ins.action_type === 'screenshot') {
        // Not a page step (nothing is counted): the next read of the page comes with a picture.
        const can = sees(run)
        state.shotAsked = can
        const detail = can
          ? 'A marked screenshot comes with the next look at the page.'
          : 'This model is not sent images; work from the listing.'
        await show(run, {
          ...view,
          status: can ? 'ok' : 'failed',
          detail,
          msg: msg(can ? 'step.screenshotNext' : 'step.screenshotNone'),
        })
        batch.steps++
        batch.results.push({
          index: view.index,
          action: ins.action_type,
          description: ins.description,
          ok: can,
          detail,
        })
        continue
      }
      if (usesLimit(ins)) started++
      let out: ExecOutcome
      try {
        out = await runOneStep(run, view, (recorded) => (said[item.index] = recorded))
      } catch (e) {
        // The step limit, or a port that failed outright: the rest of the reply is not wanted.
        batch.failure = { error: toAvaError(e) }
        stream.abort()
        continue
      }
      batch.steps++
      const items = run.collected.get(view.index)
      run.collected.delete(view.index)
      batch.results.push({
        index: view.index,
        action: ins.action_type,
        description: ins.description,
        ok: out.ok,
        detail: out.ok ? out.detail : out.message,
        ...(items ? { items } : {}),
        ...((out as TabOutcome).page ? { page: (out as TabOutcome).page, tab: (out as TabOutcome).tab } : {}),
      })
      if (!out.ok) {
        // The run ends on the page's own code; the step's row holds the page's own words (details),
        // the message says it once, in the person's language, and the list says which recovery fits.
        batch.failure = {
          error: new AvaError(out.code, `Step ${view.index + 1} failed: ${out.message}`, {
            msg: stepFailureMsg(view.index + 1, out),
            step: true,
          }),
          step: { index: view.index, instruction: said[item.index] ?? ins, outcome: out },
        }
        stream.abort()
      } else if (isLooping(state.executed, state.after)) {
        batch.failure = {
          error: avaError(
            'STEP_FAILED',
            'Ava did the same step three times in a row and stopped. Tell Ava how to go on.',
            msg('outcome.loop'),
          ),
          stop: true,
        }
        stream.abort()
      }
    }
  })()

  const textBefore = run.text.length
  const rawBefore = run.raw.length
  run.hidden = await hiddenOf(run)
  const splitter = createInstructionSplitter(
    {
      thinking: thinking.add,
      // A `</think>` with no opening tag: what was shown as the answer was reasoning.
      wasThinking: (t) => {
        prose = ''
        run.text = run.text.slice(0, textBefore)
        run.raw = run.raw.slice(0, rawBefore)
        void run.ports.chat.patch(state.messageId, { text: run.text }).catch(() => undefined)
        thinking.add(t)
      },
      prose: (t) => {
        prose += t
        void say(run, t)
        // Past kMaxAnswerChars the chat keeps nothing more and says the answer was cut: stop reading it.
        if (run.text.length > kMaxAnswerChars) cut()
      },
      element: (raw, index) => {
        elements = index + 1
        const parsed = readInstructionText(raw, index)
        if (!parsed.success) {
          // Nothing after an invalid instruction runs: stop reading the reply now.
          queue.push({
            index,
            error: parsed.error.message,
            raw,
            askless: parsed.error.issues.some((i) => i.path === 'params.question'),
          })
          batch.modelNote ??= parsed.error.message
          return cut()
        }
        said[index] = redactInstruction(parsed.data, { sensitive: false })
        const step = parsed.data.action_type !== 'done' && parsed.data.action_type !== 'ask'
        if (step || parsed.data.action_type === 'ask')
          void show(run, { index: base + index, instruction: parsed.data, status: 'pending' })
        queue.push({ index, instruction: parsed.data })
        if (!step || !usesLimit(parsed.data)) return
        // Every step the limit counts costs at least one of it: with the steps queued ahead of it,
        // this one will be refused when its turn comes.
        const ahead = queued++ - started
        if (run.count.atLimit(ahead)) cut()
      },
    },
    { thinksFirst: thinksFirst(activeLlm(run.settings).model) },
  )
  function cut(): void {
    splitter.stop()
    stream.abort()
  }
  const system = buildSystemPrompt({ vision: sees(run), compact: compact(run) })
  const asked0 = run.ports.clock.now()
  try {
    const res = await run.ports.llm.stream({
      system,
      messages,
      signal: AbortSignal.any([signal, stream.signal]),
      onText: (delta) => {
        thinking.answering()
        rawReply += delta
        splitter.push(delta)
      },
      onThinking: thinking.add,
      onSlowStart: thinking.slow,
    })
    addUsage(state, res.usage)
    run.recorder.model({
      at: asked0,
      ms: run.ports.clock.now() - asked0,
      system,
      messages,
      output: rawReply,
      tokens: res.usage,
    })
    const end = splitter.end()
    // Cut by the provider's token limit: no broken reply, but a plan with more to come.
    if (res.cutAtLimit && !batch.failure && !stream.signal.aborted && batch.answer === undefined && !batch.asked)
      batch.cutAtLimit = { complete: elements }
    else if (end.truncated !== null && !batch.failure && !stream.signal.aborted)
      batch.failure = { error: cutError(base + (end.sawArray ? elements : 0)) }
    // A reply with no step and no words (only reasoning, or nothing): the person is told what came back.
    if (!batch.failure && !batch.cutAtLimit && !stream.signal.aborted && !end.sawArray && !prose.trim()) {
      batch.failure = {
        error: new AvaError('JSON_PARSE', 'The model replied, but with no steps and no answer.', {
          msg: msg('outcome.emptyReply'),
          details: rawReply.trim() || thinking.text() || '(nothing)',
          recovery: ['regenerate'],
        }),
      }
    }
  } catch (e) {
    // A stream we cut ourselves (a step failed, an invalid or unrunnable instruction came) is no
    // error: the queue says why; a stream cut inside an instruction is.
    if (!stream.signal.aborted && !signal.aborted) {
      const cut = splitter.end().truncated !== null
      batch.failure ??= { error: cut ? cutError(base + elements) : toAvaError(e) }
    }
    run.recorder.model({
      at: asked0,
      ms: run.ports.clock.now() - asked0,
      system,
      messages,
      output: rawReply,
      tokens: {},
      error: stream.signal.aborted ? 'cut by Ava' : String((e as Error)?.message ?? e),
    })
  }
  queue.close()
  await Promise.all([consumer, thinking.flush()])
  // The words around the steps may quote the page the model was reading: they come back framed, as
  // an earlier answer does; the steps come back as the instructions Ava read.
  batch.reply = [prose.trim() ? replyProse(prose.trim()) : '', said.length ? JSON.stringify(said.filter(Boolean)) : '']
    .filter(Boolean)
    .join('\n')
  if (signal.aborted) throw signal.reason
  return batch
}

/**
 * The model's reasoning, shown collapsed under the run's message (docs/agent.md, "Thinking"):
 * written as it comes, one write at a time (a write in flight gathers what comes meanwhile), and
 * the "loading the model" note while nothing has come yet.
 */
function thinkingWriter(run: Run) {
  const id = run.state.messageId
  let text = run.thinking
  let writing: Promise<void> | null = null
  let dirty = false
  let noted = false
  let fresh = true // a later reply's reasoning starts a paragraph of its own
  const write = (): Promise<void> => {
    if (writing) {
      dirty = true
      return writing
    }
    // [trust] The reasoning shown passes the same redactor as the answer (answer-text.ts).
    const hidden = [...run.hidden, ...run.typed]
    const shown = hidden.length ? redactText(text, hidden) : text
    writing = run.ports.chat
      .patch(id, { thinking: shown, ...(noted ? { notice: undefined } : {}) })
      .catch(() => undefined)
      .then(() => {
        writing = null
        noted = false
        if (dirty) {
          dirty = false
          return write()
        }
      })
    return writing
  }
  return {
    add: (t: string) => {
      if (fresh && text) t = `\n\n${t.trimStart()}`
      fresh = false
      text += t
      run.thinking = text
      void write()
    },
    answering: () => {
      if (noted) void write()
    },
    slow: () => {
      noted = true
      void run.ports.chat.patch(id, { notice: msg('panel.loadingModel') }).catch(() => undefined)
    },
    text: () => text.trim(),
    flush: () => (writing ?? Promise.resolve()).then(() => (noted ? write() : undefined)),
  }
}

function cutError(index: number): AvaError {
  return avaError(
    'STREAM_CUT',
    `The reply stopped in the middle of step ${index + 1}; the steps before it ran. Try again.`,
    msg('outcome.streamCut', { n: index + 1 }),
  )
}

function placeholder(index: number): Instruction {
  return {
    step_id: index + 1,
    action_type: 'verify',
    params: { assertion: '(invalid)' },
    description: '(invalid instruction)',
  }
}

/**
 * Executes one step: secrets resolved only here, risky steps held for the person's OK, and what
 * is recorded (history, cache, the next prompt) redacted.
 */
async function runOneStep(
  run: Run,
  view: StepView,
  onRecorded?: (recorded: Instruction) => void,
): Promise<ExecOutcome> {
  const { state, ports } = run
  const ins = view.instruction
  // The vocabulary's one counting rule (core/gate/guard.ts `counts`): a verify or a wait does not
  // count; a pack's steps are counted one by one as they reach the page (runRegistryAction).
  if (usesLimit(ins)) {
    if (atLimit(run)) throw limitError(run)
    if (ins.action_type !== 'run_action') run.count.one()
  }
  // Not awaited: the step need not wait for the panel to hear it is running.
  void show(run, { ...view, status: 'running' })
  if (state.status !== 'running') void setStatus(run, 'running')
  const t0 = ports.clock.now()
  const asked0 = run.askedMs ?? 0
  const asks0 = run.asks
  const { out, secrets } =
    ins.action_type === 'run_action'
      ? await runRegistryAction(run, view, ins)
      : ins.action_type === 'collect'
        ? await runCollect(run, view, ins)
        : ins.action_type === 'read_file'
          ? { out: await readFileStep(ports, ins, await hiddenOf(run)), secrets: [] }
          : isTabAction(ins.action_type)
            ? { out: await runTabStep(run, view, ins), secrets: [] }
            : await runPageStep(run, view, ins)
  if (out.ok && secrets.length) {
    run.typed.push(...secrets)
    run.typedAt ??= t0 // from before the step: a page may draw what it got while it is typed
    run.typedNames.push(...vaultNamesIn(secrets.join('\n'), await ports.secrets.vault().catch(() => ({}))))
  }
  const durationMs = Math.round(ports.clock.now() - t0 - ((run.askedMs ?? 0) - asked0))
  const recorded = redactInstruction(ins, { sensitive: !!(out.ok && out.sensitive), secrets })
  onRecorded?.(recorded)
  if (out.ok && out.sensitive && ins.params.value && !secretNames(ins.params.value).length)
    state.typedSecretLiteral = true
  // A collect or read_file step reads and changes nothing a replay could redo: it is not kept among the executed.
  if (out.ok && ins.action_type !== 'collect' && ins.action_type !== 'read_file') state.executed.push(recorded)
  // [trust] A step the person was asked about is risky by the run's own account (provenance.ts).
  if (out.ok && run.asks > asks0) (state.askedSteps ??= []).push(state.executed.length - 1)
  // What the step acted on, for "Save last run as flow".
  if (out.ok && out.target) (state.targets ??= {})[state.executed.length - 1] = out.target
  if (out.ok && out.after) (state.after ??= {})[state.executed.length - 1] = out.after
  void save(run)
  const detail = redactText(out.ok ? out.detail : out.message, secrets)
  // A success says its result in the UI language under the step, redacted as its detail is.
  const said = out.ok && out.msg ? { msg: redactMsg(out.msg, secrets) } : {}
  // A file step the run could not do says why under its row, in the person's language (files-step.ts).
  if (!out.ok && out.msg && ins.action_type === 'read_file')
    Object.assign(said, { msg: stepFailureMsg(view.index + 1, out) })
  const table = out.ok ? run.tables.get(view.index) : undefined
  void show(run, {
    ...view,
    instruction: recorded,
    status: out.ok ? 'ok' : 'failed',
    detail,
    rung: out.ok ? out.rung : undefined,
    durationMs,
    ...said,
    ...(table ? { table } : {}),
  })
  const element = out.ok ? out.target?.description : out.drawn ? drawnLabel(out.drawn) : out.label
  run.recorder.step({
    at: t0,
    ms: durationMs,
    index: view.index,
    action: recorded.action_type,
    ...(recorded.description ? { description: recorded.description } : {}),
    params: recorded.params,
    status: out.ok ? 'ok' : 'failed',
    detail,
    ...(out.ok ? {} : { code: out.code }),
    ...(element ? { element } : {}),
    ...(out.rung ? { rung: out.rung } : {}),
  })
  // The verdict's facts: a verify that passed since the last step that acted is the run's evidence.
  if (out.ok && ins.action_type === 'verify') run.verified = extractKeywords(ins.params.assertion ?? '')
  else if (out.ok && acts(ins)) {
    run.acted = true
    run.actedInReply = true
    run.verified = undefined
    run.element = element ?? ins.description
  }
  return out.ok ? { ...out, detail, ...said } : { ...out, message: detail }
}

/** A message whose parameters may hold what was typed: a secret in them goes as in the detail. */
function redactMsg(m: Msg, secrets: string[]): Msg {
  if (!m.params) return m
  return {
    ...m,
    params: Object.fromEntries(
      Object.entries(m.params).map(([k, v]) => [k, typeof v === 'string' ? redactText(v, secrets) : v]),
    ),
  }
}

/** A page instruction, with its secrets resolved for the page only; their values come back for redaction. */
async function runPageStep(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<{ out: ExecOutcome; secrets: string[] }> {
  const prepared = await prepare(run, view, ins)
  if ('refused' in prepared) return { out: refused(prepared.refused), secrets: prepared.secrets }
  if ('error' in prepared)
    return {
      out: { ok: false, code: prepared.code ?? 'INVALID', message: prepared.error, msg: prepared.msg } as ExecFailure,
      secrets: prepared.secrets,
    }
  return {
    out: await guardedExec(run, view, prepared.instruction, prepared.secretSites, prepared.files),
    secrets: prepared.secrets,
  }
}

/**
 * Resolves the step's secrets for the page only, as a password manager fills a
 * login: only on a page of a site the secret is bound to, and — unless the person named the
 * secret in their own request — only after they said yes to a question naming the secret and the
 * site. The field's own document is checked again in the page (`secretSites`).
 */
async function prepare(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<
  | { instruction: Instruction; secrets: string[]; secretSites?: string[]; files?: UploadFile[] }
  | { error: string; code?: 'SECRET_UNBOUND'; msg?: Msg; secrets: string[] }
  | { refused: Refusal; secrets: string[] }
> {
  if (ins.action_type === 'upload') {
    // The value names a file the person attached, or one a page downloaded during the run; its
    // bytes join the step here, never the model's context.
    const can = await uploadableFiles(
      run.ports,
      run.state.attachments ?? [],
      (await run.ports.attachments?.held()) ?? [],
    )
    const r = resolveUpload(ins.params.value ?? '', can.attached, can.held)
    return 'error' in r
      ? { error: r.error, msg: msg('outcome.step.noFile'), secrets: [] }
      : { instruction: ins, secrets: [], files: r.files }
  }
  // Secrets are typed into pages, never sent in an address: refused before any lookup.
  if (ins.params.url && secretNames(ins.params.url).length) {
    const names = secretNames(ins.params.url).join(', ')
    return {
      error: `Refused: ${names} is a saved secret, and secrets never go into a URL. Type it into the page instead.`,
      msg: msg('outcome.step.secretInUrl', { names }),
      secrets: [],
    }
  }
  const value = ins.params.value
  // [trust] A vault value the model wrote out, in any shape, is that secret: bound and asked about (redact.ts).
  const vault = await run.ports.secrets.vault()
  const plain = plainSecrets(ins, vault)
  if (plain.url.length)
    return {
      error: `Refused: ${plain.url.join(', ')} is a saved secret, and secrets never go into a URL. Type it into the page instead.`,
      msg: msg('outcome.step.secretInUrl', { names: plain.url.join(', ') }),
      secrets: plain.url.map((n) => vault[n]),
    }
  const names = value ? [...new Set([...secretNames(value), ...plain.value])] : []
  if (!value || !names.length) return { instruction: ins, secrets: [] }
  const bound = await run.ports.secrets.sites()
  const r = resolveSecrets(value, (n) => vault[n])
  const secrets = names.map((n) => vault[n]).filter((v): v is string => !!v)
  if (r.missing.length)
    return {
      error: `No saved secret named ${r.missing.join(', ')}. Add it in Ava's options.`,
      msg: msg('outcome.step.noSecret', { names: r.missing.join(', ') }),
      secrets,
    }
  // Bound to their origin by the guard (core/gate/guard.ts `bindSecrets`); the field may be in a
  // frame: the page checks it is on an origin every one of the step's secrets is bound to.
  const binding = bindSecrets(names, bound, await run.ports.page.url(run.state.tabId))
  if (!binding.ok) {
    return {
      code: 'SECRET_UNBOUND',
      error: `${binding.message} If it belongs to this site, add the site to it in Ava's options (Variables and secrets).`,
      msg: msg('outcome.step.secretUnbound', { names: binding.unbound.join(', '), site: binding.origin ?? '' }),
      secrets,
    }
  }
  const origin = binding.origin
  const requested = new Set([...secretNames(run.state.request), ...vaultNamesIn(run.state.request, vault)])
  const asked = names.filter((n) => !requested.has(n))
  const ask = riskAsk('secret', { step: stepName(view), names: [...new Set(asked)].join(', '), site: origin })
  if (asked.length) {
    const question = secretQuestion(asked, origin)
    const answer = await confirm(run, view, question, ask)
    if (answer !== true) return { refused: refusalOf({ message: question, category: 'credentials' }, answer), secrets }
  }
  return { instruction: { ...ins, params: { ...ins.params, value: r.value } }, secrets, secretSites: binding.sites }
}

/** What no page text may carry out of the run: every vault value, and what this run typed. */
async function hiddenOf(run: Run): Promise<string[]> {
  return [...run.typed, ...Object.values(await run.ports.secrets.vault().catch(() => ({})))]
}

/**
 * The page as read, with every saved secret cut out of it in any shape (redact.ts): a page may
 * echo what was typed into it, spaced out or reversed, or show a vault value it holds.
 */
async function unechoed(run: Run, page: PageContext): Promise<PageContext> {
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

/** Asks before risky steps: cross-site navigation here, the rest decided in the page where the element is. */
async function guardedExec(
  run: Run,
  view: StepView,
  ins: Instruction,
  secretSites?: string[],
  files?: UploadFile[],
): Promise<ExecOutcome> {
  const { state, settings, signal, ports } = run
  if (ins.action_type === 'navigate') {
    // The guard's navigation rule (the step was counted already, in runOneStep).
    const refusal = await judgeNavigation(
      {
        confirm: settings.safety.confirm,
        sites: { allow: settings.safety.allowDomains, deny: settings.safety.denyDomains },
        here: () => ports.page.url(state.tabId),
        ask: (reason, r) =>
          confirm(run, view, reason, riskAsk('cross_site', { step: stepName(view), host: r?.offsite ?? '' })),
        step: () => undefined,
      },
      ins.params.url!,
    )
    if (refusal) return refused(refusal)
  }
  // The one gate loop (core/gate/step.ts): a yes binds to the element the question showed (its
  // handle); the page acts on it or refuses, and a changed element asks again, a few times at most.
  // A replayed plan approved as a whole carries the element approved for this step.
  const pageStep = run.plan ? actionOf(ins, state.shot) : null
  const command = {
    signal,
    confirm: settings.safety.confirm,
    confirmed: false,
    ...(secretSites ? { secretSites } : {}),
    ...(files ? { files } : {}),
    elementWaitMs: state.replay ? kReplayElementWaitMs : undefined,
    ...(state.shot ? { shot: state.shot } : {}),
    ...(pageStep ? plannedOf(run, pageStep) : {}),
    onTabChange: (to: number) => moveTab(run, to),
  }
  // The person answers in the panel, the question naming the step as the model described it.
  const guard: StepGuard = {
    confirm: settings.safety.confirm,
    ask: (reason, q) =>
      q
        ? confirm(run, view, secretReason(run, q), pageAsk(view, q, run), q)
        : confirm(run, view, reason, riskAsk('step', { step: stepName(view) })),
    step: () => undefined,
  }
  const { out, refusal } = await askThroughGuard(
    command,
    async (c) => {
      const { tabId, ...out } = await ports.page.exec(state.tabId, ins, c)
      moveTab(run, tabId)
      return out as ExecOutcome
    },
    guard,
    'step',
    (out) => (!out.ok && out.code === 'NEEDS_CONFIRMATION' ? out : null),
  )
  return refusal ? refused(refusal) : out
}

/**
 * A browser action on the run's tabs (core/agent/tabs.ts): judged by the guard's tab rule, asked
 * in the panel as a navigation to another site is, its page read as the run's own is (redacted).
 */
async function runTabStep(run: Run, view: StepView, ins: Instruction): Promise<TabOutcome> {
  const { state, settings, signal, ports } = run
  const tabs = ports.tabs
  if (!tabs) return { ok: false, code: 'INVALID', message: 'Tabs cannot be opened or read here.' }
  const list = (state.tabs ??= [{ id: state.tabId, opened: false }])
  const offSites = settings.screenshots?.offSites ?? []
  return await kTabRuns[ins.action_type as keyof typeof kTabRuns](
    {
      tabs,
      list,
      current: () => state.tabId,
      request: state.request,
      guard: {
        confirm: settings.safety.confirm,
        sites: { allow: settings.safety.allowDomains, deny: settings.safety.denyDomains },
        here: () => ports.page.url(state.tabId),
        ask: (reason, r) =>
          confirm(run, view, reason, riskAsk('cross_site', { step: stepName(view), host: r?.offsite ?? '' })),
        step: () => undefined,
      },
      unread: (url) => !domainAllowed(url, { allowDomains: [], denyDomains: offSites }),
      read: async (id) =>
        unechoed(run, await ports.page.read(id, state.request, { signal, settle: true, sections: kReadSections })),
      moveTo: (id) => moveTab(run, id),
      group: async () => {
        const open = list.filter((t, i) => !t.closed && (i === 0 || t.opened)).map((t) => t.id)
        state.tabGroup = await tabs.group(open, `Ava: ${state.request.slice(0, 40)}`, state.tabGroup)
      },
    },
    ins,
  )
}

/** The run's tabs for this turn's prompt; on its first turn, the tabs the request names join it. */
async function tabsTurn(run: Run, first: boolean): Promise<string> {
  const { state, ports } = run
  if (!ports.tabs) return ''
  const list = (state.tabs ??= [{ id: state.tabId, opened: false }])
  if (first) {
    const others = await ports.tabs.others(state.tabId).catch(() => [])
    for (const t of namedTabs(state.request, others))
      if (!list.some((x) => x.id === t.id)) list.push({ id: t.id, opened: false, named: true })
  }
  const infos = await ports.tabs.info(list.map((t) => t.id)).catch(() => [])
  const hidden = await hiddenOf(run)
  const lines = tabLines(list, infos, state.tabId).map((l) => (hidden.length ? redactText(l, hidden) : l))
  return `\n${describeTabs(lines)}`
}

/** The run follows a link into a new tab: the new tab's panel opens on the same conversation. */
function moveTab(run: Run, to: number): void {
  const from = run.state.tabId
  if (from === to) return
  run.state.tabId = to
  run.ports.store.moveTab(from, to)
  void save(run)
}

/**
 * A registry action (run_action): its steps pass the agent's own gate. The declared
 * risk is a floor: `high` asks before the action starts, and every page step still goes through
 * the page's risk check and counts against the step limit. Secrets in its args stay in the vault,
 * and their values are returned so that what the action reports is redacted like a typed step.
 */
async function runRegistryAction(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<{ out: ExecOutcome; secrets: string[] }> {
  const { ports, state, settings } = run
  const name = ins.params.action!
  let steps = 0
  try {
    const found = await ports.actions.lookup(name)
    if (!found.ok)
      return {
        out: {
          ok: false,
          code: 'INVALID',
          message: `${found.message} ${found.suggestion ?? ''}`.trim(),
          msg: msg('outcome.step.actionUnknown', { action: name }),
        } as ExecFailure,
        secrets: [],
      }
    const vault = await ports.secrets.vault()
    // A pack's own `${env.X}` types a saved secret as surely as a `${secret:X}` arg does: the same
    // binding and question (red-team finding 4: an installed pack's env reached any site unasked).
    const envNames = (found.env ?? []).filter((n) => vault[n] !== undefined)
    // [trust] An arg that writes a vault value out in any shape is that secret too (redact.ts).
    const plainArgs = Object.values(ins.params.args ?? {}).flatMap((v) =>
      typeof v === 'string' ? plainSecrets({ params: { value: v } }, vault).value : [],
    )
    const named = [
      ...new Set([
        ...Object.values(ins.params.args ?? {}).flatMap((v) => (typeof v === 'string' ? secretNames(v) : [])),
        ...envNames,
        ...plainArgs,
      ]),
    ]
    const here = await ports.page.url(state.tabId)
    let origin = originOf(here) ?? ''
    if (named.length) {
      // Bound to their sites as a typed step's secrets are (core/gate/guard.ts `bindSecrets`).
      const binding = bindSecrets(named, await ports.secrets.sites(), here)
      if (!binding.ok)
        return {
          out: {
            ok: false,
            code: 'SECRET_UNBOUND',
            message: `${name}: ${binding.message}`,
            msg: msg('outcome.step.secretUnbound', { names: binding.unbound.join(', '), site: binding.origin ?? '' }),
          } as ExecFailure,
          secrets: [],
        }
      origin = binding.origin
    }
    // The action's own questions, before its first step (core/gate/guard.ts `actionQuestions`): a
    // pack reading fields or sending page data off its sites, a `high` risk, a saved secret it
    // types. A secret the person named in their own request is not asked about again unless they
    // confirm credentials. That yes covers the typing of those credentials; the page still asks
    // about anything else the action touches.
    const requested = new Set(secretNames(state.request))
    const confirmsCredentials = settings.safety.confirm.includes('credentials') || named.some((n) => !requested.has(n))
    const questions = actionQuestions(
      { name, risk: found.risk === 'high' ? 'high' : 'low', params: {}, capabilities: found.capabilities },
      { secrets: named.length > 0, url: here },
      confirmsCredentials ? [...settings.safety.confirm, 'credentials'] : settings.safety.confirm,
    )
    let asks = settings.safety.confirm
    for (const q of questions) {
      const reason =
        q.category === 'credentials'
          ? `${kRiskReasons.credentials}: ${name} types the saved secret ${named.join(', ')} into a field on ${origin}`
          : q.reason
      const ask =
        q.category === 'packData'
          ? riskAsk('packData', { step: stepName(view), ...q.params })
          : q.category === 'credentials'
            ? riskAsk('actionSecret', { step: stepName(view), action: name, names: named.join(', '), site: origin })
            : riskAsk('high_risk_action', { step: stepName(view), action: name })
      const answer = await confirm(run, view, reason, ask)
      if (answer !== true)
        return {
          out: refused(
            refusalOf(
              { message: reason, category: q.category === 'packData' ? undefined : q.category },
              answer,
              'start',
            ),
          ),
          secrets: [],
        }
      if (q.category === 'credentials') asks = asks.filter((c) => c !== 'credentials')
    }
    const params: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(ins.params.args ?? {}))
      params[k] = typeof v === 'string' ? resolveSecrets(v, (n) => vault[n]).value : v
    const secrets = named.map((n) => vault[n]).filter((v): v is string => !!v)
    // A refusal or the limit ends the whole action: its signal aborts, so that no retry,
    // fallback or `onError: continue` of the pack tries the step another way.
    const halt = new AbortController()
    let halted: ExecFailure | AvaError | undefined
    const guard: StepGuard = {
      confirm: asks,
      here: () => run.ports.page.url(run.state.tabId),
      async ask(reason, refusal) {
        const answer = await confirm(
          run,
          view,
          refusal ? secretReason(run, refusal, reason) : reason,
          refusal ? pageAsk(view, refusal, run) : riskAsk('step', { step: stepName(view) }),
        )
        if (answer !== true) halt.abort((halted = refused(refusalOf(refusal ?? { message: reason }, answer, 'action'))))
        return answer
      },
      step() {
        if (atLimit(run)) halt.abort((halted = limitError(run)))
        if (halted) throw halted instanceof AvaError ? halted : new Error(halted.message)
        run.count.one()
        steps++
      },
    }
    const r = await ports.actions.run(state.tabId, name, params, AbortSignal.any([run.signal, halt.signal]), guard)
    if (halted instanceof AvaError) throw halted
    if (halted) return { out: halted, secrets }
    const out: ExecOutcome = r.ok
      ? { ok: true, detail: r.text, rung: 'action' }
      : { ok: false, code: isFailureCode(r.code) ? r.code : 'STEP_FAILED', message: r.text }
    return { out, secrets }
  } finally {
    // An action that reached no page step still counts as one.
    if (!steps) run.count.note()
  }
}

/** A step the guard refused (core/gate/guard.ts `refusalOf`): the person's no, nobody there, or a list. */
function refused(r: Refusal): ExecFailure {
  return { ok: false, code: r.code, message: r.message }
}

/** What the step does, as the card names it: the model's description, else its action. */
function stepName(view: StepView): string {
  return view.instruction.description ?? view.instruction.action_type
}

/** The page's question about a step (`refusalAsk`), naming the step as the model described it. */
function pageAsk(view: StepView, out: ExecFailure, run: Run): Msg {
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
function secretReason(run: Run, out: ExecFailure, reason = out.message): string {
  return out.carriesSecret && out.offsite
    ? `Sends the form with the saved secret ${secretsTyped(run)} to another site: ${out.offsite}`
    : reason
}

/**
 * Shows the question in the panel and waits for the answer; Stop counts as no. The card is drawn
 * under the step that asked (`messageId`), so it sits where it was asked, before any answer.
 */
async function confirm(
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
async function askPerson(run: Run, view: StepView, ins: Instruction): Promise<AnswerReport> {
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
async function awaitAnswer(
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

/**
 * A `collect` step: rounds of scroll-and-read in the page until the limit, the
 * list's end or the time budget, with the count shown under the step as it grows; Stop ends it
 * between two rounds. The items go to the next prompt (inside the page block) and, as a table,
 * under the step for the person to save.
 */
async function runCollect(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<{ out: ExecOutcome; secrets: string[] }> {
  const { state, ports, signal } = run
  const round = ports.page.collectRound
  if (!round)
    return {
      out: { ok: false, code: 'INVALID', message: 'Collecting a feed is not available here.' } as ExecFailure,
      secrets: [],
    }
  state.noCache = true // what a feed holds changes: the answer is not a plan to replay
  const limit = ins.params.limit ?? kDefaultCollectLimit
  const target = targetOf(ins.params)
  const session = `${state.id}:${view.index}:${ports.clock.now()}`
  let failure: ExecFailure | undefined
  // [trust] What a feed holds is page text like the listing: a page's echo of a secret, in any shape, is cut out of each item (redact.ts).
  const hidden = await hiddenOf(run)
  const result = await collectItems({
    limit,
    signal,
    now: () => ports.clock.now(),
    round: async (first) => {
      const r = await round(state.tabId, { session, first, ...(target ? { target } : {}) }, signal)
      if ('ok' in r && r.ok === false) {
        failure = r
        return { items: [], moved: false, container: '' }
      }
      return redactDeep(r as Exclude<typeof r, ExecFailure>, hidden)
    },
    onProgress: (n) => void show(run, { ...view, status: 'running', msg: stepResult('collecting', { n, limit }) }),
  })
  if (failure) return { out: failure, secrets: [] }
  if (!result.items.length)
    return {
      out: {
        ok: false,
        code: 'ELEMENT_NOT_FOUND',
        message: 'No list or feed with items was found on the page to collect.',
        msg: msg('outcome.step.nothingToCollect'),
      } as ExecFailure,
      secrets: [],
    }
  run.collected.set(
    view.index,
    result.items.map((i) => (state.shape ? itemForShape(i) : i.cells ? i.cells.join(' | ') : i.text)),
  )
  readItems(run.reading, view.index, run.collected.get(view.index)!, result.items)
  run.tables.set(view.index, clipTable(tableOf(result.items, result.columns)))
  const n = result.items.length
  const why = { limit: 'the limit', end: 'the end of the list', time: 'the time budget', rounds: 'the scroll limit' }[
    result.end
  ]
  return {
    out: {
      ok: true,
      detail: `Collected ${n} items from ${result.container} (stopped at ${why}, ${result.rounds} rounds)`,
      msg: stepResult(result.end === 'limit' ? 'collected' : result.end === 'end' ? 'collectedEnd' : 'collectedTime', {
        n,
      }),
    },
    secrets: [],
  }
}

/**
 * The rows of the shape the run was asked for, read from every item it collected with the
 * model's field map; the values that do not fit are asked about once, in one model call.
 */
async function extractRowsOf(run: Run, fields: Record<string, number | null>): Promise<void> {
  const { state, ports, signal } = run
  const ask = async (prompt: string) => {
    let text = ''
    const res = await ports.llm.stream({
      system: buildSystemPrompt(),
      messages: [{ role: 'user', content: prompt }],
      signal,
      onText: (d) => void (text += d),
    })
    addUsage(state, res.usage)
    return text
  }
  const got = await extractForRun(state.shape!, run.reading.gathered, fields, ask)
  const names = parseShape(state.shape!).fields.map((f) => f.name)
  await ports.chat.patch(state.messageId, { extraction: { fields: names, ...got } })
}

/** A collected table kept in the chat stays under this many characters; rows past it are dropped. */
const kMaxTableChars = 300_000

function clipTable(t: CollectedTable): CollectedTable {
  let used = t.columns.join('').length
  const rows: string[][] = []
  for (const r of t.rows) {
    used += r.reduce((a, c) => a + c.length, 0)
    if (used > kMaxTableChars) break
    rows.push(r)
  }
  return { columns: t.columns, rows }
}

/** AI fallback for one step: the candidates go to the model, its one instruction runs. */
async function repairStep(
  run: Run,
  failed: NonNullable<Failure['step']>,
  page: PageContext,
): Promise<{ ok: true; report: StepReport; instruction: Instruction } | { ok: false }> {
  const { state, ports, signal } = run
  const candidates: Candidate[] = failed.outcome.candidates ?? []
  const fresh = await unechoed(
    run,
    await ports.page.read(state.tabId, failed.instruction.description ?? state.request, { signal }).catch(() => page),
  )
  // [trust] The failed step as recorded: a vault value it wrote out, in any shape, stays out (redact.ts).
  const hidden = Object.values(await ports.secrets.vault().catch(() => ({})))
  const prompt = buildRepairPrompt(
    {
      instruction: redactInstruction(failed.instruction, { sensitive: false, secrets: hidden }),
      error: redactText(failed.outcome.message, hidden),
      candidates,
    },
    fresh,
  )
  let text = ''
  const t0 = ports.clock.now()
  try {
    const res = await ports.llm.stream({
      system: buildSystemPrompt(),
      messages: [{ role: 'user', content: prompt }],
      signal,
      onText: (d) => void (text += d),
    })
    addUsage(state, res.usage)
    run.recorder.model({
      at: t0,
      ms: ports.clock.now() - t0,
      system: buildSystemPrompt(),
      messages: [{ role: 'user', content: prompt }],
      output: text,
      tokens: res.usage,
      aside: true,
    })
  } catch {
    if (signal.aborted) throw signal.reason
    return { ok: false }
  }
  const first = extractFirstInstruction(text)
  if (!first) return { ok: false }
  const view: StepView = {
    index: failed.index,
    instruction: { ...first, description: first.description ?? failed.instruction.description },
    status: 'pending',
  }
  let recorded = view.instruction
  const out = await runOneStep(run, view, (r) => (recorded = r))
  if (!out.ok) return { ok: false }
  await show(run, {
    ...view,
    instruction: recorded,
    status: 'ok',
    detail: `${out.detail} (repaired)`,
    msg: msg('step.repaired'),
    rung: 'ai',
  })
  return {
    ok: true,
    instruction: view.instruction,
    report: {
      index: view.index,
      action: first.action_type,
      description: first.description,
      ok: true,
      detail: out.detail,
    },
  }
}

function extractFirstInstruction(text: string): Instruction | null {
  let found: Instruction | null = null
  const s = createInstructionSplitter({
    prose: () => undefined,
    element: (raw, index) => {
      if (found) return
      const r = readInstructionText(raw, index)
      if (r.success && r.data.action_type !== 'done') found = r.data
    },
  })
  s.push(text)
  s.end()
  return found
}

/**
 * The person's one review of a remembered plan that page content could have shaped: its risky
 * steps listed in the chat; a yes marks it reviewed and replays it, a no plans afresh.
 */
async function reviewPlan(run: Run, hit: CacheEntry): Promise<boolean> {
  const p = hit.provenance!
  const view: StepView = {
    index: 0,
    instruction: { step_id: 1, action_type: 'verify', params: { assertion: '' }, description: hit.request },
    status: 'pending',
  }
  const { draw } = run.ports.page
  if (draw) {
    // [trust] The review is the plan's one approval: every element as drawn now, each step bound to its own.
    const steps = await previewCachedPlan((t) => draw(run.state.tabId, t, run.signal), hit.steps)
    if (!steps.length && !needsReview(hit)) return true // nothing to list, nothing that asks
    const yes = (await confirm(run, view, planQuestion(hit.request, steps), planAsk(hit.request, steps))) === true
    if (yes) run.plan = approvePlan(steps)
    if (yes) await run.ports.cache.reviewed?.(hit.key)
    return yes
  }
  const steps = p.risky.map((r) => `${r.index + 1}. ${r.text}`).join('; ')
  const yes =
    (await confirm(run, view, reviewQuestion(hit.request, p), riskAsk('cachedPlan', { step: hit.request, steps }))) ===
    true
  if (yes) await run.ports.cache.reviewed?.(hit.key)
  return yes
}

/** A cached plan, replayed with no LLM call; a step that fails is repaired for that step only. */
async function replay(run: Run, entry: { key: string; steps: Instruction[] }): Promise<void> {
  const { state, ports, signal } = run
  state.replay = true
  await setStatus(run, 'running')
  const repaired: { index: number; instruction: Instruction }[] = []
  for (const [index, ins] of entry.steps.entries()) {
    if (signal.aborted) throw signal.reason
    const view: StepView = { index, instruction: ins, status: 'pending' }
    void show(run, view)
    const out = await runOneStep(run, view)
    if (out.ok) continue
    // A repaired step was never shown: from here on each step is judged as any other.
    run.plan = undefined
    const page = await ports.page.read(state.tabId, state.request, { signal })
    const fixed = isRepairable(out.code)
      ? await repairStep(run, { index, instruction: ins, outcome: out }, page)
      : { ok: false as const }
    if (!fixed.ok) {
      await ports.cache.remove(entry.key) // the page has moved on; next time plan afresh
      return finish(
        run,
        'failed',
        new AvaError(
          'STEP_FAILED',
          `Replaying the saved steps failed at step ${index + 1}: ${out.message} The saved steps were dropped; ask again to plan afresh.`,
          { msg: msg('outcome.replayFailed', { n: index + 1 }), step: true },
        ),
      )
    }
    repaired.push({ index, instruction: redactInstruction(fixed.instruction, { sensitive: false }) })
  }
  await Promise.all([ports.cache.recordHit(entry.key, repaired), finish(run, 'done')])
}

function addUsage(state: RunState, u: { inputTokens?: number; outputTokens?: number }) {
  state.usage.input += u.inputTokens ?? 0
  state.usage.output += u.outputTokens ?? 0
}

/** The end of every run: the reason shown, unfinished steps marked skipped, the usage, the cache, the status. */
async function finish(run: Run, status: RunStatus, error?: AvaError, answer?: string): Promise<void> {
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
  const pointed = state.executed.some((i) => i.params.x !== undefined || i.action_type === 'drag')
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

function toAvaError(e: unknown): AvaError {
  if (e instanceof AvaError) return e
  const code = (e as { code?: string })?.code
  // A runtime's own words ("message channel closed…") are kept for the details, never said as the message.
  const raw = String((e as Error)?.message ?? e)
  return new AvaError(code === 'NO_PAGE' ? 'NO_PAGE' : 'UNKNOWN', raw, { details: raw })
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

/** Whether the page's challenge is offered to the person on its own: once per page, and not when the person gave a code. */
function offersTakeover(run: Run, page: PageContext): boolean {
  const key = `${page.challenge!.kind} ${page.url.split(/[?#]/)[0]}`
  if (run.state.handedOver?.includes(key)) return false
  // "Sign in with code 428913": the code is the person's own words, and the model may type it.
  // So is a saved secret they name (a code kept in the vault): the vault's own rules bind it to its sites.
  if (page.challenge!.kind === 'code' && (personGaveCode(run.personWords) || run.personWords.some(namesSecret)))
    return false
  ;(run.state.handedOver ??= []).push(key)
  return true
}

/** What the model is told of a code field or CAPTCHA known only by its words: Ava's sentence, no page text in it. */
function challengeNote(c: Challenge): string {
  return c.kind === 'captcha'
    ? 'Ava sees a CAPTCHA on this page: only the person solves it. Do not try; if the task needs it, write ask so they can do it themselves.'
    : 'Ava sees a one-time code field on this page: a code sent to the person, which only they have. Never type a code the person did not give you; if the task needs it, write ask so they can enter it themselves.'
}

/** `${secret:NAME}`: a value the person saved in the vault. */
function namesSecret(text: string): boolean {
  return /\$\{secret:[^}]+\}/.test(text)
}

/** An `input` into a code field the page draws, of a value that is not in the person's own words: a code the model made up. */
function inventedCode(run: Run, ins: Instruction): boolean {
  const c = run.challenge
  if (!c || c.kind !== 'code' || ins.action_type !== 'input') return false
  const value = ins.params.value ?? ''
  if (namesSecret(value)) return false // the person's saved secret: bound and asked about as any other
  // Into a listed code field, or — named some other way (a selector, words) — a value shaped like a code.
  const intoCode = ins.params.target_id ? c.fields.includes(ins.params.target_id) : codeShaped(value)
  return intoCode && !codeFromPerson(value, run.personWords)
}

/**
 * Hands the page to the person (docs/agent.md, "Taking over"): a card says Ava is waiting, with
 * Resume and Stop; the run waits (status `waiting`) as for an `ask`, across navigations and a
 * worker restart, then goes on with what changed meanwhile. Rejects when the run is stopped.
 */
async function takeOver(
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
