/** Resolves when `probe` returns a value, re-checking on DOM changes and on a slow timer. */
export function waitFor<T>(probe: () => T | null | undefined, timeoutMs: number, signal?: AbortSignal): Promise<T | null> {
  const first = probe()
  if (first) return Promise.resolve(first)
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
      const v = probe()
      if (v) finish(v)
    }
    const onAbort = () => finish(null)
    const observer = new MutationObserver(check)
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
    // Visibility can change without a mutation (CSS transitions, layout); poll for those.
    const poll = setInterval(check, 100)
    const timer = setTimeout(() => finish(null), timeoutMs)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Two animation frames: the page has rendered what our events caused. */
export const nextPaint = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))
