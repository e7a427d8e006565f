/**
 * Text as the risk check compares it: a page can write "Delete" in many ways that
 * look the same to a person and differ to a regular expression. Both the page's text and the
 * lexicon go through `foldText`, so the comparison is between what a reader would see.
 */

/**
 * Characters that render as nothing or only steer direction: zero-width space, joiners and
 * non-joiner, word joiner and invisible operators, bidi embeddings/overrides/isolates, the
 * BOM, the soft hyphen, the combining grapheme joiner, the Mongolian vowel separator, Hangul
 * fillers and variation selectors. Removed before anything else, so "Dele\u200Bte" is "Delete".
 */
// Each character is meant alone: combining ones are removed, not combined.
const kInvisible =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDD00-\uDDEF]/g

/** Combining marks, dropped after decomposition: "Löschen" and "Loschen" read as one word. */
const kMarks = /\p{M}+/gu

/**
 * Look-alikes of Latin letters from Cyrillic and Greek (after lower-casing), folded to the Latin
 * letter. A small table, not Unicode's whole confusables list: these are the letters that make
 * a Latin word look unchanged. Russian words in the lexicon go through the same fold, so
 * "удалить" still matches itself and a Cyrillic word spelled with a Latin "a" matches too.
 */
const kConfusables: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ү: 'y',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
  ϲ: 'c',
  ς: 'c',
  ϳ: 'j', // ϲ is ς after NFKC
  // Latin letters that stand in for others
  ı: 'i',
  ſ: 's',
  ℓ: 'l',
}
const kConfusableRe = new RegExp(`[${Object.keys(kConfusables).join('')}]`, 'g')

/**
 * One character as a reader sees it, for code that must keep where each folded letter came from
 * (the secret redactor, the delimiter neutraliser): '' for an invisible one, else NFKC, lower
 * case, combining marks dropped and look-alikes folded, as `foldText` does to a whole text.
 * Punctuation and spacing are left for the caller to weigh.
 */
export function foldChar(ch: string): string {
  const known = kFolded.get(ch)
  if (known !== undefined) return known
  const f = ch.replace(kInvisible, '') === '' ? '' : foldOne(ch)
  // A page's text repeats few characters: remembered, a long listing costs a lookup per character.
  if (kFolded.size >= kMaxFolded) kFolded.clear()
  kFolded.set(ch, f)
  return f
}

const kFolded = new Map<string, string>()
const kLetters = new Map<string, string>()

/** `foldChar` keeping only letters and digits: what the secret redactor and the delimiter neutraliser compare. */
export function foldLetters(ch: string): string {
  const known = kLetters.get(ch)
  if (known !== undefined) return known
  let f = ''
  for (const c of foldChar(ch)) if (/[\p{L}\p{N}]/u.test(c)) f += c
  if (kLetters.size >= kMaxFolded) kLetters.clear()
  kLetters.set(ch, f)
  return f
}
const kMaxFolded = 8_192

function foldOne(ch: string): string {
  return ch
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKD')
    .replace(kMarks, '')
    .normalize('NFC')
    .replace(kConfusableRe, (c) => kConfusables[c])
}

/**
 * The canonical form: invisible characters removed, NFKC (full-width and compatibility forms
 * become plain ones), lower case, combining marks dropped, confusables folded, punctuation and
 * white space collapsed to one space ("can't" is "can t", "5,000" is "5 000").
 */
export function foldText(text: string): string {
  const plain = text.replace(kInvisible, '').normalize('NFKC').toLowerCase()
  return plain
    .normalize('NFKD')
    .replace(kMarks, '')
    .normalize('NFC')
    .replace(kConfusableRe, (c) => kConfusables[c])
    .replace(/[\p{P}\s]+/gu, ' ')
    .trim()
}

/**
 * Scripts written without spaces between words (Han, kana, Hangul): a lexicon word of these is
 * found anywhere in the text; words of other scripts must stand alone (so "pay" is not "paypal").
 */
export const kUnspaced = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/** Whether the text holds any letter or digit at all (an icon-only button's name holds none). */
export function hasWords(folded: string): boolean {
  return /[\p{L}\p{N}]/u.test(folded)
}
