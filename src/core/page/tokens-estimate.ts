/**
 * A cheap, conservative token estimate for the page side, where bundling a real tokenizer (and
 * its megabytes of ranks) is out of the question. It follows how BPE tokenizers of the GPT-4o
 * family split text: letter runs (with a leading space or underscore) in chunks of a few
 * characters, digits in threes, punctuation mostly alone, CJK about a token per character.
 * test/dom/observe/tokens.test.ts calibrates it against o200k_base so that it does not
 * under-count realistic listings; bench/lib/tokens.ts gives the exact count where it is needed.
 */

/** Letters per token in a Latin word; words in listings are short and often split. */
const kLettersPerToken = 4
/** o200k splits digit runs into groups of at most three. */
const kDigitsPerToken = 3

const enum Kind {
  Letter,
  Digit,
  Space,
  Newline,
  Cjk,
  Other,
}

function kindOf(c: number): Kind {
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) return Kind.Letter
  if (c >= 48 && c <= 57) return Kind.Digit
  if (c === 32 || c === 9) return Kind.Space
  if (c === 10 || c === 13) return Kind.Newline
  // CJK ideographs, kana, hangul, full-width forms: about one token per character.
  if ((c >= 0x3000 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef)) return Kind.Cjk
  return Kind.Other
}

export function estimateTokens(text: string): number {
  let tokens = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    const kind = kindOf(c)
    if (kind === Kind.Letter || (c === 95 /* _ */ && i + 1 < n && kindOf(text.charCodeAt(i + 1)) === Kind.Letter)) {
      let j = i + 1
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Letter) j++
      tokens += Math.ceil((j - i) / kLettersPerToken)
      i = j
    } else if (kind === Kind.Digit) {
      let j = i + 1
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Digit) j++
      tokens += Math.ceil((j - i) / kDigitsPerToken)
      i = j
    } else if (kind === Kind.Space) {
      // A single space joins the next word's token; runs of spaces cost one.
      let j = i + 1
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Space) j++
      if (j - i > 1) tokens++
      i = j
    } else if (kind === Kind.Newline) {
      let j = i + 1
      while (j < n && kindOf(text.charCodeAt(j)) === Kind.Newline) j++
      tokens++
      i = j
    } else if (kind === Kind.Cjk) {
      tokens++
      i++
    } else {
      // Punctuation and other scripts; a surrogate pair (emoji) is two units, two tokens.
      tokens++
      i++
    }
  }
  return tokens
}
