/** Waiting primitives: every wait is bounded, wakes on DOM changes, and honours an AbortSignal. */

/** Visibility and layout change without mutations (CSS transitions); polled this often. */
export const kPollMs = 50
/**
 * requestAnimationFrame does not run in background tabs; a frame wait gives up after this long so
 * an action in a tab that is not in front still finishes.
 */
const kFrameFallbackMs = 50

/**
 * A miss on a settled page fails this soon: the DOM silent this long, the document
 * loaded, nothing busy and no recent action. Longer than the quiet window of readiness
 * (500 ms) so a render that follows a microtask or a frame is still waited for.
 */
export const kSettledMissMs = 800
/** An action that changed the page this recently may still be opening what the next step wants. */
export const kExpectAfterActionMs = 2_000
/** A document this young may still be mounting its app. */
export const kFreshDocumentMs = 3_000
/** Signs a region is still loading: ARIA busy, and the spinners of common libraries. */
const kBusy =
  '[aria-busy=true],.el-loading-mask,.ant-spin-spinning,.ant-skeleton-active,.spinner-border,.spinner-grow,.n-spin,.v-progress-circular--indeterminate'

let lastActionAt = 0
/** The executor acted and the page answered: a target may be about to appear. */
export function noteAction(at = Date.now()): void {
  lastActionAt = at
}

/**
 * Whether a miss may wait for the page: something is loading, an action just changed the page,
 * or the document is new. The DOM's own quiet is watched by `waitFor`.
 */
export function expectingChange(doc: Document = document, now = Date.now()): string | null {
  if (doc.readyState !== 'complete') return 'the page is loading'
  if (now - lastActionAt < kExpectAfterActionMs) return 'the last action just changed the page'
  if ((doc.defaultView?.performance.now() ?? Infinity) < kFreshDocumentMs) return 'the page has just loaded'
  const busy = doc.querySelector(kBusy)
  if (busy && (busy as HTMLElement).offsetParent !== null) return 'part of the page is still loading'
  return null
}

export interface WaitOptions {
  /**
   * Give up early once the page is settled: no mutation for this long and `expectingChange` says
   * nothing is coming. Without it the wait lasts until the deadline.
   */
  settledMs?: number
}

/** Resolves when `probe` returns a truthy value, or with null at the deadline or on abort. */
export function waitFor<T>(
  probe: () => T | null | undefined | false,
  timeoutMs: number,
  signal?: AbortSignal,
  doc: Document = document,
  opts: WaitOptions = {},
): Promise<T | null> {
  // Checked after every probe as well as by the timer: a page that mutates without pause keeps
  // re-running a slow probe, and the timer's task may not get its turn before the deadline.
  const deadline = Date.now() + timeoutMs
  const first = probe()
  if (first) return Promise.resolve(first)
  if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(null)
  return new Promise((resolve) => {
    let done = false
    let lastChange = Date.now()
    const finish = (v: T | null) => {
      if (done) return
      done = true
      observer.disconnect()
      clearInterval(poll)
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      resolve(v)
    }
    const check = () => {
      let v: T | null | undefined | false
      try {
        v = probe()
      } catch {
        v = null
      }
      if (v) finish(v)
      else if (Date.now() >= deadline) finish(null)
      else if (opts.settledMs !== undefined && Date.now() - lastChange >= opts.settledMs && !expectingChange(doc))
        finish(null)
    }
    const onAbort = () => finish(null)
    const observer = new MutationObserver(() => {
      lastChange = Date.now()
      check()
    })
    observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true })
    const poll = setInterval(check, kPollMs)
    const timer = setTimeout(() => finish(null), timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** One animation frame, or kFrameFallbackMs when frames are throttled. */
export function nextFrame(view: Window = window): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, kFrameFallbackMs)
    view.requestAnimationFrame(() => {
      clearTimeout(t)
      resolve()
    })
  })
}

/** Two frames: what our events caused has been rendered. */
export async function nextPaint(view: Window = window): Promise<void> {
  await nextFrame(view)
  await nextFrame(view)
}

/** Microtasks, then a macrotask: Vue's nextTick and React's batched updates have flushed. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
