import type { ParsedSelector } from './selectors'

/**
 * What a selector from a model or a pack may cost before the page runs it (docs/executor.md,
 * "Bounded evaluation"). A DOM evaluation cannot be interrupted once started — `document.evaluate`
 * and `querySelectorAll` run to the end on the page's only thread, and a cubic XPath such as
 * `//*[count(//*[count(//*)>0])>0]` on 500 elements is 125 million node visits: seconds of a
 * frozen page, and no Stop can cut in. Chunking cannot help either: XPath and CSS have no
 * resumable evaluation. So the cost is estimated from the text first, over the page's size, and a
 * selector past the budget is refused before it runs.
 *
 * The estimate is the work of the nested scans: a step that scans the whole document (`//x` at a
 * path's start, `/…`, `following::`, `preceding::`) costs the element count N for each node it is
 * evaluated from; a step that scans a subtree or the ancestors (`.//x`, `descendant::`,
 * `ancestor::`) costs at most the tree's depth D on average over all context nodes (the subtrees
 * of all nodes sum to N × depth); a predicate is evaluated once per node of the step it filters,
 * at most N of them (a node-set holds each node once).
 * So `//a[.//b]` is about N·D, `//*[count(//*)]` N², the example above N³.
 */

/** Node visits a selector may cost: some 10–50 ms of evaluation on a slow machine. */
export const kMaxSelectorCost = 4_000_000

export interface PageSize {
  /** Elements in the document. */
  elements: number
  /** Depth of the deepest element. */
  depth: number
  /**
   * The following (or preceding) siblings of an element, on average over all elements: the sum
   * of each element's child count squared, over twice the element count. A flat list of 500 rows
   * has 250; a page of small groups a few. Unmeasured: the depth stands in for it.
   */
  siblings?: number
}

/**
 * Node visits of reading the string value of each node a scan returns, when a comparison or a
 * string function reads them (`. = //*`): its subtree and its text, a few nodes on average.
 */
const kStringValueVisits = 8

/** A segment that reads string values: a comparison or a string function over its paths. */
const kValued =
  /!=|<=|>=|=|<|>|\b(?:contains|starts-with|ends-with|string|normalize-space|string-length|translate|substring|substring-before|substring-after|concat|sum|number|lang|matches)\s*\(/

/** Skips a string literal starting at `i` (XPath: '…' or "…", no escapes); returns the index after it. */
function skipString(s: string, i: number): number {
  const end = s.indexOf(s[i], i + 1)
  return end < 0 ? s.length : end + 1
}

/** The index of the bracket closing the one at `i`, strings skipped. */
function closing(s: string, i: number, open: string, close: string): number {
  let depth = 0
  for (let j = i; j < s.length; j++) {
    const c = s[j]
    if (c === '"' || c === "'") {
      j = skipString(s, j) - 1
      continue
    }
    if (c === open) depth++
    else if (c === close && --depth === 0) return j
  }
  return s.length
}

/** Where one path expression of a segment ends and the next begins: a union, an argument, an operator. */
const kPathBreak = /\||,|\(|\)|!=|<=|>=|=|<|>|\+|\s-\s|\s(?:and|or|div|mod)\s/

/**
 * The work of the paths of one segment of XPath (its predicates cut out), for one context node:
 * the widest of its path expressions, each the product of its steps' scans — N for a path that
 * starts at the root with `//` or for `following::`/`preceding::`, D for `//` after a step or a
 * subtree or ancestor axis, 1 for a child or attribute step.
 */
function widthOf(segment: string, size: PageSize): number {
  let width = 1
  const siblings = Math.max(size.depth, size.siblings ?? 0)
  // Compared or read as strings, each node a scan returns costs its string value, not one visit.
  const valued = kValued.test(segment) ? kStringValueVisits : 1
  for (const path of segment.replace(/\s+/g, ' ').split(kPathBreak)) {
    const p = path.trim()
    if (!p) continue
    let w = p.startsWith('//') ? size.elements : 1
    const rest = p.startsWith('//') ? p.slice(2) : p
    w *= Math.pow(size.depth, (rest.match(/\/\//g) ?? []).length)
    w *= Math.pow(size.elements, (p.match(/\b(following|preceding)::/g) ?? []).length)
    w *= Math.pow(size.depth, (p.match(/\b(descendant|descendant-or-self|ancestor|ancestor-or-self)::/g) ?? []).length)
    w *= Math.pow(siblings, (p.match(/\b(following-sibling|preceding-sibling)::/g) ?? []).length)
    width = Math.max(width, w > 1 ? w * valued : w)
  }
  return width
}

/** The work of evaluating `s[from, to)` once for one context node. */
function costOf(s: string, from: number, to: number, size: PageSize): number {
  let segment = ''
  let inner = 0
  for (let i = from; i < to; i++) {
    const c = s[i]
    if (c === '"' || c === "'") {
      const end = Math.min(skipString(s, i), to)
      segment += ' "" '
      i = end - 1
    } else if (c === '[') {
      const end = Math.min(closing(s, i, '[', ']'), to)
      // A predicate is evaluated for every node its step selects: the predicates of a segment add up.
      inner += costOf(s, i + 1, end, size)
      segment += ' '
      i = end
    } else segment += c
  }
  // A predicate runs once per node its step selects, and node-sets hold each node once: at most N.
  const width = widthOf(segment, size)
  return width + Math.min(width, size.elements) * inner
}

/** The estimated node visits of an XPath on a page of this size. */
export function xpathCost(expression: string, size: PageSize): number {
  // The outer expression is evaluated once, from the document: its scans start from the root.
  return costOf(expression, 0, expression.length, size)
}

/**
 * The estimated work of a CSS selector: each `:has()` evaluates a relative selector over the
 * subtree (or the following siblings) of every candidate. Chromium refuses `:has()` nested in
 * `:has()`, but several in one compound, or inside `:is()`/`:not()`, multiply.
 */
export function cssCost(selector: string, size: PageSize): number {
  let cost = size.elements
  let i = 0
  while ((i = selector.indexOf(':has(', i)) >= 0) {
    const end = closing(selector, i + 4, '(', ')')
    const arg = selector.slice(i + 5, end).trim()
    // `:has(~ x)` walks the siblings after each candidate; `:has(x)` and `:has(> x)` its subtree.
    cost *=
      arg.startsWith('~') || /\s~\s/.test(arg)
        ? Math.max(size.depth, Math.sqrt(size.elements), size.siblings ?? 0)
        : size.depth
    i += 5
  }
  return cost
}

/** The estimated cost of running a parsed selector on a page of this size (other kinds: one pass). */
export function selectorCost(selector: ParsedSelector, size: PageSize): number {
  if (selector.kind === 'xpath') return xpathCost(selector.value, size)
  if (selector.kind === 'css') return cssCost(selector.value, size)
  return size.elements
}
