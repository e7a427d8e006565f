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
      fc.property(
        fc.stringMatching(/^[a-z0-9]{8,20}$/).filter((v) => /\d/.test(v)),
        fc.nat(),
        (v, n) => {
          const start = n % (v.length - kMinPartChars + 1)
          const part = v.slice(start, start + kMinPartChars)
          fc.pre(/\d/.test(part))
          expect(redactShapes(`-- ${part} --`, [v])).toBe('-- [redacted] --')
        },
      ),
      kRuns,
    )
  })
})

/** Latin letters and a look-alike a page can draw in their place (Cyrillic, Greek, full-width). */
const kLookAlikes: Record<string, string[]> = {
  a: ['а', 'α', 'ａ', 'Ａ'],
  e: ['е', 'ε', 'ｅ'],
  o: ['о', 'ο', 'ｏ', 'Ｏ'],
  p: ['р', 'ρ', 'ｐ'],
  c: ['с', 'ϲ', 'ｃ'],
  x: ['х', 'χ', 'ｘ'],
  i: ['і', 'ι', 'ｉ'],
  k: ['к', 'κ', 'ｋ'],
  t: ['т', 'τ', 'ｔ'],
  u: ['υ', 'ｕ'],
  '1': ['１'],
  '7': ['７'],
}
const kInvisibles = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad']

/** What a reader rebuilds from a text: the redactor's own fold, written again independently of it. */
function readerLetters(s: string): string {
  let out = ''
  for (const ch of s.normalize('NFKC').toLowerCase()) {
    const latin = Object.entries(kLookAlikes).find(([, alikes]) =>
      alikes.some((a) => a.normalize('NFKC').toLowerCase() === ch),
    )
    const c = latin ? latin[0] : ch
    if (/[a-z0-9]/.test(c)) out += c
  }
  return out
}

describe('one fold for every way a page can draw a value', () => {
  it.each([
    ['Cyrillic look-alikes', 'code: VАULТ-7Q3Х-91КD'],
    ['Greek look-alikes', 'code: vαυlτ-7q3χ-91κd'],
    ['zero-width characters between letters', 'code: V\u200bA\u200cU\u200dL\u2060T7Q3X91KD'],
    ['accents a reader ignores', 'code: vàúlt 7q3x 91kd'],
    ['full-width, spaced, with a soft hyphen', 'code: ＶＡ\u00adＵＬＴ ７Ｑ３Ｘ ９１ＫＤ'],
  ])('cuts a value drawn with %s', (_, text) => {
    const out = redactShapes(text, [code])
    expect(out).toContain('[redacted]')
    expect(readerLetters(out)).not.toContain('7q3x91')
  })

  it('cuts any value drawn with any mix of look-alike letters, invisible characters, width and case', () => {
    const value = fc.stringMatching(/^[a-z0-9]{6,14}$/).filter((v) => /\d/.test(v))
    fc.assert(
      fc.property(
        value,
        fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
        fc.string({ maxLength: 12 }),
        (v, picks, around) => {
          const drawn = [...v]
            .map((c, i) => {
              const n = picks[i % picks.length]
              const alikes = kLookAlikes[c] ?? []
              const shown = n % 3 === 0 && alikes.length ? alikes[n % alikes.length] : n % 3 === 1 ? c.toUpperCase() : c
              return shown + (n % 4 === 0 ? kInvisibles[n % kInvisibles.length] : '')
            })
            .join('')
          const out = redactShapes(`${around} ${drawn} ${around}`, [v])
          expect(readerLetters(out)).not.toContain(v)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('gives the MCP placeholder for the value a span came from', () => {
    expect(redactShapes('a hunter2-x b HUNTER2X c', ['hunter2-x'], () => '${secret:PW}')).toBe(
      'a ${secret:PW} b ${secret:PW} c',
    )
  })
})
