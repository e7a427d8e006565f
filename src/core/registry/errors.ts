import type { FailureCode } from '../failure'

// Errors are data (STYLE.md): every failure carries a stable `code`, the `path` of the offending
// value and, for text inputs, where it is. Messages quote the input and say what was allowed.

/** A position inside a text input; `line` and `col` are 1-based, as editors show them. */
export interface SourcePosition {
  file?: string
  line?: number
  col?: number
}

export type PathSegment = string | number

export class RegistryError extends Error {
  readonly code: string
  readonly path: PathSegment[]
  readonly file?: string
  readonly line?: number
  readonly col?: number

  constructor(code: string, message: string, options: { path?: PathSegment[] } & SourcePosition = {}) {
    super(message)
    this.name = new.target.name
    this.code = code
    this.path = options.path ?? []
    this.file = options.file
    this.line = options.line
    this.col = options.col
  }
}

// ---------------------------------------------------------------------------------------------
// Expressions and interpolation

export type ExpressionErrorCode =
  | 'EXPR_SYNTAX' // not a sentence of the `when` language
  | 'EXPR_TOO_DEEP' // AST deeper than kMaxAstDepth
  | 'EXPR_FORBIDDEN_OPERATOR' // an operator outside the allowed list
  | 'EXPR_FUNCTION_CALL' // calls are never allowed
  | 'EXPR_FORBIDDEN_KEY' // __proto__ / constructor / prototype

/** Errors of the `when` language and of `${...}` templates. `offset` is 0-based into `input`. */
export class ExpressionError extends RegistryError {
  declare readonly code: ExpressionErrorCode
  readonly input: string
  readonly offset: number

  constructor(code: ExpressionErrorCode, message: string, input: string, offset: number) {
    super(code, message)
    this.input = input
    this.offset = offset
  }
}

export class ExpressionSyntaxError extends ExpressionError {}

/** Raised for anything that could let a pack reach outside its data: forbidden keys, operators, calls. */
export class SecurityError extends ExpressionError {}

// ---------------------------------------------------------------------------------------------
// Pack validation: every problem of a file is one issue; a file with an error is skipped.

export type PackIssueCode =
  // layer 1: the text and its YAML
  | 'FILE_TOO_LARGE'
  | 'YAML_SYNTAX'
  | 'YAML_DUPLICATE_KEY'
  | 'YAML_ALIAS_LIMIT'
  | 'YAML_TOO_DEEP'
  | 'FORBIDDEN_KEY'
  // layer 2: structure (zod)
  | 'MISSING_FIELD'
  | 'INVALID_TYPE'
  | 'INVALID_ENUM_VALUE'
  | 'UNKNOWN_FIELD'
  | 'INVALID_VALUE'
  // layer 3: semantics
  | 'DEFAULT_TYPE_MISMATCH'
  | 'UNKNOWN_STEP_ACTION'
  | 'INVALID_STEP_ARGS'
  | 'EXPR_SYNTAX'
  | 'EXPR_TOO_DEEP'
  | 'EXPR_FORBIDDEN_OPERATOR'
  | 'EXPR_FUNCTION_CALL'
  | 'EXPR_FORBIDDEN_KEY'
  | 'UNKNOWN_SCOPE'
  | 'UNKNOWN_PARAM'
  | 'UNKNOWN_SELECTOR'
  | 'UNKNOWN_STEP_OUTPUT'
  | 'UNKNOWN_ACTION_REF'
  | 'UNKNOWN_ALIAS_TARGET'
  | 'CIRCULAR_RUN'
  | 'CIRCULAR_FALLBACK'
  | 'CIRCULAR_ALIAS'
  | 'FALLBACK_MISSING'
  | 'TOO_MANY_STEPS'
  | 'INVALID_SELECTOR'
  | 'INVALID_VERSION_PATTERN'
  | 'PARAM_UNDOCUMENTED'
  // loading
  | 'EXTENDS_NOT_FOUND'
  | 'EXTENDS_CYCLE'
  | 'READ_FAILED'

export type IssueSeverity = 'error' | 'warning'

export interface PackIssue {
  code: PackIssueCode
  severity: IssueSeverity
  message: string
  /** Where in the pack, as keys and indices from the top: `['actions', 'dialog:open', 'steps', 0]`. */
  path: PathSegment[]
  file: string
  line: number
  col: number
}

/** Thrown by `parsePack`; `safeParsePack` returns the same issues instead. */
export class PackValidationError extends RegistryError {
  readonly issues: PackIssue[]
  constructor(issues: PackIssue[]) {
    const first = issues.find((i) => i.severity === 'error') ?? issues[0]
    super(first?.code ?? 'INVALID_PACK', formatIssues(issues), {
      path: first?.path,
      file: first?.file,
      line: first?.line,
      col: first?.col,
    })
    this.issues = issues
  }
}

/** One line per issue, the shape compilers use so editors can jump to it: `file:line:col: CODE message`. */
export function formatIssue(issue: PackIssue): string {
  const tag = issue.severity === 'warning' ? ' (warning)' : ''
  return `${issue.file}:${issue.line}:${issue.col}: ${issue.code}${tag} ${issue.message}`
}

export function formatIssues(issues: readonly PackIssue[]): string {
  return issues.map(formatIssue).join('\n')
}

// ---------------------------------------------------------------------------------------------
// Running actions: these codes reach callers inside results, never as exceptions.

/**
 * The failure codes an action run ends in (src/core/failure.ts describes each): the engine's own,
 * and the page's, passed through as the page said them.
 */
export type ActionErrorCode = Extract<
  FailureCode,
  | 'ACTION_NOT_FOUND'
  | 'PARAM_REQUIRED'
  | 'PARAM_INVALID'
  | 'VERSION_INCOMPATIBLE'
  | 'MAX_DEPTH_EXCEEDED'
  | 'NOT_FOR_SITE'
  | 'ELEMENT_NOT_FOUND'
  | 'ELEMENT_STALE'
  | 'AMBIGUOUS'
  | 'NOT_ACTIONABLE'
  | 'INVALID'
  | 'NEEDS_CONFIRMATION'
  | 'BLOCKED'
  | 'CANCELLED'
  | 'TIMEOUT'
  | 'STEP_FAILED'
  | 'VERIFY_FAILED'
>

/**
 * A run's warning as data, beside the English sentence in `warnings`: a UI says it in its own
 * language from `code` and `params`; `text` is for a log and a model (ava mcp).
 * - `DEPRECATED` {action, message?, messageZh?} · `ALIAS` {action, target}
 * - `STEP_SKIPPED` {step, action, parent, reason}: a step with `onError: continue` failed.
 * - `STEP_FAILED_CONTINUED` {step, action, reason}: a step failed and `stopOnError: false` went on.
 * - `WAIT_FELL_BACK` {step, action, parent, ms, settleMs, reason}: a wait did not hold; the run went on after the page loaded.
 * `reason` is the failure's `ActionErrorCode`.
 */
export interface RunNotice {
  code: 'DEPRECATED' | 'ALIAS' | 'STEP_SKIPPED' | 'STEP_FAILED_CONTINUED' | 'WAIT_FELL_BACK'
  params: Record<string, string | number>
  text: string
}

/** A failure inside the step engine; converted to an `ActionError` at the action boundary. */
export class StepFailure extends RegistryError {
  declare readonly code: FailureCode
  readonly details?: Record<string, unknown>
  constructor(code: FailureCode, message: string, details?: Record<string, unknown>) {
    super(code, message)
    this.details = details
  }
}
