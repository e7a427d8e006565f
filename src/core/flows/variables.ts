import type { Flow, FlowStep } from './schema'
import type { FailureCode } from '../failure'
import { flowStep } from '../vocabulary'

/**
 * Variables of a flow. A step's params read them as `${name}`; a variable's value
 * is a literal or one source:
 *   ${env:NAME}       an environment value (the CLI's process environment)
 *   ${secret:KEY}     the options vault (src/storage/vault.ts) in the extension; env in the CLI
 *   ${arg:N}          the N-th positional argument of the run
 *   ${prompt:message} asked at replay (the panel shows a field; the CLI needs --param)
 *   ${file:path}      a file for an upload step (or a fill on a file input): `ava run` and the
 *                     Playwright Test fixture read it, relative to the flow file's folder; the
 *                     extension cannot read the disk, so there the replay fails naming the variable
 * Values given by name at run time (`--param name=value`, the panel's form) win over all of them.
 */

export interface VariableProviders {
  /** Values by variable name, given for this run. */
  params?: Record<string, string>
  env?: Record<string, string | undefined>
  secrets?: Record<string, string>
  args?: string[]
  /**
   * Reads a `${file:path}` variable's file (a param given by name is a path too). Without it the
   * replay fails before its first step, naming the variable: the runner cannot read files.
   */
  file?: (path: string, variable: string) => Promise<FlowFile>
  /** Asks for a value; without it a `${prompt:…}` variable must come through `params`. */
  prompt?: (message: string, variable: string, secret: boolean) => Promise<string | null>
}

/** A file's bytes for an upload: they travel with the step, since the page cannot read the disk. */
export interface FlowFile {
  name: string
  mimeType?: string
  base64: string
}

export class VariableError extends Error {
  override name = 'VariableError'
  constructor(
    readonly code: Extract<FailureCode, 'VARIABLE_MISSING' | 'VARIABLE_SOURCE'>,
    readonly variable: string,
    message: string,
  ) {
    super(message)
  }
}

const kSourcePattern = /^\$\{(env|secret|arg|prompt|file):([^}]*)\}$/

export type VariableSource =
  | { kind: 'env' | 'secret' | 'prompt' | 'file'; key: string }
  | { kind: 'arg'; key: string; index: number }
  | { kind: 'literal'; value: string }

export function parseSource(value: string | undefined): VariableSource | null {
  if (value === undefined) return null
  const m = kSourcePattern.exec(value)
  if (!m) return { kind: 'literal', value }
  const kind = m[1] as 'env' | 'secret' | 'arg' | 'prompt' | 'file'
  if (kind === 'file' && !m[2].trim())
    throw new VariableError('VARIABLE_SOURCE', m[2], '${file:path}: the path is empty.')
  if (kind === 'arg') {
    const index = Number(m[2])
    if (!Number.isInteger(index) || index < 0)
      throw new VariableError('VARIABLE_SOURCE', m[2], `\${arg:${m[2]}}: N must be a whole number ≥ 0.`)
    return { kind, key: m[2], index }
  }
  return { kind, key: m[2] }
}

/** Resolves every variable the flow declares; throws VariableError naming the one that is missing. */
export async function resolveVariables(
  flow: Pick<Flow, 'variables'>,
  p: VariableProviders,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [name, v] of Object.entries(flow.variables)) {
    if (p.params && name in p.params) {
      out[name] = p.params[name]
      continue
    }
    const source = parseSource(v.value)
    let value: string | null | undefined
    if (!source) value = undefined
    else if (source.kind === 'literal' || source.kind === 'file')
      value = source.kind === 'literal' ? source.value : source.key
    else if (source.kind === 'env') value = p.env?.[source.key]
    else if (source.kind === 'secret') value = p.secrets?.[source.key] ?? undefined
    else if (source.kind === 'arg') value = p.args?.[source.index]
    else value = p.prompt ? await p.prompt(source.key || name, name, !!v.secret) : undefined
    if (value === undefined || value === null) {
      const how =
        source && source.kind !== 'literal'
          ? `its source \${${source.kind}:${source.key}} gave nothing`
          : 'it has no value'
      throw new VariableError(
        'VARIABLE_MISSING',
        name,
        `The flow needs "${name}"${v.description ? ` (${v.description})` : ''}, and ${how}. Pass it as a parameter: ${name}=…`,
      )
    }
    out[name] = value
  }
  return out
}

/** The variables whose value is a `${file:path}`: their values are paths, read into files. */
export function fileVariables(flow: Pick<Flow, 'variables'>): string[] {
  return Object.entries(flow.variables)
    .filter(([, v]) => kSourcePattern.exec(v.value ?? '')?.[1] === 'file')
    .map(([name]) => name)
}

/**
 * Reads every file variable's file once, before the first step: a missing file fails the replay
 * naming the variable, not at the upload after half the flow ran. `values` holds their paths.
 */
export async function resolveFiles(
  flow: Pick<Flow, 'variables'>,
  values: Record<string, string>,
  p: VariableProviders,
): Promise<Record<string, FlowFile>> {
  const out: Record<string, FlowFile> = {}
  for (const name of fileVariables(flow)) {
    if (!p.file)
      throw new VariableError(
        'VARIABLE_SOURCE',
        name,
        `The flow uploads the file "${name}" (${values[name]}), and this runner cannot read files on disk. Run the flow with \`ava run\` or the Playwright Test fixture.`,
      )
    try {
      out[name] = await p.file(values[name], name)
    } catch (e) {
      throw new VariableError(
        'VARIABLE_MISSING',
        name,
        `The flow's file "${name}" could not be read: ${(e as Error).message ?? String(e)}`,
      )
    }
  }
  return out
}

/** The file variables a step's `file` (upload) or `value` (fill) names, in order. */
export function stepFiles(step: FlowStep, files: Record<string, FlowFile>): FlowFile[] {
  const param = flowStep(step.action)?.filesIn
  const text = param ? step.params[param] : undefined
  if (typeof text !== 'string') return []
  return [...text.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)]
    .map((m) => files[m[1]])
    .filter((f): f is FlowFile => !!f)
}

/** Replaces `${name}` in a step's string params; `$${` stays a literal `${`. */
export function bindStep(step: FlowStep, values: Record<string, string>): FlowStep {
  const params: FlowStep['params'] = {}
  for (const [k, v] of Object.entries(step.params)) {
    params[k] =
      typeof v === 'string'
        ? v.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) =>
            all.startsWith('$$') ? all.slice(1) : (values[name] ?? ''),
          )
        : v
  }
  return { ...step, params }
}

/** The values of the flow's secret variables, to mask in anything written down. */
export function secretValues(flow: Pick<Flow, 'variables'>, values: Record<string, string>): string[] {
  return Object.entries(flow.variables)
    .filter(([name, v]) => v.secret && values[name])
    .map(([name]) => values[name])
}

/** Replaces every secret value in a text with `***`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of secrets) if (s) out = out.split(s).join('***')
  return out
}

// ---------------------------------------------------------------------------------------------
// Secret detection at record time

/** Field names and autocomplete tokens that hold credentials or payment data. */
const kSecretField =
  /pass(word|wd|code)?|pwd|secret|token|api[-_]?key|otp|one-time|pin\b|cvc|cvv|cc-|card[-_ ]?number|ssn|密码|口令|验证码/i

/**
 * Whether a typed value must become a secret variable: password fields, fields whose name, label
 * or autocomplete says credential, and values that look like keys or tokens whatever the field.
 */
export function looksSecret(
  value: string,
  field: { type?: string; name?: string; autocomplete?: string; label?: string } = {},
): boolean {
  if (field.type === 'password') return true
  if ([field.name, field.autocomplete, field.label].some((s) => s && kSecretField.test(s))) return true
  const v = value.trim()
  // Well-known token shapes: sk-…, ghp_…, xoxb-…, AKIA…, JWTs.
  if (
    /^(sk|pk|rk)[-_][A-Za-z0-9_-]{16,}$|^gh[pousr]_[A-Za-z0-9]{20,}$|^xox[abprs]-[A-Za-z0-9-]{10,}$|^AKIA[0-9A-Z]{16}$|^eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./.test(
      v,
    )
  )
    return true
  // Long unbroken strings mixing letters and digits (no spaces) read as keys, not as text a person types.
  return v.length >= 24 && !/\s/.test(v) && /[A-Za-z]/.test(v) && /\d/.test(v) && !/^https?:|@/.test(v)
}

/** A variable name from a field's label or name: "User name" → user_name; unique within `taken`. */
export function variableName(hint: string, taken: ReadonlySet<string>): string {
  const base =
    hint
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_')
      .replace(/^(\d)/, '_$1')
      .slice(0, 40) || 'value'
  let name = /^[A-Za-z_]/.test(base) ? base : `v_${base}`
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`
  return name
}
