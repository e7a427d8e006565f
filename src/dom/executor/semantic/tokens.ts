/**
 * Words to tokens, as the semantic rung compares them: abbreviations pages use (Qty), stems, Han
 * text without spaces, and a bounded cache of token sets (row texts repeat for every control in a
 * row).
 */
import { tokenize } from '../../../core/page/descriptor'
import { FieldLabels, formLabel, textAround, widgetPlaceholder } from '../../words'

export const kHan = /\p{Script=Han}/u

export const kHanSpace = /(\p{Script=Han})\s+(?=\p{Script=Han})/gu

export const kNoTokens: ReadonlySet<string> = new Set()

export function tokensOf(text: string): Set<string> {
  let set = tokenCache.get(text)
  if (!set) {
    set = withAbbreviations(tokenize(text))
    tokenCache.set(text, set)
  }
  return set
}

/** Words pages shorten in labels and column headers ("Qty"): the word a person says for each. */
export const kAbbreviations: Record<string, string> = {
  qty: 'quantity',
  amt: 'amount',
  desc: 'description',
  addr: 'address',
  tel: 'phone',
  num: 'number',
  no: 'number',
  pwd: 'password',
  msg: 'message',
  img: 'image',
  pic: 'picture',
  dob: 'birthday',
  fname: 'first',
  lname: 'last',
  dept: 'department',
  org: 'organization',
}

/** A text's tokens with the full word of each abbreviation among them. */
export function withAbbreviations(tokens: string[]): Set<string> {
  const set = new Set(tokens)
  for (const t of tokens) if (kAbbreviations[t]) set.add(kAbbreviations[t])
  return set
}

/** Tokens of the text around an element: row, form item label, previous text (weight kWeightNear). */
export function nearTokens(el: Element, rowCache: Map<Element, string>): Set<string> {
  return tokensOf(textAround(el, rowCache))
}

/** Tokens of a field's label[for] text and widget placeholder (its own name, weight kWeightOwn). */
export function fieldLabelTokens(el: Element, labels: FieldLabels): Set<string> {
  return tokensOf(`${labels.textFor(el)} ${widgetPlaceholder(el)} ${formLabel(el)}`.toLowerCase())
}

/** Token sets of texts seen in this page (row texts repeat for every control in the row). */
export const tokenCache = new Map<string, Set<string>>()

/** Bounded so a long session on a changing page does not grow it without end. */
export const kTokenCacheMax = 5_000

export const kSectionNumber = /^(?:\d+\.)+\d*\s+/

/**
 * A word with its common English ending cut ("invitation" and "invite" → "invit", "emails" →
 * "email"), for a partial match between forms of one word; Chinese and short words unchanged.
 */
export function stem(w: string): string {
  if (w.length < 5 || kHan.test(w)) return w
  const cut = w.replace(/(?:ations?|ings?|ed|es|s|e)$/, '')
  return cut.length >= 4 ? cut : w
}
