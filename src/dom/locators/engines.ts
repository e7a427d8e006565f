/**
 * The selector engines: `css:`, `xpath:`, `role:`, `text:`, `testid:`.
 * Each is a small `{ kind, queryAll(root, selector) }` made by a factory, after Playwright's
 * selector engines (STYLE.md), and runs the selector as core parsed it
 * (src/core/page/selectors.ts); `index.ts` runs them across shadow roots and frames.
 */
import { SelectorSyntaxError, type SelectorKind, type SelectorOf } from '../../core/page/selectors'
import { accessibleName, kRoleCarriers, normalize, roleOf, stateOf } from './aria'
import type { SearchRoot } from './roots'

export interface LocatorEngine<K extends SelectorKind = SelectorKind> {
  kind: K
  /** Elements of one search root (no piercing here) matching `selector`, in document order. */
  queryAll(root: SearchRoot, selector: SelectorOf<K>): Element[]
}

/** What only the browser can tell: its CSS or XPath parser refuses a selector the grammar let through. */
function refused(selector: SelectorOf<'css' | 'xpath'>, language: string): SelectorSyntaxError {
  return new SelectorSyntaxError(
    `Invalid selector "${selector.raw}": "${selector.value}" is not a valid ${language}.`,
    selector.raw,
  )
}

const kSkipText = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link'])

export function createCssEngine(): LocatorEngine<'css'> {
  return {
    kind: 'css',
    queryAll: (root, selector) => {
      try {
        return [...root.querySelectorAll(selector.value)]
      } catch {
        throw refused(selector, 'CSS selector')
      }
    },
  }
}

export function createXPathEngine(): LocatorEngine<'xpath'> {
  return {
    kind: 'xpath',
    queryAll: (root, selector) => {
      // XPath has no notion of shadow trees (as in Playwright): documents only, frames included.
      if (root.nodeType !== 9) return []
      const doc = root as Document
      let snapshot: XPathResult
      try {
        snapshot = doc.evaluate(selector.value, root, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null)
      } catch {
        throw refused(selector, 'XPath expression')
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

function matchesRole(el: Element, q: SelectorOf<'role'>): boolean {
  const role = roleOf(el)
  // Textbox includes searchbox for people, as Playwright's getByRole('textbox') does not; we keep it strict.
  if (role !== q.role) return false
  for (const s of q.states ?? []) if (stateOf(el, s.state) !== s.value) return false
  if (q.name === undefined) return true
  const name = accessibleName(el, role)
  return q.exact ? name === normalize(q.name) : name.toLowerCase().includes(normalize(q.name).toLowerCase())
}

export function createRoleEngine(): LocatorEngine<'role'> {
  return {
    kind: 'role',
    queryAll: (root, selector) => {
      const carriers = kRoleCarriers[selector.role] ?? `[role~="${selector.role}" i]`
      return [...root.querySelectorAll(carriers)].filter((el) => matchesRole(el, selector))
    },
  }
}

const kNonText = 'script,style,noscript,template'

/** What a person reads on an element: its text (never a script's), or the value of an input button. */
function readableText(el: Element): string {
  if (el.localName === 'input' && /^(button|submit|reset)$/i.test(el.getAttribute('type') ?? ''))
    return normalize((el as HTMLInputElement).value)
  if (!el.querySelector(kNonText)) return normalize(el.textContent)
  const parts: string[] = []
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */)
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (!n.parentElement?.closest(kNonText)) parts.push(n.textContent ?? '')
  return normalize(parts.join(''))
}

/**
 * Playwright's text rule: the smallest elements whose text matches. `text:"x"` is the whole
 * trimmed text, case-sensitive; `text:x` a case-insensitive substring. Subtrees whose text does
 * not contain the words are skipped, so the walk stays near the matches.
 */
export function createTextEngine(): LocatorEngine<'text'> {
  return {
    kind: 'text',
    queryAll: (root, selector) => {
      // Compared as a person reads it: runs of whitespace are one space (the grammar refuses blank text).
      const q = { text: normalize(selector.text), exact: selector.exact }
      const needle = q.exact ? q.text : q.text.toLowerCase()
      const contains = (el: Element): boolean =>
        (q.exact ? readableText(el) : readableText(el).toLowerCase()).includes(needle)
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
      const top = root.nodeType === 9 ? ((root as Document).body ?? (root as Document).documentElement) : null
      if (top) visit(top)
      else for (let c = (root as ShadowRoot).firstElementChild; c; c = c.nextElementSibling) visit(c)
      // An input button's label is its value, which no ancestor's text contains: look at them apart.
      const buttons = [...root.querySelectorAll('input[type=button],input[type=submit],input[type=reset]')].filter(
        (el) => {
          const t = readableText(el)
          return q.exact ? t === q.text : t.toLowerCase().includes(needle)
        },
      )
      if (!buttons.length) return out
      // Document order, as every engine returns.
      return [...out, ...buttons].sort((a, b) => (a.compareDocumentPosition(b) & 4 /* FOLLOWING */ ? -1 : 1))
    },
  }
}

/** Test-id attributes in the order teams use them (Testing Library, Cypress, QA tooling). */
export const kTestIdAttributes = ['data-testid', 'data-test-id', 'data-test', 'data-qa'] as const

export function createTestIdEngine(): LocatorEngine<'testid'> {
  return {
    kind: 'testid',
    queryAll: (root, selector) => {
      const v = CSS.escape(selector.value)
      return [...root.querySelectorAll(kTestIdAttributes.map((a) => `[${a}="${v}"]`).join(','))]
    },
  }
}
