/** Waiting primitives: every wait is bounded, wakes on DOM changes, and honours an AbortSignal. */

/** Visibility and layout change without mutations (CSS transitions); polled this often. */
export const kPollMs = 50
/**
 * requestAnimationFrame does not run in background tabs; a frame wait gives up after this long so
 * an action in a tab that is not in front still finishes.
 */
const kFrameFallbackMs = 50

/** Resolves when `probe` returns a truthy value, or with null at the deadline or on abort. */
export function waitFor<T>(probe: () => T | null | undefined | false, timeoutMs: number, signal?: AbortSignal, doc: Document = document): Promise<T | null> {
  // Checked after every probe as well as by the timer: a page that mutates without pause keeps
  // re-running a slow probe, and the timer's task may not get its turn before the deadline.
  const deadline = Date.now() + timeoutMs
  const first = probe()
  if (first) return Promise.resolve(first)
  if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(null)
  return new Promise((resolve) => {
    let done = false
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
    }
    const onAbort = () => finish(null)
    const observer = new MutationObserver(check)
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
