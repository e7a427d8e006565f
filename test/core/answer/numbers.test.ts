import { describe, expect, it } from 'vitest'
import { chineseNumeral, numbersIn, soleNumber } from '../../../src/core/answer/numbers'

const values = (t: string) => numbersIn(t).map((n) => n.value)

describe('numbers as a reader means them', () => {
  it('reads thousands separators, decimals, currency and full-width digits as one value', () => {
    expect(values('Total: $3,400.50 or ３，４００ or 3 400 or 1\u202f234\u202f567')).toEqual([
      3400.5, 3400, 3400, 1234567,
    ])
    expect(values('¥12.50, €12.5, 12.50 USD')).toEqual([12.5, 12.5, 12.5])
  })

  it('does not read a comma before other than three digits as a thousands separator', () => {
    expect(values('1,5 and 12,3456')).toEqual([1, 5, 12, 3456])
  })

  it('reads Chinese numerals, with units, big units and digit by digit', () => {
    expect(chineseNumeral('三千四百')).toBe(3400)
    expect(chineseNumeral('两万零五')).toBe(20005)
    expect(chineseNumeral('十二')).toBe(12)
    expect(chineseNumeral('一亿二千万')).toBe(120_000_000)
    expect(chineseNumeral('二〇二四')).toBe(2024)
    expect(values('共有三千四百件，价格3.4万元，评分四点')).toEqual([3400, 34000])
  })

  it('leaves a lone numeral that is a word alone', () => {
    expect(values('一个商品')).toEqual([])
    expect(values('十个')).toEqual([10])
  })

  it('takes a field value only when it holds exactly one number', () => {
    expect(soleNumber('$1,299.00')).toBe(1299)
    expect(soleNumber('－５')).toBe(-5)
    expect(soleNumber('4.5 out of 5')).toBeUndefined()
    expect(soleNumber('n/a')).toBeUndefined()
    expect(soleNumber('￥３，４００')).toBe(3400)
  })
})
