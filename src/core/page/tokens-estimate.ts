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

/**
 * The kind of each ASCII code, read from a table: a page's first listing runs this loop in V8's
 * interpreter, where a function call per character cost more than the rest of the listing.
 */
const kAscii = new Uint8Array(128).fill(Kind.Other)
for (let c = 97; c <= 122; c++) kAscii[c] = Kind.Letter
for (let c = 65; c <= 90; c++) kAscii[c] = Kind.Letter
for (let c = 48; c <= 57; c++) kAscii[c] = Kind.Digit
kAscii[32] = kAscii[9] = Kind.Space
kAscii[10] = kAscii[13] = Kind.Newline

function kindOf(c: number): Kind {
  if (c < 128) return kAscii[c]
  // CJK ideographs, kana, hangul, full-width forms: about one token per character.
  if (
    (c >= 0x3000 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff00 && c <= 0xffef)
  )
    return Kind.Cjk
  return Kind.Other
}

export function estimateTokens(text: string): number {
  let tokens = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    const kind = c < 128 ? kAscii[c] : kindOf(c)
    if (kind === Kind.Letter || (c === 95 /* _ */ && i + 1 < n && kindOf(text.charCodeAt(i + 1)) === Kind.Letter)) {
      let j = i + 1
      for (
        let d = text.charCodeAt(j);
        j < n && (d < 128 ? kAscii[d] : kindOf(d)) === Kind.Letter;
        d = text.charCodeAt(++j)
      );
      tokens += Math.ceil((j - i) / kLettersPerToken)
      i = j
    } else if (kind === Kind.Digit) {
      let j = i + 1
      for (let d = text.charCodeAt(j); j < n && d >= 48 && d <= 57; d = text.charCodeAt(++j));
      tokens += Math.ceil((j - i) / kDigitsPerToken)
      i = j
    } else if (kind === Kind.Space) {
      // A single space joins the next word's token; runs of spaces cost one.
      let j = i + 1
      for (let d = text.charCodeAt(j); j < n && (d === 32 || d === 9); d = text.charCodeAt(++j));
      if (j - i > 1) tokens++
      i = j
    } else if (kind === Kind.Newline) {
      let j = i + 1
      for (let d = text.charCodeAt(j); j < n && (d === 10 || d === 13); d = text.charCodeAt(++j));
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
