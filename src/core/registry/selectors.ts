import { SelectorSyntaxError } from './errors'

// §6.6.3: a selector string says which engine finds it. The engines themselves run in the page
// (executor issue); core only turns the text into data the page side can act on.

export type ParsedSelector =
  | { kind: 'css'; value: string; raw: string }
  | { kind: 'xpath'; value: string; raw: string }
  | { kind: 'role'; role: string; name?: string; exact: boolean; states?: RoleState[]; raw: string }
  | { kind: 'text'; text: string; exact: boolean; raw: string }
  | { kind: 'testid'; value: string; raw: string }

export type SelectorKind = ParsedSelector['kind']

/** ARIA states a role selector may filter on, as in `role:checkbox[checked]` (executor issue). */
export const kRoleStates = ['checked', 'selected', 'expanded', 'disabled', 'pressed'] as const
export interface RoleState {
  state: (typeof kRoleStates)[number]
  value: boolean | 'mixed'
}

export const kSelectorPrefixes: readonly SelectorKind[] = ['css', 'xpath', 'role', 'text', 'testid']

function fail(raw: string, why: string): never {
  throw new SelectorSyntaxError(`Invalid selector "${raw}": ${why}. Prefixes: ${kSelectorPrefixes.map((p) => `${p}:`).join(' ')} (none means css).`, raw)
}

function unquote(text: string): { value: string; quoted: boolean } {
  const t = text.trim()
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return { value: t.slice(1, -1), quoted: true }
  return { value: t, quoted: false }
}

/** Brackets, parentheses and quotes must balance; that catches most typos without a DOM to ask. */
function checkBalanced(raw: string, body: string): void {
  const closers: Record<string, string> = { '(': ')', '[': ']' }
  const stack: string[] = []
  let quote = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (quote) {
      if (c === '\\') i++
      else if (c === quote) quote = ''
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
    const out: Extract<ParsedSelector, { kind: 'role' }> = { kind: 'role', role: head![1], exact: false, raw }
    const states: RoleState[] = []
    const attr = /\[\s*([a-z]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\]\s]+)\s*(i)?\s*)?\]\s*/y
    attr.lastIndex = head![0].length
    while (attr.lastIndex < body.length) {
      const m = attr.exec(body)
      if (!m) fail(raw, `write role:<role> followed by [name="…"] or state filters like [${kRoleStates.join('], [')}]`)
      const [, key, value, flag] = m!
      if (key === 'name' && value !== undefined) {
        out.name = unquote(value).value
        out.exact = flag !== 'i'
      } else if ((kRoleStates as readonly string[]).includes(key) && flag === undefined) {
        const v = value === undefined ? 'true' : unquote(value).value
        if (v !== 'true' && v !== 'false' && !(v === 'mixed' && (key === 'checked' || key === 'pressed'))) fail(raw, `[${key}] takes true, false${key === 'checked' || key === 'pressed' ? ' or mixed' : ''}`)
        states.push({ state: key as RoleState['state'], value: v === 'mixed' ? 'mixed' : v === 'true' })
      } else fail(raw, `unknown role filter [${key}]; allowed: name, ${kRoleStates.join(', ')}`)
    }
    if (states.length) out.states = states
    return out
  },
  text: (raw, body) => {
    // text:提交 matches a substring, text:"提交" the whole trimmed text (Playwright's convention).
    const { value, quoted } = unquote(body)
    if (value === '') fail(raw, 'the text is empty')
    return { kind: 'text', text: value, exact: quoted, raw }
  },
  testid: (raw, body) => {
    const { value } = unquote(body)
    if (!/^[\w.:-]+$/u.test(value)) fail(raw, 'a test id is letters, digits and - _ . :')
    return { kind: 'testid', value, raw }
  },
}

/** Parses a prefixed selector (§6.6.3); no prefix means CSS, a leading `//` means XPath. */
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

export function safeParseSelector(raw: string): { success: true; data: ParsedSelector } | { success: false; error: SelectorSyntaxError } {
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

// ---------------------------------------------------------------------------------------------
// Winner cache (§6.6.4)

/** §6.6.4 "最大缓存条目: 1000". */
export const kSelectorCacheSize = 1000

/**
 * LRU of the candidate that last matched, keyed by `namespace:action:step:template` (§6.6.4).
 * Cleared on navigation and on reload, because another page may need another candidate.
 */
export class SelectorCache {
  private readonly entries = new Map<string, string>()

  constructor(readonly capacity: number = kSelectorCacheSize) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: string, value: string): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string)
  }

  /** Without a scope everything goes; with one, only keys starting with it (e.g. a namespace). */
  clear(scope?: string): void {
    if (scope === undefined) {
      this.entries.clear()
      return
    }
    for (const key of [...this.entries.keys()]) if (key.startsWith(scope)) this.entries.delete(key)
  }

  get size(): number {
    return this.entries.size
  }
}

/** How long to wait between two looks for an element that is not there yet. */
export const kSelectorPollMs = 100

export interface ResolveSelectorOptions {
  /** Counts the elements a selector matches right now (BrowserPort.query). */
  query: (selector: ParsedSelector, signal: AbortSignal) => Promise<number>
  cache?: SelectorCache
  cacheKey?: string
  signal: AbortSignal
  /** Keep looking until this many ms have passed; 0 looks once. */
  timeoutMs: number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolvePromise()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Primary, then each fallback, in order (§6.6.2), until one matches; the cached winner is tried
 * first. Returns `null` when nothing matched before the time ran out.
 */
export async function resolveCandidates(candidates: readonly string[], options: ResolveSelectorOptions): Promise<{ selector: ParsedSelector; index: number } | null> {
  const parsed = candidates.map(parseSelector)
  const cachedRaw = options.cacheKey ? options.cache?.get(options.cacheKey) : undefined
  const order = parsed.map((_, i) => i)
  const cachedIndex = cachedRaw === undefined ? -1 : candidates.indexOf(cachedRaw)
  if (cachedIndex > 0) order.unshift(...order.splice(cachedIndex, 1))
  const sleep = options.sleep ?? abortableSleep
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    for (const i of order) {
      if ((await options.query(parsed[i], options.signal)) > 0) {
        if (options.cacheKey) options.cache?.set(options.cacheKey, candidates[i])
        return { selector: parsed[i], index: i }
      }
    }
    const left = deadline - Date.now()
    if (left <= 0) return null
    await sleep(Math.min(kSelectorPollMs, left), options.signal)
  }
}
