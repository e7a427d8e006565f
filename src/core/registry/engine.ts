import { packStepKind, packStepOpens } from '../vocabulary'
import { sleep } from '../sleep'
import { RegistryError, StepFailure, type ActionErrorCode, type RunNotice } from './errors'
import type { FailureCode } from '../failure'
import { evaluateCondition, stringify } from './expr/evaluator'
import { parseTemplate, resolveObject, resolveValue } from './interpolate'
import {
  qualify,
  type ActionDefinition,
  type ActionStep,
  type NamespaceDefinition,
  type SelectorDefinition,
} from './model'
import { validateParams } from './params'
import { PortError, type BrowserPort } from './port'
import type { ActionRegistry } from './registry'
import { maskEnv, maskParams, Redactor, secretInUrl } from './secrets'
import { parseSelector, type ParsedSelector } from '../page/selectors'
import { resolveCandidates, SelectorCache } from './selectors'
import { getStepAction, selectorArgsOf } from './step-actions'
import { applyOverrides, checkCompatibility, detectVersion } from './version'

// The step engine: looks the action up, checks params, detects the library version and
// applies overrides, runs the steps (when, retry, fallback, onError, timeouts), then verify and
// returns. Failures come back as data (ActionResult), never as exceptions.

/** Limits, the defaults of every run. */
export const kDefaultStepTimeoutMs = 30_000
export const kDefaultActionTimeoutMs = 300_000
export const kMaxRunDepth = 10
export const kMaxStepsPerAction = 100
/** Version detection is a few reads; a page that cannot answer in this time has no marker. */
const kVersionDetectTimeoutMs = 2_000
/** Alternatives tried when a selector template combines several aliases with fallbacks. */
const kMaxSelectorCandidates = 16
/** Element lookups stop this long before the step deadline (see attempt()). */
const kSelectorDeadlineMarginMs = 20
/** Trace outputs are summaries: a snapshot can be megabytes. */
const kTraceValueChars = 300
/**
 * Wait: "locator.first().waitFor() → 超时回退 domcontentloaded + 500ms". A wait that
 * runs out of time does not fail the step: once the document has loaded, and 500 ms later, the
 * run goes on, and the next step finds out whether the page is ready.
 */
export const kWaitFallbackSettleMs = 500
/** How long the fallback waits for the document to load before the step fails after all. */
export const kWaitFallbackLoadMs = 5_000

export interface ActionError {
  code: FailureCode
  message: string
  /** The action that failed, fully qualified (the innermost one for nested runs). */
  action: string
  /** 1-based index of the failing step in that action. */
  step?: number
  stepAction?: string
  details?: Record<string, unknown>
  /**
   * What to do about this failure in particular (the names a lookup found), English for a log and a
   * model; what to do about the code in general is the list's hint (src/core/failure.ts), which a
   * person reads from the locale tables.
   */
  suggestion?: string
}

export interface StepTrace {
  /** "2" for the second step, "2.fallback.1" for the first step of its fallback. */
  id: string
  /** The action whose step this is. */
  owner: string
  depth: number
  action: string
  status: 'ok' | 'skipped' | 'failed' | 'recovered' | 'continued'
  /** The step's arguments after interpolation, secrets masked. */
  input: Record<string, unknown>
  /** The selector that matched, per selector argument. */
  selectors?: Record<string, string>
  output?: unknown
  attempts: number
  durationMs: number
  error?: { code: FailureCode; message: string }
  /** A wait that ran out of time and went on after the page had loaded: why it fell back. */
  fellBack?: { code: FailureCode; message: string }
}

export interface ContextDump {
  action: string
  depth: number
  params: Record<string, unknown>
  env: Record<string, string>
  selectors: Record<string, string>
  steps: Record<string, unknown>
  version: string | null
}

export interface ActionResult {
  success: boolean
  action: string
  data?: Record<string, unknown>
  error?: ActionError
  warnings: string[]
  /** The same warnings as codes and parameters, for a UI to say in its language. */
  notices?: RunNotice[]
  /** Steps that failed and were rescued by their fallback ("记录降级"). */
  fallbacksUsed: string[]
  version?: string | null
  durationMs: number
  trace: StepTrace[]
  /** Debug mode: the lines also sent to the logger. */
  log?: string[]
  /** On failure: the variables at the time, secrets masked. */
  context?: ContextDump
}

export interface EngineOptions {
  registry: ActionRegistry
  /** Needed to run; dry-run works without one. */
  port?: BrowserPort
  /** The `env` scope; every value is treated as secret. */
  env?: Record<string, string>
  stepTimeoutMs?: number
  actionTimeoutMs?: number
  maxDepth?: number
  maxSteps?: number
  selectorCache?: SelectorCache
  /** Debug lines go here (and into `ActionResult.log`). */
  logger?: (line: string) => void
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** false: never read the page for the library version (global config `detect_version`); no overrides apply. */
  detectVersion?: boolean
}

/** What a run tells its `beforeStep` hook: the step about to run, its arguments resolved, secrets masked. */
export interface StepStart {
  id: string
  owner: string
  depth: number
  action: string
  input: Record<string, unknown>
}

export interface RunOptions {
  signal?: AbortSignal
  debug?: boolean
  /** A library version to assume instead of detecting it. */
  version?: string
  /**
   * Stop at the first failed step (default true). false: a step that fails (after its retries,
   * fallback and onError) is recorded and the run goes on with the next step; the result still
   * fails, with the first error. Failures nothing may absorb (the action's time limit, run depth, a
   * secret in a URL, cancellation) stop the run either way.
   */
  stopOnError?: boolean
  /** Ms to pause between steps (default 0), for slow pages and for watching a run. */
  stepDelay?: number
  /** Called before each step that runs (not skipped), after stepDelay; a debugger may pause here. */
  beforeStep?: (step: StepStart) => void | Promise<void>
}

interface Scope {
  params: Record<string, unknown>
  env: Record<string, string>
  selectors: Record<string, string>
  steps: Record<string, unknown>
}

interface Frame {
  action: ActionDefinition
  namespace: NamespaceDefinition
  scope: Scope
  selectorDefs: Record<string, SelectorDefinition>
  depth: number
  stepCount: number
  version: string | null
}

interface Run {
  signal: AbortSignal
  debug: boolean
  trace: StepTrace[]
  warnings: string[]
  notices: RunNotice[]
  fallbacksUsed: string[]
  log: string[]
  redactor: Redactor
  versions: Map<string, string | null>
  forcedVersion?: string
  /** The innermost frame when a failure happened, for the context dump. */
  failedFrame?: Frame
  stopOnError: boolean
  stepDelay: number
  beforeStep?: RunOptions['beforeStep']
  /** Steps started so far: stepDelay goes between steps, not before the first. */
  started: number
  /** stopOnError false: the first failure the run went past, reported at the end. */
  deferred?: { error: ActionError; frame: Frame }
}

/** A failure that no retry, fallback or `continue` may absorb: depth, action timeout, cancellation. */
class FatalFailure extends StepFailure {}

class ActionFailure extends StepFailure {
  constructor(
    readonly error: ActionError,
    readonly fatal: boolean,
  ) {
    super(error.code, error.message, error.details)
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolvePromise(v)
      },
      (e) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

function summarize(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') return value
  const text = typeof value === 'string' ? value : stringify(value)
  if (text.length <= kTraceValueChars) return value
  return `${text.slice(0, kTraceValueChars)}… (${text.length} chars)`
}

export class ActionEngine {
  readonly cache: SelectorCache
  private readonly stepTimeoutMs: number
  private readonly actionTimeoutMs: number
  private readonly maxDepth: number
  private readonly maxSteps: number
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>

  constructor(private readonly options: EngineOptions) {
    this.cache = options.selectorCache ?? new SelectorCache()
    this.stepTimeoutMs = options.stepTimeoutMs ?? kDefaultStepTimeoutMs
    this.actionTimeoutMs = options.actionTimeoutMs ?? kDefaultActionTimeoutMs
    this.maxDepth = options.maxDepth ?? kMaxRunDepth
    this.maxSteps = options.maxSteps ?? kMaxStepsPerAction
    this.sleep = options.sleep ?? sleep
    // A reload may change every selector.
    options.registry.onReload(() => this.cache.clear())
  }

  /** For the caller to call when the tab navigates (页面导航时清除). */
  clearSelectorCache(): void {
    this.cache.clear()
  }

  /** Execute: runs an action and returns its result; never throws. */
  async run(name: string, params: Record<string, unknown> = {}, options: RunOptions = {}): Promise<ActionResult> {
    const started = Date.now()
    const lookup = this.options.registry.lookup(name)
    const timeoutMs = (lookup.ok ? lookup.action.timeout : undefined) ?? this.actionTimeoutMs
    const controller = new AbortController()
    const timer = setTimeout(
      () => controller.abort(new StepFailure('TIMEOUT', `Action ${name} did not finish within ${timeoutMs} ms.`)),
      timeoutMs,
    )
    const onCancel = (): void => controller.abort(new StepFailure('STEP_FAILED', `Action ${name} was cancelled.`))
    options.signal?.addEventListener('abort', onCancel, { once: true })
    if (options.signal?.aborted) onCancel()
    const run: Run = {
      signal: controller.signal,
      debug: options.debug ?? false,
      trace: [],
      warnings: [],
      notices: [],
      fallbacksUsed: [],
      log: [],
      redactor: new Redactor(),
      versions: new Map(),
      forcedVersion: options.version,
      stopOnError: options.stopOnError ?? true,
      stepDelay: Math.max(0, options.stepDelay ?? 0),
      beforeStep: options.beforeStep,
      started: 0,
    }
    // Every vault value is a secret, referenced or not: the agent hands the engine a
    // saved secret as a plain param value, and a URL or a result must not carry it either way.
    for (const v of Object.values(this.options.env ?? {})) run.redactor.add(v)
    let topVersion: string | null | undefined
    try {
      const { data, frame } = await this.execute(run, name, params, 0, undefined)
      topVersion = frame.version
      if (run.deferred) {
        const { error, frame: failed } = run.deferred
        this.debugLine(run, `Failed: ${error.code} ${error.message} (the run went on: stopOnError is false)`)
        return this.finish(run, started, {
          success: false,
          action: frame.action.fullName,
          data,
          error,
          version: topVersion,
          context: this.dump(run, failed),
        })
      }
      return this.finish(run, started, { success: true, action: frame.action.fullName, data, version: topVersion })
    } catch (error) {
      const later = this.toActionError(error, run, name)
      this.debugLine(run, `Failed: ${later.code} ${later.message}`)
      // With stopOnError false the first failure is the one to report: what failed after it (a
      // verify that found no output, say) is its consequence, and stays in the trace.
      const failure = run.deferred?.error ?? later
      const frame = run.deferred?.frame ?? run.failedFrame
      return this.finish(run, started, {
        success: false,
        action: frame?.action.fullName ?? name,
        error: failure,
        version: frame?.version,
        context: frame ? this.dump(run, frame) : undefined,
      })
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onCancel)
    }
  }

  /** A warning, in English for the CLI and as data for a UI. */
  private warn(run: Run, notice: RunNotice): void {
    run.warnings.push(notice.text)
    run.notices.push(notice)
  }

  /** Debug mode: the same run, with per-step lines in `log`. */
  debug(
    name: string,
    params: Record<string, unknown> = {},
    options: Omit<RunOptions, 'debug'> = {},
  ): Promise<ActionResult> {
    return this.run(name, params, { ...options, debug: true })
  }

  private finish(
    run: Run,
    started: number,
    partial: Omit<ActionResult, 'warnings' | 'fallbacksUsed' | 'durationMs' | 'trace'>,
  ): ActionResult {
    const r = run.redactor
    const result: ActionResult = {
      ...partial,
      data: partial.data === undefined ? undefined : r.scrub(partial.data),
      error: partial.error === undefined ? undefined : r.scrub(partial.error),
      warnings: r.scrub(run.warnings),
      notices: r.scrub(run.notices),
      fallbacksUsed: run.fallbacksUsed,
      durationMs: Date.now() - started,
      trace: r.scrub(run.trace),
    }
    if (run.debug) result.log = r.scrub(run.log)
    if (result.data === undefined) delete result.data
    if (result.error === undefined) delete result.error
    return result
  }

  private debugLine(run: Run, line: string): void {
    if (!run.debug) return
    const text = run.redactor.scrubText(`[DEBUG] ${line}`)
    run.log.push(text)
    this.options.logger?.(text)
  }

  private dump(run: Run, frame: Frame): ContextDump {
    return run.redactor.scrub({
      action: frame.action.fullName,
      depth: frame.depth,
      params: maskParams(frame.scope.params, frame.action),
      env: maskEnv(frame.scope.env),
      selectors: frame.scope.selectors,
      steps: Object.fromEntries(Object.entries(frame.scope.steps).map(([k, v]) => [k, summarize(v)])),
      version: frame.version,
    })
  }

  private toActionError(error: unknown, run: Run, name: string): ActionError {
    if (error instanceof ActionFailure) return error.error
    const failure = this.toFailure(error, run)
    return {
      code: failure.code,
      message: failure.message,
      action: run.failedFrame?.action.fullName ?? name,
      details: failure.details,
    }
  }

  /** Any thrown thing → a StepFailure with one of the step failure codes. */
  private toFailure(error: unknown, run: Run, stepSignal?: AbortSignal): StepFailure {
    if (run.signal.aborted) {
      const reason = run.signal.reason
      return new FatalFailure(
        reason instanceof StepFailure ? reason.code : 'STEP_FAILED',
        reason instanceof Error ? reason.message : 'Cancelled.',
      )
    }
    if (error instanceof StepFailure) return error
    if (stepSignal?.aborted) {
      const reason = stepSignal.reason
      if (reason instanceof StepFailure) return reason
      return new StepFailure(
        'TIMEOUT',
        reason instanceof Error && reason.name === 'TimeoutError' ? 'The step timed out.' : String(reason),
      )
    }
    if (error instanceof PortError) return new StepFailure(error.code, error.message)
    if (error instanceof RegistryError) return new StepFailure('STEP_FAILED', error.message, { code: error.code })
    return new StepFailure('STEP_FAILED', error instanceof Error ? error.message : String(error))
  }

  // ---- actions ------------------------------------------------------------------------------

  private async execute(
    run: Run,
    requested: string,
    params: Record<string, unknown>,
    depth: number,
    parent: Frame | undefined,
  ): Promise<{ data: Record<string, unknown>; frame: Frame }> {
    const name = parent ? qualify(requested, parent.action.namespace) : requested
    const fail = (
      code: ActionErrorCode,
      message: string,
      fatal = false,
      details?: Record<string, unknown>,
      suggestion?: string,
    ): never => {
      throw new ActionFailure({ code, message, action: name, details, ...(suggestion ? { suggestion } : {}) }, fatal)
    }
    // Depth counts the actions on the call chain; the eleventh nested run is refused.
    if (depth >= this.maxDepth) {
      run.failedFrame = parent
      fail(
        'MAX_DEPTH_EXCEEDED',
        `Running ${name} would nest ${depth + 1} actions deep; at most ${this.maxDepth} are allowed.`,
        true,
        { depth: depth + 1 },
      )
    }
    const lookup = this.options.registry.lookup(name)
    if (!lookup.ok) {
      run.failedFrame = parent
      return fail('ACTION_NOT_FOUND', lookup.message, false, undefined, lookup.suggestion)
    }
    const { action, namespace } = lookup
    for (const n of lookup.notices) this.warn(run, n)
    this.debugLine(run, `Loading action: ${action.fullName}${action.fullName !== name ? ` (requested ${name})` : ''}`)

    const checked = validateParams(params, action.params)
    if (!checked.ok) {
      run.failedFrame = parent
      fail(checked.code, `${action.fullName}: ${checked.message}`, false, { param: checked.param })
    }
    const values = checked.ok ? checked.values : {}
    const env = this.options.env ?? {}
    for (const [k, p] of Object.entries(action.params)) if (p.secret) run.redactor.add(values[k])

    const version = await this.versionFor(run, namespace)
    const frame: Frame = {
      action,
      namespace,
      depth,
      stepCount: 0,
      version,
      scope: { params: values, env, selectors: {}, steps: {} },
      selectorDefs: namespace.selectors,
    }
    const compatible = checkCompatibility(namespace.compatibility, version)
    if (!compatible.ok) {
      run.failedFrame = frame
      fail('VERSION_INCOMPATIBLE', compatible.message, false, { version })
    }
    const overrides = applyOverrides(namespace.selectors, namespace.compatibility, version)
    frame.selectorDefs = overrides.selectors
    frame.scope.selectors = Object.fromEntries(Object.entries(overrides.selectors).map(([k, v]) => [k, v.primary]))
    this.debugLine(run, `Resolved params: ${stringify(maskParams(values, action))}`)
    if (version !== null)
      this.debugLine(
        run,
        `Library version: ${version}${overrides.applied.length ? ` (overrides ${overrides.applied.join(', ')})` : ''}`,
      )

    try {
      for (let i = 0; i < action.steps.length; i++)
        await this.executeStep(run, frame, action.steps[i], String(i + 1), i + 1)
      for (const v of action.verify) {
        if (!evaluateCondition(v.condition, frame.scope)) {
          const shown = this.displayScope(frame)
          const messageZh = v.message_zh === undefined ? {} : { messageZh: String(resolveValue(v.message_zh, shown)) }
          throw new StepFailure('VERIFY_FAILED', resolveValue(v.message, shown) as string, {
            condition: v.condition,
            ...messageZh,
          })
        }
      }
    } catch (error) {
      if (error instanceof ActionFailure) throw error
      run.failedFrame ??= frame
      const failure = this.toFailure(error, run)
      const failedStep = (failure.details?.stepIndex as number | undefined) ?? undefined
      throw new ActionFailure(
        {
          code: failure.code,
          message: failure.message,
          action: action.fullName,
          step: failedStep,
          stepAction: failedStep === undefined ? undefined : action.steps[failedStep - 1]?.action,
          details: failure.details,
        },
        failure instanceof FatalFailure,
      )
    }

    const data: Record<string, unknown> = {}
    for (const [key, template] of Object.entries(action.returns)) data[key] = resolveValue(template, frame.scope)
    return { data, frame }
  }

  private async versionFor(run: Run, namespace: NamespaceDefinition): Promise<string | null> {
    if (run.forcedVersion !== undefined) return run.forcedVersion
    if (run.versions.has(namespace.namespace)) return run.versions.get(namespace.namespace) ?? null
    let version: string | null = null
    const port = this.options.port
    if (port && namespace.compatibility && this.options.detectVersion !== false) {
      const signal = AbortSignal.any([run.signal, AbortSignal.timeout(kVersionDetectTimeoutMs)])
      try {
        version = (await detectVersion(namespace.compatibility, port, signal)).version
      } catch {
        version = null
      }
    }
    run.versions.set(namespace.namespace, version)
    return version
  }

  /** The scope as it may be shown: secret params and env values masked. */
  private displayScope(frame: Frame): Scope {
    return { ...frame.scope, params: maskParams(frame.scope.params, frame.action), env: maskEnv(frame.scope.env) }
  }

  // ---- steps -------------------------------------------------------------------------------

  private async executeStep(run: Run, frame: Frame, step: ActionStep, id: string, topIndex: number): Promise<unknown> {
    if (++frame.stepCount > this.maxSteps) {
      throw new StepFailure('STEP_FAILED', `${frame.action.fullName} ran more than ${this.maxSteps} steps.`, {
        stepIndex: topIndex,
      })
    }
    const started = Date.now()
    const trace: StepTrace = {
      id,
      owner: frame.action.fullName,
      depth: frame.depth,
      action: step.action,
      status: 'ok',
      input: {},
      attempts: 0,
      durationMs: 0,
    }
    const display = this.displayScope(frame)
    try {
      trace.input = resolveObject(step.args, display)
    } catch {
      trace.input = step.args
    }

    if (step.when !== undefined && !evaluateCondition(step.when, frame.scope)) {
      trace.status = 'skipped'
      run.trace.push(trace)
      this.debugLine(run, `Step ${id}: ${step.action} skipped (when ${String(step.when)} is false)`)
      return undefined
    }
    if (run.stepDelay > 0 && run.started > 0)
      await this.sleep(run.stepDelay, run.signal).catch((e) => Promise.reject(this.toFailure(e, run)))
    run.started++
    if (run.beforeStep) {
      await run.beforeStep({
        id,
        owner: frame.action.fullName,
        depth: frame.depth,
        action: step.action,
        input: run.redactor.scrub(trace.input),
      })
      // Stopped at the pause (a debugger's "q"): the step must not act.
      if (run.signal.aborted) throw this.toFailure(run.signal.reason, run)
    }
    this.debugLine(run, `Step ${id}: ${step.action} ${stringify(trace.input)}`)
    if (run.debug)
      this.debugLine(
        run,
        `  Context: ${stringify({ params: display.params, env: display.env, steps: Object.keys(frame.scope.steps) })}`,
      )

    let value: unknown
    let failure: StepFailure | undefined
    for (let attempt = 0; attempt <= step.retry; attempt++) {
      trace.attempts = attempt + 1
      try {
        value = await this.attempt(run, frame, step, id, trace)
        failure = undefined
        if (attempt > 0) run.failedFrame = undefined
        break
      } catch (error) {
        if (error instanceof ActionFailure && error.fatal) throw this.record(run, trace, started, error)
        failure = error instanceof ActionFailure ? error : this.toFailure(error, run)
        if (failure instanceof FatalFailure) throw this.record(run, trace, started, failure)
        this.debugLine(run, `  Attempt ${attempt + 1} failed: ${failure.code} ${failure.message}`)
        if (attempt < step.retry)
          await this.sleep(step.retryDelay, run.signal).catch((e) => Promise.reject(this.toFailure(e, run)))
      }
    }

    if (failure && step.fallback) {
      this.debugLine(run, `  Trying fallback of step ${id}`)
      try {
        for (let i = 0; i < step.fallback.length; i++)
          value = await this.executeStep(run, frame, step.fallback[i], `${id}.fallback.${i + 1}`, topIndex)
        run.fallbacksUsed.push(frame.depth === 0 ? id : `${frame.action.fullName}#${id}`)
        trace.status = 'recovered'
        failure = undefined
        run.failedFrame = undefined
      } catch (error) {
        if ((error instanceof ActionFailure && error.fatal) || error instanceof FatalFailure)
          throw this.record(run, trace, started, error as StepFailure)
        this.debugLine(run, `  Fallback of step ${id} failed too`)
      }
    }

    if (failure) {
      if (step.onError === 'continue') {
        run.failedFrame = undefined
        trace.status = 'continued'
        trace.error = { code: failure.code, message: failure.message }
        this.warn(run, {
          code: 'STEP_SKIPPED',
          params: { step: id, action: step.action, parent: frame.action.fullName, reason: failure.code },
          text: `Step ${id} (${step.action}) of ${frame.action.fullName} failed and was skipped (onError: continue): ${failure.message}`,
        })
        this.finishTrace(run, trace, started)
        return undefined
      }
      run.failedFrame ??= frame
      const details = { ...failure.details, stepIndex: topIndex, step: id }
      const message =
        failure instanceof ActionFailure
          ? `Step ${id} (run ${failure.error.action}) failed: ${failure.message}`
          : `Step ${id} (${step.action}) failed: ${failure.message}`
      const stepFailure = this.record(run, trace, started, new StepFailure(failure.code, message, details))
      // A fallback step's failure belongs to the step it stands in for, which decides on its own.
      if (run.stopOnError || id.includes('.fallback.')) throw stepFailure
      run.deferred ??= {
        frame: run.failedFrame ?? frame,
        error: {
          code: failure.code,
          message,
          action: frame.action.fullName,
          step: topIndex,
          stepAction: frame.action.steps[topIndex - 1]?.action,
          details,
        },
      }
      run.failedFrame = undefined
      this.warn(run, {
        code: 'STEP_FAILED_CONTINUED',
        params: { step: id, action: step.action, reason: failure.code },
        text: `${message} The run went on (stopOnError: false).`,
      })
      return undefined
    }

    if (step.output) frame.scope.steps[step.output] = value
    trace.output = summarize(value)
    this.finishTrace(run, trace, started)
    return value
  }

  private record<E extends StepFailure>(run: Run, trace: StepTrace, started: number, failure: E): E {
    trace.status = 'failed'
    trace.error = { code: failure.code, message: failure.message }
    this.finishTrace(run, trace, started)
    return failure
  }

  private finishTrace(run: Run, trace: StepTrace, started: number): void {
    trace.durationMs = Date.now() - started
    run.trace.push(trace)
    if (trace.selectors)
      this.debugLine(
        run,
        `  Matched: ${Object.entries(trace.selectors)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`,
      )
    this.debugLine(run, `  Duration: ${trace.durationMs}ms`)
    if (trace.error) this.debugLine(run, `  Error: ${trace.error.code} ${trace.error.message}`)
    if (trace.status !== 'failed')
      this.debugLine(run, `  Result: ${trace.status}${trace.output === undefined ? '' : ` ${stringify(trace.output)}`}`)
  }

  private async attempt(run: Run, frame: Frame, step: ActionStep, id: string, trace: StepTrace): Promise<unknown> {
    const descriptor = getStepAction(step.action)
    if (!descriptor) throw new StepFailure('STEP_FAILED', `Unknown step action "${step.action}".`)
    const resolved = resolveObject(step.args, frame.scope)
    const parsed = descriptor.args.safeParse(resolved)
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ')
      throw new StepFailure('STEP_FAILED', `Arguments of ${step.action} are invalid after interpolation: ${problems}.`)
    }
    const args = parsed.data as Record<string, unknown>
    for (const key of [...(descriptor.urlArgs ?? []), ...(descriptor.urlArgsOf?.(args) ?? [])]) {
      const why =
        typeof args[key] === 'string' ? secretInUrl(step.args[key], args[key], frame.action, run.redactor) : undefined
      // Fatal: no retry, fallback or `continue` may try another way to send it.
      if (why)
        throw new FatalFailure(
          'STEP_FAILED',
          `Refused to ${step.action} with a secret in its ${key} (${why}): secrets are typed into pages, never sent in an address.`,
          { arg: key },
        )
    }
    const port = this.options.port
    // Not capped by the action's remaining time: the action signal is part of stepSignal and
    // aborts first when it is due, so the failure names the right limit.
    const argTimeout = descriptor.timeoutArg ? (args[descriptor.timeoutArg] as number | undefined) : undefined
    const timeoutMs =
      argTimeout === undefined ? (step.timeout ?? this.stepTimeoutMs) : Math.min(argTimeout, step.timeout ?? argTimeout)
    // A wait that may fall back gets the fallback's time on top of its own.
    const fallsBack = descriptor.waitFallback?.(args) ?? false
    const budgetMs = fallsBack ? timeoutMs + kWaitFallbackLoadMs + kWaitFallbackSettleMs : timeoutMs
    const stepSignal = AbortSignal.any([run.signal, AbortSignal.timeout(budgetMs)])
    // The engine's own steps (run, fail, a wait for ms) call no port (their descriptors in src/core/vocabulary.ts).
    const portCall = packStepKind(step.action)?.port
    const needsPort = !!portCall && !(portCall === 'waitFor' && args.ms !== undefined)
    if (!port && needsPort) throw new StepFailure('STEP_FAILED', 'No browser is attached to run this step.')
    const realPort = port as BrowserPort

    try {
      const targets: Record<string, ParsedSelector> = {}
      const mustMatch = descriptor.mustMatch ? descriptor.mustMatch(args) : true
      for (const key of selectorArgsOf(descriptor, args)) {
        const template = step.args[key]
        if (typeof template !== 'string') continue
        const candidates = this.candidates(template, frame)
        if (!mustMatch) {
          targets[key] = parseSelector(candidates[0])
          continue
        }
        // Looking for the element ends a little before the step's own deadline, so that running
        // out of time while it is missing reads as ELEMENT_NOT_FOUND rather than TIMEOUT.
        const found = await resolveCandidates(candidates, {
          query: (s, signal) => realPort.query(s, signal),
          cache: this.cache,
          cacheKey: `${frame.action.fullName}#${id}:${key}`,
          signal: stepSignal,
          timeoutMs: Math.max(0, timeoutMs - kSelectorDeadlineMarginMs),
          sleep: this.sleep,
        }).catch((error: unknown) => {
          if (stepSignal.aborted && !run.signal.aborted) return null
          throw error
        })
        if (!found) {
          // A pack's named selector is said by its name, not as the template that names it.
          const named = /^\$\{selectors\.([\w-]+)\}$/.exec(template.trim())?.[1]
          const what = `"${named ?? candidates[0] ?? template}"`
          throw new StepFailure(
            'ELEMENT_NOT_FOUND',
            `No element matches ${key} ${what}; tried ${candidates.map((c) => `"${c}"`).join(', ')}.`,
            { candidates },
          )
        }
        targets[key] = found.selector
        ;(trace.selectors ??= {})[key] = found.selector.raw
      }
      const value = await raceAbort(
        descriptor.run(
          {
            port: realPort,
            signal: stepSignal,
            timeoutMs,
            sleep: this.sleep,
            runAction: async (target, params) => (await this.execute(run, target, params, frame.depth + 1, frame)).data,
          },
          args,
          targets,
        ),
        stepSignal,
      )
      // Another page may need other selectors.
      if (packStepOpens(step.action)) this.cache.clear()
      return value
    } catch (error) {
      if (error instanceof ActionFailure) throw error
      const failure = this.toFailure(error, run, stepSignal)
      if (
        fallsBack &&
        !(failure instanceof FatalFailure) &&
        (failure.code === 'TIMEOUT' || failure.code === 'ELEMENT_NOT_FOUND' || failure.code === 'ELEMENT_STALE')
      ) {
        return this.waitFallback(run, frame, step, id, trace, realPort, failure, timeoutMs, stepSignal)
      }
      throw failure
    }
  }

  /**
   * a wait that timed out goes on once the document has loaded (domcontentloaded),
   * 500 ms later. A port without waitForLoad is asked for the URL instead: the extension's page
   * side answers from a content script that runs at document_idle, after DOMContentLoaded.
   * Its value is false (a wait that held is true), so `output:` plus `verify` can insist on it.
   */
  private async waitFallback(
    run: Run,
    frame: Frame,
    step: ActionStep,
    id: string,
    trace: StepTrace,
    port: BrowserPort,
    failure: StepFailure,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<false> {
    this.debugLine(
      run,
      `  ${failure.code} after ${timeoutMs} ms; falling back to domcontentloaded + ${kWaitFallbackSettleMs} ms`,
    )
    try {
      if (port.waitForLoad) await port.waitForLoad('domcontentloaded', kWaitFallbackLoadMs, signal)
      else await port.getUrl(signal)
      await this.sleep(kWaitFallbackSettleMs, signal)
    } catch (error) {
      throw this.toFailure(error, run, signal)
    }
    trace.status = 'recovered'
    trace.fellBack = { code: failure.code, message: failure.message }
    run.fallbacksUsed.push(frame.depth === 0 ? id : `${frame.action.fullName}#${id}`)
    this.warn(run, {
      code: 'WAIT_FELL_BACK',
      params: {
        step: id,
        action: step.action,
        parent: frame.action.fullName,
        ms: timeoutMs,
        settleMs: kWaitFallbackSettleMs,
        reason: failure.code,
      },
      text: `Step ${id} (${step.action}) of ${frame.action.fullName} did not hold within ${timeoutMs} ms (${failure.message}); the run went on once the page had loaded, ${kWaitFallbackSettleMs} ms later.`,
    })
    return false
  }

  /**
   * The selectors to try for a template, in order: each `${selectors.x}` in it stands for
   * x's primary and then each fallback, after version overrides.
   */
  private candidates(template: string, frame: Frame): string[] {
    const aliases = [
      ...new Set(
        parseTemplate(template).flatMap((p) =>
          typeof p !== 'string' && p.path[0] === 'selectors' && p.path[1] ? [p.path[1]] : [],
        ),
      ),
    ]
    let variants: Array<Record<string, string>> = [{}]
    for (const alias of aliases) {
      const def = frame.selectorDefs[alias]
      const options = def ? [def.primary, ...def.fallback] : ['']
      variants = variants.flatMap((v) => options.map((o) => ({ ...v, [alias]: o }))).slice(0, kMaxSelectorCandidates)
    }
    const out = variants.map((v) =>
      resolveValue(template, { ...frame.scope, selectors: { ...frame.scope.selectors, ...v } }),
    )
    return [...new Set(out.map((v) => String(v ?? '')))].filter((s) => s.trim() !== '')
  }
}

export function createEngine(options: EngineOptions): ActionEngine {
  return new ActionEngine(options)
}
