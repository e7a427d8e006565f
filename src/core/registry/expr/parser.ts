import { ExpressionSyntaxError } from '../errors'
import type { ASTNode, BinaryOp, Token } from './ast'
import { tokenize } from './tokenizer'

/** Deeper trees are refused ("递归深度限制"): no sane condition needs them, and it bounds recursion. */
export const kMaxAstDepth = 50

type Level = { ops: ReadonlySet<string>; next: number }

// || then && then == != then > < >= <=, weakest first; unary ! and primaries below.
const kLevels: Level[] = [
  { ops: new Set(['||']), next: 1 },
  { ops: new Set(['&&']), next: 2 },
  { ops: new Set(['==', '!=']), next: 3 },
  { ops: new Set(['>', '<', '>=', '<=']), next: 4 },
]

function describe(token: Token): string {
  if (token.type === 'EOF') return 'the end'
  if (token.type === 'STRING') return 'a string'
  if (token.type === 'VARIABLE') return `"\${${String(token.value)}}"`
  return `"${String(token.value)}"`
}

/** Recursive-descent parser. Every node's depth is known as it is built. */
class Parser {
  private index = 0
  private nesting = 0
  private readonly depths = new WeakMap<ASTNode, number>()

  constructor(
    private readonly tokens: Token[],
    private readonly input: string,
  ) {}

  parse(): ASTNode {
    const node = this.parseLevel(0)
    const token = this.peek()
    if (token.type !== 'EOF') throw this.unexpected(token, 'an operator or the end')
    return node
  }

  private peek(): Token {
    return this.tokens[this.index]
  }

  private unexpected(token: Token, expected: string): ExpressionSyntaxError {
    return new ExpressionSyntaxError(
      'EXPR_SYNTAX',
      `Expected ${expected} but found ${describe(token)} at column ${token.position + 1} of "${this.input}".`,
      this.input,
      token.position,
    )
  }

  private make(node: ASTNode, depth: number, position: number): ASTNode {
    if (depth > kMaxAstDepth) {
      throw new ExpressionSyntaxError(
        'EXPR_TOO_DEEP',
        `Condition nests deeper than ${kMaxAstDepth} levels near column ${position + 1} of "${this.input.slice(0, 80)}".`,
        this.input,
        position,
      )
    }
    this.depths.set(node, depth)
    return node
  }

  private depthOf(node: ASTNode): number {
    return this.depths.get(node) ?? 1
  }

  private parseLevel(level: number): ASTNode {
    if (level === kLevels.length) return this.parseUnary()
    const { ops, next } = kLevels[level]
    let left = this.parseLevel(next)
    for (let token = this.peek(); token.type === 'OPERATOR' && ops.has(String(token.value)); token = this.peek()) {
      this.index++
      const right = this.parseLevel(next)
      const node: ASTNode = { type: 'BinaryExpr', operator: token.value as BinaryOp, left, right }
      left = this.make(node, Math.max(this.depthOf(left), this.depthOf(right)) + 1, token.position)
    }
    return left
  }

  private enter(position: number): void {
    // Counted before recursing, so "((((..." or "!!!!..." cannot exhaust the stack first.
    if (++this.nesting > kMaxAstDepth) {
      throw new ExpressionSyntaxError(
        'EXPR_TOO_DEEP',
        `Condition nests deeper than ${kMaxAstDepth} levels near column ${position + 1} of "${this.input.slice(0, 80)}".`,
        this.input,
        position,
      )
    }
  }

  private parseUnary(): ASTNode {
    const token = this.peek()
    if (token.type === 'OPERATOR' && token.value === '!') {
      this.index++
      this.enter(token.position)
      const operand = this.parseUnary()
      this.nesting--
      return this.make({ type: 'UnaryExpr', operator: '!', operand }, this.depthOf(operand) + 1, token.position)
    }
    return this.parsePrimary()
  }

  private parsePrimary(): ASTNode {
    const token = this.peek()
    switch (token.type) {
      case 'LPAREN': {
        this.index++
        this.enter(token.position)
        const expression = this.parseLevel(0)
        this.nesting--
        const close = this.peek()
        if (close.type !== 'RPAREN') throw this.unexpected(close, '")"')
        this.index++
        return this.make({ type: 'GroupExpr', expression }, this.depthOf(expression) + 1, token.position)
      }
      case 'STRING':
        this.index++
        if (token.parts)
          return this.make({ type: 'Template', parts: token.parts, position: token.position }, 1, token.position)
        return this.make({ type: 'Literal', value: token.value }, 1, token.position)
      case 'NUMBER':
      case 'BOOLEAN':
      case 'NULL':
        this.index++
        return this.make({ type: 'Literal', value: token.value }, 1, token.position)
      case 'VARIABLE':
      case 'IDENTIFIER':
        this.index++
        return this.make({ type: 'Variable', path: token.path ?? [], position: token.position }, 1, token.position)
      default:
        throw this.unexpected(token, 'a value, "!" or "("')
    }
  }
}

export function parseTokens(tokens: Token[], input: string): ASTNode {
  return new Parser(tokens, input).parse()
}

/** Text to AST; throws `ExpressionSyntaxError` or `SecurityError` only. */
export function parseExpression(input: string): ASTNode {
  return parseTokens(tokenize(input), input)
}
