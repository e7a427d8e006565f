import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import {
  evaluate,
  evaluateCondition,
  ExpressionError,
  ExpressionSyntaxError,
  kMaxAstDepth,
  parseExpression,
  printExpression,
  SecurityError,
  tokenize,
  toNumber,
  type ASTNode,
  type BinaryOp,
} from '../../../src/core/registry'

describe('condition expressions', () => {
  it('相等比较: ${x} == 1 with {x:1} is true', () => {
    expect(evaluateCondition('${x} == 1', { x: 1 })).toBe(true)
  })
  it('不等比较: ${x} != 1 with {x:2} is true', () => {
    expect(evaluateCondition('${x} != 1', { x: 2 })).toBe(true)
  })
  it('逻辑与: ${a} && ${b} with {a:true,b:false} is false', () => {
    expect(evaluateCondition('${a} && ${b}', { a: true, b: false })).toBe(false)
  })
  it("字符串比较: ${s} == 'hello' with {s:'hello'} is true", () => {
    expect(evaluateCondition("${s} == 'hello'", { s: 'hello' })).toBe(true)
  })
})

describe('tokenizer', () => {
  it('produces typed tokens with positions', () => {
    const tokens = tokenize("${method} == 'text' && ${timeout} > 0")
    expect(tokens.map((t) => [t.type, t.value, t.position])).toEqual([
      ['VARIABLE', 'method', 0],
      ['OPERATOR', '==', 10],
      ['STRING', 'text', 13],
      ['OPERATOR', '&&', 20],
      ['VARIABLE', 'timeout', 23],
      ['OPERATOR', '>', 34],
      ['NUMBER', 0, 36],
      ['EOF', null, 37],
    ])
  })
  it('reads negative and decimal numbers, booleans, null and escaped strings', () => {
    const tokens = tokenize(`-1.5 true false null 'it\\'s' "a\\"b"`)
    expect(tokens.slice(0, -1).map((t) => t.value)).toEqual([-1.5, true, false, null, "it's", 'a"b'])
  })
  it.each([
    ['a + b', 'EXPR_FORBIDDEN_OPERATOR', 2],
    ['a = 1', 'EXPR_FORBIDDEN_OPERATOR', 2],
    ['a === 1', 'EXPR_FORBIDDEN_OPERATOR', 2],
    ['a & b', 'EXPR_FORBIDDEN_OPERATOR', 2],
    ['[1, 2]', 'EXPR_FORBIDDEN_OPERATOR', 0],
    ['{a: 1}', 'EXPR_FORBIDDEN_OPERATOR', 0],
    ['a ? b : c', 'EXPR_FORBIDDEN_OPERATOR', 2],
    ['alert(1)', 'EXPR_FUNCTION_CALL', 0],
    ['x.__proto__', 'EXPR_FORBIDDEN_KEY', 0],
    ['${params.constructor} == 1', 'EXPR_FORBIDDEN_KEY', 0],
    ["'${a.prototype}'", 'EXPR_FORBIDDEN_KEY', 1],
    ["'unterminated", 'EXPR_SYNTAX', 0],
    ['a @ b', 'EXPR_SYNTAX', 2],
    ['${unclosed', 'EXPR_SYNTAX', 0],
    ['12abc', 'EXPR_SYNTAX', 0],
  ])('%j is refused with %s at offset %i', (input, code, offset) => {
    const error = (() => {
      try {
        tokenize(input)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ExpressionError)
    expect((error as ExpressionError).code).toBe(code)
    expect((error as ExpressionError).offset).toBe(offset)
  })
  it('calls forbidden operators and keys security errors, syntax errors syntax errors', () => {
    expect(() => tokenize('a + b')).toThrow(SecurityError)
    expect(() => tokenize('${a.__proto__}')).toThrow(SecurityError)
    expect(() => tokenize("'open")).toThrow(ExpressionSyntaxError)
  })
  it('error messages quote the input and list the allowed operators', () => {
    expect(() => tokenize('${x} + 1')).toThrowErrorMatchingInlineSnapshot(
      `[SecurityError: Operator "+" is not allowed at column 6 of "\${x} + 1"; allowed: == != > < >= <= && || ! ( ).]`,
    )
  })
})

describe('parser', () => {
  it('follows the precedence || < && < == != < > < >= <= < !', () => {
    const ast = parseExpression('!a && b == 1 || c > 2')
    expect(printExpression(ast)).toBe('!${a} && ${b} == 1 || ${c} > 2')
    expect(ast).toMatchObject({
      type: 'BinaryExpr',
      operator: '||',
      left: { operator: '&&', left: { type: 'UnaryExpr' }, right: { operator: '==' } },
      right: { operator: '>' },
    })
  })
  it('builds the design example "!a && b == 1"', () => {
    expect(parseExpression('!a && b == 1')).toEqual({
      type: 'BinaryExpr',
      operator: '&&',
      left: { type: 'UnaryExpr', operator: '!', operand: { type: 'Variable', path: ['a'], position: 1 } },
      right: {
        type: 'BinaryExpr',
        operator: '==',
        left: { type: 'Variable', path: ['b'], position: 6 },
        right: { type: 'Literal', value: 1 },
      },
    })
  })
  it('groups with parentheses', () => {
    expect(evaluateCondition('!(true && false)', {})).toBe(true)
    expect(evaluateCondition('(1 > 2 || 3 > 2) && 2 >= 2', {})).toBe(true)
  })
  it.each(['', '==', 'a ==', '(a', 'a)', 'a b', '!'])('refuses %j as a syntax error', (input) => {
    expect(() => parseExpression(input)).toThrow(ExpressionSyntaxError)
  })
  it(`caps the AST at depth ${kMaxAstDepth}`, () => {
    expect(() => parseExpression(`${'('.repeat(49)}true${')'.repeat(49)}`)).not.toThrow()
    expect(() => parseExpression(`${'('.repeat(60)}true${')'.repeat(60)}`)).toThrow(
      expect.objectContaining({ code: 'EXPR_TOO_DEEP' }),
    )
    expect(() => parseExpression(`${'!'.repeat(3000)}true`)).toThrow(expect.objectContaining({ code: 'EXPR_TOO_DEEP' }))
    expect(() => parseExpression(Array.from({ length: 60 }, () => 'true').join(' && '))).toThrow(
      expect.objectContaining({ code: 'EXPR_TOO_DEEP' }),
    )
  })
})

describe('evaluator', () => {
  it('compares strictly with == and numerically with > < >= <=', () => {
    expect(evaluateCondition("${x} == '1'", { x: 1 })).toBe(false)
    expect(evaluateCondition("${x} > '0.5'", { x: 1 })).toBe(true)
    expect(evaluateCondition("'abc' < 1", {})).toBe(true) // parseFloat('abc') || 0 is 0
  })
  it('toNumber follows the conversion table', () => {
    expect([toNumber(3), toNumber('2.5px'), toNumber('x'), toNumber(true), toNumber(null)]).toEqual([3, 2.5, 0, 0, 0])
  })
  it('reads missing variables as null', () => {
    expect(evaluateCondition('${params.missing} == null', { params: {} })).toBe(true)
    expect(evaluateCondition('${params.given} == null', { params: { given: 'x' } })).toBe(false)
  })
  it('interpolates ${} inside string literals as text', () => {
    expect(evaluateCondition("'v${params.n}' == 'v3'", { params: { n: 3 } })).toBe(true)
  })
  it('keeps injected text inside a value: no condition can be smuggled in through data', () => {
    expect(evaluateCondition("${params.name} == 'x'", { params: { name: "x' || true || '" } })).toBe(false)
  })
  it('accepts boolean conditions as they are', () => {
    expect(evaluateCondition(false, {})).toBe(false)
    expect(evaluateCondition(true, {})).toBe(true)
  })
})

// ---- properties -------------------------------------------------------------------------------

const isTyped = (e: unknown): boolean => e instanceof ExpressionSyntaxError || e instanceof SecurityError

describe('properties', () => {
  it('tokenize, parse and evaluate only ever throw their typed errors', () => {
    const alphabet = fc.constantFrom(
      ...'${}()!=<>&|\'"\\.ab01 _-+*[]:,?xtruefalsn'.split(''),
      '__proto__',
      'constructor',
      '${params.a}',
      '&&',
      '||',
    )
    const text = fc.oneof(
      fc.string(),
      fc.array(alphabet, { maxLength: 40 }).map((a) => a.join('')),
    )
    fc.assert(
      fc.property(text, (input) => {
        try {
          evaluateCondition(input, { params: { a: 1 } })
        } catch (e) {
          if (!isTyped(e)) throw e
        }
        try {
          tokenize(input)
        } catch (e) {
          if (!isTyped(e)) throw e
        }
      }),
      { numRuns: 3000 },
    )
  })

  // Random ASTs over a small variable set, evaluated directly (the reference) and through text.
  const names = ['a', 'b', 'c', 's']
  const literal = fc.oneof(
    fc.integer({ min: -5, max: 5 }).map((value) => ({ type: 'Literal' as const, value })),
    fc.constantFrom('', 'x', "it's", 'a${b}', '1').map((value) => ({ type: 'Literal' as const, value })),
    fc.boolean().map((value) => ({ type: 'Literal' as const, value })),
    fc.constant({ type: 'Literal' as const, value: null }),
    fc.constantFrom(...names).map((n) => ({ type: 'Variable' as const, path: ['v', n], position: 0 })),
  )
  const ops: BinaryOp[] = ['==', '!=', '>', '<', '>=', '<=', '&&', '||']
  const { tree } = fc.letrec<{ tree: ASTNode }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      literal,
      fc.record({ type: fc.constant('UnaryExpr' as const), operator: fc.constant('!' as const), operand: tie('tree') }),
      fc.record({
        type: fc.constant('BinaryExpr' as const),
        operator: fc.constantFrom(...ops),
        left: tie('tree'),
        right: tie('tree'),
      }),
      fc.record({ type: fc.constant('GroupExpr' as const), expression: tie('tree') }),
    ),
  }))
  const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? parseFloat(v) || 0 : 0)
  const reference = (n: ASTNode, ctx: { v: Record<string, unknown> }): unknown => {
    switch (n.type) {
      case 'Literal':
        return n.value
      case 'Variable':
        return ctx.v[n.path[1]] ?? null
      case 'Template':
        return ''
      case 'GroupExpr':
        return reference(n.expression, ctx)
      case 'UnaryExpr':
        return !reference(n.operand, ctx)
      case 'BinaryExpr': {
        const l = reference(n.left, ctx)
        const r = reference(n.right, ctx)
        const table: Record<BinaryOp, () => unknown> = {
          '==': () => l === r,
          '!=': () => l !== r,
          '>': () => num(l) > num(r),
          '<': () => num(l) < num(r),
          '>=': () => num(l) >= num(r),
          '<=': () => num(l) <= num(r),
          '&&': () => Boolean(l) && Boolean(r),
          '||': () => Boolean(l) || Boolean(r),
        }
        return table[n.operator]()
      }
    }
  }
  const depth = (n: ASTNode): number =>
    n.type === 'BinaryExpr'
      ? 1 + Math.max(depth(n.left), depth(n.right))
      : n.type === 'UnaryExpr'
        ? 1 + depth(n.operand)
        : n.type === 'GroupExpr'
          ? 1 + depth(n.expression)
          : 1
  const values = fc.record({
    a: fc.integer({ min: -3, max: 3 }),
    b: fc.boolean(),
    c: fc.constantFrom('', 'x', '2', null),
    s: fc.constantFrom('x', "it's", 'a${b}'),
  })

  it('evaluateCondition of a printed AST agrees with a reference evaluation of the AST', () => {
    fc.assert(
      fc.property(tree, values, (ast, v) => {
        fc.pre(depth(ast) <= 20)
        const text = printExpression(ast)
        const ctx = { v }
        expect(evaluateCondition(text, ctx)).toBe(Boolean(reference(ast, ctx)))
        expect(evaluate(parseExpression(text), ctx)).toEqual(evaluate(ast, ctx))
      }),
      { numRuns: 1500 },
    )
  })

  it('no expression reaches a prototype: every variable reads own data or null', () => {
    const segment = fc.constantFrom(
      'a',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'length',
      '0',
      '__proto__',
      'constructor',
      'prototype',
      'b',
    )
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (path) => {
        const ctx = { a: { b: 'own', list: [1] }, arr: [1, 2] }
        const expr = `\${${path.join('.')}} != null`
        try {
          const value = evaluate(parseExpression(`\${${path.join('.')}}`), ctx)
          expect(typeof value).not.toBe('function')
          expect(value === null || value === 'own' || typeof value === 'object').toBe(true)
          evaluateCondition(expr, ctx)
        } catch (e) {
          expect(e).toBeInstanceOf(SecurityError)
          expect(path.some((p) => ['__proto__', 'constructor', 'prototype'].includes(p))).toBe(true)
        }
      }),
      { numRuns: 1000 },
    )
  })
})
