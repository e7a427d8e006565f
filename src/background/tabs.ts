import browser from 'webextension-polyfill'

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
}

export function forgetTab(tabId: number): void {
  ready.delete(tabId)
  navigating.delete(tabId)
  waiters.delete(tabId)
}

export function currentDoc(tabId: number): DocState | undefined {
  return ready.get(tabId)
}

/**
 * Resolves with the tab's ready document, waiting for one when the tab is between documents.
 * With `notDocumentId`, waits for a document other than that one (after a navigating step).
 */
export function waitForDoc(tabId: number, opts: { notDocumentId?: string; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<DocState> {
  const ok = (d: DocState | undefined): d is DocState => !!d && (!opts.notDocumentId || d.documentId !== opts.notDocumentId)
  const now = ready.get(tabId)
  if (ok(now)) return Promise.resolve(now)
  // A worker that was just restarted has seen no `ready` yet: a tab that finished loading
  // already has its content script, which answers messages sent to the top frame.
  if (!navigating.has(tabId) && !opts.notDocumentId) {
    return browser.tabs.get(tabId).then(
      (tab) => (tab.status === 'complete' ? { url: tab.url ?? '' } : waitForDoc(tabId, { ...opts, notDocumentId: '\u0000' })),
      () => Promise.reject(Object.assign(new Error('The tab was closed.'), { code: 'NO_PAGE' })),
    )
  }
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

/** Tabs opened from another tab, so a run can follow a link that opens in a new tab. */
const opened = new Map<number, { tabId: number; at: number }[]>()
const kNewTabWindowMs = 3_000 // a tab opened this long after a click belongs to it

export async function takeNewTab(openerTabId: number, since: number): Promise<number | undefined> {
  // Chrome reports the new tab a moment after the click's answer; give it one short beat.
  await new Promise((r) => setTimeout(r, 50))
  const list = opened.get(openerTabId) ?? []
  const hit = list.find((t) => t.at >= since - 50 && t.at - since < kNewTabWindowMs)
  if (!hit) return undefined
  opened.set(
    openerTabId,
    list.filter((t) => t !== hit),
  )
  return hit.tabId
}

export function watchNavigations(): void {
  browser.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId === 0) markNavigating(d.tabId)
  })
  browser.tabs.onCreated.addListener((tab) => {
    if (tab.openerTabId === undefined || tab.id === undefined) return
    const list = opened.get(tab.openerTabId) ?? []
    list.push({ tabId: tab.id, at: Date.now() })
    opened.set(tab.openerTabId, list.slice(-5))
  })
  browser.tabs.onRemoved.addListener((tabId) => {
    forgetTab(tabId)
    opened.delete(tabId)
  })
}
