/**
 * A saved secret in another form (docs/security.md, "Secrets are bound to their sites"). A page
 * that got a one-time code can echo it back spaced out ("V A U L T - 7 Q 3 X"), with its case
 * changed, reversed, or half of it; a model that reads any of these can rebuild the code. So a
 * vault value is looked for in its *shape*: its letters and digits in order, case folded, every
 * space and punctuation mark between them ignored, forwards and backwards, and any long enough
 * run of them.
 *
 * Pure data → data: used on page text before it reaches the model, the history, a log or the
 * cache (run.ts `unechoed`, `redactText`), on a step's value to bind a plainly written vault value
 * to its sites (`vaultNamesIn`, run.ts `prepare`), and by the page channel (`secretSitesOf`).
 */

/** Values shorter than this are matched only whole: one or two characters are inside every word. */
export const kMinWholeChars = 3

/**
 * A *part* of a value counts when it is this many letters or digits long and holds a digit, or
 * when it is `kMinLetterPartChars` long. Six digits is the whole space of a usual one-time code
 * and more than half of a card's number, so a page that echoes six of them has given most of it
 * away; a run of six letters alone, though, is a word ("passwo" of "password1" is inside the
 * "Password" label of every login form), so a letters-only part must be long enough not to be one.
 */
export const kMinPartChars = 6
export const kMinLetterPartChars = 12

export const kRedacted = '[redacted]'

/** The letters and digits of `text`, case folded, with where each came from in `text`. */
interface Folded {
  chars: string
  at: number[]
}

function fold(text: string): Folded {
  let chars = ''
  const at: number[] = []
  let i = 0
  for (const ch of text) {
    // NFKC folds full-width and compatibility forms ("７" → "7") before the case is dropped.
    const f = ch.normalize('NFKC').toLowerCase()
    for (const c of f) {
      if (/[\p{L}\p{N}]/u.test(c)) {
        chars += c
        at.push(i)
      }
    }
    i += ch.length
  }
  return { chars, at }
}

function reverse(s: string): string {
  return [...s].reverse().join('')
}

/** The shapes of one value to look for: whole forwards and backwards, then its long enough parts. */
function shapesOf(value: string): string[] {
  const f = fold(value).chars
  if (f.length < kMinWholeChars) return []
  const out = new Set([f, reverse(f)])
  for (const len of [kMinPartChars, kMinLetterPartChars]) {
    if (f.length <= len) continue
    for (let i = 0; i + len <= f.length; i++) {
      const part = f.slice(i, i + len)
      if (len === kMinPartChars && !/\p{N}/u.test(part)) continue
      out.add(part)
      out.add(reverse(part))
    }
  }
  return [...out]
}

/** Spans of `text` (start, end) where a shape of one of `values` appears. */
function spansOf(text: string, values: readonly string[]): [number, number][] {
  const folded = fold(text)
  const spans: [number, number][] = []
  for (const v of values) {
    // The value as written, too: one of punctuation alone has no letters or digits to fold.
    if (v.length >= kMinWholeChars) for (let i = text.indexOf(v); i >= 0; i = text.indexOf(v, i + 1)) spans.push([i, i + v.length])
    for (const shape of shapesOf(v)) {
      for (let i = folded.chars.indexOf(shape); i >= 0; i = folded.chars.indexOf(shape, i + 1)) {
        const last = i + [...shape].length - 1
        const endAt = folded.at[last]
        // The end is after the whole source character (a surrogate pair is two code units).
        spans.push([folded.at[i], endAt + (text.codePointAt(endAt)! > 0xffff ? 2 : 1)])
      }
    }
  }
  return spans
}

/** Overlapping spans merged, in order. */
function merge(spans: [number, number][]): [number, number][] {
  const out: [number, number][] = []
  for (const s of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1]
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1])
    else out.push([...s])
  }
  return out
}

/** `text` with every shape of every value in `values` replaced by `[redacted]`. */
export function redactShapes(text: string, values: readonly string[]): string {
  if (!text || !values.length) return text
  const spans = merge(spansOf(text, values))
  if (!spans.length) return text
  let out = ''
  let from = 0
  for (const [a, b] of spans) {
    out += text.slice(from, a) + kRedacted
    from = b
  }
  return out + text.slice(from)
}

/** Whether `text` holds a shape of `value`. */
export function holdsShape(text: string, value: string): boolean {
  return spansOf(text, [value]).length > 0
}

/**
 * The names of the vault entries whose value `text` holds in any shape: a value the model wrote
 * out (or rebuilt from an echo) is that secret, bound to its sites, never free text.
 */
export function vaultNamesIn(text: string, vault: Readonly<Record<string, string>>): string[] {
  if (!text) return []
  return Object.entries(vault)
    .filter(([, v]) => holdsShape(text, v))
    .map(([n]) => n)
}

/** `${secret:NAME}` references are the planner's way to name a secret; what is around them is free text. */
const kSecretRefText = /\$\{secret:[A-Za-z0-9_.-]+\}/g

/**
 * The vault entries a step writes out in plain text (its value, or its address): the model may
 * have rebuilt a code from a page's echo and typed it "as text" to another site. Such a value is
 * the secret it holds, with the secret's sites and question; in an address it is refused.
 */
export function plainSecrets(ins: { params: { value?: string; url?: string } }, vault: Readonly<Record<string, string>>): { value: string[]; url: string[] } {
  const free = (s: string | undefined) => (s ?? '').replace(kSecretRefText, ' ')
  return { value: vaultNamesIn(free(ins.params.value), vault), url: vaultNamesIn(free(ins.params.url), vault) }
}
