/**
 * The element a `text:` target means when several show the text: a control over a label of a
 * field, one action drawn twice.
 */
import { normalize } from '../../locators'
import { isVisible, kAvaUiAttr } from '../dom'
import { parseQuery } from './query'
import { kMaxCandidates } from './score'
import { readingOrder, scopeOf } from './scope'
import { sameAction } from './dedupe'

/** Elements checked for visibility while filling weak candidates: a bound on a page of thousands. */
export const kMaxWeakLooks = 200

/**
 * The one visible element showing the descriptor's text, in its scope, when no control fits: a
 * hover menu, a span with a click handler. Null when none or several do.
 */
export function textTarget(description: string, find: (text: string) => Element[]): Element | Element[] | null {
  const q = parseQuery(description)
  const text = q.quoted ?? q.rest
  if (!text) return null
  const want = normalize(text).toLowerCase()
  let found = find(text).filter(
    (el) =>
      isVisible(el) &&
      !el.closest(`[${kAvaUiAttr}]`) &&
      // A field's label names the field; it is not the thing to act on.
      !el.closest(kFieldLabel) &&
      // Headings title a region; acting on one is not what a description of a control means.
      !el.closest('h1,h2,h3,h4,h5,h6,[role=heading]') &&
      // A word inside a sentence is not a target: the text is about as long as what was said.
      normalize(el.textContent).length <= want.length * 2 + 4,
  )
  if (q.scope) {
    const texts = new Map<Element, boolean>()
    const inside = found.map((el) => ({ el, c: scopeOf(el, q.scope!, texts) })).filter((x) => x.c)
    found = inside
      .filter((x) => !(q.scope!.kind === 'named' && inside.some((o) => o !== x && x.c!.contains(o.el))))
      .map((x) => x.el)
  }
  if (q.ordinal && found.length) {
    const pool = found.sort(readingOrder)
    return pool[q.ordinal > 0 ? q.ordinal - 1 : pool.length + q.ordinal] ?? null
  }
  if (found.length > 1 && found.every((el) => sameAction(el, found[0]))) return found.sort(readingOrder)[0]
  return found.length === 1 ? found[0] : found.length > 1 ? found.slice(0, kMaxCandidates) : null
}

export const kFieldLabel =
  '.el-form-item__label,.ant-form-item-label,.n-form-item-label,legend,label:not(:has(input,[role=checkbox],[role=radio],[role=switch]))'
