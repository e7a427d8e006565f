/**
 * Numbers as a reader means them, whatever way a page or a model writes them: `3,400`, `3 400`,
 * `３４００`, `$3,400.00`, `三千四百`, `3.4千` and `0.34万` are one number. Used to tell whether a
 * number in an answer was read anywhere in the run (grounding.ts) and to read a number field out
 * of page text (src/core/extract/rows.ts). The sign is left out: a range `10-20` is two numbers,
 * not a ten and a minus twenty.
 */

export interface FoundNumber {
  /** As written in the text. */
  raw: string
  /** Where it starts in the text. */
  at: number
  value: number
}

const kDigit: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  壹: 1,
  二: 2,
  两: 2,
  貳: 2,
  贰: 2,
  三: 3,
  叁: 3,
  四: 4,
  肆: 4,
  五: 5,
  伍: 5,
  六: 6,
  陆: 6,
  七: 7,
  柒: 7,
  八: 8,
  捌: 8,
  九: 9,
  玖: 9,
}
const kUnit: Record<string, number> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 }
const kBig: Record<string, number> = { 万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8 }

const kHanChars = `${Object.keys(kDigit).join('')}${Object.keys(kUnit).join('')}${Object.keys(kBig).join('')}`
/**
 * Arabic digits with thousands separators (a comma, an apostrophe, a space — NFKC makes thin and
 * no-break spaces plain ones —
 * before exactly three digits) and a decimal point, optionally scaled by 万/亿/千 after them
 * (`3.4万`); or a run of Chinese numerals.
 */
const kNumberRe = new RegExp(
  `(\\d+(?:[,' \\u00a0\\u202f\\u2009](?=\\d{3}(?!\\d))\\d{3})*(?:\\.\\d+)?)([千万萬亿億]?)|([${kHanChars}]+)`,
  'gu',
)

/** Full-width digits and separators folded to ASCII (NFKC does that and no more to digits). */
function folded(text: string): string {
  return text.normalize('NFKC')
}

/** The value of a run of Chinese numerals (`三千四百`, `两万零五`, `一二三` read digit by digit), or undefined. */
export function chineseNumeral(s: string): number | undefined {
  const chars = [...s]
  if (!chars.length) return undefined
  // A bare string of digits (一二三, 二〇二四) is read digit by digit, as a year is.
  if (chars.length > 1 && chars.every((c) => c in kDigit)) return Number(chars.map((c) => kDigit[c]).join(''))
  // 亿 closes everything before it; 万 only what came after the last 亿 (一亿二千万 is 120,000,000).
  let total = 0
  let wan = 0
  let section = 0
  let digit: number | undefined
  for (const c of chars) {
    if (c in kDigit) digit = kDigit[c]
    else if (c in kUnit) {
      section += (digit ?? 1) * kUnit[c]
      digit = undefined
    } else if (kBig[c] === 1e4) {
      wan = (wan + section + (digit ?? 0)) * 1e4
      section = 0
      digit = undefined
    } else if (kBig[c] === 1e8) {
      total = (total + wan + section + (digit ?? 0)) * 1e8
      wan = 0
      section = 0
      digit = undefined
    } else return undefined
  }
  return total + wan + section + (digit ?? 0)
}

/**
 * Every number in a text with its value. A lone Chinese numeral character that is also a word
 * (`一` in `一个`, `万` alone) counts only when it is a digit run of two or more characters or
 * holds a unit (十, 百, 千, 万, 亿).
 */
export function numbersIn(text: string): FoundNumber[] {
  const t = folded(text)
  const out: FoundNumber[] = []
  for (const m of t.matchAll(kNumberRe)) {
    if (m[1] !== undefined) {
      const base = Number(m[1].replace(/[,' \u00a0\u202f\u2009]/g, ''))
      const scale = m[2] ? (kBig[m[2]] ?? kUnit[m[2]]) : 1
      if (Number.isFinite(base)) out.push({ raw: m[0], at: m.index, value: tidy(base * scale) })
    } else if (m[3]) {
      const run = m[3]
      if ([...run].length < 2 && !/[十拾]/.test(run)) continue
      const value = chineseNumeral(run)
      if (value !== undefined) out.push({ raw: run, at: m.index, value })
    }
  }
  return out
}

/** 3.4 × 10000 is 34000, not 33999.999999999996. */
function tidy(n: number): number {
  return Number(n.toPrecision(12))
}

/**
 * The one number a field's text holds, with what may stand around it: a currency sign or code,
 * a percent sign, a unit word. Undefined when it holds none or more than one (`4.5 out of 5`):
 * such a value is not taken by guessing, it is asked about (docs/extraction.md).
 */
export function soleNumber(text: string): number | undefined {
  const found = numbersIn(text)
  if (found.length !== 1) return undefined
  const before = folded(text).slice(0, found[0].at)
  return /-\s*$|\u2212\s*$/.test(before) ? -found[0].value : found[0].value
}
