import { parse, stringify } from 'yaml'
import semver from 'semver'
import type { PackFile, RawAction, RawParam, RawStep } from '../registry/schema'
import { kNamespacePattern } from '../registry/schema'
import { validatePack, type ValidationResult } from '../registry/validator'
import { alternativesOf, type Flow, type FlowSelector, type FlowStep } from './schema'
import { parseSource } from './variables'
import { flowStep, flowStepReturns } from '../vocabulary'
import type { FailureCode } from '../failure'

/**
 * Flows are actions: a flow becomes one action of a user pack, so the LLM,
 * the popup, the panel's `/run` and the CLI call it by name with params. What the pack keeps:
 * each target's selectors as an alias with primary and fallbacks, typed values
 * as params with the recorded value as default, secrets as `secret: true` params with no default,
 * `${env:…}`/`${secret:…}` as the engine's `env` scope (the vault in the extension, the process
 * environment in the CLI). What it cannot keep: the element snapshots and the `index` level —
 * the flow itself (replayed from the panel or `ava run flow.json`) has the stronger guarantees.
 */

export const kDefaultFlowNamespace = 'recorded'
/** The component part of every recorded action's name: `recorded:flow:<name>`. */
export const kFlowComponent = 'flow'

export class FlowPackError extends Error {
  override name = 'FlowPackError'
  constructor(
    readonly code: Extract<FailureCode, 'NAMESPACE_INVALID' | 'PACK_INVALID' | 'PACK_TEXT'>,
    message: string,
    readonly issues: ValidationResult['issues'] = [],
  ) {
    super(message)
  }
}

/** "Log in to the demo" → log-in-to-the-demo (an action name part: `[a-z][a-zA-Z0-9_-]*`). */
export function actionSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, 48)
    .replace(/-$/, '')
  return /^[a-z]/.test(slug) ? slug : `f-${slug || 'recorded'}`
}

/** A pack string holds `${…}` templates; a literal `${` in a selector or value is written `$${`. */
function literal(text: string): string {
  return text.replace(/\$\{/g, '$${')
}

function packSelector(s: FlowSelector): string | null {
  // The registry's engines have no "n-th match with a context hash"; that level stays in the flow.
  if (s.type === 'index') return null
  return literal(s.value)
}

/** `${name}` of a flow param → the pack expression for that variable. */
function valueTemplate(text: string, flow: Flow): string {
  let out = ''
  let last = 0
  for (const m of text.matchAll(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    out += literal(text.slice(last, m.index))
    last = m.index + m[0].length
    if (m[0].startsWith('$$')) {
      out += '$${' + m[1] + '}'
      continue
    }
    const v = flow.variables[m[1]]
    const source = parseSource(v?.value)
    out +=
      source && (source.kind === 'env' || source.kind === 'secret') ? `\${env.${source.key}}` : `\${params.${m[1]}}`
  }
  return out + literal(text.slice(last))
}

function paramsOf(flow: Flow, used: Set<string>): Record<string, RawParam> {
  const out: Record<string, RawParam> = {}
  for (const [name, v] of Object.entries(flow.variables)) {
    if (!used.has(name)) continue
    const source = parseSource(v.value)
    if (source && (source.kind === 'env' || source.kind === 'secret')) continue
    const p: RawParam = { type: 'string', description: v.description ?? `Value for ${name}` }
    if (v.secret) {
      p.secret = true
      p.required = true
    } else if (source?.kind === 'literal') p.default = source.value
    // A file's path: `ava run` reads it relative to where it was started (the flow's own replay: to the flow file).
    else if (source?.kind === 'file') p.default = source.key
    else p.required = true
    out[name] = p
  }
  return out
}

function stepArgs(step: FlowStep, alias: string | null, flow: Flow): RawStep[] {
  const sel = alias ? { selector: `\${selectors.${alias}}` } : {}
  const text = (v: unknown) => valueTemplate(String(v ?? ''), flow)
  // What the step becomes is its descriptor's rule (src/core/vocabulary.ts); none: it stays in the flow.
  const main = flowStep(step.action)?.pack?.({ p: step.params, sel, alias, text }) ?? null
  if (!main) return []
  if (step.retry) main.retry = step.retry
  if (step.timeout) main.timeout = step.timeout
  const out = [main]
  if (step.wait_after) out.push({ action: 'wait', args: { ms: step.wait_after } })
  return out
}

export interface FlowActionOptions {
  /** Namespace chosen by the person (default `recorded`). */
  namespace?: string
  /** The action's last part; default: a slug of the flow's name. */
  action?: string
}

/** The pack action and the selector aliases a flow becomes. */
export function flowToAction(
  flow: Flow,
  opts: FlowActionOptions = {},
): { name: string; action: RawAction; selectors: Record<string, string | { primary: string; fallback?: string[] }> } {
  const slug = opts.action ?? actionSlug(flow.metadata.name)
  const selectors: Record<string, string | { primary: string; fallback?: string[] }> = {}
  const steps: RawStep[] = []
  const used = new Set<string>()
  for (const step of flow.steps) {
    for (const v of Object.values(step.params))
      if (typeof v === 'string') for (const m of v.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) used.add(m[1])
    let alias: string | null = null
    if (step.selectors) {
      const all = alternativesOf(step.selectors)
        .map(packSelector)
        .filter((s): s is string => s !== null)
      if (all.length) {
        alias = `${slug.replace(/-/g, '_')}__s${step.step_id}`
        selectors[alias] = all.length === 1 ? all[0] : { primary: all[0], fallback: all.slice(1) }
      }
    }
    steps.push(...stepArgs(step, alias, flow))
  }
  const action: RawAction = {
    description:
      flow.metadata.description ??
      `${flow.metadata.name} (recorded flow, ${flow.steps.length} steps${flow.metadata.start_url ? `, from ${flow.metadata.start_url}` : ''})`,
    steps,
  }
  const params = paramsOf(flow, used)
  if (Object.keys(params).length) action.params = params
  // extract steps return their values, as a pack action's `returns` do.
  const returns = Object.fromEntries(
    flow.steps
      .filter((s) => flowStepReturns(s.action) && s.selectors)
      .map((s) => [String(s.params.name), `\${steps.${String(s.params.name)}}`]),
  )
  if (Object.keys(returns).length) action.returns = returns
  if (flow.metadata.start_url)
    steps.unshift({
      action: 'navigate',
      args: { url: literal(flow.metadata.start_url) },
      when: '${params.from_start} == true',
    })
  if (flow.metadata.start_url)
    action.params = {
      from_start: { type: 'boolean', default: false, description: `Open ${flow.metadata.start_url} first.` },
      ...(action.params ?? {}),
    }
  return { name: `${kFlowComponent}:${slug}`, action, selectors }
}

/**
 * Adds (or replaces) the flow's action in the namespace's pack text and bumps its patch version;
 * with no text a new pack is made. The result is validated with the registry's own validator.
 */
export function addFlowToPack(
  existing: string | null,
  flow: Flow,
  opts: FlowActionOptions = {},
): { text: string; namespace: string; action: string; version: string } {
  const namespace = opts.namespace ?? kDefaultFlowNamespace
  if (!kNamespacePattern.test(namespace))
    throw new FlowPackError(
      'NAMESPACE_INVALID',
      `"${namespace}" is not a namespace: lowercase letters, digits, - and _, starting with a letter.`,
    )
  let pack: PackFile
  if (existing) {
    try {
      pack = parse(existing) as PackFile
    } catch (e) {
      throw new FlowPackError('PACK_TEXT', `The pack "${namespace}" could not be read: ${(e as Error).message}`)
    }
    pack.version = semver.inc(pack.version, 'patch') ?? '1.0.0'
  } else {
    pack = { namespace, version: '1.0.0', description: 'Flows recorded with Ava', actions: {} }
  }
  const { name, action, selectors } = flowToAction(flow, opts)
  const prefix = `${name.split(':')[1].replace(/-/g, '_')}__s`
  // Replacing an action replaces its aliases too: drop the old ones first.
  pack.selectors = Object.fromEntries(Object.entries(pack.selectors ?? {}).filter(([k]) => !k.startsWith(prefix)))
  Object.assign(pack.selectors, selectors)
  if (!Object.keys(pack.selectors).length) delete pack.selectors
  pack.actions = { ...pack.actions, [name]: action }
  const text = stringify(pack, { lineWidth: 0 })
  const check = validatePack(text, { file: `user:${namespace}` })
  if (!check.ok) {
    const errors = check.issues.filter((i) => i.severity === 'error')
    throw new FlowPackError(
      'PACK_INVALID',
      `The flow did not make a valid pack action: ${errors.map((i) => `${i.code} ${i.message}`).join('; ')}`,
      errors,
    )
  }
  return { text, namespace, action: `${namespace}:${name}`, version: pack.version }
}
