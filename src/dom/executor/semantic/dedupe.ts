/**
 * De-duplication: one control drawn twice (a custom select over its native one, two links to one
 * place, a picture and its copy) counts once, and what is shown stands in for what is hidden.
 */
import { normalize, roleOf } from '../../locators'
import { isVisible, kAvaUiAttr } from '../dom'
import { treeRow } from '../../words'
import { type Scored } from './score'

/** The element a person would click for a hidden native control (Element Plus checkbox input). */
export function visibleProxy(el: Element): Element | null {
  const box = el.localName === 'select' ? customSelectBox(el) : null
  if (box) return box
  if (isVisible(el)) return el
  const proxy = el.closest(
    'label,.el-switch,.ant-switch,.el-checkbox,.el-radio,.ant-checkbox-wrapper,.ant-radio-wrapper,.el-select,.ant-select',
  )
  if (proxy && isVisible(proxy)) return proxy
  const label = (el as HTMLInputElement).labels?.[0]
  return label && isVisible(label) ? label : null
}

/**
 * The visible box a select library draws over a hidden native select, in the markup each
 * library's docs show: Select2 and Chosen put their container right after the select,
 * Tom Select and Selectize likewise, Bootstrap-select wraps the select and adds a toggle button.
 * That box is what a person calls "the Country dropdown".
 */
export function customSelectBox(select: Element): Element | null {
  const next = select.nextElementSibling
  const box =
    (next?.matches('.select2-container,.select2') && next.querySelector('.select2-selection')) ||
    (next?.matches('.chosen-container') && next.querySelector('.chosen-single,.chosen-choices')) ||
    (next?.matches('.ts-wrapper,.selectize-control') && next.querySelector('.ts-control,.selectize-input')) ||
    select.closest('.bootstrap-select')?.querySelector('.dropdown-toggle') ||
    null
  return box && isVisible(box) ? box : null
}

/**
 * Two copies of one control (the top and bottom navigation bars of a documentation page): same
 * tag, role and text, and the same destination — link target, or form, name and type. Clicking
 * either does the same, so they are not an ambiguity. Two "Delete" buttons in two rows are not
 * copies: nothing says they do the same.
 */
export function sameAction(a: Element, b: Element): boolean {
  if (a.localName !== b.localName || roleOf(a) !== roleOf(b)) return false
  // Two copies of one picture (a logo in the top and the bottom bar) are one thing to a person.
  if (a.localName === 'img')
    return a.getAttribute('src') === b.getAttribute('src') && a.getAttribute('alt') === b.getAttribute('alt')
  // Two links to one page do the same whatever they say ("previous" and the page's title in a
  // documentation page's navigation bar); a link that is only a script hook ("#") does not count.
  const hrefA = a.getAttribute('href')
  if (a.localName === 'a' && hrefA && !/^(#$|javascript:)/i.test(hrefA))
    return (
      (a as HTMLAnchorElement).href === (b as HTMLAnchorElement).href ||
      sameSpot(a as HTMLAnchorElement, b as HTMLAnchorElement)
    )
  if (
    normalize(a.textContent) !== normalize(b.textContent) ||
    a.getAttribute('aria-label') !== b.getAttribute('aria-label') ||
    (a as HTMLInputElement).value !== (b as HTMLInputElement).value
  )
    return false
  const href = a.getAttribute('href')
  if (a.localName === 'a')
    return !!href && !/^(#$|javascript:)/i.test(href) && (a as HTMLAnchorElement).href === (b as HTMLAnchorElement).href
  const fa = (a as HTMLInputElement).form
  const fb = (b as HTMLInputElement).form
  // Two fields of one form without names (Check-in and Check-out dates) are two fields, not copies;
  // two unnamed submit buttons of one form (Sphinx's "Go") are.
  const filled = a.localName !== 'button' && !/^(submit|button|reset|image)$/i.test(a.getAttribute('type') ?? '')
  if (fa && fb)
    return (
      (!filled || !!a.getAttribute('name')) &&
      fa.action === fb.action &&
      fa.method === fb.method &&
      a.getAttribute('name') === b.getAttribute('name') &&
      a.getAttribute('type') === b.getAttribute('type')
    )
  return !!a.id && a.id === b.id
}

/**
 * Two links into this page that land on one place: Sphinx's in-text `#truth` is an empty anchor
 * at the start of the `#truth-value-testing` section the sidebar links to.
 */
export function sameSpot(a: HTMLAnchorElement, b: HTMLAnchorElement): boolean {
  const here = (l: HTMLAnchorElement) => l.hash && l.href.split('#')[0] === l.ownerDocument.URL.split('#')[0]
  if (!here(a) || !here(b) || !normalize(a.textContent) || normalize(a.textContent) !== normalize(b.textContent))
    return false
  const spot = (l: HTMLAnchorElement) => {
    let t = l.ownerDocument.getElementById(decodeURIComponent(l.hash.slice(1)))
    // An empty anchor that opens its parent marks the parent.
    while (t && !normalize(t.textContent) && t.parentElement?.firstElementChild === t) t = t.parentElement
    return t
  }
  const sa = spot(a)
  return !!sa && sa === spot(b)
}

/** Keeps the first of elements that are one target: a label and its control, a wrapper and what it wraps. */
export function distinctVisible(
  list: Scored[],
  cap: number,
  taken = new Set<Element>(),
  out: Scored[] = [],
  expander = false,
  checkbox = false,
): Scored[] {
  for (const s of list) {
    if (out.length >= cap) break
    if (s.el.closest(`[${kAvaUiAttr}]`)) continue
    let proxy = visibleProxy(s.el)
    // A tree item is acted on by its row; "collapse X" by the row's expand arrow, if it has one.
    const proxyRole = proxy ? roleOf(proxy) : ''
    const row = proxy && (proxyRole === 'treeitem' || proxyRole === 'menuitem') ? treeRow(proxy) : null
    // "the Python checkbox in the tree": the checkbox of the item's row.
    if (row && isVisible(row))
      proxy =
        (expander && row.querySelector('[class*=expand],[class*=switcher],[class*=toggle],[class*=caret]')) ||
        (checkbox && row.querySelector('.el-checkbox,.ant-tree-checkbox,[role=checkbox],input[type=checkbox]')) ||
        row
    if (!proxy) continue
    const key = proxy.localName === 'label' ? ((proxy as HTMLLabelElement).control ?? proxy) : proxy
    if (taken.has(key) || taken.has(proxy)) continue
    taken.add(key)
    taken.add(proxy)
    const same = out.findIndex(
      (v) =>
        v.el.contains(proxy) ||
        proxy.contains(v.el) ||
        (v.el.localName === 'label' && (v.el as HTMLLabelElement).control === proxy),
    )
    if (same >= 0) {
      // A close icon inside its button: the button is the target.
      const kept = out[same]
      if (proxy.contains(kept.el) && !roleOf(kept.el) && roleOf(proxy)) out[same] = { ...s, el: proxy }
      continue
    }
    out.push({ ...s, el: proxy })
  }
  return out
}
