import browser from 'webextension-polyfill'
import { sleep } from '../core/sleep'
import { isGoneMidMessage, isReceiverGone } from '../messaging'
import { forgetFrameRoutes } from './frames'

/**
 * Which document of each tab is ready to take instructions. A step that navigates replaces the
 * document; the next step must go to the new one, never to the page that is unloading.
 * The map is a cache: after a worker restart it is empty and the next `ready` refills it.
 */
interface DocState {
  documentId?: string
  url: string
}

const ready = new Map<number, DocState>()
/** Tabs known to be between documents; a tab in neither map is one this worker has not seen yet. */
const navigating = new Set<number>()
const waiters = new Map<number, Set<() => void>>()
/**
 * Tabs whose top frame has started a navigation that has neither committed nor failed: a click
 * that submitted a form to a slow server. The old document is still there and still answers,
 * but the page the person will see is the next one: steps and reads wait for it.
 */
const pending = new Map<number, number>()
const pendingWaiters = new Map<number, Set<() => void>>()

const kReadyTimeoutMs = 15_000 // a page slower than this to load is reported, not waited on forever

export function markReady(tabId: number, doc: DocState): void {
  ready.set(tabId, doc)
  navigating.delete(tabId)
  const w = waiters.get(tabId)
  if (w) for (const fn of [...w]) fn()
}

/** The top frame committed a new document: the old one can take no more steps. */
export function markNavigating(tabId: number): void {
  ready.delete(tabId)
  navigating.add(tabId)
  settlePending(tabId)
}

/** The top frame started a navigation (webNavigation.onBeforeNavigate). */
export function markPending(tabId: number): void {
  pending.set(tabId, Date.now())
}

/** The started navigation committed (markNavigating) or came to nothing: a 204, a download, an error. */
export function settlePending(tabId: number): void {
  if (!pending.delete(tabId)) return
  const w = pendingWaiters.get(tabId)
  if (w) for (const fn of [...w]) fn()
}

export function forgetTab(tabId: number): void {
  ready.delete(tabId)
  navigating.delete(tabId)
  waiters.delete(tabId)
  settlePending(tabId)
}

/**
 * Resolves once the tab has no navigation under way (never rejects: a navigation that neither
 * commits nor fails within `timeoutMs` is given up on, and the document that is there is used).
 */
function pendingSettled(tabId: number, opts: WaitOptions): Promise<void> {
  const started = pending.get(tabId)
  if (started === undefined) return Promise.resolve()
  const left = (opts.timeoutMs ?? kReadyTimeoutMs) - (Date.now() - started)
  if (left <= 0) {
    pending.delete(tabId)
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    const set = pendingWaiters.get(tabId) ?? new Set()
    pendingWaiters.set(tabId, set)
    const finish = () => {
      clearTimeout(timer)
      set.delete(finish)
      opts.signal?.removeEventListener('abort', finish)
      resolve()
    }
    const timer = setTimeout(() => {
      pending.delete(tabId)
      finish()
    }, left)
    set.add(finish)
    opts.signal?.addEventListener('abort', finish, { once: true })
  })
}

export function currentDoc(tabId: number): DocState | undefined {
  return ready.get(tabId)
}

/**
 * Resolves with the tab's ready document, waiting for one when the tab is between documents.
 * With `notDocumentId`, waits for a document other than that one (after a navigating step).
 */
type WaitOptions = { notDocumentId?: string; timeoutMs?: number; signal?: AbortSignal }

export function waitForDoc(tabId: number, opts: WaitOptions = {}): Promise<DocState> {
  if (pending.has(tabId))
    return pendingSettled(tabId, opts).then(() =>
      opts.signal?.aborted ? Promise.reject(opts.signal.reason) : waitForDoc(tabId, opts),
    )
  const ok = (d: DocState | undefined): d is DocState =>
    !!d && (!opts.notDocumentId || d.documentId !== opts.notDocumentId)
  const now = ready.get(tabId)
  if (ok(now)) return Promise.resolve(now)
  // A worker that was just restarted has seen no `ready` yet: a tab that finished loading
  // already has its content script, which answers messages sent to the top frame.
  if (!navigating.has(tabId) && !opts.notDocumentId) {
    return browser.tabs.get(tabId).then(
      (tab) => (tab.status === 'complete' ? { url: tab.url ?? '' } : nextReady(tabId, ok, opts)),
      () => Promise.reject(Object.assign(new Error('The tab was closed.'), { code: 'NO_PAGE' })),
    )
  }
  return nextReady(tabId, ok, opts)
}

/** Resolves when a `ready` that `ok` accepts arrives for the tab. */
function nextReady(
  tabId: number,
  ok: (d: DocState | undefined) => d is DocState,
  opts: WaitOptions,
): Promise<DocState> {
  return new Promise((resolve, reject) => {
    const set = waiters.get(tabId) ?? new Set()
    waiters.set(tabId, set)
    const done = () => {
      clearTimeout(timer)
      set.delete(check)
      opts.signal?.removeEventListener('abort', onAbort)
    }
    const check = () => {
      const d = ready.get(tabId)
      if (ok(d)) {
        done()
        resolve(d)
      }
    }
    const onAbort = () => {
      done()
      reject(opts.signal!.reason)
    }
    const timer = setTimeout(() => {
      done()
      reject(Object.assign(new Error('The page did not finish loading in time.'), { code: 'NO_PAGE' }))
    }, opts.timeoutMs ?? kReadyTimeoutMs)
    set.add(check)
    opts.signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Tabs opened from another tab, so a run can follow a page script that opens one on a click. */
const opened = new Map<number, { tabId: number; at: number }[]>()
const kNewTabWindowMs = 3_000 // a tab opened this long after a click belongs to it

export async function takeNewTab(openerTabId: number, since: number): Promise<number | undefined> {
  // Chrome reports the new tab (and the start of a navigation the click caused, which the next
  // step then waits for: waitForDoc) a moment after the click's answer.
  await sleep(50)
  const list = opened.get(openerTabId) ?? []
  const hit = list.find((t) => t.at >= since - 50 && t.at - since < kNewTabWindowMs)
  if (!hit) return undefined
  opened.set(
    openerTabId,
    list.filter((t) => t !== hit),
  )
  return hit.tabId
}

/**
 * True when a message failed because its document went away (a navigation committed under it),
 * as opposed to the page answering with an error: the step is then followed into the next page.
 * The transport has already turned Chrome's wording into a code (src/messaging/transport.ts).
 */
export function isDocumentGone(e: unknown): boolean {
  return isReceiverGone(e)
}

/** True when the document took the message and went away before it answered (a step may have run). */
export { isGoneMidMessage }

export function watchNavigations(): void {
  browser.webNavigation.onBeforeNavigate.addListener((d) => {
    // A page being prerendered in the background is not the tab's next document yet.
    if (d.frameId === 0 && (d as { documentLifecycle?: string }).documentLifecycle !== 'prerender') markPending(d.tabId)
  })
  browser.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId !== 0) return
    // On a busy machine the new document's `ready` can arrive before this event: it stays ready.
    const committed = (d as { documentId?: string }).documentId
    if (committed && ready.get(d.tabId)?.documentId === committed) settlePending(d.tabId)
    else markNavigating(d.tabId)
  })
  browser.webNavigation.onErrorOccurred.addListener((d) => {
    if (d.frameId === 0) settlePending(d.tabId)
  })
  browser.tabs.onCreated.addListener((tab) => {
    if (tab.openerTabId === undefined || tab.id === undefined) return
    const list = opened.get(tab.openerTabId) ?? []
    list.push({ tabId: tab.id, at: Date.now() })
    opened.set(tab.openerTabId, list.slice(-5))
  })
  browser.tabs.onRemoved.addListener((tabId) => {
    forgetTab(tabId)
    void forgetFrameRoutes(tabId).catch(() => undefined)
    opened.delete(tabId)
  })
}
