/**
 * What an icon draws, read from the drawing rather than from its class names (docs/security.md,
 * "Judged as drawn"): a page can call a button `icon-archive` and draw a trash can in it. Two
 * drawings are read here, as data: an icon font's glyph (a private-use code point in `::before`
 * content) and an SVG path's shape (`kIconShapes`, the icon sets pages use). Each reads as the
 * emoji of its meaning, which the risk lexicon knows and the question shows: "🗑".
 *
 * Pure: the page side (src/dom/icon-drawn.ts) hands in the code points and path data it reads.
 */
import { kIconShapes } from './icon-shapes'

type IconMeaning = (typeof kIconShapes)[string]

/** How a drawn meaning is written into the drawn name: an emoji the risk lexicon reads (ICON_WORDS). */
export const kMeaningGlyph: Record<IconMeaning, string> = {
  destructive: '🗑',
  payment: '💳',
  permission: '🔓',
  data_send: '📤',
}

/**
 * Font Awesome's code points for the same pictures (its published cheatsheet; stable across
 * versions 4 to 6): an icon font draws a private-use character, and only its code point says which.
 */
const kFontGlyphs: Record<number, IconMeaning> = {
  0xf014: 'destructive', // trash-o (4)
  0xf1f8: 'destructive', // trash
  0xf2ed: 'destructive', // trash-can, trash-alt
  0xf829: 'destructive', // trash-arrow-up
  0xf82a: 'destructive', // trash-can-arrow-up
  0xf09d: 'payment', // credit-card
  0xf283: 'payment', // credit-card-alt
  0xf555: 'payment', // wallet
  0xf09c: 'permission', // unlock
  0xf13e: 'permission', // unlock-keyhole
  0xf1d8: 'data_send', // paper-plane
  0xf1d9: 'data_send', // paper-plane (regular, 4)
}

/** The private-use areas icon fonts draw from. */
const kPrivateUse = /[\uE000-\uF8FF]|[\u{F0000}-\u{FFFFD}]|[\u{100000}-\u{10FFFD}]/gu

/** `text` with each icon-font glyph Ava knows written as the emoji of its meaning. */
export function readGlyphs(text: string): string {
  return text.replace(kPrivateUse, (ch) => {
    const meaning = kFontGlyphs[ch.codePointAt(0)!]
    return meaning ? ` ${kMeaningGlyph[meaning]} ` : ch
  })
}

/**
 * A path's shape, whatever its spacing: FNV-1a over its `d` with separators folded, in hex. Not a
 * secret and not a defence against a page drawing a trash can of its own: it recognises the
 * common sets' pictures, which is what pages copy.
 */
export function shapeHash(d: string): string {
  const s = d
    .replace(/[\s,]+/g, ' ')
    .replace(/ ?([a-zA-Z]) ?/g, '$1')
    .replace(/ -/g, '-')
    .trim()
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h.toString(16).padStart(8, '0')
}

/** The emoji of what a set of paths draws, '' when no path is a known icon's. */
export function readShapes(paths: readonly string[]): string {
  const seen = new Set<string>()
  for (const d of paths) {
    const meaning = kIconShapes[shapeHash(d)]
    if (meaning) seen.add(kMeaningGlyph[meaning])
  }
  return [...seen].join(' ')
}
