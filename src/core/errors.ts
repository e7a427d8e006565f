/**
 * The error classes a run can end in (seed 003, "错误处理"). Messages for people, with the
 * recovery to offer, live in the UI's i18n table under `error.<code>`.
 */
export type ErrorCode =
  | 'NETWORK'
  | 'TOKEN_INVALID'
  | 'RATE_LIMITED'
  | 'PROVIDER_ERROR'
  | 'TIMEOUT'
  | 'JSON_PARSE'
  | 'SCHEMA'
  | 'STREAM_CUT'
  | 'ELEMENT_MISSING'
  | 'STEP_FAILED'
  | 'NO_PAGE'
  | 'UNKNOWN'

/** An error that crosses a message boundary: plain data, never an Error instance. */
export interface ErrorData {
  code: string
  message: string
  /** What a UI needs to say `code` in its own language (the locale's `failure.<code>`); `message` is the English. */
  params?: Record<string, string | number>
}

export class AvaError extends Error {
  override name = 'AvaError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }
}
