/**
 * A saved secret in another form (docs/security.md, "Secrets are bound to their sites"). A page
 * that got a one-time code can echo it back spaced out ("V A U L T - 7 Q 3 X"), with its case
 * changed, reversed, or half of it; a model that reads any of these can rebuild the code. So a
 * vault value is looked for in its *shape*: its letters and digits in order, case, width, accents
 * and look-alike letters folded, every space, invisible character and punctuation mark between
 * them ignored, forwards and backwards, and any long enough
 * run of them.
 *
 * Pure data → data: used on page text before it reaches the model, the history, a log or the
 * cache (context.ts `unechoed`, `redactText`), on a step's value to bind a plainly written vault value
 * to its sites (`vaultNamesIn`, step.ts `prepare`), and by the page channel (`secretSitesOf`).
 */
import { foldLetters, foldText } from '../risk/text'

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
    // As a reader sees it (core/risk/text.ts): full-width and compatibility forms ("７" → "7"),
    // case, accents, and Cyrillic/Greek look-alikes ("рasswоrd" with a Cyrillic р and о) folded;
    // zero-width and bidi characters are nothing.
    const f = foldLetters(ch)
    chars += f
    // One entry per UTF-16 unit of `chars`, so an index `indexOf` gives is an index here too.
    for (let u = 0; u < f.length; u++) at.push(i)
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

/** Spans of `text` (start, end, which value) where a shape of one of `values` appears. */
function spansOf(text: string, values: readonly string[]): [number, number, number][] {
  // The whole text folded at once says whether any shape can be there; only then is it folded
  // character by character, keeping where each letter came from.
  const quick = foldText(text).replace(/[^\p{L}\p{N}]/gu, '')
  const shapes = values.map((v) => shapesOf(v))
  if (
    !values.some((v, k) => (v.length >= kMinWholeChars && text.includes(v)) || shapes[k].some((s) => quick.includes(s)))
  )
    return []
  const folded = fold(text)
  const spans: [number, number, number][] = []
  for (const [k, v] of values.entries()) {
    // The value as written, too: one of punctuation alone has no letters or digits to fold.
    if (v.length >= kMinWholeChars)
      for (let i = text.indexOf(v); i >= 0; i = text.indexOf(v, i + 1)) spans.push([i, i + v.length, k])
    for (const shape of shapes[k]) {
      for (let i = folded.chars.indexOf(shape); i >= 0; i = folded.chars.indexOf(shape, i + 1)) {
        const last = i + shape.length - 1
        const endAt = folded.at[last]
        // The end is after the whole source character (a surrogate pair is two code units).
        spans.push([folded.at[i], endAt + (text.codePointAt(endAt)! > 0xffff ? 2 : 1), k])
      }
    }
  }
  return spans
}

/** Overlapping spans merged, in order; a merged span keeps the value of its first part. */
function merge(spans: [number, number, number][]): [number, number, number][] {
  const out: [number, number, number][] = []
  for (const s of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1]
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1])
    else out.push([...s])
  }
  return out
}

/**
 * `text` with every shape of every value in `values` replaced by `mark(i)` (i: which value), or
 * by `[redacted]`. The one redactor of every way out (docs/security.md, "One redactor"): the
 * listing, step results, `collect` items, answers, the run record and MCP results.
 */
export function redactShapes(
  text: string,
  values: readonly string[],
  mark: (i: number) => string = () => kRedacted,
): string {
  if (!text || !values.length) return text
  const spans = merge(spansOf(text, values))
  if (!spans.length) return text
  let out = ''
  let from = 0
  for (const [a, b, k] of spans) {
    out += text.slice(from, a) + mark(k)
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
export function plainSecrets(
  ins: { params: { value?: string; url?: string } },
  vault: Readonly<Record<string, string>>,
): { value: string[]; url: string[] } {
  const free = (s: string | undefined) => (s ?? '').replace(kSecretRefText, ' ')
  return { value: vaultNamesIn(free(ins.params.value), vault), url: vaultNamesIn(free(ins.params.url), vault) }
}

/**
 * Every string anywhere in a JSON-like value redacted (`redactShapes`): what goes out whole to a
 * client (an MCP reply holding a listing, an outcome's detail, an agent's report) is cut as a
 * prompt is. Keys are kept; only values are page text.
 */
export function redactDeep<T>(value: T, values: readonly string[]): T {
  if (!values.length) return value
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactShapes(v, values)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}
