import { ExpressionSyntaxError, SecurityError } from './errors'

/**
 * Keys that lead from data to the object machinery of JavaScript. A pack that names one is
 * refused outright rather than silently reading `undefined` ("原型链防护").
 */
export const kForbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** The scopes a pack may read ("支持的变量作用域"). */
export const kScopes = ['params', 'env', 'selectors', 'steps'] as const
export type Scope = (typeof kScopes)[number]

// Letters of any script so that parameter names may be Chinese; `-` for names like `date-range`.
const kSegment = /^[\p{L}\p{N}_$-]+$/u

/**
 * Splits `params.user.name` into its segments. `input` and `offset` say where the path sits in the
 * text the person wrote, so the error can point at it.
 */
export function parsePath(path: string, input: string = path, offset = 0): string[] {
  const text = path.trim()
  if (text === '')
    throw new ExpressionSyntaxError(
      'EXPR_SYNTAX',
      `Empty variable reference in "${input}"; write \${scope.name}.`,
      input,
      offset,
    )
  const segments = text.split('.')
  for (const segment of segments) {
    if (kForbiddenKeys.has(segment)) {
      throw new SecurityError(
        'EXPR_FORBIDDEN_KEY',
        `"${segment}" may not be read (in "${input}"); __proto__, constructor and prototype are never allowed in a path.`,
        input,
        offset,
      )
    }
    if (!kSegment.test(segment)) {
      throw new ExpressionSyntaxError(
        'EXPR_SYNTAX',
        `Bad variable path "${text}" in "${input}"; a path is names joined by dots, like params.user.name.`,
        input,
        offset,
      )
    }
  }
  return segments
}

/**
 * Reads a value by path, own properties only, so no path can reach a prototype even if a forbidden
 * key slipped past parsing. Missing links give `undefined`.
 */
export function getByPath(root: unknown, segments: readonly string[]): unknown {
  let current: unknown = root
  for (const key of segments) {
    if (kForbiddenKeys.has(key)) {
      throw new SecurityError(
        'EXPR_FORBIDDEN_KEY',
        `"${key}" may not be read (path "${segments.join('.')}").`,
        segments.join('.'),
        0,
      )
    }
    if (current === null || typeof current !== 'object') return undefined
    if (!Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}
