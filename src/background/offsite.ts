import browser, { type DeclarativeNetRequest } from 'webextension-polyfill'
import {
  blockedBy,
  gateMessage,
  gateRuleIds,
  gateRules,
  ruleDomain,
  type GateRule,
  type GateRuleKind,
  type TabGate,
} from '../core/offsite'

/**
 * The background half of the off-site gate: while a run is active in a tab,
 * declarativeNetRequest session rules scoped to that tab (`tabIds`, session rules only) stop
 * top-level loads of denied sites and of other sites nobody said yes to before any request
 * leaves, whatever started them: a script after a step, window.location, a meta refresh, a
 * redirect. The page's own check (src/dom/offsite.ts) asks before a step; this catches the rest,
 * and webNavigation tells the run why it must stop.
 *
 * The rules are the state: a worker that restarted finds a tab's rules by their `tabIds`, and
 * their kinds by their ids (core/offsite.ts gateRuleIds), without remembering anything.
 *
 * Every change is a read of the rules, then a write by slot ids; two at once would each read the
 * other's slot as free, or remove ids a new run has just been given. So the changes run one after
 * another (`serial`), each reading the rules as the last one left them: a run's rules are in place
 * from its first step until it ends, whatever other runs, stale cleanups and closed tabs do
 * (docs/security.md, "Leaving the site").
 */

const dnr = () => browser.declarativeNetRequest
const kKinds = gateRuleIds(0).length

let queue: Promise<unknown> = Promise.resolve()

/** Runs `change` after every change asked for before it; a failed change does not stop the next. */
function serial<T>(change: () => Promise<T>): Promise<T> {
  const next = queue.then(change, change)
  queue = next.catch(() => undefined)
  return next
}

async function allRules(): Promise<GateRule[]> {
  return (await dnr().getSessionRules()) as unknown as GateRule[]
}

/** The tab's rules and their slot: the one it has, or the first free one. */
async function slotOf(tabId: number): Promise<{ slot: number; rules: GateRule[] }> {
  const all = await allRules()
  const rules = all.filter((r) => r.condition.tabIds?.includes(tabId))
  if (rules.length) return { slot: Math.floor((rules[0].id - 1) / kKinds), rules }
  const used = new Set(all.map((r) => Math.floor((r.id - 1) / kKinds)))
  let slot = 0
  while (used.has(slot)) slot++
  return { slot, rules }
}

async function write(slot: number, rules: GateRule[]): Promise<void> {
  await dnr().updateSessionRules({
    removeRuleIds: gateRuleIds(slot),
    addRules: rules as unknown as DeclarativeNetRequest.Rule[],
  })
}

/** Guards `tabId` for a run on `gate.site`; replaces whatever guarded it before. */
export function guardTab(tabId: number, gate: TabGate): Promise<void> {
  return serial(async () => {
    const { slot } = await slotOf(tabId)
    await write(slot, gateRules(tabId, gate, slot))
  })
}

/** The person said yes to a step that goes to `host` (or the run's own `navigate` does): let it load. */
export function allowDomain(tabId: number, host: string): Promise<void> {
  return serial(async () => {
    const domain = ruleDomain(host.replace(/:\d+$/, ''), { site: true })
    const { slot, rules } = await slotOf(tabId)
    const cross = rules.find((r) => r.id === gateRuleIds(slot)[2])
    const excluded = cross?.condition.excludedRequestDomains
    if (!domain || !cross || !excluded || excluded.includes(domain)) return
    cross.condition.excludedRequestDomains = [...excluded, domain]
    await write(slot, rules)
  })
}

/**
 * The run moved into another tab (a link that opened one): the gate goes with it. `gate`: the
 * run's own, for when the tab it left was closed and released before this change's turn (its
 * rules are gone): the new tab is guarded afresh, without the person's earlier yeses — it asks
 * again rather than going unguarded for the rest of the run.
 */
export function moveGuard(from: number, to: number, gate?: TabGate): Promise<void> {
  return serial(async () => {
    if (from === to) return
    const { slot, rules } = await slotOf(from)
    if (!rules.length) {
      if (!gate) return
      await release(to)
      const fresh = await slotOf(to)
      await write(fresh.slot, gateRules(to, gate, fresh.slot))
      return
    }
    await release(to)
    await write(
      slot,
      rules.map((r) => ({ ...r, condition: { ...r.condition, tabIds: [to] } })),
    )
  })
}

/**
 * The run ended: the tab is the person's again. `unless`: asked again when the change's turn
 * comes, so a cleanup that waited behind a new run's guard in the same tab leaves that guard be.
 */
export function releaseTab(tabId: number, unless?: () => boolean): Promise<void> {
  return serial(async () => {
    if (unless?.()) return
    await release(tabId)
  })
}

/**
 * The rules a run's tab had when it was released, for a moment: Chrome tells of a load they
 * blocked in an event that can arrive after the release it let happen (the navigation settled).
 */
const released = new Map<number, { rules: GateRule[]; at: number }>()
const kReleasedMemoryMs = 5_000

async function release(tabId: number): Promise<void> {
  const rules = (await allRules()).filter((r) => r.condition.tabIds?.includes(tabId))
  if (!rules.length) return
  released.set(tabId, { rules, at: Date.now() })
  await dnr().updateSessionRules({ removeRuleIds: rules.map((r) => r.id) })
}

/** The tab's rules now, or the ones it was released from a moment ago. */
async function rulesOrReleased(tabId: number): Promise<GateRule[]> {
  const now = await rulesOf(tabId)
  if (now.length) return now
  const was = released.get(tabId)
  return was && Date.now() - was.at < kReleasedMemoryMs ? was.rules : []
}

async function rulesOf(tabId: number): Promise<GateRule[]> {
  return (await allRules()).filter((r) => r.condition.tabIds?.includes(tabId))
}

let watching = false

/**
 * Tells `onBlocked` when a guarded tab tried to leave: a top-level navigation the rules stop (it
 * never loads; the run must end with a message, not wait for a page that will not come), a
 * blocked redirect, or a new window a script opened towards a forbidden site (closed at once:
 * a new tab is outside its opener's rules until it is guarded). Registered once, at the top
 * level of the worker, so an event that wakes it finds the listeners.
 */
export function watchOffsite(onBlocked: (tabId: number, message: string, kind: GateRuleKind) => void): void {
  if (watching) return
  watching = true
  const check = async (tabId: number, url: string, rulesTab = tabId) =>
    blockedBy(await rulesOf(rulesTab), rulesTab, url)
  browser.webNavigation.onBeforeNavigate.addListener((d) => {
    if (d.frameId !== 0) return
    void check(d.tabId, d.url).then(
      (hit) => hit && onBlocked(d.tabId, gateMessage(hit), hit.kind),
      () => undefined,
    )
  })
  browser.webNavigation.onErrorOccurred.addListener((d) => {
    // A redirect to a forbidden site: the first URL passed, the one it led to was blocked.
    // `error` is in Chrome's event though not in the polyfill's type.
    // A frame's blocked load is no reason to stop (an ad blocker blocks frames all the time); a
    // program it was sent is simply not saved.
    if (d.frameId !== 0 || !/ERR_BLOCKED_BY_CLIENT/.test((d as { error?: string }).error ?? '')) return
    void rulesOrReleased(d.tabId).then(
      (rules) => {
        if (!rules.length) return
        const hit = blockedBy(rules, d.tabId, d.url)
        // Nothing the address says is blocked: the response was (a program to download), or it
        // redirected to a site the rules block. Chrome does not say which.
        const blocked = hit ?? { kind: 'program' as const, host: new URL(d.url).host }
        onBlocked(d.tabId, gateMessage(blocked), blocked.kind)
      },
      () => undefined,
    )
  })
  browser.webNavigation.onCreatedNavigationTarget.addListener((d) => {
    void check(d.tabId, d.url, d.sourceTabId).then(
      async (hit) => {
        if (!hit) return
        await browser.tabs.remove(d.tabId).catch(() => undefined)
        onBlocked(d.sourceTabId, gateMessage(hit), hit.kind)
      },
      () => undefined,
    )
  })
  // A closed tab's rules match nothing any more; drop them so the ids are free for a new tab.
  browser.tabs.onRemoved.addListener((tabId) => void releaseTab(tabId).catch(() => undefined))
}
