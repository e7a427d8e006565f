import browser, { type WebRequest } from 'webextension-polyfill'

/**
 * In-flight requests per tab, the network half of the readiness model
 * ("at most 2 pending requests"). Listening to every request of every tab would wake the worker
 * for the whole browser's traffic, so the listeners are attached only while a run is active.
 */
const pending = new Map<number, Set<string>>()
let users = 0
/** Who wants to hear of a tab's count changing (a settling page read, src/background/page.ts). */
const watchers = new Map<number, Set<(count: number) => void>>()

function changed(tabId: number): void {
  const w = watchers.get(tabId)
  if (w) for (const fn of [...w]) fn(pendingRequests(tabId))
}

const onStart = (d: WebRequest.OnBeforeRequestDetailsType) => {
  if (d.tabId < 0) return
  const set = pending.get(d.tabId) ?? new Set<string>()
  set.add(d.requestId)
  pending.set(d.tabId, set)
  changed(d.tabId)
}
const onEnd = (d: { tabId: number; requestId: string }) => {
  if (pending.get(d.tabId)?.delete(d.requestId)) changed(d.tabId)
}
const onCommit = (d: { tabId: number; frameId: number }) => {
  if (d.frameId === 0 && pending.delete(d.tabId)) changed(d.tabId) // a new document: the old one's requests are gone
}

const filter = { urls: ['<all_urls>'] }

/** Counts requests while the returned function has not been called. */
export function trackRequests(): () => void {
  if (users++ === 0) {
    browser.webRequest.onBeforeRequest.addListener(onStart, filter)
    browser.webRequest.onCompleted.addListener(onEnd, filter)
    browser.webRequest.onErrorOccurred.addListener(onEnd, filter)
    browser.webNavigation.onCommitted.addListener(onCommit)
  }
  let released = false
  return () => {
    if (released) return
    released = true
    if (--users === 0) {
      browser.webRequest.onBeforeRequest.removeListener(onStart)
      browser.webRequest.onCompleted.removeListener(onEnd)
      browser.webRequest.onErrorOccurred.removeListener(onEnd)
      browser.webNavigation.onCommitted.removeListener(onCommit)
      pending.clear()
    }
  }
}

export function pendingRequests(tabId: number): number {
  return pending.get(tabId)?.size ?? 0
}

/** Calls `fn` with the tab's count whenever it changes, until the returned function is called. */
export function watchRequests(tabId: number, fn: (count: number) => void): () => void {
  const set = watchers.get(tabId) ?? new Set()
  watchers.set(tabId, set)
  set.add(fn)
  return () => {
    set.delete(fn)
    if (!set.size) watchers.delete(tabId)
  }
}
