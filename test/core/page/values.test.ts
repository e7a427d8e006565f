// Human values → native input formats (src/core/page/values.ts).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  isoWeek,
  normalizeValue,
  outOfBounds,
  safeNormalizeValue,
  ValueError,
  type NativeKind,
} from '../../../src/core/page/values'

const kRuns = { numRuns: 100, interruptAfterTimeLimit: 30_000 }
const v = (kind: NativeKind, raw: string, locale?: string) => normalizeValue(kind, raw, { locale }).value

describe('dates', () => {
  it.each([
    ['2018-09-27', '2018-09-27'],
    ['2018/9/27', '2018-09-27'],
    ['20180927', '2018-09-27'],
    ['09/27/2018', '2018-09-27'],
    ['27/09/2018', '2018-09-27'],
    ['27.09.2018', '2018-09-27'],
    ['27.9.18', '2018-09-27'],
    ['2018年9月27日', '2018-09-27'],
    ['２０１８年９月２７日', '2018-09-27'],
    ['2018 年 09 月 27 号', '2018-09-27'],
    ['Sept 27 2018', '2018-09-27'],
    ['Sep. 27th, 2018', '2018-09-27'],
    ['September 27, 2018', '2018-09-27'],
    ['Thursday, September 27, 2018', '2018-09-27'],
    ['27 September 2018', '2018-09-27'],
    ['27th of Sept, 2018', '2018-09-27'],
    ['  2000-02-29 ', '2000-02-29'],
  ])('%s → %s', (raw, want) => {
    expect(v('date', raw)).toBe(want)
  })

  it('reads an ambiguous day/month order as the page language writes it, and says so', () => {
    expect(normalizeValue('date', '03/04/2018', { locale: 'en-US' })).toEqual({
      value: '2018-03-04',
      note: 'read "03/04/2018" as 2018-03-04, month first as en-US writes dates',
    })
    expect(normalizeValue('date', '03/04/2018', { locale: 'en-GB' })).toEqual({
      value: '2018-04-03',
      note: 'read "03/04/2018" as 2018-04-03, day first as en-GB writes dates',
    })
    expect(v('date', '03/04/2018', 'de-DE')).toBe('2018-04-03')
    expect(v('date', '03/04/2018', 'en')).toBe('2018-03-04')
    // Not ambiguous: no note.
    expect(normalizeValue('date', '13/04/2018', { locale: 'en-US' })).toEqual({ value: '2018-04-13' })
  })

  it('today, tomorrow, 明天 count from the given day', () => {
    const now = new Date(2018, 8, 30, 15)
    expect(normalizeValue('date', 'tomorrow', { now }).value).toBe('2018-10-01')
    expect(normalizeValue('date', '今天', { now }).value).toBe('2018-09-30')
    expect(normalizeValue('date', 'yesterday', { now }).value).toBe('2018-09-29')
  })

  it.each(['2018-02-30', '31/31/2018', 'next thursday', 'Smarch 3 2018', '2018-9', 'ma 27 2018', '2019-02-29'])(
    'refuses %s, naming the format',
    (raw) => {
      const r = safeNormalizeValue('date', raw)
      expect(r.success).toBe(false)
      if (r.success) return
      expect(r.error).toBeInstanceOf(ValueError)
      expect(r.error.message).toBe(`Cannot read "${raw}" as a date: expected a date such as 2018-09-27.`)
    },
  )

  it('an empty value clears the field', () => {
    expect(v('date', '')).toBe('')
  })
})

describe('times', () => {
  it.each([
    ['14:20', '14:20'],
    ['2:20 PM', '14:20'],
    ['2:20pm', '14:20'],
    ['2:20 p.m.', '14:20'],
    ['2 PM', '14:00'],
    ['12 AM', '00:00'],
    ['12:05 pm', '12:05'],
    ['9.30', '09:30'],
    ['14:20:05', '14:20:05'],
    ['１４：２０', '14:20'],
    ['下午2点20分', '14:20'],
    ['下午2点', '14:00'],
    ['下午两点半', '14:30'],
    ['上午十点一刻', '10:15'],
    ['晚上八点', '20:00'],
    ['凌晨12点', '00:00'],
    ['中午12点', '12:00'],
    ['14点20分30秒', '14:20:30'],
    ['noon', '12:00'],
  ])('%s → %s', (raw, want) => {
    expect(v('time', raw)).toBe(want)
  })

  it.each(['25:00', '13 PM', '2:61', 'half past two', '下午13点', '14'])('refuses %s', (raw) => {
    expect(() => v('time', raw)).toThrow('expected a time such as 14:20')
  })
})

describe('date and time, month, week', () => {
  it.each([
    ['2018-09-27 14:20', '2018-09-27T14:20'],
    ['2018-09-27T14:20', '2018-09-27T14:20'],
    ['Sept 27 2018 2:20 PM', '2018-09-27T14:20'],
    ['September 27, 2018 at 2:20 PM', '2018-09-27T14:20'],
    ['27.09.2018, 14:20', '2018-09-27T14:20'],
    ['2018年9月27日下午2点20分', '2018-09-27T14:20'],
    ['2018年9月27日 14:20', '2018-09-27T14:20'],
  ])('datetime-local %s → %s', (raw, want) => {
    expect(v('datetime-local', raw)).toBe(want)
  })

  it('datetime-local needs both halves', () => {
    expect(() => v('datetime-local', '2018-09-27')).toThrow(
      'Cannot read "2018-09-27" as a date and time: expected a date and time such as 2018-09-27 14:20.',
    )
  })

  it.each([
    ['2018-09', '2018-09'],
    ['2018年9月', '2018-09'],
    ['September 2018', '2018-09'],
    ['Sept, 2018', '2018-09'],
    ['9/2018', '2018-09'],
    ['2018-09-27', '2018-09'],
  ])('month %s → %s', (raw, want) => {
    expect(v('month', raw)).toBe(want)
  })

  it.each([
    ['2018-W39', '2018-W39'],
    ['2018 W39', '2018-W39'],
    ['2018w5', '2018-W05'],
    ['week 39, 2018', '2018-W39'],
    ['W39 2018', '2018-W39'],
    ['2018年第39周', '2018-W39'],
    ['第39周 2018', '2018-W39'],
    ['2018-09-27', '2018-W39'],
    ['2018-12-31', '2019-W01'],
    ['2021-01-03', '2020-W53'],
  ])('week %s → %s', (raw, want) => {
    expect(v('week', raw)).toBe(want)
  })

  it('a week a year does not have is refused', () => {
    expect(() => v('week', '2018-W53')).toThrow('expected a week such as 2018-W39')
    expect(v('week', '2020-W53')).toBe('2020-W53')
  })
})

describe('numbers and colours', () => {
  it.each([
    ['12', '12'],
    ['１２', '12'],
    ['1,234', '1234'],
    ['1,234,567.89', '1234567.89'],
    ['1.234.567,89', '1234567.89'],
    ['1 234,5', '1234.5'],
    ["1'234.5", '1234.5'],
    ['−5', '-5'],
    ['+7', '7'],
    ['0.50', '0.5'],
    ['.5', '0.5'],
    ['1e3', '1000'],
    ['3,5', '3.5'],
  ])('number %s → %s', (raw, want) => {
    expect(v('number', raw)).toBe(want)
  })

  it('a lone group of three follows the locale, and says so', () => {
    expect(normalizeValue('number', '1,234', { locale: 'de-DE' })).toEqual({
      value: '1.234',
      note: 'read "1,234" as 1.234, as de-DE writes numbers',
    })
    expect(v('number', '1.234', 'de')).toBe('1234')
    expect(v('number', '1.234', 'en-US')).toBe('1.234')
  })

  it.each(['twelve', '1.2.3,4,5', '12abc', '--1', '', 'Infinity'])('refuses %j', (raw) => {
    if (raw === '') return expect(v('number', raw)).toBe('')
    expect(() => v('number', raw)).toThrow('expected a number such as 1234.5')
  })

  it.each([
    ['#FF0000', '#ff0000'],
    ['ff0000', '#ff0000'],
    ['#f80', '#ff8800'],
    ['rgb(255, 0, 0)', '#ff0000'],
    ['rgb(0 128 255 / 50%)', '#0080ff'],
    ['红色', '#ff0000'],
    ['蓝', '#0000ff'],
  ])('colour %s → %s', (raw, want) => {
    expect(v('color', raw)).toBe(want)
  })

  it('colour names go to the resolver the page gives', () => {
    const namedColor = (n: string) => (n === 'rebeccapurple' ? '#663399' : null)
    expect(normalizeValue('color', 'RebeccaPurple', { namedColor }).value).toBe('#663399')
    expect(() => normalizeValue('color', 'blurple', { namedColor })).toThrow(
      'Cannot read "blurple" as a colour: expected a colour such as #ff0000 or red.',
    )
    expect(() => v('color', 'rgb(300,0,0)')).toThrow('expected a colour')
  })
})

describe('bounds', () => {
  it('min, max and step, compared in each kind', () => {
    expect(outOfBounds('number', '5', { min: '0', max: '10', step: '1' })).toBeNull()
    expect(outOfBounds('number', '11', { min: '0', max: '10' })).toBe(
      '11 is above the largest value this field allows (10)',
    )
    expect(outOfBounds('range', '-1', { min: '0' })).toBe('-1 is below the smallest value this field allows (0)')
    expect(outOfBounds('range', '7', { min: '0', step: '5' })).toBe('7 is not a multiple of the step 5 from 0')
    expect(outOfBounds('number', '0.3', { step: '0.1' })).toBeNull()
    expect(outOfBounds('number', '0.35', { step: 'any' })).toBeNull()
    expect(outOfBounds('date', '2018-09-27', { min: '2018-10-01' })).toBe(
      '2018-09-27 is below the smallest value this field allows (2018-10-01)',
    )
    expect(outOfBounds('time', '18:30', { max: '17:00' })).toBe(
      '18:30 is above the largest value this field allows (17:00)',
    )
    expect(outOfBounds('week', '2018-W39', { min: '2018-W01', max: '2018-W52' })).toBeNull()
    // A bound the page wrote badly is ignored, as the browser ignores it.
    expect(outOfBounds('date', '2018-09-27', { min: 'soon' })).toBeNull()
  })
})

describe('round trips (property)', () => {
  const day = fc.record({
    y: fc.integer({ min: 1000, max: 9999 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
  })
  const months = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ]
  const iso = ({ y, m, d }: { y: number; m: number; d: number }) =>
    `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`

  it('every written form of a date comes back as the same ISO date', () => {
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 6 }), ({ y, m, d }, form) => {
        const written = [
          iso({ y, m, d }),
          `${m}/${d}/${y}`,
          `${d}.${m}.${y}`,
          `${y}年${m}月${d}日`,
          `${months[m - 1]} ${d}, ${y}`,
          `${d} ${months[m - 1].slice(0, 3)} ${y}`,
          `${y}/${m}/${d}`,
        ][form]
        // en-US reads the slashed form month first.
        expect(normalizeValue('date', written, { locale: 'en-US' }).value).toBe(iso({ y, m, d }))
      }),
      kRuns,
    )
  })

  it('12-hour, 24-hour and Chinese times agree', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (h, min) => {
        const want = `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`
        const h12 = h % 12 === 0 ? 12 : h % 12
        expect(v('time', want)).toBe(want)
        expect(v('time', `${h12}:${String(min).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`)).toBe(want)
        expect(v('time', `${h < 12 ? '上午' : '下午'}${h12}点${min}分`)).toBe(want)
      }),
      kRuns,
    )
  })

  it('a date written any way lands in the ISO week JavaScript would compute', () => {
    fc.assert(
      fc.property(day, (ymd) => {
        const { year, week } = isoWeek(ymd)
        const text = `${year}-W${String(week).padStart(2, '0')}`
        expect(v('week', iso(ymd))).toBe(text)
        expect(v('week', text)).toBe(text)
      }),
      kRuns,
    )
  })

  it('numbers formatted for en-US and de-DE read back as the number', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const n = whole + (Math.sign(whole || 1) * cents) / 100
        const fmt = (locale: string) => n.toLocaleString(locale, { maximumFractionDigits: 2, minimumFractionDigits: 2 })
        expect(Number(v('number', fmt('en-US'), 'en-US'))).toBeCloseTo(n, 6)
        expect(Number(v('number', fmt('de-DE'), 'de-DE'))).toBeCloseTo(n, 6)
      }),
      kRuns,
    )
  })
})
