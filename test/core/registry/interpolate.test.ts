import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import {
  ExpressionSyntaxError,
  getByPath,
  resolve,
  resolveObject,
  resolveValue,
  SecurityError,
} from '../../../src/core/registry'

describe('interpolation', () => {
  it('简单替换: ${params.name} → "test"', () => {
    expect(resolve('${params.name}', { params: { name: 'test' } })).toBe('test')
  })
  it('嵌套路径: ${params.user.name} → "alice"', () => {
    expect(resolve('${params.user.name}', { params: { user: { name: 'alice' } } })).toBe('alice')
  })
  it('不存在变量: ${params.unknown} → ""', () => {
    expect(resolve('${params.unknown}', { params: {} })).toBe('')
  })
  it('混合文本: Hello ${params.name}! → "Hello world!"', () => {
    expect(resolve('Hello ${params.name}!', { params: { name: 'world' } })).toBe('Hello world!')
  })
  it('危险属性: ${params.__proto__} throws SecurityError', () => {
    expect(() => resolve('${params.__proto__}', { params: {} })).toThrow(SecurityError)
  })
})

describe('interpolation details', () => {
  const ctx = { params: { n: 3, on: true, list: ['a', 'b'], obj: { k: 1 } }, steps: { found: { ref: 'e5' } } }
  it('keeps the type of a value when the template is one placeholder', () => {
    expect(resolveValue('${params.n}', ctx)).toBe(3)
    expect(resolveValue('${params.list}', ctx)).toEqual(['a', 'b'])
    expect(resolveValue('n=${params.n}', ctx)).toBe('n=3')
  })
  it('writes objects as JSON inside text and reads step outputs by path', () => {
    expect(resolve('${params.obj} ${steps.found.ref}', ctx)).toBe('{"k":1} e5')
  })
  it('resolves every string inside objects and arrays', () => {
    expect(resolveObject({ a: ['${params.n}', 'x${params.on}'], b: { c: '${steps.found.ref}' }, d: 5 }, ctx)).toEqual({
      a: [3, 'xtrue'],
      b: { c: 'e5' },
      d: 5,
    })
  })
  it('writes a literal ${ as $${', () => {
    expect(resolve('cost: $${params.n}', ctx)).toBe('cost: ${params.n}')
  })
  it('refuses an unclosed ${ and forbidden keys in argument objects', () => {
    expect(() => resolve('a ${params.n', ctx)).toThrow(ExpressionSyntaxError)
    expect(() => resolveObject(JSON.parse('{"__proto__": {"x": 1}}'), ctx)).toThrow(SecurityError)
  })
  it('reads own properties only', () => {
    expect(getByPath({ a: {} }, ['a', 'toString'])).toBeUndefined()
    expect(getByPath({ a: [1, 2] }, ['a', '1'])).toBe(2)
  })
})

describe('properties', () => {
  it('resolve is the identity on strings without ${', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('${')),
        (s) => {
          expect(resolve(s, { params: { a: 1 } })).toBe(s)
        },
      ),
      { numRuns: 2000 },
    )
  })
  it('no template reaches a prototype: results only come from own data', () => {
    const segment = fc.constantFrom(
      'a',
      'b',
      'toString',
      'constructor',
      '__proto__',
      'prototype',
      'valueOf',
      'length',
      '0',
    )
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (path) => {
        const ctx = { a: { b: 'own' } }
        try {
          const out = resolve(`[\${${path.join('.')}}]`, ctx)
          expect(['[own]', '[]', '[{"b":"own"}]']).toContain(out)
        } catch (e) {
          expect(e).toBeInstanceOf(SecurityError)
        }
      }),
      { numRuns: 1000 },
    )
  })
})
