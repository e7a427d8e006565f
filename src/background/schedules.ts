import browser from 'webextension-polyfill'
import { collectItems, kDefaultCollectLimit } from '../core/page/collect'
import { parsedTarget } from '../core/page/command'
import { wakeAt, type Wake } from '../core/schedule/when'
import { diffCsv, diffLines, diffRows, snapshotOf } from '../core/schedule/diff'
import { countsOf, scheduleOf, type Schedule, type ScheduleDraft, type ScheduleRun } from '../core/schedule/model'
import { renderEn } from '../core/locales/render'
import type { BridgeScheduleOp } from '../core/bridge'
import { ProtocolError } from '../messaging'
import { schedulesStore, watchCsvStore, kMaxSchedules } from '../storage/schedules'
import { uiPrefsStore } from '../storage/settings'
import { savedFlowsStore } from '../storage/flows'
import { actionApi, getRegistry } from './actions'
import { newId } from './conversation'
import { sendCommand } from './page'
import { waitForDoc } from './tabs'
import { onPanelQuestion } from './questions'
import { replayGuard, replaySaved } from './recorder'
import { startRun } from './agent'

/**
 * Schedules in the person's Chrome (docs/agent.md, "Schedules"). The record is storage
 * (src/storage/schedules.ts); an alarm per schedule only wakes the worker at its due time, and
 * every worker start sets the alarms again and catches up on what fell due while the browser was
 * closed (core/schedule/when.ts `wakeAt`). A run opens a tab of its own and goes through the one
 * guard with the person as the one who answers: its questions wait as cards in that tab's panel,
 * and the person is told by a notification; nothing answers them for the person.
 */

/** Alarm names: the prefix, then the schedule's id. */
export const kScheduleAlarm = 'ava.schedule:'
/** How long a scheduled run's new tab may take to show its page before the run fails. */
const kTabLoadMs = 30_000
/** How long one watch round may wait for its list to appear. */
const kCollectLocateMs = 10_000

/** Decisions on a schedule's due time are made one at a time: an alarm and a catch-up never both run it. */
let queue: Promise<unknown> = Promise.resolve()
const serial = <T>(fn: () => Promise<T>): Promise<T> => {
  const next = queue.then(fn, fn)
  queue = next.catch(() => undefined)
  return next
}

/** Tabs a scheduled run is working in, by tab: which schedule, for the notification a question raises. */
const runTabs = new Map<number, Schedule>()

async function arm(s: Schedule): Promise<void> {
  const name = kScheduleAlarm + s.id
  if (!s.enabled || s.dueAt === null) await browser.alarms.clear(name)
  else await browser.alarms.create(name, { when: s.dueAt })
}

/** Registered at the worker's top level, so the alarm that wakes it finds its listener. */
export function watchSchedules(): void {
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name.startsWith(kScheduleAlarm)) void wake(alarm.name.slice(kScheduleAlarm.length))
  })
  onPanelQuestion((tabId) => {
    const s = runTabs.get(tabId)
    if (s)
      void notify(`ask:${s.id}:${tabId}`, 'schedule.notify.waitingTitle', 'schedule.notify.waiting', { name: s.name })
  })
  browser.notifications.onClicked.addListener((id) => void showAsker(id))
  // Every start: the alarms again (Chrome may drop them on a restart), and what fell due meanwhile.
  void catchUp()
}

async function catchUp(): Promise<void> {
  const all = await schedulesStore.get()
  for (const s of Object.values(all)) {
    if (s.enabled && s.dueAt !== null && s.dueAt <= Date.now()) void wake(s.id)
    else await arm(s)
  }
}

/** The schedule's due time came (or passed): decide, record, set the next alarm, then run. */
export async function wake(id: string): Promise<void> {
  const decided = await serial(async () => {
    const all = await schedulesStore.get()
    const s = all[id]
    if (!s?.enabled || s.dueAt === null) return null
    const w = wakeAt({ ...s, dueAt: s.dueAt }, Date.now())
    if (!w.run && !w.skipped) {
      await arm(s) // woken early (an alarm is a hint): wait for the time itself
      return null
    }
    const next: Schedule = { ...s, dueAt: w.nextAt }
    if (!w.run) next.last = { at: Date.now(), outcome: 'skipped', skipped: w.skipped }
    await schedulesStore.set({ ...all, [id]: next })
    await arm(next)
    return { s: next, w }
  })
  if (!decided) return
  const { s, w } = decided
  if (!w.run) {
    await notify(`skip:${s.id}`, 'schedule.notify.skippedTitle', 'schedule.notify.skipped', {
      name: s.name,
      n: w.skipped,
    })
    return
  }
  const last = await runSchedule(s, w).catch((e: Error): ScheduleRun => ({
    at: Date.now(),
    outcome: 'failed',
    detail: e.message,
  }))
  const all = await schedulesStore.get()
  if (all[s.id]) await schedulesStore.set({ ...all, [s.id]: { ...all[s.id], last: { ...all[s.id].last, ...last } } })
  if (last.outcome === 'failed')
    await notify(`fail:${s.id}`, 'schedule.notify.failedTitle', 'schedule.notify.failed', {
      name: s.name,
      detail: last.detail ?? '',
    })
}

/** Opens the run's own tab (in the background, so the person's tab stays theirs) and waits for its page. */
async function openTab(url: string): Promise<number> {
  const tab = await browser.tabs.create({ url, active: false })
  if (tab.id === undefined) throw new Error('The browser did not open a tab for the scheduled run.')
  await waitForDoc(tab.id, { timeoutMs: kTabLoadMs })
  return tab.id
}

async function runSchedule(s: Schedule, w: Wake): Promise<ScheduleRun> {
  const t = s.target
  const base = { at: Date.now(), ...(w.skipped ? { skipped: w.skipped } : {}) }
  if (t.kind === 'watch') return { ...base, ...(await runWatch(s, t)) }
  if (t.kind === 'request') {
    const tabId = await openTab(t.url)
    runTabs.set(tabId, s)
    // The model's run, as if the person had typed the request in that tab's panel: every step through
    // the one guard, every question a card there.
    // Nobody is looking when it starts: a remembered plan shows its card only where it asks anyway.
    await startRun(tabId, t.text, { plans: 'asking' })
    return { ...base, outcome: 'done', detail: `started in tab ${tabId}` }
  }
  if (t.kind === 'action') {
    const tabId = await openTab(t.url)
    runTabs.set(tabId, s)
    try {
      // The guard a replay uses, answered in the run's own tab: never the person's own command (no skipped questions).
      const guard = await replayGuard(tabId, () => tabId, t.action)
      const r = await (await actionApi(tabId, guard)).run({ action: t.action, params: t.params })
      return { ...base, outcome: r.success ? 'done' : 'failed', detail: r.success ? undefined : r.error?.message }
    } finally {
      runTabs.delete(tabId)
    }
  }
  const flow = (await savedFlowsStore.get())[t.flow]
  if (!flow) return { ...base, outcome: 'failed', detail: `No saved flow "${t.flow}".` }
  const tabId = await openTab(flow.flow.metadata.start_url ?? 'about:blank')
  runTabs.set(tabId, s)
  try {
    const r = await replaySaved(tabId, t.flow, t.params, undefined, { model: false })
    return { ...base, outcome: r.success ? 'done' : 'failed', detail: r.success ? undefined : r.error?.message }
  } finally {
    runTabs.delete(tabId)
  }
}

/**
 * A watch: the list read as the model's `collect` reads it (the same page command and loop), but
 * with no model, then compared row by row with the last run (core/schedule/diff.ts). The report is
 * a notification and a CSV; the tab closes, as it only read.
 */
async function runWatch(
  s: Schedule,
  t: Extract<Schedule['target'], { kind: 'watch' }>,
): Promise<Omit<ScheduleRun, 'at'>> {
  const tabId = await openTab(t.url)
  const controller = new AbortController()
  try {
    const session = `${s.id}:${Date.now()}`
    const target = t.target ? parsedTarget({ selectors: [t.target] }) : undefined
    let failure: string | undefined
    const result = await collectItems({
      limit: t.limit ?? kDefaultCollectLimit,
      signal: controller.signal,
      now: () => Date.now(),
      round: async (first) => {
        const out = await sendCommand(
          tabId,
          { kind: 'collect', session, first, ...(target ? { target } : {}), timeoutMs: kCollectLocateMs },
          { signal: controller.signal },
        )
        if (out.ok) return out.round
        failure = out.message
        return { items: [], moved: false, container: '' }
      },
    })
    if (failure && !result.items.length) return { outcome: 'failed', detail: failure }
    const now = snapshotOf(result.items, result.columns)
    const all = await schedulesStore.get()
    const diff = diffRows(all[s.id]?.snapshot ?? null, now)
    if (all[s.id]) await schedulesStore.set({ ...all, [s.id]: { ...all[s.id], snapshot: now } })
    await watchCsvStore(s.id).set(diffCsv(diff))
    const counts = countsOf(diff)
    await notify(
      `watch:${s.id}`,
      'schedule.notify.watchTitle',
      diff.first ? 'schedule.notify.watchFirst' : 'schedule.notify.watch',
      { name: s.name, ...counts, n: now.rows.length },
      diff.first ? [] : diffLines(diff),
    )
    return { outcome: 'done', counts }
  } finally {
    controller.abort()
    await browser.tabs.remove(tabId).catch(() => undefined)
  }
}

// ── notifications ─────────────────────────────────────────────────────────────────────────────

/** A notification in the person's language: the title and text from the locale table, `lines` as they are. */
async function notify(
  id: string,
  titleKey: string,
  key: string,
  params: Record<string, string | number>,
  lines: string[] = [],
): Promise<void> {
  const say = await sayer()
  const message = [say(key, params), ...lines].join('\n')
  // chrome's own API: the polyfill's types lack requireInteraction.
  await chrome.notifications
    .create(id, {
      type: 'basic',
      iconUrl: browser.runtime.getURL('icons/128.png'),
      title: say(titleKey, params),
      message,
      // A question waits until the person comes: it stays on screen.
      requireInteraction: id.startsWith('ask:'),
    })
    .catch((e) => console.warn('[ava] notification', e))
}

async function sayer(): Promise<(key: string, params: Record<string, string | number>) => string> {
  const { language } = await uiPrefsStore.get()
  const zhUi = language === 'zh-CN' || (language === 'auto' && /^zh\b/i.test(browser.i18n.getUILanguage()))
  if (zhUi) {
    const { createRenderer } = await import('../core/locales/render')
    const zh = (await import('../core/locales/zh-CN')).default
    const render = createRenderer(zh, 'zh-CN')
    return (key, params) => render({ key, params })
  }
  return (key, params) => renderEn({ key, params })
}

/** A click on a question's notification brings its tab forward, where the card waits in the panel. */
async function showAsker(id: string): Promise<void> {
  const m = /^ask:[^:]+:(\d+)$/.exec(id)
  if (!m) return
  const tabId = Number(m[1])
  const tab = await browser.tabs.update(tabId, { active: true }).catch(() => undefined)
  if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true }).catch(() => undefined)
  const { sendToTab } = await import('../messaging')
  await sendToTab(tabId, 'bg→content:panel.open', {}).catch(() => undefined)
}

// ── the person's edits ────────────────────────────────────────────────────────────────────────

/** A new schedule from the panel, the popup or `ava schedule add`; refused with one clear code. */
export async function addSchedule(draft: ScheduleDraft): Promise<Schedule> {
  const t = draft.target
  if (t.kind === 'action' && !(await getRegistry()).lookup(t.action).ok)
    throw new ProtocolError('SCHEDULE_TARGET', `No pack action is called "${t.action}".`)
  if (t.kind === 'flow' && !(await savedFlowsStore.get())[t.flow])
    throw new ProtocolError('SCHEDULE_TARGET', `No saved flow is called "${t.flow}".`)
  if ('url' in t && !/^https?:\/\//i.test(t.url))
    throw new ProtocolError('SCHEDULE_TARGET', `"${t.url}" is not a web page address (http or https).`)
  let s: Schedule
  try {
    s = scheduleOf(draft, newId('schedule'), Date.now())
  } catch (e) {
    throw new ProtocolError('SCHEDULE_TIME', (e as Error).message)
  }
  return serial(async () => {
    const all = await schedulesStore.get()
    if (Object.keys(all).length >= kMaxSchedules)
      throw new ProtocolError('SCHEDULE_TARGET', `Ava keeps at most ${kMaxSchedules} schedules; remove one first.`)
    await schedulesStore.set({ ...all, [s.id]: s })
    await arm(s)
    return s
  })
}

export async function removeSchedule(id: string): Promise<boolean> {
  return serial(async () => {
    const all = await schedulesStore.get()
    if (!all[id]) return false
    const rest = { ...all }
    delete rest[id]
    await schedulesStore.set(rest)
    await browser.alarms.clear(kScheduleAlarm + id)
    await watchCsvStore(id).remove()
    return true
  })
}

export async function listSchedules(): Promise<Schedule[]> {
  return Object.values(await schedulesStore.get()).sort((a, b) => (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity))
}

/** `ava schedule`'s request over the bridge (core/bridge.ts), answered as the panel's messages are. */
export async function scheduleOp(
  m: BridgeScheduleOp,
): Promise<{ schedules: Schedule[] } | { schedule: Schedule } | { removed: boolean }> {
  if (m.op === 'list') return { schedules: await listSchedules() }
  if (m.op === 'add') return { schedule: await addSchedule(m.draft) }
  return { removed: await removeSchedule(m.schedule) }
}
