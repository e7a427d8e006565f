import type { ActionParam } from '../core/registry'

/**
 * The run form of an action, generated from its param schema: enum → select,
 * boolean → switch, secret → password field, number → number field, array/object → JSON text.
 */
export type FieldKind = 'select' | 'switch' | 'password' | 'number' | 'text' | 'json'

export interface Field {
  name: string
  kind: FieldKind
  param: ActionParam
  /** The form's starting value, as the input holds it. */
  initial: string | boolean
}

export function fieldsOf(params: Record<string, ActionParam>): Field[] {
  return Object.entries(params).map(([name, param]) => {
    const kind: FieldKind = param.secret
      ? 'password'
      : param.type === 'enum'
        ? 'select'
        : param.type === 'boolean'
          ? 'switch'
          : param.type === 'number'
            ? 'number'
            : param.type === 'array' || param.type === 'object'
              ? 'json'
              : 'text'
    // A secret's default is masked by the registry ("***"); starting from it would send the mask.
    const d = param.secret ? undefined : param.default
    const initial =
      kind === 'switch'
        ? d === true
        : d === undefined
          ? kind === 'select' && param.required
            ? (param.values?.[0] ?? '')
            : ''
          : kind === 'json'
            ? JSON.stringify(d)
            : String(d)
    return { name, kind, param, initial }
  })
}

export type FieldError = { name: string; reason: 'required' | 'number' | 'json' }

/**
 * Form values → action params. Empty optional fields are left out so the action's own defaults
 * apply; what cannot be read is reported per field rather than sent.
 */
export function collectParams(
  fields: Field[],
  values: Record<string, string | boolean>,
): { params: Record<string, unknown>; errors: FieldError[] } {
  const params: Record<string, unknown> = {}
  const errors: FieldError[] = []
  for (const f of fields) {
    const v = values[f.name]
    if (f.kind === 'switch') {
      params[f.name] = v === true
      continue
    }
    const text = typeof v === 'string' ? v : ''
    if (text === '') {
      if (f.param.required) errors.push({ name: f.name, reason: 'required' })
      continue
    }
    if (f.kind === 'number') {
      const n = Number(text)
      if (Number.isFinite(n)) params[f.name] = n
      else errors.push({ name: f.name, reason: 'number' })
    } else if (f.kind === 'json') {
      try {
        params[f.name] = JSON.parse(text)
      } catch {
        errors.push({ name: f.name, reason: 'json' })
      }
    } else params[f.name] = text
  }
  return { params, errors }
}
