/**
 * Errors are data (STYLE.md): a code the caller can branch on, the offending input in `path`,
 * and a message that says what happened and what to do.
 */
import type { FailureCode } from '../../core/failure'

/**
 * ELEMENT_STALE: the element behind an id has left the document; re-scan instead of guessing.
 * ELEMENT_NOT_FOUND: no element was ever given this id in this page. CANCELLED: the
 * caller's AbortSignal fired. (src/core/failure.ts describes each.)
 */
export type ObserveErrorCode = Extract<FailureCode, 'ELEMENT_STALE' | 'ELEMENT_NOT_FOUND' | 'CANCELLED'>

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
  return new ObserveError('CANCELLED', `Observe work was aborted: ${why}`)
}
