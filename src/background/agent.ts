import { instructionLoads } from '../core/vocabulary'
import browser from 'webextension-polyfill'
import type { RunView } from '../core/chat'
import type { AgentPorts, PersonAnswer } from '../core/agent/ports'
import { beginRun, checkRequest, resumeRun, runAgent } from '../core/agent/run'
import type { PauseSwitch } from '../core/agent/context'
import { isActive, type PlannerMessage, type RunState } from '../core/agent/state'
import type { ModelMessage } from 'ai'
import { captureMarked } from './screenshot'
import { AvaError } from '../core/errors'
import { avaError, msg } from '../core/agent/outcome'
import type { ExecFailure } from '../core/exec'
import { activeLlm, type Settings, type ShowPlans } from '../core/settings'
import { historyStore, runStore, tabStore } from '../storage/conversation'
import { settingsStore } from '../storage/settings'
import { vaultSitesStore, vaultStore } from '../storage/vault'
import * as cache from './agent-cache'
import {
  actionCapabilities,
  actionEnvNames,
  describeResult,
  engineFor,
  getRegistry,
  packVersions,
  relevantActions,
} from './actions'
import { chatWriter, conversationOf, newId, originOf, readHistory } from './conversation'
import { streamCompletion } from './llm'
import { emitToPanels } from './panels'
import { execInPage, navigate, pageContext, sendCommand, tabUrl } from './page'
import { trackRequests } from './requests'
import { navigationSettled } from './tabs'
import { pageUrl, type SitePolicy, type TabGate } from '../core/offsite'
import { siteOf } from '../core/host'
import { allowDomain, guardTab, moveGuard, releaseTab, watchOffsite } from './offsite'
import { checkAttachments, infoOf, placeAttachments, type Attachment } from '../core/agent/attachments'
import { dropAttachments, heldAttachments, keepAttachments } from './attachments'
import { dropServed, servedFilesPort } from './downloads'
import { forgetServed } from '../core/agent/files-step'
import { questions, waitInTab } from './questions'
import { tabsPort } from './run-tabs'
import { keepRecord } from '../storage/records'
import { siteNotesStore } from '../storage/schedules'
import { notesFor } from '../core/site-notes'

/**
 * The agent's wiring: the run itself is src/core/agent/run.ts; this file builds its
 * ports from the worker's pieces and keeps the runs of this worker's lifetime, one per tab, to
 * stop them and pass them the person's answers. A run's state lives in chrome.storage.session, so
 * a run goes on across page loads and resumes after the worker is stopped.
 */
interface Live {
  id: string
  controller: AbortController
  /** Resolves the pending `ask` (the person's own words, or Continue). */
  reply?: (answer: PersonAnswer) => void
  /** The person pressed Pause: the run stops before its next step (docs/agent.md, "Taking over"). */
  pause?: boolean
  /** A load the tab's guard refused while the run was here: if the run ended otherwise, it is said after. */
  blocked?: { tabId: number; message: string }
}

/** The run's side of Pause: it asks whether Pause was pressed and takes it when it stops. */
function pauseOf(me: Live): PauseSwitch {
  return { requested: () => !!me.pause, clear: () => (me.pause = false) }
}
const live = new Map<number, Live>()
/**
 * Answers that came while no run was there to take them: the worker had been stopped and the run
 * is being resumed (resumeRuns); the resumed run takes its answer from here. By run id.
 */
const mailbox = new Map<string, PersonAnswer>()

// A guarded tab tried to leave for a site nobody allowed: the rules stopped the load, the run ends
// with the reason. Registered at the top level, with the worker's other listeners. A run that had
// already ended, or was ending (its model said done in the reply whose click sent the form), is not
// stopped by it: the person is told in the tab's conversation instead (`launch`).
watchOffsite((tabId, message, kind) => {
  const run = live.get(tabId)
  if (!run) return void sayBlockedAfterRun(tabId, message)
  run.blocked = { tabId, message }
  run.controller.abort(
    new AvaError('STEP_FAILED', message, {
      msg: msg(kind === 'program' ? 'outcome.blockedResponse' : 'outcome.offsite'),
      details: message,
    }),
  )
})

function sayBlockedAfterRun(tabId: number, message: string): Promise<unknown> {
  return conversationOf(tabId)
    .then((origin) =>
      chatWriter(origin, () => tabId).add({
        role: 'system',
        kind: 'error',
        text: message,
        msg: msg('outcome.blockedAfterRun'),
        details: message,
      }),
    )
    .catch(() => undefined)
}

/** How long a collect step's named list may take to appear on the page. */
const kCollectLocateMs = 5_000

function sitesOf(settings: Settings): SitePolicy {
  return { allow: settings.safety.allowDomains, deny: settings.safety.denyDomains }
}

/** The gate of a run that starts on `url`: its own site, the lists, and whether other sites ask first. */
function gateOf(url: string, settings: Settings): TabGate {
  // By site, as the page's own check (core/offsite.ts `offsiteOf`): the rules let through the
  // run's registrable domain and its subdomains, not other sites under a shared suffix.
  return {
    site: (pageUrl(url, '') && siteOf(url)) ?? '',
    allowed: [],
    policy: sitesOf(settings),
    crossSite: settings.safety.confirm.includes('cross_site'),
  }
}

/** The runs in flight and the address each one's tab shows: a download is bound to one of them (background/downloads.ts). */
export async function liveRuns(): Promise<{ id: string; tabUrl: string }[]> {
  return Promise.all([...live].map(async ([tabId, r]) => ({ id: r.id, tabUrl: await tabUrl(tabId).catch(() => '') })))
}

export function isRunning(tabId: number): boolean {
  return live.has(tabId)
}

export async function runView(tabId: number): Promise<RunView | null> {
  const s = await runStore(tabId).get()
  return s ? { id: s.id, status: s.status, messageId: s.messageId } : null
}

export async function startRun(
  tabId: number,
  text: string,
  /** `plans`: which remembered plans show their card; a schedule keeps only those that ask (docs/plan-approval.md). */
  opts: { noCache?: boolean; files?: Attachment[]; shape?: Record<string, unknown>; plans?: ShowPlans } = {},
): Promise<string> {
  checkRequest(text)
  const files = checkAttachments(opts.files)
  if (live.has(tabId))
    throw Object.assign(new Error('Ava is already working on a request in this tab. Stop it first.'), { code: 'BUSY' })
  const stored = await settingsStore.get()
  const settings = opts.plans ? { ...stored, safety: { ...stored.safety, showPlans: opts.plans } } : stored
  const url = await tabUrl(tabId)
  const origin = originOf(url)
  const me: Live = { id: newId('run'), controller: new AbortController() }
  const ports = portsFor(me, origin, tabId, settings)
  await guardTab(tabId, gateOf(url, settings))
  const state = await beginRun(ports, settings, {
    id: me.id,
    tabId,
    request: text,
    url,
    origin,
    noCache: opts.noCache,
    attachments: files.map(infoOf),
    ...(opts.shape ? { shape: opts.shape } : {}),
  }).catch(async (e) => {
    await releaseTab(tabId)
    throw e
  })
  // Each file belongs to the site it was attached on: an upload elsewhere asks (src/core/step-place.ts).
  await keepAttachments(state.id, placeAttachments(files, origin))
  launch(me, state, () => runAgent(state, ports, { settings, signal: me.controller.signal, pause: pauseOf(me) }))
  return state.id
}

export function stopRun(tabId: number): boolean {
  const run = live.get(tabId)
  if (!run) return false
  run.controller.abort(avaError('UNKNOWN', 'Stopped by you.', msg('outcome.stopped')))
  return true
}

/** Pause: the tab's run stops before its next step and hands the person the page; false when none runs. */
export function pauseRun(tabId: number): boolean {
  const run = live.get(tabId)
  if (!run || run.controller.signal.aborted) return false
  run.pause = true
  return true
}

/**
 * The person's answer to a run's `ask`: to the run waiting on it, or — after a worker restart, before
 * the run is resumed — kept for it. Refused when no question of that run is open (it was stopped or
 * ended) or when the answer is blank: the panel says which, in the person's language.
 */
export async function answerAsk(
  tabId: number,
  runId: string,
  answer: PersonAnswer,
): Promise<{ ok: true } | { ok: false; reason: 'closed' | 'empty' }> {
  if ('text' in answer && !answer.text.trim()) return { ok: false, reason: 'empty' }
  const run = live.get(tabId)
  // Stopped: the run is ending, whatever its stored state says for the moment.
  if (run?.id === runId && run.controller.signal.aborted) return { ok: false, reason: 'closed' }
  if (run?.id === runId && run.reply) {
    run.reply(answer)
    return { ok: true }
  }
  const state = await runStore(tabId).get()
  if (!state || state.id !== runId || state.status !== 'waiting' || !state.pendingAsk)
    return { ok: false, reason: 'closed' }
  mailbox.set(runId, answer)
  if (!launched.has(runId)) await resumeRuns()
  return { ok: true }
}

/** The ids of the runs this worker has started or resumed, for as long as it lives. */
const launched = new Set<string>()

/** Runs that were in flight when the worker stopped: core decides whether each goes on or ends. */
export async function resumeRuns(): Promise<void> {
  const all = await browser.storage.session.get(null)
  const settings = await settingsStore.get()
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith('run:')) continue
    const state = value as RunState
    // A run this worker started is no run to resume: only a restarted worker finds runs it does
    // not know (the wake alarm calls this every 30 s while a stored run looks active).
    if (!state || !isActive(state.status) || live.has(state.tabId) || launched.has(state.id)) continue
    const me: Live = { id: state.id, controller: new AbortController() }
    const ports = portsFor(me, state.origin, state.tabId, settings)
    launch(me, state, () => resumeRun(state, ports, { settings, signal: me.controller.signal, pause: pauseOf(me) }))
  }
}

/** Holds the run in this worker's table while it runs, under whichever tab it is in. */
function launch(me: Live, state: RunState, run: () => Promise<RunState>): void {
  launched.add(state.id)
  const untrack = trackRequests()
  live.set(state.tabId, me)
  void run().finally(() => {
    untrack()
    // A run that ended has no question open; one left (a race with Stop) is closed as a no.
    questions.end(state.id)
    void dropAttachments(state.id).catch(() => undefined)
    void dropServed(state.id).catch(() => undefined)
    forgetServed(state.id)
    for (const [tabId, r] of live) {
      if (r !== me) continue
      live.delete(tabId)
      // The guard stays until a navigation the run's last step started has been judged by it (a
      // form posted just before done, answered slowly with a program); a new run in this tab may
      // have started meanwhile, and then its guard stays (background/offsite.ts).
      void navigationSettled(tabId)
        .then(() => releaseTab(tabId, () => live.has(tabId)))
        .catch(() => undefined)
    }
    // A refusal that came while the run was finishing did not end it: said now, unless the run said it.
    if (me.blocked) void sayBlockedUnsaid(me.blocked.tabId, me.blocked.message).catch(() => undefined)
  })
}

async function sayBlockedUnsaid(tabId: number, message: string): Promise<void> {
  const origin = await conversationOf(tabId)
  const recent = (await readHistory(origin)).messages.slice(-5)
  if (!recent.some((m) => m.text === message || m.details === message)) await sayBlockedAfterRun(tabId, message)
}

/** A planner turn as the AI SDK takes it: the screenshot, if any, as an image part before the words. */
function withImage(m: PlannerMessage): ModelMessage {
  if (!m.image || m.role !== 'user') return { role: m.role, content: m.content }
  return {
    role: 'user',
    content: [
      { type: 'image', image: m.image.data, mediaType: m.image.mediaType },
      { type: 'text', text: m.content },
    ],
  }
}

/** The run's ports, built from the worker's own functions. */
function portsFor(me: Live, origin: string, startTab: number, settings: Settings): AgentPorts {
  let tabId = startTab
  let savedTab = startTab
  const chat = chatWriter(origin, () => tabId)
  // The host of the last step that asked to go to another site: a yes lets the gate through.
  let offsite: string | undefined
  const allowUrl = async (tab: number, url: string) => {
    const u = pageUrl(url, await tabUrl(tab))
    if (u) await allowDomain(tab, u.host)
  }
  return {
    llm: {
      stream: ({ system, messages, signal, onText, onThinking, onSlowStart }) =>
        streamCompletion({
          llm: activeLlm(settings),
          system,
          messages: messages.map(withImage),
          signal,
          onText,
          onThinking,
          onSlowStart,
          structured: { profileId: settings.activeProfile },
        }),
    },
    page: {
      read: (tab, request, { signal, settle, sections }) => pageContext(tab, request, signal, settle, sections),
      async exec(tab, instruction, opts) {
        if (opts.confirmed && offsite) await allowDomain(tab, offsite)
        // The run checked the lists and asked before a `navigate` reaches here.
        if (instructionLoads(instruction.action_type) && instruction.params.url)
          await allowUrl(tab, instruction.params.url)
        const out = await execInPage(tab, instruction, { ...opts, sites: sitesOf(settings) })
        offsite = !out.ok && out.code === 'NEEDS_CONFIRMATION' ? out.offsite : undefined
        return out
      },
      // A page named in the person's own request, already checked against the lists.
      navigate: async (tab, url, signal) => (await allowUrl(tab, url), navigate(tab, url, signal)),
      async collectRound(tab, { session, first, target }, signal) {
        const out = await sendCommand(
          tab,
          { kind: 'collect', session, first, ...(target ? { target } : {}), timeoutMs: kCollectLocateMs },
          { signal },
        )
        return out.ok ? out.round : out
      },
      url: (tab) => tabUrl(tab),
      async draw(tab, targets, signal) {
        const out = await sendCommand(tab, { kind: 'draw', targets, timeoutMs: 0 }, { signal })
        return out.ok ? out.drawn : targets.map(() => null)
      },
      screenshot: (tab, signal, typed) => captureMarked(tab, settings, signal, typed),
    },
    actions: {
      relevant: async (request) => relevantActions(request, undefined, await tabUrl(tabId)),
      async lookup(name) {
        const found = (await getRegistry()).lookup(name)
        return found.ok
          ? {
              ok: true,
              risk: found.action.risk,
              env: (await actionEnvNames(name)).names,
              capabilities: await actionCapabilities(name),
            }
          : { ok: false, message: found.message, suggestion: found.suggestion }
      },
      async run(tab, name, params, signal, guard) {
        // A pack's links and submits meet the lists and the off-site question as the model's own do.
        const gated = guard && {
          ...guard,
          sites: sitesOf(settings),
          allowed: async (refusal: ExecFailure) => void (refusal.offsite && (await allowDomain(tab, refusal.offsite))),
        }
        const r = await (await engineFor(tab, gated)).run(name, params, { signal })
        return { ok: r.success, text: describeResult(r).replace(/\*\*/g, ''), code: r.error?.code }
      },
    },
    cache: {
      key: async (request, url) => cache.cacheKey(request, url, await packVersions()),
      lookup: (key) => cache.lookup(key),
      save: (entry) => cache.save(entry),
      // A repaired plan is asked about in the run's chat, not written back.
      recordHit: (key, repaired) => cache.recordHit(key, repaired, chat),
      remove: (key) => cache.remove(key),
      reviewed: (key) => cache.markReviewed(key),
    },
    store: {
      async save(state) {
        // The run moved into another tab: the tab it left no longer shows it.
        if (state.tabId !== savedTab) {
          await runStore(savedTab).set(null)
          savedTab = state.tabId
        }
        await runStore(state.tabId).set(state)
        emitToPanels(
          state.tabId,
          { type: 'status', run: { id: state.id, status: state.status, messageId: state.messageId } },
          0,
        )
      },
      moveTab(from, to) {
        // At once, before the new tab's page asks whether a run is active and its panel open.
        tabId = to
        void moveGuard(from, to, gateOf(origin, settings)).catch(() => undefined)
        if (live.get(from) === me) live.delete(from)
        live.set(to, me)
        void tabStore(to).set({ panelOpen: true })
      },
    },
    chat: {
      ...chat,
      async messages() {
        await chat.flush()
        return (await historyStore(origin).get()).messages
      },
    },
    ask: {
      answer: ({ runId }, signal) =>
        new Promise<PersonAnswer>((resolve, reject) => {
          const kept = mailbox.get(runId)
          if (kept) {
            mailbox.delete(runId)
            return resolve(kept)
          }
          me.reply = (answer) => {
            me.reply = undefined
            resolve(answer)
          }
          signal.addEventListener('abort', () => ((me.reply = undefined), reject(signal.reason)), { once: true })
        }),
      // The card run.ts wrote waits in the one registry, as every other question does
      // (src/background/questions.ts): answered from the panel of the tab the run is in now.
      confirm: ({ cardId }, signal) => waitInTab(tabId, cardId, me.id, signal),
    },
    secrets: { vault: () => vaultStore.get(), sites: () => vaultSitesStore.get() },
    attachments: { held: () => heldAttachments(me.id) },
    files: servedFilesPort(me.id),
    tabs: tabsPort(),
    record: { save: (r) => keepRecord(r) },
    notes: { forUrl: async (url) => notesFor(await siteNotesStore.get(), url) },
    clock: { now: () => Date.now() },
  }
}
