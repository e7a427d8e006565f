/**
 * Locators: the prefixed selectors of seed 000 §6.6.3 run against the live page, across open
 * shadow roots and same-origin frames. One registry of engines; no prefix means CSS and a
 * leading `//` means XPath, as the core parser (src/core/registry/selectors.ts) reads them.
 */
import type { ParsedSelector } from '../../core/registry/selectors'
import { createCssEngine, createRoleEngine, createTestIdEngine, createTextEngine, createXPathEngine, LocatorSyntaxError, type LocatorEngine } from './engines'
import { searchRoots, type SearchRoot } from './roots'

export { LocatorSyntaxError, parseRoleBody, parseTextBody, matchesRole, kTestIdAttributes, type LocatorEngine, type RoleQuery, type TextQuery } from './engines'
export { accessibleName, roleOf, checkedState, isDisabled, stateOf, normalize, labelText, kStateNames, type StateName } from './aria'
export { searchRoots, deepQuerySelectorAll, deepElementFromPoint, deepContains, frameDocument, type SearchRoot } from './roots'

const kEngines: ReadonlyMap<string, LocatorEngine> = new Map(
  [createCssEngine(), createXPathEngine(), createRoleEngine(), createTextEngine(), createTestIdEngine()].map((e) => [e.name, e]),
)

export function locatorEngines(): ReadonlyMap<string, LocatorEngine> {
  return kEngines
}

export interface Locator {
  engine: string
  body: string
  raw: string
}

/** Splits `role:button[name="OK"]` into engine and body; checks the body without touching the DOM. */
export function parseLocator(selector: string | ParsedSelector): Locator {
  const raw = typeof selector === 'string' ? selector : selector.raw
  const text = raw.trim()
  if (!text) throw new LocatorSyntaxError('The selector is empty.', raw)
  const prefix = /^([a-z]+):(?!:)/.exec(text)
  let engine = 'css'
  let body = text
  if (prefix && kEngines.has(prefix[1])) {
    engine = prefix[1]
    body = text.slice(prefix[0].length).trim()
    if (!body) throw new LocatorSyntaxError(`Nothing follows "${engine}:" in "${raw}".`, raw)
  } else if (text.startsWith('//') || text.startsWith('(//')) engine = 'xpath'
  kEngines.get(engine)!.check?.(body)
  return { engine, body, raw }
}

export function safeParseLocator(selector: string | ParsedSelector): { ok: true; value: Locator } | { ok: false; error: LocatorSyntaxError } {
  try {
    return { ok: true, value: parseLocator(selector) }
  } catch (e) {
    if (e instanceof LocatorSyntaxError) return { ok: false, error: e }
    throw e
  }
}

/**
 * Every element the selector matches, in root order (document, then shadow roots and frames as
 * they appear), without duplicates. Throws LocatorSyntaxError for selectors that cannot parse.
 */
export function queryAll(selector: string | ParsedSelector | Locator, scope: Document | ShadowRoot | Element = document, roots?: SearchRoot[]): Element[] {
  const loc = typeof selector === 'object' && 'engine' in selector ? selector : parseLocator(selector)
  const engine = kEngines.get(loc.engine)!
  // An element scope searches its own tree (filtered to its subtree) and the roots nested in it.
  const all = roots ?? (scope.nodeType === 1 ? [(scope as Element).getRootNode() as SearchRoot, ...searchRoots(scope)] : searchRoots(scope))
  const seen = new Set<Element>()
  const out: Element[] = []
  const push = (els: Element[]) => {
    for (const el of els) {
      if (seen.has(el)) continue
      if (scope.nodeType === 1 && !(scope as Element).contains(el) && el.getRootNode() === (scope as Element).getRootNode()) continue
      seen.add(el)
      out.push(el)
    }
  }
  for (const root of all) push(engine.queryAll(root, loc.body))
  return out
}

/** The first match, or null. */
export function queryOne(selector: string | ParsedSelector | Locator, scope: Document | ShadowRoot | Element = document): Element | null {
  return queryAll(selector, scope)[0] ?? null
}
