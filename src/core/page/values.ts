/**
 * Values as a model or a person writes them ("09/27/2018", "下午2点20分", "１２", "red"), turned
 * into the one format each native input accepts (HTML §4.10.5: `2018-09-27`, `14:20`,
 * `2018-09-27T14:20`, `2018-09`, `2018-W39`, a valid floating-point number, `#rrggbb`);.
 *
 * A small parser for exactly these forms rather than a date library: this runs in the page agent
 * chunk on every page, chrono-node weighs well over 100 KB minified and dayjs with
 * customParseFormat still needs every format listed up front, while the forms below are a few
 * regular expressions. Pure data → data, so every form has a Node test.
 */
import type { SafeParseResult } from '../result'

export const kNativeKinds = ['date', 'time', 'datetime-local', 'month', 'week', 'number', 'range', 'color'] as const
export type NativeKind = (typeof kNativeKinds)[number]

export interface ValueOptions {
  /** The page's `lang` or the browser's language: decides `03/04/2018` (en-US: month first). */
  locale?: string
  /** For "today" / "明天": the person's current date (defaults to now). */
  now?: Date
}

export interface NormalizedValue {
  /** The value in the element's own format. */
  value: string
  /** How an ambiguous value was read, for the step result ("month first, as en-US writes dates"). */
  note?: string
}

export class ValueError extends Error {
  override name = 'ValueError'
  readonly code = 'INVALID'
  constructor(
    readonly kind: NativeKind,
    readonly input: string,
    /** What the field takes, e.g. "a date such as 2018-09-27". */
    readonly expected: string,
    detail?: string,
  ) {
    super(
      detail ?? `Cannot read "${input.slice(0, 80)}" as ${expected.replace(/ such as.*/, '')}: expected ${expected}.`,
    )
  }
}

export const kExpected: Record<NativeKind, string> = {
  date: 'a date such as 2018-09-27',
  time: 'a time such as 14:20',
  'datetime-local': 'a date and time such as 2018-09-27 14:20',
  month: 'a month such as 2018-09',
  week: 'a week such as 2018-W39',
  number: 'a number such as 1234.5',
  range: 'a number such as 50',
  color: 'a colour such as #ff0000 or red',
}

interface Ymd {
  y: number
  m: number
  d: number
}
type Parsed<T> = { v: T; note?: string } | null

const pad = (n: number, w = 2) => String(n).padStart(w, '0')
const ymdText = ({ y, m, d }: Ymd) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`

function daysIn(y: number, m: number): number {
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  return m === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31
}

function valid(y: number, m: number, d: number): Ymd | null {
  return y >= 1 && y <= 275760 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m) ? { y, m, d } : null
}

/** Two-digit years: 00–68 are 20xx, 69–99 are 19xx (the POSIX strptime pivot). */
function fullYear(text: string): number {
  const n = Number(text)
  return text.length > 2 ? n : n < 69 ? 2000 + n : 1900 + n
}

const kMonths = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** "Sept", "september", "Sep." → 9. */
function monthOf(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '')
  if (w.length < 3) return 0
  const i = kMonths.indexOf(w.slice(0, 3))
  // The word must be a prefix of the full name ("sept" of "september"), not any 3-letter start.
  const full = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ][i]
  return i >= 0 && full.startsWith(w) ? i + 1 : 0
}

/**
 * Regions that write the month first in numeric dates (`03/04/2018` is 4 March there); a bare
 * `en` is how Chrome reports an American English browser.
 */
const kMonthFirst = /^(en(-(us|ph|ca|as|gu|mh|fm|mp|pr|um|vi))?|fil)$/i

/** Full-width digits and punctuation (１２, ：) become ASCII; spaces collapse. */
function clean(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/[\s\u200b]+/g, ' ')
    .trim()
}

const kWeekday = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+|^(星期|周|週)[一二三四五六日天]\s*/i

function relativeDay(s: string, now: Date): Ymd | null {
  const shift = /^(today|今天|今日)$/i.test(s)
    ? 0
    : /^(tomorrow|明天|明日)$/i.test(s)
      ? 1
      : /^(yesterday|昨天|昨日)$/i.test(s)
        ? -1
        : null
  if (shift === null) return null
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + shift)
  return { y: d.getFullYear(), m: d.getMonth() + 1, d: d.getDate() }
}

function parseYmd(raw: string, opts: ValueOptions): Parsed<Ymd> {
  const s = raw.replace(kWeekday, '')
  const rel = relativeDay(s, opts.now ?? new Date())
  if (rel) return { v: rel }
  let m =
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s) ??
    /^(\d{4})(\d{2})(\d{2})$/.exec(s) ??
    /^(\d{4}) ?年 ?(\d{1,2}) ?月 ?(\d{1,2}) ?[日号號]?$/.exec(s)
  if (m) return wrap(valid(+m[1], +m[2], +m[3]))
  // d.m.y with dots is day first everywhere it is written (de, ru, pl, …).
  if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(s))) return wrap(valid(fullYear(m[3]), +m[2], +m[1]))
  if ((m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(s))) {
    const a = +m[1]
    const b = +m[2]
    const y = fullYear(m[3])
    if (a > 12 || b > 12 || a === b) return wrap(a > 12 ? valid(y, b, a) : valid(y, a, b))
    const locale = opts.locale || 'en-US'
    const monthFirst = kMonthFirst.test(locale)
    const v = monthFirst ? valid(y, a, b) : valid(y, b, a)
    return (
      v && { v, note: `read "${s}" as ${ymdText(v)}, ${monthFirst ? 'month' : 'day'} first as ${locale} writes dates` }
    )
  }
  // "Sept 27 2018", "September 27th, 2018", "27 Sep 2018", "27. September 2018".
  if ((m = /^([a-z]+\.?) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i.exec(s)))
    return wrap(valid(+m[3], monthOf(m[1]), +m[2]))
  if ((m = /^(\d{1,2})(?:st|nd|rd|th)?\.? (?:of )?([a-z]+\.?),? (\d{4})$/i.exec(s)))
    return wrap(valid(+m[3], monthOf(m[2]), +m[1]))
  return null
}

function wrap<T>(v: T | null): Parsed<T> {
  return v === null ? null : { v }
}

interface Hms {
  h: number
  min: number
  s: number
}

const kChineseDigits = '零一二三四五六七八九'

/** 十二 → 12, 二十 → 20, 三 → 3 (hours and minutes only, so up to 59). */
function chineseNumber(t: string): number {
  if (/^\d+$/.test(t)) return Number(t)
  const m = /^([一二三四五]?)(十?)([一二三四五六七八九]?)$/.exec(t.replace(/两/g, '二'))
  if (!m || (!m[1] && !m[2] && !m[3])) return NaN
  if (!m[2]) return m[1] && m[3] ? NaN : kChineseDigits.indexOf(m[1] || m[3])
  return (m[1] ? kChineseDigits.indexOf(m[1]) : 1) * 10 + (m[3] ? kChineseDigits.indexOf(m[3]) : 0)
}

function parseHms(raw: string): Parsed<Hms> {
  const s = raw.replace(/\s+/g, ' ')
  let m = /^(\d{1,2})(?:[:.h](\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)? ?(?:([ap])\.? ?m\.?)?$/i.exec(s)
  if (m && (m[2] !== undefined || m[5])) {
    let h = +m[1]
    if (m[5]) {
      if (h < 1 || h > 12) return null
      h = (h % 12) + (m[5].toLowerCase() === 'p' ? 12 : 0)
    }
    return hms(h, +(m[2] ?? 0), +(m[3] ?? 0))
  }
  // 下午2点20分, 14点半, 上午十点一刻, 晚上8時.
  m =
    /^(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)? ?([\d一二两三四五六七八九十]+) ?[点點时時] ?(?:(半|一刻|三刻)|([\d一二三四五六七八九十]+) ?分?)?(?: ?([\d一二三四五六七八九十]+) ?秒)?$/.exec(
      s,
    )
  if (m) {
    let h = chineseNumber(m[2])
    const min = m[3] ? { 半: 30, 一刻: 15, 三刻: 45 }[m[3]]! : m[4] ? chineseNumber(m[4]) : 0
    const sec = m[5] ? chineseNumber(m[5]) : 0
    if (m[1] && h > 12) return null
    if (m[1] && /下午|傍晚|晚上|夜里/.test(m[1]) && h < 12) h += 12
    else if (m[1] === '中午' && h < 11) h += 12
    else if (m[1] && /凌晨|早|上午/.test(m[1]) && h === 12) h = 0
    return hms(h, min, sec)
  }
  if (/^(noon|中午)$/i.test(s)) return { v: { h: 12, min: 0, s: 0 } }
  if (/^(midnight|午夜)$/i.test(s)) return { v: { h: 0, min: 0, s: 0 } }
  return null
}

function hms(h: number, min: number, s: number): Parsed<Hms> {
  return h >= 0 && h < 24 && min >= 0 && min < 60 && s >= 0 && s < 60 ? { v: { h, min, s } } : null
}

const hmsText = ({ h, min, s }: Hms) => `${pad(h)}:${pad(min)}${s ? `:${pad(s)}` : ''}`

/** "2018-09-27 14:20", "2018-09-27T14:20", "Sept 27 2018, 2:20 PM", "2018年9月27日下午2点20分". */
function parseDateTime(s: string, opts: ValueOptions): Parsed<string> {
  // Try every place the date could end: after a space, a T, a comma, "at" or a Chinese 日.
  const cuts = /[ T,]|(?<=[日号號])/g
  for (let m = cuts.exec(s); m; m = cuts.exec(s)) {
    const date = parseYmd(s.slice(0, m.index).replace(/,$/, '').trim(), opts)
    if (!date) continue
    const time = parseHms(
      s
        .slice(m.index + m[0].length)
        .replace(/^(,|at|T)\s*/i, '')
        .trim(),
    )
    if (time) return { v: `${ymdText(date.v)}T${hmsText(time.v)}`, note: date.note }
  }
  return null
}

function parseMonth(s: string, opts: ValueOptions): Parsed<string> {
  let m = /^(\d{4})[-/.](\d{1,2})$/.exec(s) ?? /^(\d{4}) ?年 ?(\d{1,2}) ?月(?:份)?$/.exec(s)
  if (m) return +m[2] >= 1 && +m[2] <= 12 ? { v: `${pad(+m[1], 4)}-${pad(+m[2])}` } : null
  if ((m = /^(\d{1,2})[-/.](\d{4})$/.exec(s))) return +m[1] >= 1 && +m[1] <= 12 ? { v: `${m[2]}-${pad(+m[1])}` } : null
  if ((m = /^([a-z]+\.?),? (\d{4})$/i.exec(s)) && monthOf(m[1])) return { v: `${m[2]}-${pad(monthOf(m[1]))}` }
  // A whole date names its month.
  const d = parseYmd(s, opts)
  return d && { v: ymdText(d.v).slice(0, 7), note: d.note }
}

/** ISO 8601 week of a date: the Thursday of its week decides the year. */
export function isoWeek({ y, m, d }: Ymd): { year: number; week: number } {
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const t = new Date(0)
  t.setUTCFullYear(y, m - 1, d)
  t.setUTCDate(t.getUTCDate() + 3 - ((t.getUTCDay() + 6) % 7))
  const year = t.getUTCFullYear()
  const start = new Date(0)
  start.setUTCFullYear(year, 0, 1)
  return { year, week: Math.floor((t.getTime() - start.getTime()) / 86_400_000 / 7) + 1 }
}

/** 52 or 53: a year has 53 ISO weeks when 28 December falls in week 53. */
function weeksIn(year: number): number {
  return isoWeek({ y: year, m: 12, d: 28 }).week
}

function parseWeek(s: string, opts: ValueOptions): Parsed<string> {
  let m = /^(\d{4}) ?-? ?w(?:eek)? ?(\d{1,2})$/i.exec(s) ?? /^(\d{4}) ?年 ?第 ?(\d{1,2}) ?[周週]$/.exec(s)
  // "week 39, 2018", "W39 2018", "第39周 2018": the same two numbers the other way round.
  const flipped = m
    ? null
    : (/^w(?:eek)? ?(\d{1,2}),? (?:of )?(\d{4})$/i.exec(s) ?? /^第 ?(\d{1,2}) ?[周週],? ?(\d{4}) ?年?$/.exec(s))
  if (flipped) m = [flipped[0], flipped[2], flipped[1]] as unknown as RegExpExecArray
  if (m) {
    const year = +m[1]
    const week = +m[2]
    return week >= 1 && week <= weeksIn(year) ? { v: `${pad(year, 4)}-W${pad(week)}` } : null
  }
  const d = parseYmd(s, opts)
  if (!d) return null
  const w = isoWeek(d.v)
  return {
    v: `${pad(w.year, 4)}-W${pad(w.week)}`,
    note: `${ymdText(d.v)} is in week ${w.week} of ${w.year}${d.note ? `; ${d.note}` : ''}`,
  }
}

/** Locales that write a decimal comma (`1.234,5`): a lone comma there is the decimal point. */
const kDecimalComma =
  /^(de|fr|es|it|pt|nl|ru|pl|cs|sk|sv|da|nb|no|nn|fi|tr|uk|id|vi|ro|hu|el|bg|hr|sl|sr|lt|lv|et|be|ca|eu|gl|az|kk|uz)(-|$)/i

function parseNumber(raw: string, opts: ValueOptions): Parsed<string> {
  // Grouping spaces (thin, no-break, apostrophe in Swiss), and the minus sign as typeset.
  let s = raw
    .replace(/[\s'’_]/g, '')
    .replace(/^[−–]/, '-')
    .replace(/^\+/, '')
  let note: string | undefined
  const commas = (s.match(/,/g) ?? []).length
  const dots = (s.match(/\./g) ?? []).length
  const decimalComma = kDecimalComma.test(opts.locale ?? '')
  if (commas && dots)
    s = s.lastIndexOf(',') > s.lastIndexOf('.') ? s.replace(/\./g, '').replace(',', '.') : s.replace(/,/g, '')
  else if (commas > 1 || (commas === 1 && /^-?\d{1,3},\d{3}$/.test(s) && !decimalComma)) s = s.replace(/,/g, '')
  else if (commas === 1) s = s.replace(',', '.')
  else if (dots > 1 || (dots === 1 && decimalComma && /^-?\d{1,3}\.\d{3}$/.test(s))) s = s.replace(/\./g, '')
  if (/^-?\d{1,3}[,.]\d{3}$/.test(raw.trim()))
    note = `read "${raw.trim()}" as ${s}, as ${opts.locale || 'en-US'} writes numbers`
  if (!/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return null
  const n = Number(s)
  return Number.isFinite(n) ? { v: String(n), note } : null
}

/** Colour words a person writes in Chinese; English names go to the browser (see namedColor). */
const kChineseColors: Record<string, string> = {
  红: '#ff0000',
  绿: '#008000',
  蓝: '#0000ff',
  黄: '#ffff00',
  黑: '#000000',
  白: '#ffffff',
  灰: '#808080',
  橙: '#ffa500',
  紫: '#800080',
  粉: '#ffc0cb',
  青: '#00ffff',
  棕: '#a52a2a',
}

function parseColor(s: string, opts: ValueOptions & { namedColor?: (name: string) => string | null }): Parsed<string> {
  let m = /^#?([\da-f]{6})$/i.exec(s)
  if (m) return { v: `#${m[1].toLowerCase()}` }
  if ((m = /^#?([\da-f])([\da-f])([\da-f])$/i.exec(s)))
    return { v: `#${m[1]}${m[1]}${m[2]}${m[2]}${m[3]}${m[3]}`.toLowerCase() }
  if ((m = /^rgba?\( ?(\d{1,3})[, ]+(\d{1,3})[, ]+(\d{1,3})(?:[, /]+[\d.]+%?)? ?\)$/i.exec(s))) {
    const parts = [m[1], m[2], m[3]].map(Number)
    return parts.every((n) => n <= 255) ? { v: `#${parts.map((n) => n.toString(16).padStart(2, '0')).join('')}` } : null
  }
  const zh = /^([红绿蓝黄黑白灰橙紫粉青棕])色?$/.exec(s)
  if (zh) return { v: kChineseColors[zh[1]] }
  const named = /^[a-z]+$/i.test(s) ? opts.namedColor?.(s.toLowerCase()) : null
  return named ? parseColor(named, {}) : null
}

/**
 * Turns what was written into the value `<input type=kind>` accepts. `namedColor` resolves CSS
 * colour names ("rebeccapurple"): the page side asks the browser's own CSS parser rather than
 * shipping the 148 names in every page.
 */
export function safeNormalizeValue(
  kind: NativeKind,
  raw: string,
  opts: ValueOptions & { namedColor?: (name: string) => string | null } = {},
): SafeParseResult<NormalizedValue, ValueError> {
  const s = clean(raw)
  let r: Parsed<string> = null
  if (s === '' && kind !== 'color') return { success: true, data: { value: '' } }
  switch (kind) {
    case 'date': {
      const d = parseYmd(s, opts)
      r = d && { v: ymdText(d.v), note: d.note }
      break
    }
    case 'time': {
      const t = parseHms(s)
      r = t && { v: hmsText(t.v) }
      break
    }
    case 'datetime-local':
      r = parseDateTime(s, opts)
      break
    case 'month':
      r = parseMonth(s, opts)
      break
    case 'week':
      r = parseWeek(s, opts)
      break
    case 'number':
    case 'range':
      r = parseNumber(s, opts)
      break
    case 'color':
      r = parseColor(s, opts)
      break
  }
  if (!r) return { success: false, error: new ValueError(kind, raw, kExpected[kind]) }
  return { success: true, data: r.note ? { value: r.v, note: r.note } : { value: r.v } }
}

export function normalizeValue(
  kind: NativeKind,
  raw: string,
  opts: ValueOptions & { namedColor?: (name: string) => string | null } = {},
): NormalizedValue {
  const r = safeNormalizeValue(kind, raw, opts)
  if (!r.success) throw r.error
  return r.data
}

export interface Bounds {
  min?: string
  max?: string
  step?: string
}

/**
 * Why a normalized value falls outside the element's min, max or step, or null when it fits.
 * Values of one kind in their normal form compare as text (ISO dates, times, weeks, months); only
 * numbers compare as numbers. Step is checked for numbers and ranges, where the browser would
 * silently round a range instead of refusing it.
 */
export function outOfBounds(kind: NativeKind, value: string, { min, max, step }: Bounds): string | null {
  if (value === '' || kind === 'color') return null
  const numeric = kind === 'number' || kind === 'range'
  const below = (a: string, b: string) => (numeric ? Number(a) < Number(b) : a < b)
  const comparable = (b?: string) =>
    b !== undefined && b !== '' && (numeric ? Number.isFinite(Number(b)) : safeNormalizeValue(kind, b).success)
      ? numeric
        ? b
        : normalizeValue(kind, b).value
      : null
  const lo = comparable(min)
  const hi = comparable(max)
  if (lo !== null && below(value, lo)) return `${value} is below the smallest value this field allows (${lo})`
  if (hi !== null && below(hi, value)) return `${value} is above the largest value this field allows (${hi})`
  if (numeric && step && step !== 'any' && Number(step) > 0) {
    const base = lo !== null ? Number(lo) : 0
    const steps = (Number(value) - base) / Number(step)
    // Floating-point steps (0.1) leave a tiny remainder: allow one part in a million.
    if (Math.abs(steps - Math.round(steps)) > 1e-6)
      return `${value} is not a multiple of the step ${step}${lo !== null ? ` from ${lo}` : ''}`
  }
  return null
}
