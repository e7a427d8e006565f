import browser from 'webextension-polyfill'
import type { TabsPort } from '../core/agent/ports'
import { pageUrl } from '../core/offsite'
import { allowDomain } from './offsite'

/**
 * The browser's half of a run's tabs (docs/agent.md, "Tabs"): opening, showing, closing and
 * grouping them. What may be opened or read is the guard's (core/gate/guard.ts `judgeTab`); this
 * file only does what the run decided. Tab groups need the `tabGroups` permission and a browser
 * that has them: where `chrome.tabGroups` is missing the tabs are only opened beside the run's.
 */
export function tabsPort(): TabsPort {
  return {
    async open(url, after) {
      const from = await browser.tabs.get(after).catch(() => undefined)
      const tab = await browser.tabs.create({
        url,
        active: false,
        ...(from ? { windowId: from.windowId, index: from.index + 1 } : {}),
      })
      return tab.id!
    },
    async activate(tabId, allowUrl) {
      // The run's gate moved into this tab (the run's moveTab): a page the person said yes to loads there.
      const u = allowUrl ? pageUrl(allowUrl, '') : null
      if (u) await allowDomain(tabId, u.host)
      await browser.tabs.update(tabId, { active: true })
    },
    async close(tabId) {
      await browser.tabs.remove(tabId)
    },
    async info(tabIds) {
      const out = await Promise.all(tabIds.map((id) => browser.tabs.get(id).catch(() => undefined)))
      return out.flatMap((t) => (t?.id === undefined ? [] : [{ id: t.id, title: t.title ?? '', url: t.url ?? '' }]))
    },
    async others(of) {
      const from = await browser.tabs.get(of).catch(() => undefined)
      if (!from) return []
      const all = await browser.tabs.query({ windowId: from.windowId })
      return all.flatMap((t) =>
        t.id === undefined || t.id === of ? [] : [{ id: t.id, title: t.title ?? '', url: t.url ?? '' }],
      )
    },
    async group(tabIds, title, groupId) {
      // The polyfill has no tabGroups; chrome.tabs.group and chrome.tabGroups are Chrome's own.
      const c = globalThis.chrome as typeof chrome | undefined
      if (!c?.tabs?.group || !c.tabGroups?.update || !tabIds.length) return undefined
      // A group the person closed or ungrouped is gone: the run's tabs get a new one.
      const live = groupId === undefined ? undefined : await c.tabGroups.get(groupId).catch(() => undefined)
      const id = await c.tabs.group({ tabIds: tabIds as [number, ...number[]], ...(live ? { groupId: live.id } : {}) })
      await c.tabGroups.update(id, { title, color: 'purple', collapsed: false })
      return id
    },
  }
}
