/**
 * Place words: "the button next to Save", "the field below Email", matched by layout against an
 * anchor the descriptor names.
 */
import { type PlaceRelation } from '../../../core/page/descriptor'
import { normalize } from '../../locators'
import { isVisible, kAvaUiAttr } from '../dom'
import { parseQuery, type SemanticQuery } from './query'
import { kAmbiguityMargin, kMaxCandidates, type Scored, type SemanticResult, toCandidate } from './score'
import { sameAction } from './dedupe'

/** The semantic rung itself, which finds an anchor named as a control ("below the Email field"). */
type Locate = (description: string, doc: Document) => SemanticResult

/** Anchors named by a container word ("below the table"): any visible element of the kind. */
export const kAnchorKinds: Array<[RegExp, string]> = [
  [/^(?:the\s+)?(?:table|grid|表格)$/iu, 'table,[role=table],[role=grid],.el-table,.ant-table'],
  [/^(?:the\s+)?(?:form|表单)$/iu, 'form,[role=form]'],
  [/^(?:the\s+)?(?:list|列表)$/iu, 'ul,ol,[role=list],[role=listbox]'],
  [/^(?:the\s+)?(?:image|picture|photo|logo|图片|图像)$/iu, 'img,picture,[role=img]'],
  [/^(?:the\s+)?(?:heading|section heading)$/iu, 'h1,h2,h3,h4,h5,h6,[role=heading]'],
  [/^(?:the\s+)?(?:calendar|日历)$/iu, '[class*=calendar],[class*=datepicker]'],
]

/** The elements a place phrase is relative to: a kind of container, a control, or a visible text. */
export function placeAnchors(anchor: string, doc: Document, locate: Locate): Element[] {
  for (const [re, sel] of kAnchorKinds)
    if (re.test(anchor.trim())) return [...doc.querySelectorAll(sel)].filter(isVisible)
  const found = locate(anchor, doc)
  if (found.best) return [found.best]
  // A label or heading a person reads, not a control: the deepest visible element showing exactly that text.
  const d = parseQuery(anchor)
  const want = normalize(d.quoted ?? d.rest ?? anchor).toLowerCase()
  if (!want) return found.ambiguous ? found.elements.slice(0, 2) : []
  const out: Element[] = []
  for (const el of doc.body?.querySelectorAll('*') ?? []) {
    if (el.closest(`[${kAvaUiAttr}]`) || /^(script|style|template)$/.test(el.localName)) continue
    if (normalize(el.textContent).toLowerCase() !== want) continue
    if ([...el.children].some((c) => normalize(c.textContent).toLowerCase() === want)) continue
    if (isVisible(el)) out.push(el)
  }
  return out.length ? out : found.ambiguous ? found.elements.slice(0, 2) : []
}

/** Distance from the anchor in the direction said, or Infinity when the box is not on that side. */
export function placeDistance(rel: PlaceRelation, r: DOMRect, a: DOMRect): number {
  const hGap = Math.max(0, a.left - r.right, r.left - a.right)
  const vGap = Math.max(0, a.top - r.bottom, r.top - a.bottom)
  const sameLine = r.top < a.bottom - 2 && r.bottom > a.top + 2
  // A few pixels of overlap still count as beside (borders, focus rings).
  const slack = 4
  switch (rel) {
    case 'below':
      return r.top >= a.bottom - slack ? r.top - a.bottom + hGap / 4 : Infinity
    case 'above':
      return r.bottom <= a.top + slack ? a.top - r.bottom + hGap / 4 : Infinity
    case 'left':
      return sameLine && r.right <= a.left + slack ? a.left - r.right : Infinity
    case 'right':
      return sameLine && r.left >= a.right - slack ? r.left - a.right : Infinity
    case 'near':
      return Math.hypot(hGap, vGap)
  }
}

/** Two candidates this close to the anchor (px) are equally near: AMBIGUOUS. */
export const kPlaceTie = 3

/**
 * The candidate on the side of the anchor the descriptor says, nearest first ("the text box below
 * the table"): among the best-scored ones, distance decides; equal distances are AMBIGUOUS.
 */
export function placeMatch(q: SemanticQuery, visible: Scored[], doc: Document, locate: Locate): SemanticResult {
  const place = q.place!
  const anchors = placeAnchors(place.anchor, doc, locate)
  const weakOf = (list: Scored[], why: string): SemanticResult => ({
    ambiguous: false,
    candidates: list.slice(0, kMaxCandidates).map((s) => toCandidate({ ...s, why: `${s.why}; ${why}` }, true)),
    elements: list.slice(0, kMaxCandidates).map((s) => s.el),
    why,
  })
  if (!anchors.length) return weakOf(visible, `nothing on the page is "${place.anchor}"`)
  const placed = visible
    .filter((s) => !anchors.some((a) => a === s.el || a.contains(s.el) || s.el.contains(a)))
    .map((s) => {
      const r = s.el.getBoundingClientRect()
      return { s, d: Math.min(...anchors.map((a) => placeDistance(place.rel, r, a.getBoundingClientRect()))) }
    })
    .filter((x) => Number.isFinite(x.d))
  if (!placed.length) return weakOf(visible, `none ${place.rel} "${place.anchor}"`)
  const top = Math.max(...placed.map((x) => x.s.score))
  const pool = placed.filter((x) => x.s.score >= top - kAmbiguityMargin).sort((a, b) => a.d - b.d)
  const rest = placed
    .filter((x) => x !== pool[0])
    .slice(0, kMaxCandidates - 1)
    .map((x) => x.s)
  const why = `${pool[0].s.why}; ${place.rel} "${place.anchor}", ${Math.round(pool[0].d)} px`
  const candidates = [toCandidate({ ...pool[0].s, why }), ...rest.map((s) => toCandidate(s))]
  const elements = [pool[0].s.el, ...rest.map((s) => s.el)]
  if (pool.length > 1 && pool[1].d - pool[0].d < kPlaceTie && !sameAction(pool[0].s.el, pool[1].s.el))
    return {
      ambiguous: true,
      candidates,
      elements,
      why: `${pool.length} elements equally ${place.rel} "${place.anchor}"`,
    }
  return { best: pool[0].s.el, ambiguous: false, candidates, elements, why }
}
