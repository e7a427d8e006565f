/**
 * Errors are data (STYLE.md): a code the caller can branch on, the offending input in `path`,
 * and a message that says what happened and what to do.
 */
export type ObserveErrorCode =
  /** The element behind an id has left the document; re-scan instead of guessing (§3.4). */
  | 'ELEMENT_STALE'
  /** No element was ever given this id in this page. */
  | 'ELEMENT_NOT_FOUND'
  /** The caller's AbortSignal fired. */
  | 'ABORTED'

export class ObserveError extends Error {
  override name = 'ObserveError'
  constructor(
    readonly code: ObserveErrorCode,
    message: string,
    /** The id, or other input, the error is about. */
    readonly path?: string,
  ) {
    super(message)
  }

  toJSON(): { code: ObserveErrorCode; message: string; path?: string } {
    return { code: this.code, message: this.message, path: this.path }
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ObserveError }

export function abortError(signal: AbortSignal): ObserveError {
  const why = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? 'aborted')
  return new ObserveError('ABORTED', `Observe work was aborted: ${why}`)
}
