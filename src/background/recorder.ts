import browser from 'webextension-polyfill'
import {
  addFlowToPack,
  applyHeal,
  flowFromEvents,
  flowFromRun,
  flaggedSteps,
  kDefaultFlowNamespace,
  parseFlow,
  replayFlow,
  toDevTools,
  type Flow,
  type FlowPort,
  type FlowRunResult,
  type HealProposal,
  type RawEvent,
  type RecordedTarget,
  type RepairFn,
} from '../core/flows'
import { toPlaywrightSpec } from '../core/flows/playwright'
import { createChannelFlowPort, type BoundSecret, type StepGuard } from '../core/page/channel'
import { approvePlanOnce, createStepCount, drawThrough, guardedRun, previewPlan } from '../core/gate/guard'
import { flowPlanSteps } from '../core/flows/plan'
import { targetOf, type PageCommand, type PageCommandKind, type PageOutcome } from '../core/page/command'
import { urlMatches } from '../core/glob'
import { AvaError } from '../core/errors'
import { refusalAsk, riskAsk } from '../core/agent/outcome'
import { sleep } from '../core/sleep'
import { ProtocolError, sendToTab } from '../messaging'
import { runStore } from '../storage/conversation'
import { draftStore, kMaxEvents, recordingStore, savedFlowsStore, type SavedFlow } from '../storage/flows'
import { userPacksStore } from '../storage/packs'
import { vaultFor } from '../storage/vault'
import { actionCapabilities, boundSecrets, describeResult, engineFor, getRegistry, reloadRegistry } from './actions'
import { chatWriter, conversationOf, newId } from './conversation'
import { askInPanel, askInPopup } from './questions'
import { allowDomain } from './offsite'
import { navigate, sendCommand, tabSender, tabUrl } from './page'
import { settingsStore } from '../storage/settings'
import { confirmFor, type ShowPlans } from '../core/settings'
import { isDocumentGone, takeNewTab, waitForDoc } from './tabs'

/**
 * Record and replay in the background. A recording's events are kept in
 * chrome.storage.session per tab (the worker may stop between two clicks), and the page's
 * recorder is restarted on every document the tab loads until the person stops. Saved flows live
 * in chrome.storage.local with their pending heal proposals; each also becomes an action of a
 * user pack (namespace chosen by the person, default `recorded`).
 */

// ---------------------------------------------------------------------------------------------
// Recording

/** Events of a tab are appended one at a time: storage writes are read-modify-write. */
const queues = new Map<number, Promise<unknown>>()
function serial<T>(tabId: number, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(tabId) ?? Promise.resolve()).then(fn, fn)
  queues.set(
    tabId,
    next.catch(() => undefined),
  )
  return next
}

/** How long a new document gets to load its content script before recording gives up on it. */
const kRecorderStartMs = 15_000
const kRecorderRetryMs = 150

async function setPageRecorder(tabId: number, on: boolean, documentId?: string): Promise<boolean> {
  const deadline = Date.now() + (on ? kRecorderStartMs : 1_000)
  for (;;) {
    try {
      const out = await sendToTab(
        tabId,
        'bg→content:command',
        { kind: 'record', on },
        documentId ? { documentId } : { frameId: 0 },
      )
      return out.ok
    } catch (e) {
      if (Date.now() > deadline || !(e instanceof ProtocolError || isDocumentGone(e))) return false
      await sleep(kRecorderRetryMs)
    }
  }
}

export async function recordingState(
  tabId: number,
): Promise<{ recording: boolean; events: number; startedAt?: number }> {
  const r = await recordingStore(tabId).get()
  return r ? { recording: true, events: r.events.length, startedAt: r.startedAt } : { recording: false, events: 0 }
}

export async function startRecording(tabId: number): Promise<void> {
  const tab = await browser.tabs.get(tabId)
  await recordingStore(tabId).set({ startedAt: Date.now(), startUrl: tab.url ?? '', events: [] })
  await draftStore(tabId).set(null)
  if (!(await setPageRecorder(tabId, true))) {
    await recordingStore(tabId).set(null)
    throw Object.assign(new Error('The page did not answer; reload it and try again.'), { code: 'NO_PAGE' })
  }
}

/** Stops, and turns the events into a draft flow (noise dropped, values as variables). */
export async function stopRecording(tabId: number, name = 'Recorded flow'): Promise<Flow | null> {
  await setPageRecorder(tabId, false)
  await (queues.get(tabId) ?? Promise.resolve())
  const r = await recordingStore(tabId).get()
  await recordingStore(tabId).set(null)
  if (!r) return null
  const draft = flowFromEvents(r.events, { name, source: 'recording', startUrl: r.startUrl })
  if (!draft.steps.length) return null
  const flow = parseFlow(draft)
  await draftStore(tabId).set(flow)
  return flow
}

export function addEvent(tabId: number, event: RawEvent): Promise<boolean> {
  return serial(tabId, async () => {
    const r = await recordingStore(tabId).get()
    if (!r || r.events.length >= kMaxEvents) return false
    r.events.push(event)
    await recordingStore(tabId).set(r)
    return true
  })
}

const kTransitions: Record<string, Extract<RawEvent, { kind: 'navigate' }>['cause']> = {
  typed: 'typed',
  auto_bookmark: 'typed',
  generated: 'typed',
  keyword: 'typed',
  link: 'link',
  form_submit: 'link',
  reload: 'reload',
}

/** Recording goes on across page loads: every new top document gets the recorder again. */
export function watchRecordedTabs(): void {
  browser.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId !== 0) return
    void (async () => {
      if (!(await recordingStore(d.tabId).get())) return
      const qualifiers = (d as { transitionQualifiers?: string[] }).transitionQualifiers ?? []
      const cause = qualifiers.includes('forward_back') ? 'back_forward' : (kTransitions[d.transitionType] ?? 'other')
      await addEvent(d.tabId, { kind: 'navigate', t: Date.now(), url: d.url, cause })
      await setPageRecorder(d.tabId, true, (d as { documentId?: string }).documentId)
    })()
  })
  browser.tabs.onRemoved.addListener((tabId) => {
    void recordingStore(tabId).remove()
    void draftStore(tabId).remove()
  })
}

// ---------------------------------------------------------------------------------------------
// Save as flow from the tab's last agent run

export async function draftFromRun(tabId: number): Promise<Flow | null> {
  const run = await runStore(tabId).get()
  if (!run || !run.executed?.length) return null
  // What each step acted on, as the page described it just before the step.
  const targets: (RecordedTarget | null)[] = run.executed.map((_, i) => run.targets?.[i] ?? null)
  // A step whose answer did not come back (its page navigated first) is looked for on the page now.
  const missing = run.executed.flatMap((ins, i) => (!targets[i] && targetOf(ins.params) ? [i] : []))
  if (missing.length) {
    try {
      const reply = await sendCommand(tabId, {
        kind: 'flow.describe',
        targets: missing.map((i) => targetOf(run.executed[i].params) ?? null),
      })
      if (reply.ok) missing.forEach((i, k) => (targets[i] = reply.targets[k]))
    } catch {
      // The page is gone or elsewhere: the instructions' own locators are kept.
    }
  }
  const flow = flowFromRun(run.executed, targets, {
    name: run.request.slice(0, 80) || 'Agent run',
    request: run.request,
    startUrl: run.startUrl,
  })
  if (!flow.steps.length) return null
  const parsed = parseFlow(flow)
  await draftStore(tabId).set(parsed)
  return parsed
}

export async function currentDraft(tabId: number): Promise<Flow | null> {
  return draftStore(tabId).get()
}

export async function discardDraft(tabId: number): Promise<void> {
  await draftStore(tabId).set(null)
}

/** Saves the draft: into the flows store, and as an action of the namespace's user pack. */
export async function saveDraft(tabId: number, name: string, namespace = kDefaultFlowNamespace): Promise<SavedFlow> {
  const draft = await draftStore(tabId).get()
  if (!draft) throw Object.assign(new Error('There is no recorded flow to save.'), { code: 'FLOW_MISSING' })
  const flow = parseFlow({ ...draft, metadata: { ...draft.metadata, name: name.trim() || draft.metadata.name } })
  const saved = await saveFlow(flow, namespace)
  await draftStore(tabId).set(null)
  return saved
}

export async function saveFlow(flow: Flow, namespace = kDefaultFlowNamespace): Promise<SavedFlow> {
  const packs = await userPacksStore.get()
  const existing = packs[namespace]
  // A flow saved into a built-in's namespace would replace that pack without a word.
  if (!existing && (await getRegistry()).getNamespace(namespace)?.sources.some((s) => s.source === 'builtin')) {
    throw new AvaError(
      'UNKNOWN',
      `"${namespace}" is one of Ava's built-in packs; save the flow under another name, such as "${kDefaultFlowNamespace}".`,
    )
  }
  const pack = addFlowToPack(existing?.text ?? null, flow, { namespace })
  packs[namespace] = {
    namespace,
    version: pack.version,
    text: pack.text,
    enabled: existing?.enabled ?? true,
    origin: existing?.origin ?? 'recorded',
    installedAt: existing?.installedAt ?? Date.now(),
  }
  await userPacksStore.set(packs)
  await reloadRegistry()
  const all = await savedFlowsStore.get()
  const entry: SavedFlow = { id: pack.action, namespace, action: pack.action, flow, savedAt: Date.now(), pending: [] }
  all[entry.id] = entry
  await savedFlowsStore.set(all)
  return entry
}

// ---------------------------------------------------------------------------------------------
// Replay in a tab

/** The FlowPort of a tab: every step one command on the page channel (src/background/page.ts). */
export function tabFlowPort(
  tabId: number,
  guard?: StepGuard,
  secrets?: readonly BoundSecret[],
): FlowPort & { currentTab(): number } {
  // The tab the steps act on: the replay's own until a `tab` step moves it.
  let current = tabId
  /** Tabs the steps opened (a target=_blank link the background opened), newest last, not yet taken. */
  const opened: number[] = []
  let lastSent = Date.now()
  const send = Object.assign(
    async <K extends PageCommandKind>(command: PageCommand<K>, signal?: AbortSignal): Promise<PageOutcome<K>> => {
      lastSent = Date.now()
      const { tabId: after, ...out } = await sendCommand(current, command, { signal })
      // A flow stays in its tab: the new one waits for a `tab` step.
      if (after !== current) opened.push(after)
      return out as PageOutcome<K>
    },
    { tabId: () => current },
  )
  const port = createChannelFlowPort(send, {
    guard,
    // A replay that moves to another site types no saved secret there.
    secrets,
    async navigate(url, signal) {
      const out = await navigate(send.tabId(), url, signal)
      if (!out.ok) throw new Error(out.message)
    },
  })
  return {
    ...port,
    currentTab: () => current,
    async switchTab(to, signal) {
      const next = await pickTab(current, to, opened, lastSent, signal)
      opened.splice(0, opened.indexOf(next.id) + 1)
      current = next.id
      await browser.tabs.update(current, { active: true })
      return { url: next.url }
    },
    // A `run` step (a pack action the agent called): through the registry, its page
    // steps through the same gate as the flow's own.
    async runAction(name, params, signal) {
      // With a guard, the action's own questions come first (core/gate/guard.ts `guardedRun`).
      const r = guard
        ? await guardedRun(
            {
              registry: await getRegistry(),
              // The flow's plan listed this step as the action, not its elements: they are judged as they come.
              guard: { ...guard, plan: undefined },
              url: (await tabUrl(send.tabId()).catch(() => '')) ?? '',
              capabilities: await actionCapabilities(name),
            },
            name,
            params,
            (g) => engineFor(send.tabId(), g),
            { signal },
          )
        : await (await engineFor(send.tabId())).run(name, params, { signal })
      return { ok: r.success, detail: describeResult(r).replace(/\*\*/g, '') }
    },
  }
}

/** How long a `tab` step waits for its tab (Chrome reports a script's new tab a moment late). */
const kTabWaitMs = 5_000

/**
 * The tab a `tab` step names: the newest one the steps opened (a link the background opened, or one
 * a page script opened, which Chrome tells tabs.ts about), the n-th of the window, or the first of
 * the window whose address matches (`*` matches anything). Throws saying what it looked for.
 */
async function pickTab(
  current: number,
  to: { index?: number; url?: string },
  opened: number[],
  since: number,
  signal: AbortSignal,
): Promise<{ id: number; url: string }> {
  const deadline = Date.now() + kTabWaitMs
  const { windowId } = await browser.tabs.get(current)
  for (;;) {
    const tabs = (await browser.tabs.query({ windowId })).sort((a, b) => a.index - b.index)
    let id: number | undefined
    if (to.index !== undefined) id = tabs[to.index]?.id
    else if (to.url !== undefined) id = tabs.find((t) => urlMatches(t.url ?? t.pendingUrl ?? '', to.url!))?.id
    else id = opened.filter((t) => tabs.some((x) => x.id === t)).at(-1) ?? (await takeNewTab(current, since))
    if (id !== undefined) {
      const doc = await waitForDoc(id, { signal })
      return { id, url: doc.url }
    }
    if (Date.now() > deadline || signal.aborted) {
      const what =
        to.index !== undefined
          ? `no tab ${to.index} in this window (there are ${tabs.length})`
          : to.url !== undefined
            ? `no tab at ${to.url}`
            : 'the previous step opened no tab'
      throw new Error(`${what} after ${kTabWaitMs / 1000} s.`)
    }
    await sleep(200, signal)
  }
}

/** The agent's step repair, when the lead wires one in (see setFlowRepair). */
let repairHook: ((tabId: number) => RepairFn | undefined) | undefined

/**
 * For the agent ("the agent repairs that step only"): give a function that, for a tab,
 * returns a RepairFn when an LLM is configured, or undefined. See docs/flows.md.
 */
export function setFlowRepair(hook: (tabId: number) => RepairFn | undefined): void {
  repairHook = hook
}

/**
 * The gate of steps the person started without the agent (a flow replay, `/run`, the popup's
 * Run), as every step passes it: the person's confirm categories and site lists, risky
 * steps asked in the tab's panel (or the popup that started the run) as the agent asks, and the
 * step limit. `tabNow` is the tab its steps act on now (a `tab` step moves them).
 */
export async function replayGuard(
  tabId: number,
  tabNow: () => number,
  name: string,
  opts: { signal?: AbortSignal; popupRun?: string; own?: boolean } = {},
): Promise<StepGuard> {
  const { signal, popupRun } = opts
  const { safety, agent } = await settingsStore.get()
  const chat = popupRun ? null : chatWriter(await conversationOf(tabId), () => tabId)
  // The guard's one count (core/gate/guard.ts): past the limit the replay stops.
  const count = createStepCount(
    agent.stepLimit,
    (n) => new Error(`The replay reached the step limit (${n}) and stopped; raise it in options.`),
  )
  // The replay's questions wait in the one registry under this id (src/background/questions.ts).
  const owner = popupRun ?? newId('replay')
  return {
    // `own`: `/run` or the popup's Run, which may skip the risk questions where the person said so.
    confirm: confirmFor(safety, !!opts.own),
    sites: { allow: safety.allowDomains, deny: safety.denyDomains },
    // The site of the page the steps act on now, not of the tab the replay began in.
    here: () => tabUrl(tabNow()),
    step: () => count.one(),
    async ask(reason, refusal) {
      // The question in the person's language, asked as the agent asks it.
      const ask = refusal ? refusalAsk(name, refusal) : riskAsk('step', { step: name })
      // `popupRun`: the popup's Run asks in the popup that started it, where the person is looking.
      if (popupRun) return askInPopup(popupRun, { id: newId('popupq'), reason: `${name}: ${reason}`, msg: ask }, signal)
      return askInPanel(tabId, chat!, { owner, text: `${name}: ${reason}`, reason, step: count.used, msg: ask }, signal)
    },
    allowed: async (refusal) => void (refusal.offsite && (await allowDomain(tabNow(), refusal.offsite))),
  }
}

/**
 * A flow's one approval (docs/plan-approval.md): the plan card lists every
 * element its steps will act on, drawn now and in order (core/flows/plan.ts), and the yes is the
 * approval its steps then carry through the guard; a no leaves it unplayed. A flow made from a run
 * whose model had a page in front of it (`metadata.page_shaped`) asks it until the person has
 * approved it once, as a cached plan is (core/agent/provenance.ts); where the person replays it
 * and sees `every` plan (`safety.showPlans`), every flow with an element to list asks it.
 */
async function reviewShaped(
  tabId: number,
  entry: SavedFlow,
  guard: StepGuard,
  start: string | undefined,
  signal?: AbortSignal,
  plans: ShowPlans = 'asking',
): Promise<StepGuard> {
  const asks = !!entry.flow.metadata.page_shaped?.length && !entry.reviewedAt
  if (!asks && plans !== 'every') return guard
  const shown = flowPlanSteps(entry.flow.steps, start)
  if (!asks && !shown.length) return guard
  const name = entry.flow.metadata.name
  // [trust] The review is the flow's one approval: every element as drawn now, each step bound to its own.
  const draw = drawThrough(tabSender(tabId), signal ?? new AbortController().signal)
  const approved = await approvePlanOnce(guard, name, await previewPlan(draw, shown))
  if (!approved.ok)
    throw new ProtocolError(
      'REVIEW_DECLINED',
      asks
        ? `Flow "${name}" was not replayed: its page-shaped steps were not approved.`
        : `Flow "${name}" was not replayed: its plan was not approved.`,
      { name },
    )
  if (asks) {
    const all = await savedFlowsStore.get()
    if (all[entry.id]) await savedFlowsStore.set({ ...all, [entry.id]: { ...all[entry.id], reviewedAt: Date.now() } })
  }
  return approved.guard
}

export async function replaySaved(
  tabId: number,
  id: string,
  params: Record<string, string> = {},
  signal?: AbortSignal,
  /**
   * `model: false`: no AI repair (a scheduled replay makes no model call; docs/agent.md, "Schedules").
   * `plans`: where the person replays it (the panel), which flows show their plan first
   * (`safety.showPlans`); a door that does not say shows only a page-shaped flow's.
   */
  opts: { model?: boolean; plans?: ShowPlans } = {},
): Promise<FlowRunResult & { flagged: number[] }> {
  const all = await savedFlowsStore.get()
  const entry = all[id]
  if (!entry) throw Object.assign(new Error(`No saved flow "${id}".`), { code: 'FLOW_MISSING' })
  // The panel replays on the page in front of the person; only another site sends it to the start page.
  const ref: { port?: ReturnType<typeof tabFlowPort> } = {}
  const ask = await replayGuard(tabId, () => ref.port?.currentTab() ?? tabId, entry.flow.metadata.name, { signal })
  const here = await tabFlowPort(tabId).url!(signal ?? new AbortController().signal)
  const start = entry.flow.metadata.start_url
  const opensStart = !!start && originOf(start) !== originOf(here)
  const guard = await reviewShaped(tabId, entry, ask, opensStart ? start : undefined, signal, opts.plans)
  const port = (ref.port = tabFlowPort(tabId, guard, await boundSecrets()))
  const result = await replayFlow(entry.flow, {
    port,
    navigateToStart: opensStart,
    // Only the secrets bound to the site the flow types on.
    variables: { params, secrets: await vaultFor(start && originOf(start) !== originOf(here) ? start : here) },
    signal,
    repair: opts.model === false ? undefined : repairHook?.(tabId),
  })
  // Statistics and proposals are kept whatever the outcome; the selectors change only when accepted.
  const fresh = await savedFlowsStore.get()
  const current = fresh[id]
  if (current) {
    current.flow = { ...current.flow, stats: result.stats }
    current.pending = result.heals
    await savedFlowsStore.set(fresh)
  }
  return { ...result, flagged: flaggedSteps(result.stats) }
}

/** Accepts (selectors replaced, pack action rewritten) or rejects one proposed heal. */
export async function reviewHeal(id: string, stepId: number, accept: boolean): Promise<{ ok: boolean; flow?: Flow }> {
  const all = await savedFlowsStore.get()
  const entry = all[id]
  const proposal = entry?.pending.find((p) => p.step_id === stepId)
  if (!entry || !proposal) return { ok: false }
  entry.pending = entry.pending.filter((p) => p !== proposal)
  if (accept) entry.flow = applyHeal(entry.flow, proposal)
  all[id] = entry
  await savedFlowsStore.set(all)
  if (accept)
    await saveFlow(entry.flow, entry.namespace).then(async (saved) => {
      // saveFlow rewrote the entry; keep the other proposals still waiting for review.
      const again = await savedFlowsStore.get()
      again[saved.id] = { ...again[saved.id], pending: entry.pending }
      await savedFlowsStore.set(again)
    })
  return { ok: true, flow: entry.flow }
}

export async function exportFlow(
  id: string,
  format: 'flow' | 'devtools' | 'playwright' | 'pack',
): Promise<{ filename: string; text: string }> {
  const entry = (await savedFlowsStore.get())[id]
  if (!entry) throw Object.assign(new Error(`No saved flow "${id}".`), { code: 'FLOW_MISSING' })
  const base = entry.action.replace(/[^a-z0-9-]+/gi, '_')
  if (format === 'devtools')
    return { filename: `${base}.recording.json`, text: JSON.stringify(toDevTools(entry.flow), null, 2) }
  if (format === 'playwright') return { filename: `${base}.spec.ts`, text: toPlaywrightSpec(entry.flow) }
  if (format === 'pack')
    return { filename: `${entry.namespace}.yaml`, text: (await userPacksStore.get())[entry.namespace]?.text ?? '' }
  return { filename: `${base}.flow.json`, text: JSON.stringify(entry.flow, null, 2) }
}

export async function listFlows(): Promise<
  {
    id: string
    name: string
    action: string
    steps: number
    savedAt: number
    pending: number
    flagged: number[]
    asks: { name: string; label: string; secret: boolean }[]
  }[]
> {
  const all = await savedFlowsStore.get()
  return Object.values(all)
    .sort((a, b) => b.savedAt - a.savedAt)
    .map((e) => ({
      id: e.id,
      name: e.flow.metadata.name,
      action: e.action,
      steps: e.flow.steps.length,
      savedAt: e.savedAt,
      pending: e.pending.length,
      flagged: flaggedSteps(e.flow.stats),
      asks: asksOf(e.flow),
    }))
}

/** Variables the panel must ask for before a replay: secrets and `${prompt:…}` ones. */
export function asksOf(flow: Flow): { name: string; label: string; secret: boolean }[] {
  return Object.entries(flow.variables)
    .filter(([, v]) => v.secret || /^\$\{prompt:/.test(v.value ?? '') || v.value === undefined)
    .filter(([, v]) => !/^\$\{(secret|env):/.test(v.value ?? ''))
    .map(([name, v]) => ({
      name,
      label: v.description ?? /^\$\{prompt:([^}]*)\}$/.exec(v.value ?? '')?.[1] ?? name,
      secret: !!v.secret,
    }))
}

export async function pendingHeals(id: string): Promise<HealProposal[]> {
  return (await savedFlowsStore.get())[id]?.pending ?? []
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}
