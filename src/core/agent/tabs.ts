import { z } from 'zod'
import type { ExecOutcome } from '../exec'
import { judgeTab, type StepGuard } from '../gate/guard'
import { siteOf } from '../host'
import type { Instruction } from '../instruction/schema'
import type { TabActionName } from '../vocabulary'
import type { TabInfo, TabsPort } from './ports'
import type { PageContext } from './prompt'
import { msg } from './outcome'

/**
 * The run's tabs (docs/agent.md, "Tabs"): the browser actions of the vocabulary (`kTabActions`,
 * src/core/vocabulary.ts), each run here through the guard's tab rule (core/gate/guard.ts
 * `judgeTab`), and the list of them the prompt shows each turn. A tab keeps its number for the
 * whole run (a closed one is marked, not dropped), so "tab 3" means the same page in every turn.
 */
export const RunTabSchema = z.object({
  id: z.number(),
  /** Opened by the run's `open_tab`: the only tabs it may close. */
  opened: z.boolean(),
  /** Named by the person in the request (its address or its title), not opened by the run. */
  named: z.boolean().optional(),
  /** The site the person named or said yes to for this tab: showing or reading it there asks no more. */
  approved: z.string().optional(),
  closed: z.boolean().optional(),
})
export type RunTab = z.infer<typeof RunTabSchema>

/** The most tabs one run keeps: the instruction schema's `tab` bound, and more than any comparison needs. */
export const kMaxRunTabs = 50
/** A title shorter than this is a word, not a name the person could have meant (and a page could take it). */
const kMinNamedTitle = 8
/**
 * A read tab is read for what it says (a price, a date, terms), not only for its controls: it lists
 * this many content blocks where the run's own page lists five (core/page/serialize.ts); the
 * listing's budget still bounds their text.
 */
export const kReadSections = 30
/** A read tab's listing in the next prompt: one page's worth, as the run's own page is. */
const kReadChars = 30_000

/** What a tab action needs from the run (run-tabs.ts builds it; the unit tests build fakes). */
export interface TabRunContext {
  tabs: TabsPort
  /** The run's tabs (state.tabs), changed in place. */
  list: RunTab[]
  /** The tab the steps act on now. */
  current(): number
  request: string
  /** The run's guard: who answers, the lists, the address the steps act on (`here`). */
  guard: StepGuard
  /** A site Ava may not take text from (never captured). */
  unread(url: string): boolean
  /** The tab's page as the planner is given it: settled, every secret cut out. */
  read(tabId: number): Promise<PageContext>
  /** The steps act in this tab from now on. */
  moveTo(tabId: number): void
  /** Keeps the run's open tabs together (a tab group). */
  group(): Promise<void>
}

/** A tab action's outcome; a read brings its page for the next prompt. */
export type TabOutcome = ExecOutcome & { page?: PageContext; tab?: number }

type TabRun = (c: TabRunContext, ins: Instruction) => Promise<TabOutcome>

/** The run of each tab action (the recipe in docs/architecture.md, "A new action"). */
export const kTabRuns: Record<TabActionName, TabRun> = {
  async open_tab(c, ins) {
    const url = new URL(ins.params.url!, await c.guard.here?.().catch(() => undefined)).href
    const named = namedInRequest(c.request, url)
    const refusal = await judgeTab(c.guard, url, { judges: 'open', unread: c.unread, approved: named })
    if (refusal) return { ok: false, ...refusal }
    if (c.list.filter((t) => !t.closed).length >= kMaxRunTabs)
      return fail('INVALID', `A run keeps at most ${kMaxRunTabs} tabs; close one first.`)
    // Beside the run's last open tab: its tabs stay side by side, in the order the list numbers them.
    const last = [...c.list].reverse().find((t) => !t.closed)?.id ?? c.current()
    const id = await c.tabs.open(url, last)
    c.list.push({ id, opened: true, approved: siteOf(url) ?? undefined })
    await c.group().catch(() => undefined)
    const n = c.list.length
    return { ok: true, detail: `Opened ${url} in tab ${n}.`, msg: msg('vocab.tab.open_tab', { n }), tab: n }
  },

  async switch_tab(c, ins) {
    const t = await liveTab(c, ins)
    if ('ok' in t) return t
    const refusal = await judgeTab(c.guard, t.info.url, {
      judges: 'read',
      unread: c.unread,
      approved: approvedFor(t.tab, t.info.url),
    })
    if (refusal) return { ok: false, ...refusal }
    t.tab.approved = siteOf(t.info.url) ?? undefined
    c.moveTo(t.tab.id)
    await c.tabs.activate(t.tab.id, t.info.url)
    return { ok: true, detail: `Now in tab ${t.n}.`, msg: msg('vocab.tab.switch_tab', { n: t.n }), tab: t.n }
  },

  async read_tab(c, ins) {
    const t = await liveTab(c, ins)
    if ('ok' in t) return t
    const refusal = await judgeTab(c.guard, t.info.url, {
      judges: 'read',
      unread: c.unread,
      approved: approvedFor(t.tab, t.info.url) || t.tab.id === c.current(),
    })
    if (refusal) return { ok: false, ...refusal }
    t.tab.approved = siteOf(t.info.url) ?? undefined
    const page = await c.read(t.tab.id)
    // Judged on the address it had when asked: a page that went elsewhere meanwhile is judged again.
    if (!sameSite(page.url, t.info.url)) {
      const again = await judgeTab(c.guard, page.url, { judges: 'read', unread: c.unread })
      if (again) return { ok: false, ...again }
    }
    return {
      ok: true,
      detail: `Read tab ${t.n}.`,
      msg: msg('vocab.tab.read_tab', { n: t.n }),
      page: { ...page, listing: page.listing.slice(0, kReadChars) },
      tab: t.n,
    }
  },

  async close_tab(c, ins) {
    const t = await liveTab(c, ins)
    if ('ok' in t) return t
    // The person's own tabs are theirs to close: the run closes only what it opened.
    if (!t.tab.opened)
      return {
        ok: false,
        code: 'BLOCKED',
        message: `Refused: tab ${t.n} is not one Ava opened, and Ava closes only the tabs it opened.`,
        msg: msg('outcome.step.tabNotOpened', { tab: t.n }),
      }
    if (t.tab.id === c.current()) {
      // The steps go back to the last open tab before it (the run's first tab is never closed).
      const back = c.list
        .slice(0, t.n - 1)
        .reverse()
        .find((x) => !x.closed)
      if (back) c.moveTo(back.id)
    }
    await c.tabs.close(t.tab.id)
    t.tab.closed = true
    return { ok: true, detail: `Closed tab ${t.n}.`, msg: msg('vocab.tab.close_tab', { n: t.n }), tab: t.n }
  },
}

function fail(code: 'INVALID', message: string): TabOutcome {
  return { ok: false, code, message }
}

/** The tab `params.tab` names, still open, with what the browser says of it now. */
async function liveTab(
  c: TabRunContext,
  ins: Instruction,
): Promise<{ tab: RunTab; n: number; info: TabInfo } | TabOutcome> {
  const n = ins.params.tab ?? 0
  const tab = c.list[n - 1]
  const open = tab && !tab.closed ? (await c.tabs.info([tab.id]))[0] : undefined
  if (!tab || !open) {
    if (tab) tab.closed = true
    return {
      ok: false,
      code: 'INVALID',
      message: `There is no open tab ${n} in this run; the list of its tabs says which there are.`,
      msg: msg('outcome.step.noTab', { tab: n }),
    }
  }
  return { tab, n, info: open }
}

function approvedFor(tab: RunTab, url: string): boolean {
  return !!tab.approved && tab.approved === siteOf(url)
}

function sameSite(a: string, b: string): boolean {
  const x = siteOf(a)
  return !!x && x === siteOf(b)
}

/** The request names at most one page by its address (several are pages to compare, each in a tab). */
export function namesOnePage(request: string): boolean {
  return (request.match(/\bhttps?:\/\//gi) ?? []).length <= 1
}

/** The request names this page: its address (without a trailing slash) is in the person's words. */
export function namedInRequest(request: string, url: string): boolean {
  const bare = url.replace(/\/$/, '')
  return request.includes(bare)
}

/**
 * The person's other tabs their request names, by address or by whole title: the only tabs of
 * theirs a run may read. Titles are the page's words, so a short one (a word anyone may write)
 * names nothing.
 */
export function namedTabs(request: string, others: readonly TabInfo[]): TabInfo[] {
  const text = request.toLowerCase()
  return others.filter((t) => {
    if (/^https?:\/\//i.test(t.url) && namedInRequest(request, t.url)) return true
    const title = t.title.trim().toLowerCase()
    return title.length >= kMinNamedTitle && text.includes(title)
  })
}

/** The run's tabs as the prompt lists them: number, title, site, which the steps act on, which Ava opened. */
export function tabLines(list: readonly RunTab[], infos: readonly TabInfo[], current: number): string[] {
  const byId = new Map(infos.map((i) => [i.id, i]))
  const lines: string[] = []
  for (const [i, t] of list.entries()) {
    const info = byId.get(t.id)
    if (t.closed || !info) continue
    const marks = [
      t.id === current ? 'active: your steps act here' : '',
      t.opened ? 'opened by you' : t.named ? 'named by the person' : i === 0 ? 'where the request was made' : '',
    ].filter(Boolean)
    const site = siteOf(info.url) ?? info.url.slice(0, 60)
    lines.push(`Tab ${i + 1}${marks.length ? ` (${marks.join(', ')})` : ''}: ${info.title.slice(0, 200)} — ${site}`)
  }
  return lines
}
