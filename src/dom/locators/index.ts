/**
 * Locators: the prefixed selectors (docs/action-packs.md) run against the live page, across open
 * shadow roots and same-origin frames. One engine per kind of the core grammar
 * (src/core/page/selectors.ts), which is the only reader of selector text.
 */
import { parseSelector, type ParsedSelector, type SelectorKind } from '../../core/page/selectors'
import {
  createCssEngine,
  createRoleEngine,
  createTestIdEngine,
  createTextEngine,
  createXPathEngine,
  type LocatorEngine,
} from './engines'
import { searchRoots, type SearchRoot } from './roots'
import { withinBudget } from './budget'

export { kTestIdAttributes, type LocatorEngine } from './engines'
export { SelectorCostError } from './budget'
export {
  accessibleName,
  nameForPeople,
  nameOrGuess,
  roleOf,
  checkedState,
  isDisabled,
  stateOf,
  normalize,
  labelText,
  kStateNames,
  type StateName,
} from './aria'
export {
  searchRoots,
  deepQuerySelectorAll,
  deepElementFromPoint,
  deepContains,
  frameDocument,
  type SearchRoot,
} from './roots'

const kEngines: { readonly [K in SelectorKind]: LocatorEngine<K> } = {
  css: createCssEngine(),
  xpath: createXPathEngine(),
  role: createRoleEngine(),
  text: createTextEngine(),
  testid: createTestIdEngine(),
}

/**
 * Every element the selector matches, in root order (document, then shadow roots and frames as
 * they appear), without duplicates. Text is parsed by the core grammar first; throws
 * SelectorSyntaxError for a selector that it, or the browser's CSS or XPath parser, refuses.
 */
export function queryAll(
  selector: string | ParsedSelector,
  scope: Document | ShadowRoot | Element = document,
  roots?: SearchRoot[],
): Element[] {
  const parsed = typeof selector === 'string' ? parseSelector(selector) : selector
  // Each engine takes its own kind; the map pairs them, which the type of a lookup cannot say.
  const engine = kEngines[parsed.kind] as LocatorEngine
  // An element scope searches its own tree (filtered to its subtree) and the roots nested in it.
  const all =
    roots ??
    (scope.nodeType === 1
      ? [(scope as Element).getRootNode() as SearchRoot, ...searchRoots(scope)]
      : searchRoots(scope))
  const seen = new Set<Element>()
  const out: Element[] = []
  const push = (els: Element[]) => {
    for (const el of els) {
      if (seen.has(el)) continue
      if (
        scope.nodeType === 1 &&
        !(scope as Element).contains(el) &&
        el.getRootNode() === (scope as Element).getRootNode()
      )
        continue
      seen.add(el)
      out.push(el)
    }
  }
  // Under a budget (./budget.ts): a selector that would freeze the page is refused before it runs.
  for (const root of all)
    push(
      withinBudget(parsed, root.nodeType === 9 ? (root as Document) : root.ownerDocument!, () =>
        engine.queryAll(root, parsed),
      ),
    )
  return out
}

/** The first match, or null. */
export function queryOne(
  selector: string | ParsedSelector,
  scope: Document | ShadowRoot | Element = document,
): Element | null {
  return queryAll(selector, scope)[0] ?? null
}
