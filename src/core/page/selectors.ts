/**
 * The selector grammar of `css:`, `xpath:`, `role:`, `text:`, `testid:`, no
 * prefix meaning CSS and a leading `//` XPath. Text becomes a `ParsedSelector` here, once: packs
 * are validated with it, and the page's locators (src/dom/locators) run the parsed form, so a
 * selector is read one way wherever it is written.
 */
import { RegistryError } from '../registry/errors'
import type { SafeParseResult } from '../result'

export type ParsedSelector =
  | { kind: 'css'; value: string; raw: string }
  | { kind: 'xpath'; value: string; raw: string }
  | { kind: 'role'; role: string; name?: string; exact: boolean; states?: RoleState[]; raw: string }
  | { kind: 'text'; text: string; exact: boolean; raw: string }
  | { kind: 'testid'; value: string; raw: string }

export type SelectorKind = ParsedSelector['kind']
export type SelectorOf<K extends SelectorKind> = Extract<ParsedSelector, { kind: K }>

/** ARIA states a role selector may filter on, as in `role:checkbox[checked]` (executor issue). */
export const kRoleStates = ['checked', 'selected', 'expanded', 'disabled', 'pressed'] as const
export interface RoleState {
  state: (typeof kRoleStates)[number]
  value: boolean | 'mixed'
}

export const kSelectorPrefixes: readonly SelectorKind[] = ['css', 'xpath', 'role', 'text', 'testid']

/**
 * A selector that cannot be read, or (from the page) one the browser's CSS or XPath parser
 * refuses. A RegistryError so that a pack step failing on one reports its code like any other.
 */
export class SelectorSyntaxError extends RegistryError {
  readonly input: string
  constructor(message: string, input: string) {
    super('SELECTOR_INVALID', message)
    this.input = input
  }
}

function fail(raw: string, why: string): never {
  throw new SelectorSyntaxError(
    `Invalid selector "${raw}": ${why}. Prefixes: ${kSelectorPrefixes.map((p) => `${p}:`).join(' ')} (none means css).`,
    raw,
  )
}

/** A quoted value loses its quotes and backslash escapes (`"say \"hi\""` is `say "hi"`). */
function unquote(text: string): { value: string; quoted: boolean } {
  const t = text.trim()
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0])
    return { value: t.slice(1, -1).replace(/\\(.)/g, '$1'), quoted: true }
  return { value: t, quoted: false }
}

/** Brackets, parentheses and quotes must balance; that catches most typos without a DOM to ask. */
function checkBalanced(raw: string, body: string): void {
  const closers: Record<string, string> = { '(': ')', '[': ']' }
  const stack: string[] = []
  let quote = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    // An escaped character is never syntax: CSS writes an id `a(b` as `#a\(b`.
    if (c === '\\') {
      i++
      continue
    }
    if (quote) {
      if (c === quote) quote = ''
      continue
    }
    if (c === '"' || c === "'") quote = c
    else if (c in closers) stack.push(closers[c])
    else if (c === ')' || c === ']') {
      if (stack.pop() !== c) fail(raw, `unbalanced "${c}" at column ${i + 1}`)
    }
  }
  if (quote) fail(raw, `unterminated ${quote} quote`)
  if (stack.length) fail(raw, `missing "${stack[stack.length - 1]}"`)
}

/** One `[key]`, `[key=value]` or `[name="…" i]` filter of a role selector (`s` asks for exact, as in CSS). */
const kRoleFilter = /\[\s*([a-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\]\s]+)\s*([is])?\s*)?\]\s*/y

type Engine = (raw: string, body: string) => ParsedSelector

// Descriptors rather than a switch (STYLE.md): one small parser per prefix.
const kEngines: Record<SelectorKind, Engine> = {
  css: (raw, body) => {
    checkBalanced(raw, body)
    return { kind: 'css', value: body, raw }
  },
  xpath: (raw, body) => {
    if (!/^(\(|\/|\.)/.test(body)) fail(raw, 'an XPath starts with "/", "//", "(" or "."')
    checkBalanced(raw, body)
    return { kind: 'xpath', value: body, raw }
  },
  role: (raw, body) => {
    // role:button | role:button[name="Submit"] | [name="Submit" i] (substring) | state filters
    // such as [checked], [expanded=false], [checked=mixed], in any order after the role.
    const head = /^([a-z]+)\s*/.exec(body)
    if (!head) fail(raw, 'write role:<role> or role:<role>[name="<accessible name>"]')
    const out: SelectorOf<'role'> = { kind: 'role', role: head[1], exact: false, raw }
    const states: RoleState[] = []
    kRoleFilter.lastIndex = head[0].length
    while (kRoleFilter.lastIndex < body.length) {
      const m = kRoleFilter.exec(body)
      if (!m) fail(raw, `write role:<role> followed by [name="…"] or state filters like [${kRoleStates.join('], [')}]`)
      const [, key, value, flag] = m
      if (key === 'name') {
        if (value === undefined) fail(raw, '[name] needs a value, as in [name="Save"]')
        out.name = unquote(value).value
        out.exact = flag !== 'i'
      } else if ((kRoleStates as readonly string[]).includes(key) && flag === undefined) {
        const v = value === undefined ? 'true' : unquote(value).value
        // Only aria-checked and aria-pressed have a third, mixed value (WAI-ARIA 1.2).
        if (v !== 'true' && v !== 'false' && !(v === 'mixed' && (key === 'checked' || key === 'pressed')))
          fail(raw, `[${key}] takes true, false${key === 'checked' || key === 'pressed' ? ' or mixed' : ''}`)
        states.push({ state: key as RoleState['state'], value: v === 'mixed' ? 'mixed' : v === 'true' })
      } else fail(raw, `unknown role filter [${key}]; allowed: name, ${kRoleStates.join(', ')}`)
    }
    if (states.length) out.states = states
    return out
  },
  text: (raw, body) => {
    // text:提交 matches a substring, text:"提交" the whole trimmed text (Playwright's convention).
    const { value, quoted } = unquote(body)
    if (value.trim() === '') fail(raw, 'the text is empty')
    return { kind: 'text', text: value, exact: quoted, raw }
  },
  testid: (raw, body) => {
    const { value } = unquote(body)
    if (!/^[\w.:-]+$/u.test(value)) fail(raw, 'a test id is letters, digits and - _ . :')
    return { kind: 'testid', value, raw }
  },
}

/** Parses a prefixed selector; no prefix means CSS, a leading `//` means XPath. */
export function parseSelector(raw: string): ParsedSelector {
  const text = raw.trim()
  if (text === '') fail(raw, 'it is empty')
  const match = /^([a-z]+):/.exec(text)
  if (match && match[1] in kEngines) {
    const body = text.slice(match[0].length).trim()
    if (body === '') fail(raw, `nothing follows "${match[1]}:"`)
    return kEngines[match[1] as SelectorKind](raw, body)
  }
  if (text.startsWith('//') || text.startsWith('(//')) return kEngines.xpath(raw, text)
  return kEngines.css(raw, text)
}

export function safeParseSelector(raw: string): SafeParseResult<ParsedSelector, SelectorSyntaxError> {
  try {
    return { success: true, data: parseSelector(raw) }
  } catch (error) {
    if (error instanceof SelectorSyntaxError) return { success: false, error }
    throw error
  }
}

/** Printable form, the same text a pack would write. */
export function formatSelector(selector: ParsedSelector): string {
  return selector.raw.trim()
}
