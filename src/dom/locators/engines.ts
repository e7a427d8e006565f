/**
 * The selector engines of §6.6.3 (seed 000): `css:`, `xpath:`, `role:`, `text:`, `testid:`.
 * Each is a small `{ name, queryAll(root, body) }` made by a factory, after Playwright's
 * selector engines (STYLE.md); `index.ts` runs them across shadow roots and frames.
 */
import { accessibleName, kRoleCarriers, kStateNames, normalize, roleOf, stateOf, type StateName } from './aria'
import type { SearchRoot } from './roots'

export interface LocatorEngine {
  name: string
  /** Elements of one search root (no piercing here) matching `body`, in document order. */
  queryAll(root: SearchRoot, body: string): Element[]
  /** Throws LocatorSyntaxError when `body` can never match anything; cheap, no DOM. */
  check?(body: string): void
}

/** Errors are data (STYLE.md): the code, the offending selector, and what would have been valid. */
export class LocatorSyntaxError extends Error {
  override name = 'LocatorSyntaxError'
  readonly code = 'INVALID_SELECTOR'
  constructor(
    message: string,
    readonly input: string,
  ) {
    super(message)
  }
}

const kSkipText = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link'])

export function createCssEngine(): LocatorEngine {
  return {
    name: 'css',
    queryAll: (root, body) => {
      try {
        return [...root.querySelectorAll(body)]
      } catch {
        throw new LocatorSyntaxError(`"${body}" is not a valid CSS selector.`, body)
      }
    },
  }
}

export function createXPathEngine(): LocatorEngine {
  return {
    name: 'xpath',
    check: (body) => {
      if (!/^(\(|\/|\.)/.test(body)) throw new LocatorSyntaxError(`"${body}" is not an XPath: it starts with "/", "//", "(" or ".".`, body)
    },
    queryAll: (root, body) => {
      // XPath has no notion of shadow trees (as in Playwright): documents only, frames included.
      if (root.nodeType !== 9) return []
      const doc = root as Document
      let snapshot: XPathResult
      try {
        snapshot = doc.evaluate(body, root, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null)
      } catch {
        throw new LocatorSyntaxError(`"${body}" is not a valid XPath expression.`, body)
      }
      const out: Element[] = []
      for (let i = 0; i < snapshot.snapshotLength; i++) {
        const n = snapshot.snapshotItem(i)
        if (n && n.nodeType === 1) out.push(n as Element)
      }
      return out
    },
  }
}

export interface RoleQuery {
  role: string
  name?: string
  /** Exact, case-sensitive name; otherwise case-insensitive substring (seed 000 §6.6.3, core parser's `i`). */
  exact: boolean
  states: Array<{ state: StateName; value: boolean | 'mixed' }>
}

const kAttr = /\[\s*([a-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\]\s]+)\s*)?(i|s)?\s*\]/gy

function unquote(v: string): string {
  return (v.startsWith('"') || v.startsWith("'")) && v.endsWith(v[0]) ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v
}

/**
 * `button`, `button[name="Submit"]`, `button[name="sub" i]`, `checkbox[checked]`,
 * `tab[selected=false]`, `button[name="OK"][disabled]`: the core parser's form plus state filters.
 */
export function parseRoleBody(body: string): RoleQuery {
  const head = /^\s*([a-z]+)\s*/.exec(body)
  if (!head) throw new LocatorSyntaxError(`"${body}": write role:<role>, role:<role>[name="<accessible name>"] or add a state such as [checked].`, body)
  const q: RoleQuery = { role: head[1], exact: false, states: [] }
  kAttr.lastIndex = head[0].length
  let at = head[0].length
  for (let m = kAttr.exec(body); m; m = kAttr.exec(body)) {
    at = kAttr.lastIndex
    const [, key, rawValue, flag] = m
    if (key === 'name') {
      if (rawValue === undefined) throw new LocatorSyntaxError(`"${body}": [name] needs a value, as in [name="Save"].`, body)
      q.name = unquote(rawValue)
      q.exact = flag !== 'i'
    } else if ((kStateNames as readonly string[]).includes(key)) {
      const v = rawValue === undefined ? 'true' : unquote(rawValue)
      if (v !== 'true' && v !== 'false' && v !== 'mixed') throw new LocatorSyntaxError(`"${body}": [${key}] takes true, false or mixed, not "${v}".`, body)
      q.states.push({ state: key as StateName, value: v === 'mixed' ? 'mixed' : v === 'true' })
    } else {
      throw new LocatorSyntaxError(`"${body}": unknown filter [${key}]; use name, ${kStateNames.join(', ')}.`, body)
    }
    while (body[at] === ' ') at++
    kAttr.lastIndex = at
  }
  if (body.slice(at).trim() !== '') throw new LocatorSyntaxError(`"${body}": cannot read "${body.slice(at).trim()}".`, body)
  return q
}

export function matchesRole(el: Element, q: RoleQuery): boolean {
  const role = roleOf(el)
  // Textbox includes searchbox for people, as Playwright's getByRole('textbox') does not; we keep it strict.
  if (role !== q.role) return false
  for (const s of q.states) if (stateOf(el, s.state) !== s.value) return false
  if (q.name === undefined) return true
  const name = accessibleName(el, role)
  return q.exact ? name === normalize(q.name) : name.toLowerCase().includes(normalize(q.name).toLowerCase())
}

export function createRoleEngine(): LocatorEngine {
  return {
    name: 'role',
    check: (body) => void parseRoleBody(body),
    queryAll: (root, body) => {
      const q = parseRoleBody(body)
      const carriers = kRoleCarriers[q.role] ?? `[role~="${q.role}"]`
      return [...root.querySelectorAll(carriers)].filter((el) => matchesRole(el, q))
    },
  }
}

export interface TextQuery {
  text: string
  exact: boolean
}

export function parseTextBody(body: string): TextQuery {
  const t = body.trim()
  const quoted = t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.endsWith(t[0])
  const text = normalize(quoted ? unquote(t) : t)
  if (!text) throw new LocatorSyntaxError('text: needs some text, as in text:提交 or text:"提交".', body)
  return { text, exact: quoted }
}

const kNonText = 'script,style,noscript,template'

/** What a person reads on an element: its text (never a script's), or the value of an input button. */
function readableText(el: Element): string {
  if (el.localName === 'input' && /^(button|submit|reset)$/i.test(el.getAttribute('type') ?? '')) return normalize((el as HTMLInputElement).value)
  if (!el.querySelector(kNonText)) return normalize(el.textContent)
  const parts: string[] = []
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */)
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!n.parentElement?.closest(kNonText)) parts.push(n.textContent ?? '')
  return normalize(parts.join(''))
}

/**
 * Playwright's text rule: the smallest elements whose text matches. `text:"x"` is the whole
 * trimmed text, case-sensitive; `text:x` a case-insensitive substring. Subtrees whose text does
 * not contain the words are skipped, so the walk stays near the matches.
 */
export function createTextEngine(): LocatorEngine {
  return {
    name: 'text',
    check: (body) => void parseTextBody(body),
    queryAll: (root, body) => {
      const q = parseTextBody(body)
      const needle = q.exact ? q.text : q.text.toLowerCase()
      const contains = (el: Element): boolean => (q.exact ? readableText(el) : readableText(el).toLowerCase()).includes(needle)
      const out: Element[] = []
      const visit = (el: Element): boolean => {
        if (kSkipText.has(el.localName) || !contains(el)) return false
        let child = false
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (visit(c)) child = true
        if (child) return true
        if (q.exact && readableText(el) !== q.text) return false
        // The page itself is never "the element showing the text".
        if (el.localName === 'body' || el.localName === 'html') return false
        out.push(el)
        return true
      }
      const top = root.nodeType === 9 ? (root as Document).body ?? (root as Document).documentElement : null
      if (top) visit(top)
      else for (let c = (root as ShadowRoot).firstElementChild; c; c = c.nextElementSibling) visit(c)
      // An input button's label is its value, which no ancestor's text contains: look at them apart.
      const buttons = [...root.querySelectorAll('input[type=button],input[type=submit],input[type=reset]')].filter((el) => {
        const t = readableText(el)
        return q.exact ? t === q.text : t.toLowerCase().includes(needle)
      })
      if (!buttons.length) return out
      // Document order, as every engine returns.
      return [...out, ...buttons].sort((a, b) => (a.compareDocumentPosition(b) & 4 /* FOLLOWING */ ? -1 : 1))
    },
  }
}

/** Test-id attributes in the order teams use them (Testing Library, Cypress, QA tooling). */
export const kTestIdAttributes = ['data-testid', 'data-test-id', 'data-test', 'data-qa'] as const

export function createTestIdEngine(): LocatorEngine {
  return {
    name: 'testid',
    check: (body) => {
      if (!/^[\w.:-]+$/u.test(unquote(body.trim()))) throw new LocatorSyntaxError(`"${body}": a test id is letters, digits and - _ . :`, body)
    },
    queryAll: (root, body) => {
      const v = CSS.escape(unquote(body.trim()))
      return [...root.querySelectorAll(kTestIdAttributes.map((a) => `[${a}="${v}"]`).join(','))]
    },
  }
}
