/**
 * The run's tabs (docs/agent.md, "Tabs"): a tab step judged by the guard's tab rule and asked in
 * the panel, and the list of the run's tabs that each turn's prompt carries. What a tab step does
 * is tabs.ts.
 */
import type { StepView } from '../chat'
import type { Instruction } from '../instruction/schema'
import { domainAllowed } from '../settings'
import { riskAsk } from './outcome'
import { redactText } from './secrets'
import { kReadSections, kTabRuns, namedTabs, tabLines, type TabOutcome } from './tabs'
import { describeTabs } from './prompt'
import { type Run, hiddenOf, unechoed, moveTab, stepName } from './context'
import { confirm } from './ask'

/**
 * A browser action on the run's tabs (core/agent/tabs.ts): judged by the guard's tab rule, asked
 * in the panel as a navigation to another site is, its page read as the run's own is (redacted).
 */
export async function runTabStep(run: Run, view: StepView, ins: Instruction): Promise<TabOutcome> {
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
export async function tabsTurn(run: Run, first: boolean): Promise<string> {
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
