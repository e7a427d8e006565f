/**
 * Scope and ordinals: the container a descriptor names ("in the dialog", "对话框里的"), the nth of a
 * kind in reading order, an open modal that covers the rest.
 */
import { type Descriptor, type ScopeKind } from '../../../core/page/descriptor'
import { normalize } from '../../locators'
import { isVisible } from '../dom'
import { classOf, textBefore } from '../../words'
import { kHanSpace } from './tokens'

/** Elements an ordinal may count through ("the 12th checkbox"). */
export const kMaxOrdinal = 300

export const kScopeSelectors: Record<Exclude<ScopeKind, 'named'>, string> = {
  main: 'main,[role=main],article,.body,#content,.content,.main',
  alert:
    '[role=alert],[role=status],.alert,.el-alert,.ant-alert,.el-notification,.el-message,.ant-notification-notice,.ant-message-notice,.toast,.n-alert,.n-notification',
  tag: '.el-tag,.ant-tag,.n-tag,.badge,.chip,.v-chip,.tag',
  dialog:
    'dialog,[role=dialog],[role=alertdialog],[aria-modal=true],.el-dialog,.el-message-box,.el-drawer,.ant-modal,.ant-drawer-content,.modal-dialog,.ui-dialog,.n-dialog,.n-modal,.v-dialog',
  row: 'tr,[role=row],li,.el-table__row,.ant-table-row,.list-group-item',
  form: 'form,[role=form],.el-form,.ant-form',
  table: 'table,[role=table],[role=grid],[role=treegrid],.el-table,.ant-table',
  menu: '[role=menu],[role=menubar],.el-menu,.ant-menu,.dropdown-menu,.ui-menu,.el-dropdown-menu,.ant-dropdown-menu,.n-dropdown-menu',
  list: 'ul,ol,[role=list],[role=listbox],[role=tree],.el-tree,.ant-tree',
  nav: 'nav,[role=navigation],.navbar,.el-menu,.ant-menu',
  header: 'header,[role=banner],.header,.el-header,.ant-layout-header',
  footer: 'footer,[role=contentinfo],.footer,.el-footer,.ant-layout-footer',
  sidebar: 'aside,[role=complementary],.sidebar,.el-aside,.ant-layout-sider,.sphinxsidebar',
  toolbar: '[role=toolbar],.toolbar,.btn-toolbar,.ql-toolbar,.tox-toolbar,.ck-toolbar',
}

/** Containers a person counts when no kind names them ("the first post", "the second card"). */
export const kCountable =
  'article,[role=article],[role=listitem],li,tr,[class*=post],[class*=card],[class*=item],[class*=tweet]'

/** Ancestors climbed looking for the container a scope names. */
export const kScopeDepth = 16

/**
 * The container of the scope that holds `el`, or null when it is outside it: the nearest ancestor
 * of the named kind (showing the name, when one is given), or for a container named by text only
 * (`@nibh's post`) the smallest ancestor showing the name.
 */
export function scopeOf(
  el: Element,
  scope: NonNullable<Descriptor['scope']>,
  texts: Map<Element, boolean>,
): Element | null {
  const name = scope.name ? normalize(scope.name).toLowerCase().replace(kHanSpace, '$1') : ''
  const shows = (a: Element) => {
    let v = texts.get(a)
    if (v === undefined) {
      const attrs = `${a.getAttribute('aria-label') ?? ''} ${a.id} ${a.getAttribute('name') ?? ''} ${classOf(a)}`
        .toLowerCase()
        .replace(/[-_]+/g, ' ')
      // Attribute words count whole: a name "Bo" is not in the class "card-body".
      texts.set(
        a,
        (v = normalize(a.textContent).toLowerCase().replace(kHanSpace, '$1').includes(name) || showsWord(attrs, name)),
      )
    }
    return v
  }
  // "In the text" is the running text: a heading's link is the title's, not the text's.
  if (scope.kind === 'main' && el.closest('h1,h2,h3,h4,h5,h6,[role=heading]')) return null
  const sel = scope.kind === 'named' ? null : kScopeSelectors[scope.kind]
  let n: Element | null = el.parentElement
  let sawKind = false
  for (let i = 0; n && i < kScopeDepth; i++, n = n.parentElement) {
    if (sel && !n.matches(sel)) continue
    sawKind = true
    if (scope.ordinal) {
      // "the first post": a container counted among its siblings of the same kind.
      if (!sel && !n.matches(kCountable)) continue
      return nthOfKind(n, sel ?? kCountable, scope.ordinal) ? n : null
    }
    // A toolbar titled by the text just before it ("the Signature toolbar": the label over an editor's toolbar).
    if (
      !name ||
      shows(n) ||
      (scope.kind === 'toolbar' && textBefore(n).toLowerCase().replace(kHanSpace, '$1').includes(name))
    )
      return n
    // The nearest row (tag, dialog…) is the one it is in: a table holding every row is not "the row of 张三".
    if (sel) return null
  }
  // A kind the page does not mark up ("the row of 张三" in a grid of divs): the text decides.
  // Where the page has such containers, one outside them all is not in "the order form".
  if (sel && name && !sawKind && !el.ownerDocument.querySelector(sel))
    return scopeOf(el, { kind: 'named', name: scope.name }, texts)
  return null
}

/**
 * Whether attribute words show a name: as a whole word for a Latin name ("Bo" is not in
 * "card body"), anywhere for Chinese, which has no spaces between words.
 */
export function showsWord(text: string, name: string): boolean {
  if (!/^[a-z0-9]/i.test(name) || !/[a-z0-9]$/i.test(name)) return text.includes(name)
  let at = text.indexOf(name)
  while (at >= 0) {
    const before = text[at - 1] ?? ' '
    const after = text[at + name.length] ?? ' '
    if (!/[a-z0-9]/i.test(before) && !/[a-z0-9]/i.test(after)) return true
    at = text.indexOf(name, at + 1)
  }
  return false
}

/** Whether a container is the nth of its kind among its siblings (rows of a table body), hidden ones not counted. */
export function nthOfKind(n: Element, sel: string, ordinal: number): boolean {
  // A table's header row is not "the first row": people count the rows of data.
  const header = (c: Element) =>
    c.parentElement?.localName === 'thead' || (c.localName === 'tr' && !c.querySelector('td'))
  if (header(n)) return false
  const siblings = [...(n.parentElement?.children ?? [])].filter(
    (c) =>
      c.matches(sel) && !header(c) && c.getAttribute('aria-hidden') !== 'true' && (c as HTMLElement).offsetHeight > 1,
  )
  const at = ordinal > 0 ? ordinal - 1 : siblings.length + ordinal
  return siblings[at] === n
}

/** Open modal layers: what is behind them cannot be clicked, so a match inside one is what is meant. */
export const kModal =
  '[aria-modal=true],dialog[open],.el-overlay-dialog,.el-overlay-message-box,.ant-modal-wrap,.modal.show,.n-modal-container'

export function openModal(doc: Document): Element | null {
  const all = [...doc.querySelectorAll(kModal)].filter((m) => isVisible(m) || [...m.children].some(isVisible))
  return all[all.length - 1] ?? null
}

/** Whether a click at the element's centre would land on the modal layer instead. */
export function coveredBy(el: Element, modal: Element): boolean {
  const r = el.getBoundingClientRect()
  if (!r.width || !r.height) return false
  const hit = el.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
  return !!hit && modal.contains(hit)
}

/** Reading order: top to bottom, then left to right among boxes on the same line. */
export function readingOrder(a: Element, b: Element): number {
  const ra = a.getBoundingClientRect()
  const rb = b.getBoundingClientRect()
  if (ra.bottom <= rb.top + 1) return -1
  if (rb.bottom <= ra.top + 1) return 1
  return ra.left - rb.left || ra.top - rb.top
}
