// The glob matcher every pack, flow and model pattern goes through: same answers as
// a RegExp, at a cost bounded by the input sizes whatever the pattern.
import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { globMatch, urlMatches } from '../../src/core/glob'
import { urlMatches as executorUrlMatches } from '../../src/dom/executor'

/** The obvious translation, fine as a reference on tiny inputs and exactly what must not ship. */
function reference(pattern: string, text: string): boolean {
  const body = [...pattern]
    .map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.+?^${}()|[\]\\*]/g, '\\$&')))
    .join('')
  return new RegExp(`^${body}$`).test(text)
}

/** A string whose indexed reads are counted, to bound the work without timing anything. */
function counted(text: string): { text: string; reads: () => number } {
  let reads = 0
  const proxy = new Proxy(new String(text), {
    get(target, key) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++
      return Reflect.get(target, key)
    },
  })
  return { text: proxy as unknown as string, reads: () => reads }
}

describe('globMatch', () => {
  test('agrees with a RegExp on small random patterns and texts', () => {
    const chars = fc.constantFrom('a', 'b', '*', '?', '.', '/')
    const pattern = fc.array(chars, { maxLength: 8 }).map((a) => a.join(''))
    const text = fc.array(fc.constantFrom('a', 'b', '.', '/', '?', '*'), { maxLength: 10 }).map((a) => a.join(''))
    fc.assert(
      fc.property(pattern, text, (p, t) => globMatch(p, t) === reference(p, t)),
      { numRuns: 2000 },
    )
  })

  test('texts built to match do match', () => {
    // Random patterns rarely match random text; build the text from the pattern instead.
    const piece = fc.constantFrom('a', 'b', '*', '?')
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 10 }),
        fc.array(fc.constantFrom('', 'a', 'ba', 'x?'), { minLength: 10, maxLength: 10 }),
        (parts, fills) => {
          const p = parts.join('')
          const t = parts.map((c, i) => (c === '*' ? fills[i] : c === '?' ? 'z' : c)).join('')
          return globMatch(p, t) && reference(p, t)
        },
      ),
      { numRuns: 500 },
    )
  })

  test('an adversarial pattern costs at most (n+1)(m+1) reads of the text', () => {
    const pattern = `${'*a'.repeat(30)}*!`
    const { text, reads } = counted('a'.repeat(5000))
    expect(globMatch(pattern, text)).toBe(false)
    // A backtracking RegExp needs on the order of n^30 steps here; the walk needs at most n·m.
    expect(reads()).toBeLessThanOrEqual((5000 + 1) * (pattern.length + 1))
  })
})

describe('urlMatches', () => {
  test("the page's wait url is this matcher, not a RegExp of its own", () => {
    // Before: `*a`×10 + `*!` against a 56-character URL took 27 s in a RegExp.
    expect(executorUrlMatches).toBe(urlMatches)
    expect(executorUrlMatches(`https://x.test/?${'a'.repeat(60)}`, `${'*a'.repeat(30)}*!`)).toBe(false)
  })

  test('a pattern without * is a substring, ? included', () => {
    expect(urlMatches('https://a.test/search?q=1', '/search?q=')).toBe(true)
    expect(urlMatches('https://a.test/searchXq=1', '/search?q=')).toBe(false)
  })

  test('a pattern with * matches the whole URL', () => {
    expect(urlMatches('https://a.test/app/list?page=2', 'https://a.test/app/*')).toBe(true)
    expect(urlMatches('https://a.test/app/list', '*/home')).toBe(false)
    expect(urlMatches('https://a.test/x', 'a.test/*')).toBe(false)
  })
})
