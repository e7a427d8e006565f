import { createStepCount } from '../gate/guard'
import { isSendable, kMaxRequestChars, type ChatMessage } from '../chat'
import { AvaError } from '../errors'
import { isRepairable } from '../failure'
import { screenshotNote } from './vision'
import { activeLlm, domainAllowed, type Settings } from '../settings'
import { urlInRequest } from './cache-key'
import type { AgentPorts } from './ports'
import {
  buildFollowUp,
  buildUserPrompt,
  compactPage,
  earlierAnswer,
  forgetPage,
  type AnswerReport,
  type PageContext,
  type StepReport,
} from './prompt'
import { avaError, msg } from './outcome'
import { needsReview } from './provenance'
import { showsEveryPlan } from './plan-approval'
import type { PlannerMessage, RunState } from './state'
import type { AttachmentInfo } from './attachments'
import { servedTurn } from './files-step'
import { namesOnePage } from './tabs'
import { createRunRecorder } from './record'
import { groundingOf, newReading, readPage } from './sources'
import { shapeNote } from './extraction'
import { parseShape } from '../extract/shape'
import { describeTakeover, pageChanges, pageSeen } from './takeover'
import {
  type RunOptions,
  type Run,
  acts,
  setStatus,
  say,
  atLimit,
  limitError,
  limitErrorOf,
  compact,
  unechoed,
  toAvaError,
} from './context'
import { awaitAnswer } from './ask'
import { offersTakeover, challengeNote, takeOver } from './handover'
import { tabsTurn } from './tab-step'
import { extractRowsOf } from './collect'
import { finish } from './finish'
import { screenshotFor, planAndAct, cutError, type Batch } from './turn'
import type { CacheEntry } from '../instruction/cache-entry'
import { repairStep, reviewPlan, replay } from './replay'

/**
 * The agent's run: plan → stream → act (→ confirm, → repair) → plan again,
 * until the model says `done`, the step limit or the loop guard ends it, or the person stops it.
 * Everything outside — the model, the page, storage, the person's answers, the clock — comes
 * through the ports (ports.ts), so each transition is tested on Node (test/core/agent/run.test.ts)
 * and the service worker only wires (src/background/agent.ts).
 *
 * The state that must outlive the worker is `RunState`, saved at every status change and every
 * step; what the run shows (its steps, its text) is kept in its `Run` (context.ts) and only written,
 * never read back. The run's parts: docs/agent.md, "The run's parts".
 */

const kHistoryContext = 6 // earlier requests and answers of the site the planner sees

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

/** Replies in a row cut at the token limit before any step: after this many the run ends (a limit too small for one step). */
const kMaxCutTurns = 3

/** What the drive loop carries from one reply to the next. */
interface Loop {
  resumed: boolean
  /** The last reply's step reports, and the person's answer to its `ask` or take-over. */
  results: StepReport[]
  answer?: AnswerReport
  /** What the model is told first in the next turn (a cut reply, an invalid one, a challenge, a take-over). */
  note?: string
  regenerated: boolean
  cutTurns: number
}

async function drive(
  run: Run,
  resumed: boolean,
  carried?: { results: StepReport[]; answer: AnswerReport },
): Promise<void> {
  const { state, signal, ports } = run
  try {
    let pendingNav: Promise<unknown> | null = null
    if (!resumed && state.iteration === 0) {
      const opening = await openingOf(run)
      if (opening.hit) {
        await opening.nav
        return await replay(run, opening.hit)
      }
      pendingNav = opening.nav
    }

    const loop: Loop = {
      resumed,
      results: carried?.results ?? [],
      answer: carried?.answer,
      regenerated: false,
      cutTurns: 0,
    }
    for (;;) {
      if (signal.aborted) throw signal.reason
      if (atLimit(run)) return await finish(run, 'failed', limitError(run))
      await pendingNav
      pendingNav = null
      // Paused between two replies: the person has the wheel before the model is asked again.
      if (run.pause?.requested() && ports.ask.answer) {
        loop.answer = await takeOver(run, 'paused', {})
        continue
      }
      await setStatus(run, state.iteration === 0 ? 'planning' : 'running')
      // After steps acted, the page gets to settle (quiet DOM, few requests) before it is read again.
      const page = await unechoed(
        run,
        await ports.page.read(state.tabId, state.request, { signal, settle: state.iteration > 0 || loop.resumed }),
      )
      // A small model's prompt shows less of the page (docs/settings.md, "Prompt profiles").
      const shown = compact(run) ? compactPage(page) : page
      readPage(run.reading, shown)
      run.challenge = page.challenge
      if (loop.answer?.takeover) {
        const { report, before } = loop.answer.takeover
        loop.note = [loop.note, describeTakeover({ ...report, changes: pageChanges(before, pageSeen(shown)) })]
          .filter(Boolean)
          .join('\n')
        loop.answer = undefined
      }
      // [trust] A code sent to the person or a CAPTCHA is theirs: the page goes to them before the
      // model can guess at it, once per page (docs/agent.md, "Taking over").
      if (page.challenge && !page.challenge.sure)
        loop.note = [loop.note, challengeNote(page.challenge)].filter(Boolean).join('\n')
      if (page.challenge?.sure && ports.ask.answer && offersTakeover(run, page)) {
        loop.answer = await takeOver(run, 'challenge', { challenge: page.challenge.kind, page: shown })
        continue
      }
      const { turn, remembered } = await turnOf(run, loop, page, shown)
      const batch = await planAndAct(run, [...run.earlier, ...state.planner, turn])
      // Earlier pages are dropped from the planner's memory: only the newest listing is worth its tokens.
      state.planner.push({ role: 'user', content: forgetPage(remembered) })
      state.planner.push({ role: 'assistant', content: batch.reply })
      state.iteration++
      loop.results = batch.results
      loop.answer = batch.asked
      if (await ended(run, loop, batch, page)) return
    }
  } catch (e) {
    await endOnAbort(run, e)
  }
}

/**
 * A new run's first moves, before the first plan. Parallel navigation: a page named in the request
 * opens while the model plans. A remembered plan for the request is replayed instead of planning.
 */
async function openingOf(run: Run): Promise<{ nav: Promise<unknown> | null; hit?: CacheEntry }> {
  const { state, settings, signal, ports } = run
  let nav: Promise<unknown> | null = null
  // Several addresses are pages to compare in tabs of their own (docs/agent.md, "Tabs"), not one to go to.
  const named = namesOnePage(state.request) ? urlInRequest(state.request) : null
  if (named && named !== state.startUrl && domainAllowed(named, settings.safety)) {
    nav = ports.page.navigate(state.tabId, named, signal).catch(() => undefined)
  }
  if (settings.agent.useCache && !state.noCache) {
    // A plan that uploads names its files: it is kept for the same request with the same files.
    const files = state.attachments?.length ? `\n(files: ${state.attachments.map((f) => f.name).join(', ')})` : ''
    state.cacheKey = await ports.cache.key(state.request + files, state.startUrl)
    const hit = await ports.cache.lookup(state.cacheKey)
    // [trust] A plan page content could have shaped replays only after one review (provenance.ts).
    if (hit && (!(needsReview(hit) || showsEveryPlan(run)) || (await reviewPlan(run, hit)))) return { nav, hit }
  }
  return { nav }
}

/**
 * The model's next turn: the request and the page on the first, else what the last reply's steps
 * did and the page now; the files a page downloaded, the run's tabs, a screenshot when one goes.
 * `remembered` is the turn as the planner keeps it, before its page is forgotten.
 */
async function turnOf(
  run: Run,
  loop: Loop,
  page: PageContext,
  shown: PageContext,
): Promise<{ turn: PlannerMessage; remembered: string }> {
  const { state, ports } = run
  const { resumed, note, answer } = loop
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
          loop.results,
          shown,
          note ??
            (resumed && !answer
              ? 'Ava was restarted; some of your last steps may not have run. Check the page.'
              : undefined),
          answer,
        )
  loop.resumed = false
  loop.note = undefined
  loop.answer = undefined
  // The run's tabs, each turn (docs/agent.md, "Tabs"): where the steps act, what it opened.
  const tabs = await tabsTurn(run, state.iteration === 0)
  // The image goes with this turn only: the planner's memory keeps the words (forgetPage).
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
  return { turn, remembered: userTurn + tabs }
}

/**
 * What the run does after a reply: it ends on the answer, on a failure it cannot repair or on a
 * reply with nothing left to do; a cut reply, an invalid one and a repaired step go on. Says
 * whether the run ended.
 */
async function ended(run: Run, loop: Loop, batch: Batch, page: PageContext): Promise<boolean> {
  const { state, ports } = run
  if (batch.answer !== undefined) {
    if (batch.answer) await say(run, run.text ? `\n\n${batch.answer}` : batch.answer)
    const grounding = groundingOf(run.reading, batch.answer, batch.claims)
    if (grounding) await ports.chat.patch(state.messageId, { grounding })
    if (state.shape) await extractRowsOf(run, batch.fields ?? {})
    await finish(run, 'done', undefined, batch.answer)
    return true
  }
  if (batch.cutAtLimit && !batch.failure) {
    // The provider's token limit cut the reply: the complete steps ran; the model is asked for the rest.
    loop.cutTurns = batch.steps > 0 ? 0 : loop.cutTurns + 1
    const n = batch.cutAtLimit.complete
    await ports.chat.add({
      role: 'system',
      kind: 'info',
      text: `The model's answer was cut off by its token limit after ${n} complete step${n === 1 ? '' : 's'}; Ava ran them and asked for the rest.`,
      msg: msg('outcome.cutAtLimit', { n }),
    })
    if (loop.cutTurns < kMaxCutTurns) {
      loop.note = `Your last reply was cut off by the token limit after ${n} complete step${n === 1 ? '' : 's'}, which ran. Reply with only the remaining steps, shorter.`
      return false
    }
    await finish(run, 'failed', cutError(run.steps.length))
    return true
  }
  if (batch.failure) {
    const f = batch.failure
    if (f.stop) {
      await finish(run, 'stopped', f.error)
      return true
    }
    if (f.step && isRepairable(f.step.outcome.code)) {
      // AI fallback: ask for that one step with the candidates, then go on.
      const fixed = await repairStep(run, f.step, page)
      if (!fixed.ok) {
        await finish(run, 'failed', f.error)
        return true
      }
      loop.results = [...loop.results.slice(0, -1), fixed.report]
      return false
    }
    if ((f.error.code === 'SCHEMA' || f.error.code === 'JSON_PARSE') && !loop.regenerated) {
      loop.regenerated = true
      loop.note = `Your last reply had an invalid instruction: ${batch.modelNote ?? f.error.message} Reply again with valid instructions.`
      return false
    }
    await finish(run, 'failed', f.error)
    return true
  }
  if (batch.steps === 0) {
    await finish(run, 'done') // prose only, or nothing left to do
    return true
  }
  return false
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
