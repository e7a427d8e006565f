import { getByPath } from '../paths'
import type { ASTNode, BinaryOp, TemplatePart } from './ast'
import { parseExpression } from './parser'

/** Conversion rules. */
export function toBoolean(value: unknown): boolean {
  return Boolean(value)
}

/** Numbers stay, strings go through parseFloat (NaN becomes 0), everything else is 0. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') return parseFloat(value) || 0
  return 0
}

/** How a value reads inside a string: missing is empty ("不存在变量"), objects as JSON. */
export function stringify(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return String(value)
  }
}

export function renderTemplate(parts: readonly TemplatePart[], context: unknown): string {
  let out = ''
  for (const part of parts) out += typeof part === 'string' ? part : stringify(getByPath(context, part.path))
  return out
}

type Compare = (left: unknown, right: unknown) => boolean

const kBinary: Record<Exclude<BinaryOp, '&&' | '||'>, Compare> = {
  '==': (l, r) => l === r,
  '!=': (l, r) => l !== r,
  '>': (l, r) => toNumber(l) > toNumber(r),
  '<': (l, r) => toNumber(l) < toNumber(r),
  '>=': (l, r) => toNumber(l) >= toNumber(r),
  '<=': (l, r) => toNumber(l) <= toNumber(r),
}

/**
 * Evaluates an AST against a context. A missing variable reads as `null`, so
 * `${params.x} == null` asks "was x given?". The tree is at most kMaxAstDepth deep.
 */
export function evaluate(node: ASTNode, context: unknown): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value
    case 'Variable':
      return getByPath(context, node.path) ?? null
    case 'Template':
      return renderTemplate(node.parts, context)
    case 'GroupExpr':
      return evaluate(node.expression, context)
    case 'UnaryExpr':
      return !toBoolean(evaluate(node.operand, context))
    case 'BinaryExpr': {
      if (node.operator === '&&')
        return toBoolean(evaluate(node.left, context)) && toBoolean(evaluate(node.right, context))
      if (node.operator === '||')
        return toBoolean(evaluate(node.left, context)) || toBoolean(evaluate(node.right, context))
      return kBinary[node.operator](evaluate(node.left, context), evaluate(node.right, context))
    }
  }
}

/** Parsed conditions are kept: a pack's few conditions are evaluated again on every run. */
const kAstCacheSize = 1000
const astCache = new Map<string, ASTNode>()

export function parseCached(expression: string): ASTNode {
  let ast = astCache.get(expression)
  if (ast === undefined) {
    ast = parseExpression(expression)
    if (astCache.size >= kAstCacheSize) astCache.delete(astCache.keys().next().value as string)
    astCache.set(expression, ast)
  }
  return ast
}

/**
 * The whole pipeline: text → tokens → AST → boolean. Variables are read as values during
 * evaluation rather than pasted into the text first, so a parameter holding `' || true || '`
 * stays a string and cannot change the condition.
 */
export function evaluateCondition(expression: string | boolean, context: unknown): boolean {
  if (typeof expression === 'boolean') return expression
  return toBoolean(evaluate(parseCached(expression), context))
}
