/**
 * The one abortable pause (five copies became this one). It rejects with
 * `signal.reason` when the signal fires, so an abort ends the caller's work the same way whatever
 * it was waiting on; callers that report an abort as a result rather than a throw catch it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
