import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { holdsShape, kMinPartChars, redactShapes, vaultNamesIn } from '../../../src/core/agent/redact'

const code = 'VAULT-7Q3X-91KD'
const kRuns = { numRuns: 200, interruptAfterTimeLimit: 10_000 }

/** The letters and digits of a text, case folded: what a model could rebuild a code from. */
const alnum = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '')

describe('a vault value in another shape', () => {
  it.each([
    ['exact', `Your code ${code} was sent`],
    ['spaced out', 'Code: V A U L T - 7 Q 3 X - 9 1 K D'],
    ['punctuated', 'Code: v.a.u.l.t/7.q.3.x/9.1.k.d'],
    ['case changed', 'code vault-7q3x-91kd'],
    ['reversed', `edoc: ${[...code].reverse().join('')}`],
    ['reversed and spaced', 'D K 1 9 X 3 Q 7 T L U A V'],
    ['a part of it', 'starts with 7Q3X-91'],
    ['full-width digits', 'code ＶＡＵＬＴ７Ｑ３Ｘ９１ＫＤ'],
  ])('is cut out when %s', (_, text) => {
    const out = redactShapes(text, [code])
    expect(out).toContain('[redacted]')
    expect(alnum(out)).not.toContain('7q3x91')
    expect(alnum(out)).not.toContain('x3q7')
    expect(holdsShape(text, code)).toBe(true)
  })

  it('leaves ordinary words of a password alone, and text without the value', () => {
    // "passwo" is six letters of the value but a word of every login form: letters-only parts need 12.
    expect(redactShapes('Password: [      ] Sign in', ['password1'])).toBe('Password: [      ] Sign in')
    expect(redactShapes('Order 12345 shipped', ['987654'])).toBe('Order 12345 shipped')
    expect(redactShapes('pin 42', ['42'])).toBe('pin 42') // too short to be anything but whole
  })

  it('names the vault entries a value holds', () => {
    const vault = { otp: code, pin: '4321', card: '4111 1111 1111 1111' }
    expect(vaultNamesIn('vault7q3x91kd', vault)).toEqual(['otp'])
    expect(vaultNamesIn('1234', vault)).toEqual(['pin'])
    expect(vaultNamesIn('411111', vault)).toEqual(['card'])
    expect(vaultNamesIn('hello', vault)).toEqual([])
  })

  it('cuts any value spaced with any separators, in any case, forwards or backwards', () => {
    const value = fc.stringMatching(/^[A-Za-z0-9]{6,16}$/)
    const sep = fc.constantFrom('', ' ', '-', '.', ' - ', '_', '·', '\u00a0')
    fc.assert(
      fc.property(value, sep, fc.boolean(), fc.boolean(), fc.string({ maxLength: 20 }), (v, s, upper, back, around) => {
        let shown = [...v].join(s)
        if (upper) shown = shown.toUpperCase()
        if (back) shown = [...shown].reverse().join('')
        const out = redactShapes(`${around} ${shown} ${around}`, [v])
        const folded = alnum(out)
        const f = alnum(v)
        expect(folded.includes(f) || folded.includes([...f].reverse().join(''))).toBe(false)
      }),
      kRuns,
    )
  })

  it('cuts every part of a value that holds a digit and is long enough', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{8,20}$/).filter((v) => /\d/.test(v)), fc.nat(), (v, n) => {
        const start = n % (v.length - kMinPartChars + 1)
        const part = v.slice(start, start + kMinPartChars)
        fc.pre(/\d/.test(part))
        expect(redactShapes(`-- ${part} --`, [v])).toBe('-- [redacted] --')
      }),
      kRuns,
    )
  })
})
