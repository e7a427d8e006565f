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

/**
 * The document a tab showed when it was marked as between documents, until a commit says a new
 * one came: a navigation that comes to nothing (a download, a 204) leaves that document in place.
 */
const leftBehind = new Map<number, DocState>()
/** When each tab's last top-level navigation ended with no new document. */
const cameToNothingAt = new Map<number, number>()

const kReadyTimeoutMs = 15_000 // a page slower than this to load is reported, not waited on forever

export function markReady(tabId: number, doc: DocState): void {
  ready.set(tabId, doc)
  navigating.delete(tabId)
  const w = waiters.get(tabId)
  if (w) for (const fn of [...w]) fn()
}

/** The top frame committed a new document: the old one can take no more steps. */
export function markNavigating(tabId: number): void {
  const was = ready.get(tabId)
  if (was) leftBehind.set(tabId, was)
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

/**
 * The top frame's navigation ended without a document (the browser saved the response, or the
 * navigation failed): the page that was there is still there and takes the next step.
 */
export function cameToNothing(tabId: number): void {
  settlePending(tabId)
  cameToNothingAt.set(tabId, Date.now())
  const was = leftBehind.get(tabId)
  if (was && navigating.has(tabId)) markReady(tabId, was)
}

export function forgetTab(tabId: number): void {
  leftBehind.delete(tabId)
  cameToNothingAt.delete(tabId)
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

/**
 * Resolves once the tab's started navigation has committed or come to nothing, or after
 * `timeoutMs`: a run's guard stays on the tab until what its last click started is judged.
 */
export function navigationSettled(tabId: number, timeoutMs = kReadyTimeoutMs): Promise<void> {
  return pendingSettled(tabId, { timeoutMs })
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

/**
 * After a step took its document with it (a link, a submit): resolves once another document is
 * ready, or once the navigation the step started (at `since` or later) came to nothing and the
 * document `left` is back. Never rejects for a slow page: the next command waits for it again.
 * The new document may have said it is ready before word of the old one's end arrived (a busy
 * machine reorders them), so the tab is marked as between documents only while `left` is current.
 */
export async function waitForNextDoc(
  tabId: number,
  left: string | undefined,
  since: number,
  signal?: AbortSignal,
): Promise<void> {
  const accepts = (d: DocState | undefined): boolean =>
    !!d && (d.documentId !== left || (cameToNothingAt.get(tabId) ?? 0) >= since)
  const ok = (d: DocState | undefined): d is DocState => accepts(d)
  const now = ready.get(tabId)
  if (accepts(now)) return
  if (!now || now.documentId === left) markNavigating(tabId)
  await nextReady(tabId, ok, { signal }).catch((e: unknown) => {
    if (signal?.aborted) throw e
  })
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

/**
 * A top-level response the browser saves instead of showing: it never commits, and Chrome reports
 * no navigation error for it, so without this a step after an export link waited the whole
 * `kReadyTimeoutMs` for a page that was never coming. Only the certain signs count: an attachment,
 * bytes typed as a download, or a response with no content. Anything else is left to the commit
 * or the timeout, because letting a step go to the old document too early is worse than waiting.
 */
export function savedNotShown(statusCode: number, headers: { name: string; value?: string }[] = []): boolean {
  if (statusCode === 204 || statusCode === 205) return true
  const header = (name: string) =>
    headers
      .find((h) => h.name.toLowerCase() === name)
      ?.value?.trim()
      .toLowerCase()
  if (header('content-disposition')?.startsWith('attachment')) return true
  return header('content-type')?.split(';')[0]?.trim() === 'application/octet-stream'
}

export function watchNavigations(): void {
  browser.webNavigation.onBeforeNavigate.addListener((d) => {
    // A page being prerendered in the background is not the tab's next document yet.
    if (d.frameId === 0 && (d as { documentLifecycle?: string }).documentLifecycle !== 'prerender') markPending(d.tabId)
  })
  browser.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId !== 0) return
    leftBehind.delete(d.tabId)
    // On a busy machine the new document's `ready` can arrive before this event: it stays ready.
    const committed = (d as { documentId?: string }).documentId
    if (committed && ready.get(d.tabId)?.documentId === committed) settlePending(d.tabId)
    else markNavigating(d.tabId)
  })
  browser.webNavigation.onErrorOccurred.addListener((d) => {
    if (d.frameId === 0) cameToNothing(d.tabId)
  })
  browser.webRequest.onHeadersReceived.addListener(
    (d) => {
      if (d.tabId >= 0 && savedNotShown(d.statusCode, d.responseHeaders)) cameToNothing(d.tabId)
    },
    { urls: ['<all_urls>'], types: ['main_frame'] },
    ['responseHeaders'],
  )
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
