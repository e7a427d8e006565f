import type { ExecFailure } from '../exec'
import {
  alternativesOf,
  kDefaultStepTimeoutMs,
  kTargetActions,
  type ElementSnapshot,
  type Flow,
  type FlowSelector,
  type FlowSelectors,
  type FlowStep,
  type SelectorLevel,
} from './schema'
import {
  bindStep,
  maskSecrets,
  resolveFiles,
  resolveVariables,
  secretValues,
  stepFiles,
  VariableError,
  type FlowFile,
  type VariableProviders,
} from './variables'
import { healDiff, recordRun, type HealProposal } from './heal'
import { sleep as coreSleep } from '../sleep'
import type { Msg } from '../chat'
import type { RiskCategory } from '../exec'
import { flowStep, flowStepReturns } from '../vocabulary'
import { isFailureCode, isFinal, isRepairable, type FailureCode } from '../failure'

/**
 * Replay with guarantees. The page side resolves each step by racing its
 * selector alternatives within the step timeout and acts only on a match that is unique,
 * actionable and similar to the recorded snapshot; anything else fails the step without acting,
 * with the candidates. This file is the loop around it: variables, navigation, retries,
 * wait_after, the optional one-step repair, heal proposals and statistics. It runs wherever a
 * FlowPort exists — the extension (background → page messages) and `ava run` (Playwright).
 */

/**
 * The failure codes a flow step ends in (src/core/failure.ts describes each, with whether a repair
 * may address it and whether trying again can change the answer): the page's, as it said them,
 * and the replay's own (a variable without a value, a navigation that failed, Stop). A verify
 * step whose check did not hold is VERIFY_FAILED, as a pack's verify is.
 */
export type StepFailureCode = Extract<
  FailureCode,
  | 'ELEMENT_NOT_FOUND'
  | 'ELEMENT_STALE'
  | 'AMBIGUOUS'
  | 'NOT_SIMILAR'
  | 'NOT_ACTIONABLE'
  | 'INVALID'
  | 'TIMEOUT'
  | 'STEP_FAILED'
  | 'VARIABLE_MISSING'
  | 'CANCELLED'
  | 'NEEDS_CONFIRMATION'
  | 'BLOCKED'
  | 'VERIFY_FAILED'
>

export interface StepCandidate {
  /** The selector that found it, or a short description for elements found by looking around. */
  selector: string
  level?: SelectorLevel
  /** How many elements that selector matched. */
  count: number
  label?: string
  similarity?: number
}

export type StepOutcome =
  | {
      ok: true
      /** The level of the alternative that matched, null for steps without a target. */
      level: SelectorLevel | null
      /** 0 = primary, 1.. = fallback index + 1, -1 = a repaired selector. */
      alternative: number
      selector?: string
      similarity?: number
      resolveMs: number
      actMs: number
      detail: string
      /** Fresh selectors for the matched element, generated when anything but the primary matched. */
      fresh?: FlowSelectors
      snapshot?: ElementSnapshot
      /** What an extract step read. */
      value?: string
      /** The action started a navigation: the next step must wait for the next document. */
      navigating?: boolean
    }
  /**
   * `offsite`: the host a refused step would have gone to, for a yes to let through; `category`: the
   * risk a NEEDS_CONFIRMATION found; `ask`: the question naming a site or file. `question`: a
   * NEEDS_CONFIRMATION's element as drawn and the handle the yes binds to.
   */
  | {
      ok: false
      code: FailureCode
      message: string
      candidates: StepCandidate[]
      resolveMs: number
      acted: boolean
      offsite?: string
      category?: RiskCategory
      ask?: Msg
      question?: Pick<ExecFailure, 'category' | 'label' | 'drawn' | 'handle' | 'changed' | 'carriesData'>
    }

export interface RunStepOptions {
  timeoutMs: number
  /** A repaired selector: uniqueness and actionability still hold, the snapshot comparison does not. */
  trusted?: boolean
  /** The files an upload step (or a fill on a file input) puts into the input: `${file:…}` variables. */
  files?: FlowFile[]
}

/** Where a flow runs: the page executor behind a transport. */
export interface FlowPort {
  runStep(step: FlowStep, opts: RunStepOptions, signal: AbortSignal): Promise<StepOutcome>
  navigate(url: string, signal: AbortSignal): Promise<void>
  url?(signal: AbortSignal): Promise<string>
  /**
   * A `tab` step: make another tab the one the next steps act on — the tab the previous step
   * opened (no index or url), the n-th tab of the window, or the first whose address matches `url`
   * (`*` matches anything). Absent where the runner drives one tab only.
   */
  switchTab?(to: { index?: number; url?: string }, signal: AbortSignal): Promise<{ url: string }>
  /** A `run` step: a pack action by name, through the registry (absent where no registry is at hand). */
  runAction?(
    name: string,
    params: Record<string, string | number | boolean>,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; detail: string }>
}

export interface RepairRequest {
  flow: Flow
  step: FlowStep
  failure: Extract<StepOutcome, { ok: false }>
}
/**
 * The agent's one-step repair: given the failing step and its candidates, return one
 * selector for the element the step means, or null. Only that step is repaired; the repaired
 * selector is used once and proposed to the person as a heal, never saved on its own.
 */
export type RepairFn = (req: RepairRequest, signal: AbortSignal) => Promise<FlowSelector | null>

export interface StepReport {
  step_id: number
  action: FlowStep['action']
  status: 'ok' | 'failed'
  level: SelectorLevel | null
  alternative: number
  selector?: string
  healed: 'fallback' | 'repair' | null
  attempts: number
  resolveMs: number
  durationMs: number
  detail?: string
  code?: FailureCode
  message?: string
  candidates?: StepCandidate[]
}

export interface FlowRunResult {
  success: boolean
  flow: string
  steps: StepReport[]
  heals: HealProposal[]
  durationMs: number
  error?: { step_id: number; code: FailureCode; message: string; candidates: StepCandidate[] }
  /** What the flow's extract steps read, by name (as a pack action's `returns`). */
  returns: Record<string, string>
  /** A done step's text: the flow's own summary of what it did. */
  done?: string
  /** The flow's statistics after this run (heal counts and flags). */
  stats: NonNullable<Flow['stats']>
}

export interface ReplayOptions {
  port: FlowPort
  variables?: VariableProviders
  signal?: AbortSignal
  /** Called after each step, for live traces. */
  onStep?: (report: StepReport) => void
  repair?: RepairFn
  /** Go to metadata.start_url first when the page is elsewhere (default true when it is set). */
  navigateToStart?: boolean
  /** Overrides every step's timeout (the CLI's --timeout). */
  stepTimeoutMs?: number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** Between two attempts of a step that failed: long enough for a late render. */
const kRetryDelayMs = 300

function mask<T>(value: T, secrets: readonly string[]): T {
  if (!secrets.length) return value
  return JSON.parse(
    maskSecrets(
      JSON.stringify(value),
      secrets.map((s) => JSON.stringify(s).slice(1, -1)),
    ),
  ) as T
}

function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a)
    const y = new URL(b)
    return x.origin === y.origin && x.pathname === y.pathname && x.search === y.search
  } catch {
    return a === b
  }
}

/** Replays a flow step by step; never throws for a page failure (errors are data). */
export async function replayFlow(flow: Flow, opts: ReplayOptions): Promise<FlowRunResult> {
  const started = Date.now()
  const signal = opts.signal ?? new AbortController().signal
  const sleep = opts.sleep ?? coreSleep
  const reports: StepReport[] = []
  const heals: HealProposal[] = []
  const returns: Record<string, string> = {}
  let done: string | undefined
  const finish = (error?: FlowRunResult['error'], secrets: string[] = []): FlowRunResult => {
    const result: FlowRunResult = {
      success: !error,
      flow: flow.metadata.name,
      steps: reports,
      heals,
      returns,
      ...(done !== undefined ? { done } : {}),
      durationMs: Date.now() - started,
      stats: recordRun(flow.stats, reports, { counted: !error || reports.length > 0 }),
    }
    if (error) result.error = error
    return mask(result, secrets)
  }

  let values: Record<string, string>
  let files: Record<string, FlowFile>
  try {
    values = await resolveVariables(flow, opts.variables ?? {})
    files = await resolveFiles(flow, values, opts.variables ?? {})
    // A step's text names the file, not where it was on disk.
    for (const [name, f] of Object.entries(files)) values[name] = f.name
  } catch (e) {
    if (!(e instanceof VariableError)) throw e
    return finish({ step_id: 0, code: 'VARIABLE_MISSING', message: e.message, candidates: [] })
  }
  const secrets = secretValues(flow, values)

  try {
    const start = flow.metadata.start_url
    if (start && opts.navigateToStart !== false && !(opts.port.url && sameUrl(await opts.port.url(signal), start))) {
      await opts.port.navigate(start, signal)
    }
  } catch (e) {
    return finish(
      {
        step_id: 0,
        code: 'STEP_FAILED',
        message: `Could not open ${flow.metadata.start_url}: ${(e as Error).message}`,
        candidates: [],
      },
      secrets,
    )
  }

  for (const raw of flow.steps) {
    if (signal.aborted)
      return finish(
        { step_id: raw.step_id, code: 'CANCELLED', message: 'The replay was stopped.', candidates: [] },
        secrets,
      )
    const step = bindStep(raw, values)
    const t0 = Date.now()
    const timeoutMs = opts.stepTimeoutMs ?? step.timeout ?? kDefaultStepTimeoutMs
    const withFiles = stepFiles(raw, files)
    const fileOpts = withFiles.length ? { files: withFiles } : {}
    let outcome: StepOutcome | null = null
    let attempts = 0
    let healed: StepReport['healed'] = null
    let repairedWith: FlowSelector | null = null
    // What the replayer does itself is the step's descriptor's (src/core/vocabulary.ts); the rest goes to the page.
    const own = flowStep(step.action)?.replayer
    try {
      if (own === 'load') {
        attempts = 1
        await opts.port.navigate(String(step.params.url), signal)
        outcome = {
          ok: true,
          level: null,
          alternative: 0,
          resolveMs: 0,
          actMs: Date.now() - t0,
          detail: `Opened ${step.params.url}`,
        }
      } else if (own === 'compose') {
        attempts = 1
        // A pack action has its own retries and fallbacks: the flow runs it once.
        const { action: name, ...params } = step.params
        const r = opts.port.runAction
          ? await opts.port.runAction(String(name), params, signal)
          : { ok: false, detail: `This runner cannot run the pack action ${String(name)}.` }
        outcome = r.ok
          ? { ok: true, level: null, alternative: 0, resolveMs: 0, actMs: Date.now() - t0, detail: r.detail }
          : { ok: false, code: 'STEP_FAILED', message: r.detail, candidates: [], resolveMs: 0, acted: true }
      } else if (own === 'end') {
        attempts = 1
        done = String(step.params.text ?? '')
        // `success: false` is the flow saying that reaching this point is a failure.
        outcome =
          step.params.success === false
            ? {
                ok: false,
                code: 'VERIFY_FAILED',
                message: done || 'The flow reached a done step that says it failed.',
                candidates: [],
                resolveMs: 0,
                acted: false,
              }
            : { ok: true, level: null, alternative: 0, resolveMs: 0, actMs: 0, detail: done || 'Done' }
      } else if (own === 'switchTab') {
        attempts = 1
        const to = {
          ...(typeof step.params.index === 'number' ? { index: step.params.index } : {}),
          ...(typeof step.params.url === 'string' ? { url: step.params.url } : {}),
        }
        const where =
          to.url !== undefined
            ? `the tab at ${to.url}`
            : to.index !== undefined
              ? `tab ${to.index}`
              : 'the tab the previous step opened'
        if (!opts.port.switchTab)
          outcome = {
            ok: false,
            code: 'STEP_FAILED',
            message: `This runner drives one tab and cannot switch to ${where}.`,
            candidates: [],
            resolveMs: 0,
            acted: false,
          }
        else {
          const r = await opts.port.switchTab(to, signal)
          outcome = {
            ok: true,
            level: null,
            alternative: 0,
            resolveMs: 0,
            actMs: Date.now() - t0,
            detail: `Switched to ${where} (${r.url})`,
          }
        }
      } else if (own === 'sleep' && !step.selectors) {
        attempts = 1
        await sleep(Number(step.params.ms ?? 0), signal)
        outcome = {
          ok: true,
          level: null,
          alternative: 0,
          resolveMs: 0,
          actMs: Number(step.params.ms ?? 0),
          detail: `Waited ${step.params.ms} ms`,
        }
      } else {
        for (let attempt = 0; attempt <= (step.retry ?? 0); attempt++) {
          attempts++
          outcome = await opts.port.runStep(step, { timeoutMs, ...fileOpts }, signal)
          // A failure after acting (the page refused the value…) is not retried: acting twice is worse;
          // nor is one another try cannot change (a refusal, a tie between elements, Stop).
          if (outcome.ok || outcome.acted || isFinal(outcome.code)) break
          if (attempt < (step.retry ?? 0)) await sleep(kRetryDelayMs, signal)
        }
        if (
          outcome &&
          !outcome.ok &&
          opts.repair &&
          isRepairable(outcome.code) &&
          step.selectors &&
          kTargetActions.has(step.action)
        ) {
          const failure = outcome
          const repaired = await opts.repair({ flow, step: mask(raw, secrets), failure }, signal).catch(() => null)
          if (repaired) {
            const trial: FlowStep = { ...step, selectors: { primary: repaired, fallback: [] } }
            attempts++
            const again = await opts.port.runStep(trial, { timeoutMs, trusted: true, ...fileOpts }, signal)
            if (again.ok) {
              outcome = { ...again, alternative: -1 }
              healed = 'repair'
              repairedWith = repaired
            }
          }
        }
      }
    } catch (e) {
      if (signal.aborted)
        return finish(
          { step_id: step.step_id, code: 'CANCELLED', message: 'The replay was stopped.', candidates: [] },
          secrets,
        )
      // A refusal of the guard (a navigation said no to, or blocked) keeps its code.
      const code = isFailureCode((e as { code?: unknown }).code) ? (e as { code: FailureCode }).code : 'STEP_FAILED'
      outcome = {
        ok: false,
        code,
        message: (e as Error).message ?? String(e),
        candidates: [],
        resolveMs: 0,
        acted: false,
      }
    }
    const out = outcome!
    if (out.ok && out.alternative > 0) healed = 'fallback'
    const report: StepReport = {
      step_id: step.step_id,
      action: step.action,
      status: out.ok ? 'ok' : 'failed',
      level: out.ok ? out.level : null,
      alternative: out.ok ? out.alternative : 0,
      healed,
      attempts,
      resolveMs: out.resolveMs,
      durationMs: Date.now() - t0,
    }
    if (out.ok) {
      if (out.selector) report.selector = out.selector
      report.detail = out.detail
      if (flowStepReturns(step.action) && out.value !== undefined) returns[String(step.params.name)] = out.value
    } else {
      Object.assign(report, { code: out.code, message: out.message, candidates: out.candidates })
    }
    reports.push(mask(report, secrets))
    opts.onStep?.(mask(report, secrets))
    if (!out.ok)
      return finish(
        { step_id: step.step_id, code: out.code, message: out.message, candidates: out.candidates },
        secrets,
      )
    if (healed && raw.selectors) {
      const after = out.fresh ?? promote(raw.selectors, out.alternative, repairedWith)
      heals.push({
        step_id: step.step_id,
        kind: healed,
        before: raw.selectors,
        after,
        diff: healDiff(raw.selectors, after),
        ...(out.snapshot ? { snapshot: out.snapshot } : {}),
      })
    }
    if (step.wait_after) await sleep(step.wait_after, signal).catch(() => undefined)
    if (own === 'end') break
  }
  return finish(undefined, secrets)
}

/** Without fresh selectors from the page: the winning alternative first, the rest after it. */
function promote(before: FlowSelectors, alternative: number, repaired: FlowSelector | null): FlowSelectors {
  if (repaired) return { primary: repaired, fallback: alternativesOf(before) }
  const all = alternativesOf(before)
  const [winner] = all.splice(alternative, 1)
  return { primary: winner, fallback: all }
}
