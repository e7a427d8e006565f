import { packStepComposes } from '../vocabulary'
import { failureHint } from '../failure'
import { renderEn } from '../locales/render'
import type { ActionError } from './engine'
import { kMaxRunDepth } from './engine'
import { collectReferences } from './expr/references'
import { evaluateCondition, parseCached, stringify } from './expr/evaluator'
import { parseTemplate } from './interpolate'
import { qualify, type ActionDefinition, type ActionStep, type SelectorDefinition } from './model'
import { validateParams } from './params'
import { getByPath } from './paths'
import type { ActionRegistry } from './registry'
import { maskEnv, maskParams, Redactor } from './secrets'
import { safeParseSelector } from '../page/selectors'
import { getStepAction, selectorArgsOf } from './step-actions'
import { applyOverrides, checkCompatibility } from './version'

// Dry-Run: resolve params, conditions and selectors, execute nothing, print the plan.
// Step outputs do not exist before a run, so anything that reads `steps.*` is shown as
// `<steps.name>` and conditions over them are marked "decided at run time".

export interface PlanSelector {
  /** Primary first, then fallbacks, after version overrides. */
  candidates: string[]
  /** Problems with candidates that do not parse. */
  invalid?: string[]
}

export interface PlanStep {
  id: string
  action: string
  decision: 'run' | 'skip' | 'runtime'
  when?: string
  args: Record<string, unknown>
  selectors?: Record<string, PlanSelector>
  retry: number
  retryDelay: number
  timeout?: number
  onError: ActionStep['onError']
  output?: string
  fallback?: PlanStep[]
  run?: PlanAction
  problems?: string[]
}

export interface PlanAction {
  action: string
  description: string
  depth: number
  params: Record<string, unknown>
  version: string | null
  overridesApplied: string[]
  steps: PlanStep[]
  verify: Array<{ condition: string; message: string }>
  returns: Record<string, string>
}

export interface DryRunResult {
  success: boolean
  action: string
  plan?: PlanAction
  error?: ActionError
  warnings: string[]
  /** The plan as printable text. */
  text: string
}

export interface DryRunOptions {
  env?: Record<string, string>
  /** The library version to plan for (there is no page to detect it from). */
  version?: string
  maxDepth?: number
}

interface PlanScope {
  params: Record<string, unknown>
  env: Record<string, string>
  selectors: Record<string, string>
}

class PlanError extends Error {
  constructor(readonly error: ActionError) {
    super(error.message)
  }
}

function readsSteps(expression: string | boolean): boolean {
  if (typeof expression === 'boolean') return false
  try {
    return collectReferences(parseCached(expression)).some((r) => r.path[0] === 'steps')
  } catch {
    return false
  }
}

/** Resolves like the engine, but `${steps.x}` stays visible as `<steps.x>`. */
function planValue(value: unknown, scope: PlanScope): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value
    const pieces = parseTemplate(value)
    const read = (path: string[]): unknown => (path[0] === 'steps' ? `<${path.join('.')}>` : getByPath(scope, path))
    if (pieces.length === 1 && typeof pieces[0] !== 'string') return read(pieces[0].path)
    return pieces.map((p) => (typeof p === 'string' ? p : stringify(read(p.path)))).join('')
  }
  if (Array.isArray(value)) return value.map((v) => planValue(v, scope))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, planValue(v, scope)]))
  return value
}

function selectorCandidates(template: string, scope: PlanScope, defs: Record<string, SelectorDefinition>): string[] {
  const aliases = [
    ...new Set(
      parseTemplate(template).flatMap((p) =>
        typeof p !== 'string' && p.path[0] === 'selectors' && p.path[1] ? [p.path[1]] : [],
      ),
    ),
  ]
  let variants: Array<Record<string, string>> = [{}]
  for (const alias of aliases) {
    const def = defs[alias]
    const options = def ? [def.primary, ...def.fallback] : ['']
    variants = variants.flatMap((v) => options.map((o) => ({ ...v, [alias]: o })))
  }
  return [
    ...new Set(
      variants.map((v) => String(planValue(template, { ...scope, selectors: { ...scope.selectors, ...v } }) ?? '')),
    ),
  ]
}

class Planner {
  readonly warnings: string[] = []
  readonly redactor = new Redactor()

  constructor(
    private readonly registry: ActionRegistry,
    private readonly options: DryRunOptions,
  ) {}

  action(requested: string, params: Record<string, unknown>, depth: number, parentNamespace?: string): PlanAction {
    const name = parentNamespace ? qualify(requested, parentNamespace) : requested
    const maxDepth = this.options.maxDepth ?? kMaxRunDepth
    const fail = (code: ActionError['code'], message: string, suggestion?: string): never => {
      throw new PlanError({ code, message, action: name, ...(suggestion ? { suggestion } : {}) })
    }
    if (depth >= maxDepth)
      fail(
        'MAX_DEPTH_EXCEEDED',
        `Running ${name} would nest ${depth + 1} actions deep; at most ${maxDepth} are allowed.`,
      )
    const lookup = this.registry.lookup(name)
    if (!lookup.ok) return fail('ACTION_NOT_FOUND', lookup.message, lookup.suggestion)
    const { action, namespace } = lookup
    this.warnings.push(...lookup.warnings)
    const checked = validateParams(params, action.params)
    if (!checked.ok) return fail(checked.code, `${action.fullName}: ${checked.message}`)
    for (const [k, p] of Object.entries(action.params)) if (p.secret) this.redactor.add(checked.values[k])
    const version = this.options.version ?? null
    const compatible = checkCompatibility(namespace.compatibility, version)
    if (!compatible.ok) fail('VERSION_INCOMPATIBLE', compatible.message)
    const overrides = applyOverrides(namespace.selectors, namespace.compatibility, version)
    const selectors = Object.fromEntries(Object.entries(overrides.selectors).map(([k, v]) => [k, v.primary]))
    const real: PlanScope = { params: checked.values, env: this.options.env ?? {}, selectors }
    const shown: PlanScope = { params: maskParams(checked.values, action), env: maskEnv(real.env), selectors }
    return {
      action: action.fullName,
      description: action.description,
      depth,
      params: shown.params,
      version,
      overridesApplied: overrides.applied,
      steps: action.steps.map((s, i) => this.step(s, String(i + 1), action, real, shown, overrides.selectors, depth)),
      verify: action.verify.map((v) => ({
        condition: String(v.condition),
        message: String(planValue(v.message, shown)),
      })),
      returns: action.returns,
    }
  }

  private step(
    step: ActionStep,
    id: string,
    owner: ActionDefinition,
    real: PlanScope,
    shown: PlanScope,
    defs: Record<string, SelectorDefinition>,
    depth: number,
  ): PlanStep {
    let decision: PlanStep['decision'] = 'run'
    if (step.when !== undefined) {
      if (readsSteps(step.when)) decision = 'runtime'
      else decision = evaluateCondition(step.when, { ...real, steps: {} }) ? 'run' : 'skip'
    }
    const out: PlanStep = {
      id,
      action: step.action,
      decision,
      when: step.when === undefined ? undefined : String(step.when),
      args: planValue(step.args, shown) as Record<string, unknown>,
      retry: step.retry,
      retryDelay: step.retryDelay,
      timeout: step.timeout,
      onError: step.onError,
      output: step.output,
    }
    // A skipped step will not look for anything: its selectors may be built from absent params.
    const descriptor = decision === 'skip' ? undefined : getStepAction(step.action)
    for (const key of descriptor
      ? selectorArgsOf(descriptor, planValue(step.args, real) as Record<string, unknown>)
      : []) {
      const template = step.args[key]
      if (typeof template !== 'string') continue
      const candidates = selectorCandidates(template, shown, defs)
      const invalid = candidates.flatMap((c) => {
        const parsed = safeParseSelector(c)
        return parsed.success ? [] : [parsed.error.message]
      })
      ;(out.selectors ??= {})[key] = invalid.length ? { candidates, invalid } : { candidates }
    }
    if (packStepComposes(step.action) && decision !== 'skip') {
      const target = planValue(step.args.action, real)
      const params = planValue(step.args.params ?? {}, real) as Record<string, unknown>
      if (typeof target === 'string' && !target.includes('<steps.')) {
        try {
          out.run = this.action(target, params, depth + 1, owner.namespace)
        } catch (error) {
          if (!(error instanceof PlanError)) throw error
          // Params that come from earlier steps only exist at run time; that is not a planning error.
          const fromSteps = JSON.stringify(params).includes('<steps.')
          if (error.error.code === 'MAX_DEPTH_EXCEEDED' || error.error.code === 'ACTION_NOT_FOUND' || !fromSteps)
            throw error
          out.problems = [
            `run ${target}: ${error.message} (its params come from earlier steps, so this is decided at run time)`,
          ]
        }
      }
    }
    if (step.fallback && decision !== 'skip')
      out.fallback = step.fallback.map((f, i) =>
        this.step(f, `${id}.fallback.${i + 1}`, owner, real, shown, defs, depth),
      )
    return out
  }
}

function formatArgs(args: Record<string, unknown>, skip: ReadonlySet<string>): string {
  return Object.entries(args)
    .filter(([k]) => !skip.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : stringify(v)}`)
    .join('  ')
}

function formatSteps(steps: readonly PlanStep[], indent: string, lines: string[]): void {
  for (const s of steps) {
    const mark = s.decision === 'skip' ? '[skip] ' : s.decision === 'runtime' ? '[decided at run time] ' : ''
    const selectorKeys = new Set(Object.keys(s.selectors ?? {}))
    const parts = [`${indent}${s.id}. ${mark}${s.action}`]
    for (const [key, sel] of Object.entries(s.selectors ?? {})) {
      parts.push(
        `${key}=${sel.candidates[0] ?? ''}${sel.candidates.length > 1 ? ` (then ${sel.candidates.slice(1).join(', ')})` : ''}`,
      )
    }
    const rest = formatArgs(s.args, selectorKeys)
    if (rest) parts.push(rest)
    lines.push(parts.join('  '))
    const extras: string[] = []
    if (s.when !== undefined) extras.push(`when ${s.when}`)
    if (s.retry) extras.push(`retry ${s.retry} × ${s.retryDelay} ms`)
    if (s.timeout) extras.push(`timeout ${s.timeout} ms`)
    if (s.onError !== 'abort') extras.push(`onError ${s.onError}`)
    if (s.output) extras.push(`output → steps.${s.output}`)
    if (extras.length) lines.push(`${indent}   ${extras.join(', ')}`)
    for (const sel of Object.values(s.selectors ?? {}))
      for (const p of sel.invalid ?? []) lines.push(`${indent}   ! ${p}`)
    for (const p of s.problems ?? []) lines.push(`${indent}   ! ${p}`)
    if (s.run) formatAction(s.run, `${indent}   `, lines)
    if (s.fallback) {
      lines.push(`${indent}   if it fails:`)
      formatSteps(s.fallback, `${indent}     `, lines)
    }
  }
}

function formatAction(plan: PlanAction, indent: string, lines: string[]): void {
  lines.push(`${indent}${plan.depth === 0 ? 'Plan for' : '↳ run'} ${plan.action}: ${plan.description}`)
  lines.push(`${indent}  params: ${stringify(plan.params)}`)
  if (plan.version !== null)
    lines.push(
      `${indent}  library version ${plan.version}${plan.overridesApplied.length ? `, overrides ${plan.overridesApplied.join(', ')}` : ''}`,
    )
  formatSteps(plan.steps, `${indent}  `, lines)
  for (const v of plan.verify) lines.push(`${indent}  verify: ${v.condition}  (else "${v.message}")`)
  for (const [k, v] of Object.entries(plan.returns)) lines.push(`${indent}  returns ${k} = ${v}`)
}

/** The printable form of a dry run. */
export function formatDryRun(result: Omit<DryRunResult, 'text'>): string {
  const lines: string[] = []
  if (result.plan) {
    formatAction(result.plan, '', lines)
    lines.push('(dry run: nothing was executed)')
  }
  for (const w of result.warnings) lines.push(`warning: ${w}`)
  if (result.error) {
    lines.push(`error: ${result.error.code} ${result.error.message}`)
    // The code's hint is the locale table's English (src/core/failure.ts), after what this failure adds.
    const hint = failureHint(result.error.code)
    const said = [result.error.suggestion, hint && renderEn(hint)].filter((x): x is string => !!x)
    if (said.length) lines.push(`hint: ${said.join(' ')}`)
  }
  return lines.join('\n')
}

/** action.dryRun. */
export function dryRun(
  registry: ActionRegistry,
  name: string,
  params: Record<string, unknown> = {},
  options: DryRunOptions = {},
): DryRunResult {
  const planner = new Planner(registry, options)
  let partial: Omit<DryRunResult, 'text'>
  try {
    const plan = planner.action(name, params, 0)
    partial = { success: true, action: plan.action, plan, warnings: planner.warnings }
  } catch (error) {
    if (!(error instanceof PlanError)) throw error
    partial = { success: false, action: name, error: error.error, warnings: planner.warnings }
  }
  const scrubbed = planner.redactor.scrub(partial)
  return { ...scrubbed, text: formatDryRun(scrubbed) }
}
