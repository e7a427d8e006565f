import { kMaxSelectorCost, selectorCost, type PageSize } from '../../core/page/selector-cost'
import { SelectorSyntaxError, type ParsedSelector } from '../../core/page/selectors'

/**
 * Selectors from a model or a pack run under a budget (docs/executor.md, "Bounded evaluation").
 * A DOM evaluation cannot be interrupted once started, so the check comes first: the cost is
 * estimated from the selector's text over the page's size (src/core/page/selector-cost.ts), and
 * one past the budget is refused without running. What the estimate misses is caught afterwards:
 * a selector that took longer than kSlowMs once is refused from then on in this document, so the
 * locator's polling (it looks again every few frames until its timeout) cannot freeze the page
 * again and again.
 */

/** One evaluation this slow is felt as a stall; a selector that took it is not run again here. */
const kSlowMs = 150
/** The page's size is measured at most this often: a locate polls many times a second. */
const kSizeTtlMs = 1_000

/** A selector refused because it would take too long on this page; the locator reports it as INVALID. */
export class SelectorCostError extends SelectorSyntaxError {}

const sizes = new WeakMap<Document, { at: number; size: PageSize }>()
const slow = new WeakMap<Document, Set<string>>()

/** The document's element count, depth and siblings per element (one walk, cached briefly). */
export function pageSize(doc: Document): PageSize {
  const now = performance.now()
  const cached = sizes.get(doc)
  if (cached && now - cached.at < kSizeTtlMs) return cached.size
  const elements = doc.getElementsByTagName('*').length
  let depth = 0
  let squares = 0
  const root = doc.documentElement
  if (root) {
    // Iterative walk: the deepest element, without recursion a hostile page could overflow.
    const walker = doc.createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */)
    let d = 0
    for (let more = true; more;) {
      depth = Math.max(depth, d)
      const children = (walker.currentNode as Element).childElementCount
      squares += children * children
      if (walker.firstChild()) {
        d++
        continue
      }
      while (!walker.nextSibling()) {
        if (!walker.parentNode()) {
          more = false
          break
        }
        d--
      }
    }
  }
  const size = { elements, depth: Math.max(1, depth), siblings: squares / (2 * Math.max(1, elements)) }
  sizes.set(doc, { at: now, size })
  return size
}

function message(selector: ParsedSelector, why: string): string {
  return `The selector "${selector.raw}" ${why}, so Ava did not run it: it would freeze the page. Use a simpler one: an id, a test id, a role and name, or a short path.`
}

/**
 * Runs `evaluate` for `selector` on `doc` only when its estimated cost is within the budget and
 * it has not been slow here before; throws SelectorCostError otherwise.
 */
export function withinBudget<T>(selector: ParsedSelector, doc: Document, evaluate: () => T): T {
  if (selector.kind !== 'xpath' && selector.kind !== 'css') return evaluate()
  if (slow.get(doc)?.has(selector.raw))
    throw new SelectorCostError(message(selector, 'took too long on this page before'), selector.raw)
  const size = pageSize(doc)
  const cost = selectorCost(selector, size)
  if (cost > kMaxSelectorCost)
    throw new SelectorCostError(
      message(
        selector,
        `would take about ${Math.round(cost / 1e6)} million steps over this page's ${size.elements} elements`,
      ),
      selector.raw,
    )
  const t0 = performance.now()
  const out = evaluate()
  if (performance.now() - t0 > kSlowMs) {
    const set = slow.get(doc) ?? new Set<string>()
    set.add(selector.raw)
    slow.set(doc, set)
  }
  return out
}
