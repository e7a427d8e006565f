import { kForbiddenKeys } from './paths'
import type { ActionParam } from './model'

// validateParams: the run-time check of the parameters a caller passes. Callers include
// the CLI and the planner, which both hand over strings, so obvious string forms are accepted.

export type ParamsResult =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; code: 'PARAM_REQUIRED' | 'PARAM_INVALID'; param: string; message: string }

type Coerce = (value: unknown, def: ActionParam) => { ok: true; value: unknown } | { ok: false; expected: string }

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const kCoercers: Record<ActionParam['type'], Coerce> = {
  string: (v) =>
    typeof v === 'string'
      ? { ok: true, value: v }
      : typeof v === 'number' || typeof v === 'boolean'
        ? { ok: true, value: String(v) }
        : { ok: false, expected: 'a string' },
  number: (v) => {
    if (typeof v === 'number' && Number.isFinite(v)) return { ok: true, value: v }
    if (typeof v === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v))
      return { ok: true, value: Number(v) }
    return { ok: false, expected: 'a number' }
  },
  boolean: (v) => {
    if (typeof v === 'boolean') return { ok: true, value: v }
    if (v === 'true' || v === 'false') return { ok: true, value: v === 'true' }
    return { ok: false, expected: 'true or false' }
  },
  enum: (v, def) => {
    const text = typeof v === 'number' ? String(v) : v
    if (typeof text === 'string' && (def.values ?? []).includes(text)) return { ok: true, value: text }
    return { ok: false, expected: `one of ${(def.values ?? []).join(', ')}` }
  },
  array: (v) => {
    if (Array.isArray(v)) return { ok: true, value: v }
    if (typeof v === 'string') {
      const parsed = v.trim().startsWith('[') ? parseJson(v) : v.split(',').map((s) => s.trim())
      if (Array.isArray(parsed)) return { ok: true, value: parsed }
    }
    return { ok: false, expected: 'a list (JSON array or comma-separated text)' }
  },
  object: (v) => {
    const value = typeof v === 'string' ? parseJson(v) : v
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value }
    return { ok: false, expected: 'an object (JSON)' }
  },
}

function show(value: unknown, def: ActionParam): string {
  if (def.secret) return '***'
  const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value))
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

function hasForbiddenKey(value: unknown, depth = 0): boolean {
  if (depth > 64 || value === null || typeof value !== 'object') return false
  for (const key of Object.keys(value)) {
    if (kForbiddenKeys.has(key) || hasForbiddenKey((value as Record<string, unknown>)[key], depth + 1)) return true
  }
  return false
}

/** Checks required params, types and enum values; applies defaults; refuses unknown names. */
export function validateParams(params: Record<string, unknown>, defs: Record<string, ActionParam>): ParamsResult {
  const names = Object.keys(defs)
  for (const key of Object.keys(params)) {
    if (!Object.hasOwn(defs, key)) {
      return {
        ok: false,
        code: 'PARAM_INVALID',
        param: key,
        message: `Unknown parameter "${key}"; this action takes: ${names.join(', ') || '(none)'}.`,
      }
    }
  }
  const values: Record<string, unknown> = {}
  for (const [name, def] of Object.entries(defs)) {
    const given = Object.hasOwn(params, name) ? params[name] : undefined
    if (given === undefined || given === null) {
      if (def.default !== undefined) values[name] = def.default
      else if (def.required) {
        return {
          ok: false,
          code: 'PARAM_REQUIRED',
          param: name,
          message: `Parameter "${name}" is required (${def.type}${def.description ? `: ${def.description}` : ''}).`,
        }
      }
      continue
    }
    const result = kCoercers[def.type](given, def)
    if (!result.ok)
      return {
        ok: false,
        code: 'PARAM_INVALID',
        param: name,
        message: `Parameter "${name}" is ${show(given, def)}; expected ${result.expected}.`,
      }
    if (hasForbiddenKey(result.value)) {
      return {
        ok: false,
        code: 'PARAM_INVALID',
        param: name,
        message: `Parameter "${name}" holds a key __proto__, constructor or prototype, which is never allowed.`,
      }
    }
    values[name] = result.value
  }
  return { ok: true, values }
}
