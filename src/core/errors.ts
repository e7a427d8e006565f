/**
 * The error classes a run can end in (seed 003, "错误处理"), each with the recovery the panel
 * offers. Messages for people live in the UI's i18n table under `error.<code>`.
 */
export const ERROR_RECOVERY = {
  NETWORK: 'RETRY',
  TOKEN_INVALID: 'OPEN_OPTIONS',
  RATE_LIMITED: 'RETRY',
  PROVIDER_ERROR: 'RETRY',
  TIMEOUT: 'RETRY',
  JSON_PARSE: 'REGENERATE',
  SCHEMA: 'REGENERATE',
  STREAM_CUT: 'RETRY',
  ELEMENT_MISSING: 'RESCAN',
  STEP_FAILED: 'MANUAL_CHECK',
  NO_PAGE: 'RELOAD',
  UNKNOWN: 'REPORT',
} as const

export type ErrorCode = keyof typeof ERROR_RECOVERY
export type Recovery = (typeof ERROR_RECOVERY)[ErrorCode]

/** An error that crosses a message boundary: plain data, never an Error instance. */
export interface ErrorData {
  code: string
  message: string
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
  get recovery(): Recovery {
    return ERROR_RECOVERY[this.code]
  }
}
