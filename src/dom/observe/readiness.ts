/**
 * Readiness by the quiet-window model: the page is ready when it has finished
 * parsing, the DOM has been silent for a while and at most a couple of requests are in flight.
 * A hard cap ends the wait on pages that never settle (long polling, ticking clocks), so a wait
 * can never hang an agent run.
 */
import { abortError } from './errors'
import { kAvaUiAttr } from './scan'
import { clip } from '../../core/page/text'

/** DOM silent this long counts as settled (quietWindowMs). */
export const kQuietWindowMs = 500
/** Never wait longer than this (maxWaitMs). */
export const kMaxWaitMs = 10_000
/** Background requests tolerated: analytics beacons and long polls never finish. */
export const kAllowPendingRequests = 2
/** How often pending requests are re-checked when their source cannot notify. */
const kPollMs = 100
/** Page errors kept per wait: the first few say what broke; the rest repeat. */
const kMaxErrors = 20

/**
 * In-flight requests of the tab. The page cannot see them itself; the background counts them
 * with `chrome.webRequest` and feeds a source to the content script. Tests can pass their own.
 */
export interface PendingRequestSource {
  pending(): number
  /** Optional: call `onChange` whenever the count changes; returns an unsubscribe function. */
  subscribe?(onChange: () => void): () => void
}

export interface ModalInfo {
  kind: 'dialog' | 'alertdialog'
  label: string
  modal: boolean
}

export interface ReadyOptions {
  quietWindowMs?: number
  maxWaitMs?: number
  allowPendingRequests?: number
  requests?: PendingRequestSource
  signal?: AbortSignal
  document?: Document
}

export interface ReadyReport {
  ready: boolean
  /** `quiet`: the window passed; `timeout`: the cap was reached first. */
  reason: 'quiet' | 'timeout'
  waitedMs: number
  loadState: DocumentReadyState
  mutations: number
  pendingRequests: number
  modals: ModalInfo[]
  errors: string[]
}

export function waitForReady(options: ReadyOptions = {}): Promise<ReadyReport> {
  const doc = options.document ?? document
  const view = doc.defaultView!
  const quiet = options.quietWindowMs ?? kQuietWindowMs
  const cap = options.maxWaitMs ?? kMaxWaitMs
  const allowed = options.allowPendingRequests ?? kAllowPendingRequests
  const requests = options.requests
  const signal = options.signal
  if (signal?.aborted) return Promise.reject(abortError(signal))

  return new Promise<ReadyReport>((resolve, reject) => {
    const start = Date.now()
    let lastMutation = start
    let mutations = 0
    const errors: string[] = []
    let timer: ReturnType<typeof setTimeout> | undefined
    const observer = new view.MutationObserver((records) => {
      for (const r of records) {
        // Our own overlay is not the page changing.
        const target = r.target.nodeType === 1 ? (r.target as Element) : r.target.parentElement
        if (target?.closest?.(`[${kAvaUiAttr}]`)) continue
        mutations++
        lastMutation = Date.now()
      }
    })
    const onError = (e: ErrorEvent) => {
      if (errors.length < kMaxErrors) errors.push(clip(e.message || String(e.error), 200))
    }
    const onRejection = (e: PromiseRejectionEvent) => {
      if (errors.length < kMaxErrors)
        errors.push(
          clip(`Unhandled rejection: ${e.reason instanceof Error ? e.reason.message : String(e.reason)}`, 200),
        )
    }
    // A request that ends is the page about to change: it renders what came back a task or more
    // later. The quiet window starts again from each change of the count, so the page is read
    // after that render, not in the gap between the response and it.
    const unsubscribe = requests?.subscribe?.(() => {
      lastMutation = Date.now()
      schedule(0)
    })
    const cleanup = () => {
      observer.disconnect()
      view.removeEventListener('error', onError)
      view.removeEventListener('unhandledrejection', onRejection)
      unsubscribe?.()
      if (timer !== undefined) clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
    const finish = (ready: boolean) => {
      cleanup()
      resolve({
        ready,
        reason: ready ? 'quiet' : 'timeout',
        waitedMs: Date.now() - start,
        loadState: doc.readyState,
        mutations,
        pendingRequests: requests?.pending() ?? 0,
        modals: openModals(doc),
        errors,
      })
    }
    const onAbort = () => {
      cleanup()
      reject(abortError(signal!))
    }
    const check = () => {
      timer = undefined
      const now = Date.now()
      if (now - start >= cap) return finish(false)
      const silentFor = now - lastMutation
      const basicReady = doc.readyState !== 'loading'
      const networkOk = (requests?.pending() ?? 0) <= allowed
      if (basicReady && silentFor >= quiet && networkOk) return finish(true)
      const untilQuiet = silentFor >= quiet ? kPollMs : quiet - silentFor
      schedule(Math.min(untilQuiet, cap - (now - start)))
    }
    function schedule(ms: number) {
      if (timer !== undefined) clearTimeout(timer)
      timer = setTimeout(check, Math.max(0, ms))
    }
    observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true })
    view.addEventListener('error', onError)
    view.addEventListener('unhandledrejection', onRejection)
    signal?.addEventListener('abort', onAbort, { once: true })
    schedule(quiet)
  })
}

/** Open dialogs: `<dialog open>` and ARIA dialogs that are rendered. */
export function openModals(doc: Document): ModalInfo[] {
  const out: ModalInfo[] = []
  for (const el of Array.from(
    doc.querySelectorAll('dialog[open],[role=dialog],[role=alertdialog],[aria-modal=true]'),
  )) {
    if (el.closest(`[${kAvaUiAttr}]`)) continue
    if (
      typeof el.checkVisibility === 'function' &&
      !el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)
    )
      continue
    const role = el.getAttribute('role') === 'alertdialog' ? 'alertdialog' : 'dialog'
    const label = el.getAttribute('aria-label') || el.querySelector('h1,h2,h3,[role=heading]')?.textContent || ''
    const modal = el.getAttribute('aria-modal') === 'true' || (el.localName === 'dialog' && isModalDialog(el))
    out.push({ kind: role, label: clip(label), modal })
  }
  return out
}

function isModalDialog(el: Element): boolean {
  try {
    return el.matches(':modal')
  } catch {
    // Engines without :modal (happy-dom) cannot tell showModal() from show().
    return false
  }
}
