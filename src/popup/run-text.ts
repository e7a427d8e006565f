import type { PackIssue, PackIssueCode, RunNotice } from '../core/registry'
import { deprecationNote, i18n, locale, t, type MessageKey } from '../ui/i18n'
import en from '../core/locales/en'
import { isFailureCode, kFailures, type FailureSpec } from '../core/failure'

/**
 * What a pack run reports, in the UI language. The engine writes English for the CLI and, beside
 * it, codes and parameters (`error.code`, `notices`); the popup says those, and keeps the English
 * for its details toggle.
 */

/** Durations in seconds with one decimal, in the UI language's digits. */
export function seconds(ms: number): string {
  return (Math.max(ms, 100) / 1000).toLocaleString(locale.value, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
}

/** A failure code as a short clause (its `reason` in src/core/failure.ts); an unknown code (a newer engine) as itself. */
export function reasonText(code: string): string {
  const key = isFailureCode(code) ? (kFailures[code].say as FailureSpec['say']).reason : undefined
  return key && key in en ? t(key as MessageKey) : code
}

/** The one line a failed run shows: a failed `verify` says the pack's own message, in Chinese when the pack has it. */
export function failureLine(error: {
  code: string
  action: string
  step?: number
  stepAction?: string
  message?: string
  details?: Record<string, unknown>
}): string {
  if (error.code === 'VERIFY_FAILED') {
    const own = i18n.global.locale.value === 'zh-CN' ? error.details?.messageZh : error.message
    if (typeof own === 'string' && own) return own
  }
  const reason = reasonText(error.code)
  if (error.step !== undefined && error.stepAction)
    return t('action.failedAt', { step: error.step, action: error.stepAction, parent: error.action, reason })
  return t('action.failed', { reason })
}

/** One warning of a run; a code this UI does not know keeps the engine's English. */
export function noticeText(n: RunNotice): string {
  const p = n.params
  const str = (k: string) => (p[k] === undefined ? undefined : String(p[k]))
  switch (n.code) {
    case 'DEPRECATED':
      return deprecationNote({ action: String(p.action), message: str('message'), messageZh: str('messageZh') })
    case 'ALIAS':
      return t('action.notice.ALIAS', p)
    case 'STEP_SKIPPED':
    case 'STEP_FAILED_CONTINUED':
      return t(`action.notice.${n.code}`, { ...p, reason: reasonText(String(p.reason)) })
    case 'WAIT_FELL_BACK':
      return t('action.notice.WAIT_FELL_BACK', { ...p, s: seconds(Number(p.ms)), reason: reasonText(String(p.reason)) })
    default:
      return n.text
  }
}

/** Every validator code, so that a new one fails the typecheck here until it has a title. */
export const kIssueCodes: Record<PackIssueCode, true> = {
  FILE_TOO_LARGE: true,
  YAML_SYNTAX: true,
  YAML_DUPLICATE_KEY: true,
  YAML_ALIAS_LIMIT: true,
  YAML_TOO_DEEP: true,
  FORBIDDEN_KEY: true,
  MISSING_FIELD: true,
  INVALID_TYPE: true,
  INVALID_ENUM_VALUE: true,
  UNKNOWN_FIELD: true,
  INVALID_VALUE: true,
  DEFAULT_TYPE_MISMATCH: true,
  UNKNOWN_STEP_ACTION: true,
  INVALID_STEP_ARGS: true,
  EXPR_SYNTAX: true,
  EXPR_TOO_DEEP: true,
  EXPR_FORBIDDEN_OPERATOR: true,
  EXPR_FUNCTION_CALL: true,
  EXPR_FORBIDDEN_KEY: true,
  UNKNOWN_SCOPE: true,
  UNKNOWN_PARAM: true,
  UNKNOWN_SELECTOR: true,
  UNKNOWN_STEP_OUTPUT: true,
  UNKNOWN_ACTION_REF: true,
  UNKNOWN_ALIAS_TARGET: true,
  CIRCULAR_RUN: true,
  CIRCULAR_FALLBACK: true,
  CIRCULAR_ALIAS: true,
  FALLBACK_MISSING: true,
  TOO_MANY_STEPS: true,
  INVALID_SELECTOR: true,
  INVALID_VERSION_PATTERN: true,
  PARAM_UNDOCUMENTED: true,
  EXTENDS_NOT_FOUND: true,
  EXTENDS_CYCLE: true,
  READ_FAILED: true,
}

/**
 * A validator issue's one line. The validator's English sentence quotes the input and lists what
 * was allowed, the best a pack author can read, so the English UI shows it; another language says
 * what is wrong by its code and where (the path in the pack), and keeps the sentence as the detail.
 */
export function issueTitle(i: Pick<PackIssue, 'code' | 'path' | 'message'>): string {
  const key = `pack.issue.${i.code}`
  if (i18n.global.locale.value === 'en' || !(key in en)) return i.message
  const title = t(key as MessageKey)
  return i.path.length ? t('pack.issue.at', { title, path: i.path.join('.') }) : title
}
