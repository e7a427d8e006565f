import { ExpressionSyntaxError, SecurityError } from './errors'
import { stringify } from './expr/evaluator'
import { getByPath, kForbiddenKeys, parsePath } from './paths'

/** One `${...}` in a template: its path and the offsets of `$` and of the character after `}`. */
export interface Placeholder {
  path: string[]
  start: number
  end: number
}

/** A piece of a parsed template: literal text or a placeholder. */
export type Piece = string | Placeholder

const templateCache = new Map<string, Piece[]>()
/** Templates repeat across runs of the same pack; parsing each once keeps runs cheap. */
const kTemplateCacheSize = 2000

/**
 * Splits a template into text and `${path}` pieces. `$${` writes a literal `${`.
 * Throws `ExpressionSyntaxError` for an unclosed `${` and `SecurityError` for forbidden keys.
 */
export function parseTemplate(template: string): Piece[] {
  const cached = templateCache.get(template)
  if (cached) return cached
  const pieces: Piece[] = []
  let text = ''
  let i = 0
  while (i < template.length) {
    const at = template.indexOf('${', i)
    if (at < 0) {
      text += template.slice(i)
      break
    }
    if (at > 0 && template[at - 1] === '$') {
      // "$${" is the escape for a literal "${": keep one "$" and the brace.
      text += template.slice(i, at) + '{'
      i = at + 2
      continue
    }
    const close = template.indexOf('}', at + 2)
    if (close < 0) {
      throw new ExpressionSyntaxError(
        'EXPR_SYNTAX',
        `Unclosed "\${" at column ${at + 1} of "${template}"; close it with "}" or write "$\${" for a literal.`,
        template,
        at,
      )
    }
    text += template.slice(i, at)
    if (text !== '') pieces.push(text)
    text = ''
    pieces.push({ path: parsePath(template.slice(at + 2, close), template, at), start: at, end: close + 1 })
    i = close + 1
  }
  if (text !== '' || pieces.length === 0) pieces.push(text)
  if (templateCache.size >= kTemplateCacheSize) templateCache.delete(templateCache.keys().next().value as string)
  templateCache.set(template, pieces)
  return pieces
}

/** Whether a string has anything to interpolate. */
export function hasPlaceholder(value: string): boolean {
  return value.includes('${')
}

/**
 * Replaces every `${path}` with the value found in `context`. Missing values
 * become '', objects become JSON. Strings without `${` come back unchanged.
 */
export function resolve(template: string, context: unknown): string {
  if (!template.includes('${')) return template
  let out = ''
  for (const piece of parseTemplate(template))
    out += typeof piece === 'string' ? piece : stringify(getByPath(context, piece.path))
  return out
}

/**
 * Like `resolve`, but a template that is exactly one placeholder keeps the value's type, so
 * `value: ${params.count}` passes a number and `params: ${params.filters}` an object.
 */
export function resolveValue(template: string, context: unknown): unknown {
  if (!template.includes('${')) return template
  const pieces = parseTemplate(template)
  if (pieces.length === 1 && typeof pieces[0] !== 'string') return getByPath(context, pieces[0].path)
  return resolve(template, context)
}

/** Resolves every string inside arrays and objects; other values pass through. */
export function resolveObject<T>(value: T, context: unknown): T {
  return resolveAny(value, context) as T
}

function resolveAny(value: unknown, context: unknown): unknown {
  if (typeof value === 'string') return resolveValue(value, context)
  if (Array.isArray(value)) return value.map((item) => resolveAny(item, context))
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      if (kForbiddenKeys.has(key))
        throw new SecurityError('EXPR_FORBIDDEN_KEY', `Key "${key}" is not allowed in step arguments.`, key, 0)
      out[key] = resolveAny(item, context)
    }
    return out
  }
  return value
}

/** Every placeholder in every string of a value, with the path to the string that holds it. */
export function* placeholdersIn(
  value: unknown,
  path: (string | number)[] = [],
): Generator<{ path: (string | number)[]; text: string; placeholder: Placeholder }> {
  if (typeof value === 'string') {
    if (!value.includes('${')) return
    for (const piece of parseTemplate(value))
      if (typeof piece !== 'string') yield { path, text: value, placeholder: piece }
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* placeholdersIn(value[i], [...path, i])
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) yield* placeholdersIn(item, [...path, key])
  }
}
