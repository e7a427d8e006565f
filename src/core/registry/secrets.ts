import { packStepComposes } from '../vocabulary'
import { collectReferences } from './expr/references'
import { parseCached } from './expr/evaluator'
import { placeholdersIn } from './interpolate'
import { qualify, type ActionDefinition, type ActionStep } from './model'

// `secret: true` params and every `env.*` value are shown as *** in logs, traces, plans
// and results. Two layers: what is displayed is interpolated from a masked scope, and any value
// that still carries a secret (an error message from the page, a step output) is scrubbed.

export const kMask = '***'

/** Below this length a secret is only masked where it is the whole value: "ab" inside words would mangle text. */
const kMinSubstringSecret = 4

const envRefsCache = new WeakMap<ActionDefinition, string[]>()

function addStepRefs(steps: readonly ActionStep[], out: Set<string>): void {
  for (const step of steps) {
    for (const { placeholder } of placeholdersIn(step.args))
      if (placeholder.path[0] === 'env' && placeholder.path[1]) out.add(placeholder.path[1])
    if (typeof step.when === 'string') {
      try {
        for (const ref of collectReferences(parseCached(step.when)))
          if (ref.path[0] === 'env' && ref.path[1]) out.add(ref.path[1])
      } catch {
        // The validator refused broken conditions at load; nothing to collect from one.
      }
    }
    if (step.fallback) addStepRefs(step.fallback, out)
  }
}

/** The env names an action reads anywhere (steps, conditions, returns, verify). */
export function envReferences(action: ActionDefinition): string[] {
  const cached = envRefsCache.get(action)
  if (cached) return cached
  const out = new Set<string>()
  addStepRefs(action.steps, out)
  for (const { placeholder } of placeholdersIn([action.returns, action.verify]))
    if (placeholder.path[0] === 'env' && placeholder.path[1]) out.add(placeholder.path[1])
  for (const v of action.verify) {
    if (typeof v.condition !== 'string') continue
    try {
      for (const ref of collectReferences(parseCached(v.condition)))
        if (ref.path[0] === 'env' && ref.path[1]) out.add(ref.path[1])
    } catch {
      // As above: refused at load.
    }
  }
  const list = [...out]
  envRefsCache.set(action, list)
  return list
}

/**
 * The env names an action reads, with those of every action it runs (the agent asks
 * about and binds each before a pack types one). `dynamic` says a `run` names its target with a
 * placeholder, so what it reads is known only when it runs; the page still refuses an unbound one.
 */
export function envReferencesDeep(
  action: ActionDefinition,
  get: (fullName: string) => ActionDefinition | undefined,
): { names: string[]; dynamic: boolean } {
  const names = new Set<string>()
  const seen = new Set<ActionDefinition>()
  let dynamic = false
  const visit = (a: ActionDefinition): void => {
    if (seen.has(a)) return
    seen.add(a)
    for (const n of envReferences(a)) names.add(n)
    const walk = (steps: readonly ActionStep[]): void => {
      for (const step of steps) {
        const target = step.args.action
        if (packStepComposes(step.action) && typeof target === 'string') {
          if (target.includes('${')) dynamic = true
          else {
            const next = get(qualify(target, a.namespace))
            if (next) visit(next)
          }
        }
        if (step.fallback) walk(step.fallback)
      }
    }
    walk(a.steps)
  }
  visit(action)
  return { names: [...names], dynamic }
}

/** Collects secret values and scrubs them out of anything about to be shown. */
export class Redactor {
  private readonly exact = new Set<string>()
  private readonly substrings: string[] = []

  add(value: unknown): void {
    if (value === undefined || value === null) return
    if (Array.isArray(value) || typeof value === 'object') {
      for (const item of Object.values(value as object)) this.add(item)
      return
    }
    const text = String(value)
    if (text === '' || this.exact.has(text)) return
    this.exact.add(text)
    if (text.length >= kMinSubstringSecret) {
      this.substrings.push(text)
      // Longest first, so a secret that contains another is replaced whole.
      this.substrings.sort((a, b) => b.length - a.length)
    }
  }

  /** Whether `text` holds a secret this redactor knows, as is or URL-encoded. */
  finds(text: string): boolean {
    const decoded = safeDecode(text)
    return this.scrubText(text) !== text || (decoded !== text && this.scrubText(decoded) !== decoded)
  }

  get empty(): boolean {
    return this.exact.size === 0
  }

  scrubText(text: string): string {
    if (this.exact.has(text)) return kMask
    let out = text
    for (const secret of this.substrings) if (out.includes(secret)) out = out.split(secret).join(kMask)
    return out
  }

  /** A copy of `value` with every secret string replaced by ***. */
  scrub<T>(value: T, depth = 0): T {
    if (this.empty) return value
    if (typeof value === 'string') return this.scrubText(value) as T
    if (typeof value === 'number' || typeof value === 'boolean')
      return (this.exact.has(String(value)) ? kMask : value) as T
    if (depth > 32 || value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map((v) => this.scrub(v, depth + 1)) as T
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = this.scrub(v, depth + 1)
    return out as T
  }
}

/** Params as they may be shown: secret ones replaced by ***. */
export function maskParams(params: Record<string, unknown>, action: ActionDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(params)) out[k] = action.params[k]?.secret && v !== undefined ? kMask : v
  return out
}

/** Env as it may be shown: names kept, every value ***. */
export function maskEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of Object.keys(env)) out[k] = kMask
  return out
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/**
 * Why a URL argument may not be sent, or undefined when it may (a replaced pack put a
 * saved secret into a navigate URL, and the blocked site still received it in the query string).
 * A secret is refused before anything is sent, whether the template names it (`${env.*}`, a
 * `secret` param) or its value arrives some other way: a param the agent filled from the vault,
 * a step output that read a password field. `redactor` holds every vault value (all env is
 * secret) and the run's secret params.
 */
export function secretInUrl(
  template: unknown,
  value: string,
  action: ActionDefinition,
  redactor: Redactor,
): string | undefined {
  for (const { placeholder } of placeholdersIn(template)) {
    const [scope, name] = placeholder.path
    if (scope === 'env') return `it reads \${env.${name ?? ''}}`
    if (scope === 'params' && name && action.params[name]?.secret) return `it reads the secret param ${name}`
  }
  if (redactor.finds(value)) return 'its value holds a saved secret'
  return undefined
}
