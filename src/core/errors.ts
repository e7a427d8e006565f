import type { FailureCode } from './failure'

/**
 * A run ends in one of the failure codes (src/core/failure.ts;, "错误处理"): the model's
 * and the run's own below, or the code of the step it stopped at, as the page said it. Its
 * sentence and the recovery to offer are the list's.
 */
export type ErrorCode = FailureCode

/** An error that crosses a message boundary: plain data, never an Error instance. */
export interface ErrorData {
  /** A FailureCode (src/core/failure.ts) when Ava made the error; a string from elsewhere reads as UNKNOWN. */
  code: string
  /** English, for logs, the CLI's details and a model; a person reads the code's sentence. */
  message: string
  /** What a UI needs to say `code` in its own language (the list's locale key); `message` is the English. */
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
