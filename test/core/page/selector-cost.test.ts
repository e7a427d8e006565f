import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { cssCost, kMaxSelectorCost, selectorCost, xpathCost } from '../../../src/core/page/selector-cost'
import { parseSelector } from '../../../src/core/page/selectors'

const kRuns = { numRuns: 200, interruptAfterTimeLimit: 15_000 }
const size = fc.record({ elements: fc.integer({ min: 50, max: 60_000 }), depth: fc.integer({ min: 3, max: 60 }) })
const tag = fc.constantFrom('a', 'button', 'div', 'input', 'tr', 'td', 'span', '*')
const literal = fc.string({ maxLength: 20 }).filter((s) => !s.includes("'"))

/** `//*[count(//*[count(//*)>0])>0]` with `k` nested whole-document scans inside predicates. */
function nested(k: number, t = '*'): string {
  let inner = `//${t}`
  for (let i = 0; i < k; i++) inner = `//${t}[count(${inner})>0]`
  return inner
}

describe('xpathCost: nested whole-document scans multiply', () => {
  it('the issue’s cubic XPath on 500 elements is past the budget; one scan is not', () => {
    const page = { elements: 500, depth: 12 }
    expect(xpathCost('//*[count(//*[count(//*)>0])>0]', page)).toBeGreaterThan(kMaxSelectorCost)
    expect(xpathCost('//*[count(//*[count(//*)>0])>0]', page)).toBeGreaterThanOrEqual(500 ** 3)
    expect(xpathCost('//button', page)).toBeLessThan(kMaxSelectorCost)
  })

  it('k nested scans cost at least N^(k+1), whatever the tag', () => {
    fc.assert(
      fc.property(size, fc.integer({ min: 0, max: 4 }), tag, (s, k, t) => {
        expect(xpathCost(nested(k, t), s)).toBeGreaterThanOrEqual(s.elements ** (k + 1))
      }),
      kRuns,
    )
  })

  it('is monotone: one more nesting never costs less', () => {
    fc.assert(
      fc.property(size, fc.integer({ min: 0, max: 4 }), (s, k) => {
        expect(xpathCost(nested(k + 1), s)).toBeGreaterThan(xpathCost(nested(k), s))
      }),
      kRuns,
    )
  })

  it('reads nothing inside string literals', () => {
    fc.assert(
      fc.property(size, tag, literal, (s, t, text) => {
        const plain = xpathCost(`//${t}[contains(., 'x')]`, s)
        expect(xpathCost(`//${t}[contains(., '${text}')]`, s)).toBe(plain)
        expect(xpathCost(`//${t}[contains(., '//*[count(//*)]${text}')]`, s)).toBe(plain)
      }),
      kRuns,
    )
  })

  it('lets the XPaths people and packs write run on a page of 60,000 elements', () => {
    const page = { elements: 60_000, depth: 40 }
    for (const x of [
      "//button[normalize-space()='Save']",
      "//tr[td[2][contains(., 'Order 742')]]//button",
      "//label[normalize-space()='Name']/following-sibling::input",
      "(//div[contains(@class,'inline-search')]//input[@value='Go'])[1]",
      "//div[@class='related']//img",
      "//*[@data-testid='submit' or @name='submit']",
      '/html/body/div[2]/form/input[3]',
    ]) {
      expect(xpathCost(x, page), x).toBeLessThan(kMaxSelectorCost)
    }
  })
})

describe('cssCost', () => {
  it('plain selectors cost one pass; each :has() multiplies by the subtree walk', () => {
    const page = { elements: 500, depth: 12 }
    expect(cssCost('#main .row > button.primary', page)).toBe(500)
    expect(cssCost('tr:has(td.late)', page)).toBe(500 * 12)
    expect(cssCost('div:has(a):has(b):has(c):has(d)', page)).toBeGreaterThan(kMaxSelectorCost)
  })

  it('selectorCost reads the kind the grammar parsed', () => {
    const page = { elements: 500, depth: 12 }
    expect(selectorCost(parseSelector('//*[count(//*[count(//*)>0])>0]'), page)).toBeGreaterThan(kMaxSelectorCost)
    expect(selectorCost(parseSelector('role=button[name="Save"]'), page)).toBe(500)
  })
})

describe('held-out: sibling walks and string values on a flat page', () => {
  // 500 rows side by side: every row has 250 following siblings on average.
  const flat = { elements: 500, depth: 4, siblings: 500 ** 2 / 1000 }

  it('refuses sibling walks nested in predicates, which freeze a flat list for seconds', () => {
    expect(xpathCost('//div[. = following-sibling::div/following-sibling::div]', flat)).toBeGreaterThan(
      kMaxSelectorCost,
    )
    expect(xpathCost('//div[following-sibling::div[. = following-sibling::div]]', flat)).toBeGreaterThan(
      kMaxSelectorCost,
    )
  })

  it('counts string values: comparing every node with every node is past the budget on 1,500 elements', () => {
    expect(xpathCost('//*[. = //*]', { elements: 1_500, depth: 4, siblings: 750 })).toBeGreaterThan(kMaxSelectorCost)
  })

  it('still lets a label’s following field and a text match run on a big page with one long list', () => {
    const page = { elements: 60_000, depth: 40, siblings: 1_000 ** 2 / 120_000 }
    for (const x of [
      "//label[normalize-space()='Name']/following-sibling::input",
      "//tr[td[2][contains(., 'Order 742')]]//button",
      "//button[normalize-space()='Save']",
    ])
      expect(xpathCost(x, page), x).toBeLessThan(kMaxSelectorCost)
  })
})
