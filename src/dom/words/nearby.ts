/**
 * The words near a control that name it, tied to it or not: its `<label>`s, its form item's
 * label, the loose text just before it (a `<span>Email</span>` beside a field, the cell before it
 * in a table row), a widget's placeholder, an editable area's empty-state text; and its own words
 * gathered for matching (`ownWords`: name, placeholder, aria-label, title, labels, text) and the
 * words around it (`textAround`: group, record, row, the text before it). The semantic rung
 * (dom/executor/semantic/) scores descriptors against these.
 */
import { normalizeText } from '../../core/page/text'
import { idOfElement } from '../observe/ids'
import { LabelIndex, nameOrGuess } from './accname'
import { cellLabel, groupWords, recordText, spacedText, widgetFieldLabel } from './around'

function normalize(text: string | null | undefined): string {
  return normalizeText(text ?? '')
}

/** What counts as a control to a person (and to the semantic rung): controls, roles, wrapper widgets, and what Observe listed. */
export const kInteractive = [
  // Anchors without href are clickable text in many apps (Ant Design table actions).
  'a',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  'summary',
  'label',
  '[role=button]',
  '[role=link]',
  '[role=checkbox]',
  '[role=radio]',
  '[role=switch]',
  '[role=tab]',
  '[role=menuitem]',
  '[role=menuitemcheckbox]',
  '[role=menuitemradio]',
  '[role=option]',
  '[role=combobox]',
  '[role=textbox]',
  '[role=slider]',
  '[role=treeitem]',
  '[role=searchbox]',
  '[role=spinbutton]',
  '[aria-expanded]',
  '[contenteditable=""]',
  '[contenteditable=true]',
  '[tabindex]:not([tabindex="-1"])',
  '[onclick]',
  // A script-made control styled clickable inline (Sphinx's sidebar «): the cursor is its only sign.
  '[style*=cursor][style*=pointer]',
  // Close glyphs and collapsible headers are often plain elements.
  '[class*=close]',
  '.el-collapse-item__header',
  '.ant-collapse-header',
  // Naive UI draws tabs, dropdown options and select boxes as plain divs with Vue handlers.
  '.n-tabs-tab',
  '.n-dropdown-option',
  '.n-base-selection',
  // Widget parts people name on their own: a rating's stars, a colour picker, a spinner's arrows.
  '.el-rate__item',
  '.ant-rate-star',
  '.n-rate__item',
  '.el-color-picker',
  '.ant-color-picker-trigger',
  '.n-color-picker',
  '.el-input-number__increase',
  '.el-input-number__decrease',
  '.ant-input-number-handler-up',
  '.ant-input-number-handler-down',
].join(',')

/** Field widgets drawn without a native field or a role: named by their form label, as a field is. */
export const kFieldWidget = '.n-base-selection'

export const kFormItem = '.el-form-item,.ant-form-item,.n-form-item,.form-group,.form-item,.field,fieldset'
export const kRowish = 'tr,li,[role=row],[role=listitem],.el-table__row,.ant-table-row'

/** The label of the form item a field sits in: what a person reads as the field's name. */
export function formLabel(el: Element): string {
  const item = el.closest(kFormItem)
  const label = item?.querySelector('label,.el-form-item__label,.ant-form-item-label,.n-form-item-label,legend')
  return label && !label.contains(el) ? (label.textContent ?? '') : ''
}

export function textAround(el: Element, rowCache: Map<Element, string>): string {
  // What a person sees around it (dom/words): the group's name, the card or heading it belongs
  // to, its row, its label by layout in a table of inputs, and the text just before it.
  const parts: string[] = [formLabel(el), groupWords(el), recordText(el, rowCache), widgetFieldLabel(el)]
  if (kFieldTags.test(el.localName)) parts.push(cellLabel(el))
  const row = el.closest(kRowish)
  if (row) {
    let t = rowCache.get(row)
    if (t === undefined) {
      t = spacedText(row).slice(0, 160)
      rowCache.set(row, t)
    }
    parts.push(t)
  }
  // The text just before it, or before its wrapper (a sidebar's "Previous topic" heading).
  // Bare text counts too: Naive UI's pager writes "Goto" as a text node before its input.
  parts.push(textBefore(el))
  return parts.join(' ').toLowerCase()
}

const kFieldTags = /^(input|select|textarea)$/

/**
 * The short text just before an element or before its wrapper, as a person reads a label beside
 * a field (a sidebar's "Previous topic" heading, a loose `<span>Email Address</span>`). Bare text
 * counts too: Naive UI's pager writes "Goto" as a text node before its input. Elements with no
 * text (an editor's toolbar of icons) are looked past, and so are the other fields of a group
 * ("Name" before a first and a last name box).
 */
export function textBefore(el: Element, asLabel = false): string {
  let n: Element | null = el
  const field =
    kFieldTags.test(el.localName) || (el.hasAttribute('contenteditable') && (el as HTMLElement).isContentEditable)
  for (let i = 0; n && i < 4; i++, n = n.parentElement) {
    let prev = n.previousSibling
    for (;;) {
      while (prev && (prev.nodeType === 8 || (prev.nodeType === 3 && !prev.textContent?.trim())))
        prev = prev.previousSibling
      if (!prev || prev.nodeType !== 1) break
      const p = prev as Element
      const skip =
        field &&
        (kFieldTags.test(p.localName) ||
          ((!normalize(p.textContent) || p.matches('.ql-toolbar,[role=toolbar]')) &&
            !p.matches('input,select,textarea,img')))
      if (!skip) break
      prev = prev.previousSibling
    }
    if (!prev) continue
    // As a field's own name, only a label-like thing: not a widget holding controls (a dropdown's button).
    if (asLabel && prev.nodeType === 1 && (prev as Element).querySelector(kInteractive)) break
    // A `<label>` tied to nothing is text beside the field, as a person reads it.
    const e = prev as Element
    if (
      prev.nodeType === 3 ||
      !(e.matches(kInteractive) || idOfElement(e) !== undefined) ||
      (e.localName === 'label' && !(e as HTMLLabelElement).control)
    ) {
      const t = normalize(prev.textContent)
      if (t.length <= 40) return t
    }
    break
  }
  return ''
}

/** What a contenteditable area shows when empty: `data-placeholder` (Quill), `aria-placeholder`, or CSS `::before` content. */
export function editablePlaceholder(el: Element): string {
  if (!(el as HTMLElement).isContentEditable && el.getAttribute('role') !== 'textbox') return ''
  const own =
    el.getAttribute('data-placeholder') || el.getAttribute('aria-placeholder') || el.getAttribute('placeholder')
  if (own) return own
  if (normalize(el.textContent)) return ''
  const view = el.ownerDocument.defaultView
  const content = view?.getComputedStyle(el, '::before').content ?? 'none'
  // `content: attr(x)` and strings compute to a quoted string; `none` and `normal` mean nothing.
  const m = /^"(.*)"$/s.exec(content)
  return m ? m[1].replace(/\\"/g, '"') : ''
}

/**
 * The text of a field's `<label>`s, the one around it and those `label[for]` its id, for many
 * fields in one pass: accname's `LabelIndex` (one query per search root) finds the labels.
 */
export class FieldLabels {
  private index = new LabelIndex()
  /** The `label[for]` text per element, read once per pass (a field's label is asked for often). */
  private forText = new Map<Element, string>()

  textFor(el: Element): string {
    const wrap = el.closest('label')
    const parts: string[] = wrap ? [wrap.textContent ?? ''] : []
    if (el.id) {
      let text = this.forText.get(el)
      if (text === undefined) {
        text = this.index
          .labelsFor(el, el.id)
          .map((label) => label.textContent ?? '')
          .join(' ')
        this.forText.set(el, text)
      }
      if (text) parts.push(text)
    }
    return normalize(parts.join(' '))
  }
}

/** The texts that name the element, each once: name, placeholder, aria-label, title, labels, text. */
export function ownWords(el: Element, role: string, labels: FieldLabels): string[] {
  // A submit or button input is named by its value, as a button; other fields by their labels.
  const field =
    (el.localName === 'input' && !/^(submit|button|reset|image)$/i.test(el.getAttribute('type') ?? '')) ||
    el.localName === 'select' ||
    el.localName === 'textarea'
  // For fields the label index stands in for accname's label step (same text, no document search).
  const aria = el.getAttribute('aria-labelledby') || el.getAttribute('aria-label')
  const row = role === 'treeitem' || role === 'menuitem' ? treeRow(el) : null
  // The one name computation (dom/words/accname.ts); an icon-only control is named by its icon.
  const name = row ? spacedText(row) : field && !aria ? '' : nameOrGuess(el, role)
  // The title is a tooltip, read only when nothing else names the element: Sphinx's "next" link
  // titled with the next page's title must not become "next Built-in Constants".
  const title =
    name || aria || el.getAttribute('placeholder') || (field && labels.textFor(el)) ? null : el.getAttribute('title')
  const bits = [name, el.getAttribute('placeholder'), el.getAttribute('aria-label'), title]
  if (field || /^(combobox|textbox|searchbox|spinbutton|slider|switch|listbox)$/.test(role) || el.matches(kFieldWidget))
    bits.push(labels.textFor(el), formLabel(el))
  const editable = role === 'textbox' && !field ? editablePlaceholder(el) : ''
  if (editable) bits.push(editable)
  // A loose label beside a field names it when nothing else does (a `<span>` or `<div>` before it).
  if ((field || role === 'textbox' || role === 'combobox') && !bits.some((b) => normalize(b)))
    bits.push((field ? cellLabel(el) : '') || textBefore(el, true))
  // Select widgets show their placeholder in a sibling span, not on the input.
  const widget = el.localName === 'input' ? el.closest('.ant-select,.el-select') : null
  if (widget)
    bits.push(widget.querySelector('.ant-select-selection-placeholder,.el-select__placeholder')?.textContent ?? null)
  if (
    el.localName === 'label' ||
    role === 'button' ||
    role === 'link' ||
    role === 'tab' ||
    role === 'menuitem' ||
    role === 'option'
  )
    bits.push(el.textContent)
  // A plain clickable element (a div with a handler) shows its name as text, as a button does.
  // Its text as the name module reads it (dom/words/accname.ts: hidden parts out, a flex row's cells apart).
  else if ((role === '' || role === 'generic') && !field && (el.textContent?.length ?? 0) <= 60)
    bits.push(nameOrGuess(el, 'button'))
  const unique: string[] = []
  for (const b of bits) {
    const t = normalize(b)
    if (t && !unique.includes(t)) unique.push(t)
  }
  return unique
}

/**
 * A tree item's own row (Element Plus `.el-tree-node__content`, the row before its `role=group`
 * of children): what names it and what a person clicks, never the text of its children.
 */
export function treeRow(el: Element): Element | null {
  // A menu item that opens a submenu is named and clicked by its title row (Element Plus
  // `.el-sub-menu__title`, Ant Design's `.ant-menu-submenu-title`), never by its items' text.
  if (
    el.getAttribute('role') === 'menuitem' &&
    !el.hasAttribute('aria-haspopup') &&
    !el.querySelector('[role=menu],ul')
  )
    return null
  const row = el.firstElementChild
  return row &&
    row.getAttribute('role') !== 'group' &&
    row.getAttribute('role') !== 'menu' &&
    !row.querySelector('[role=treeitem],[role=menuitem]')
    ? row
    : null
}

export function codeWords(el: Element): string {
  return [
    el.getAttribute('name'),
    el.id,
    el.getAttribute('data-testid'),
    el.getAttribute('autocomplete'),
    el.getAttribute('type'),
  ]
    .filter(Boolean)
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
}

/**
 * The placeholder a select widget shows in a sibling span, not on its input (Ant Design, Element
 * Plus). `anyPart`: read it for any element of the widget, not only its input.
 */
export function widgetPlaceholder(el: Element, anyPart = false): string {
  const widget = anyPart || el.localName === 'input' ? el.closest('.ant-select,.el-select') : null
  return widget?.querySelector('.ant-select-selection-placeholder,.el-select__placeholder')?.textContent ?? ''
}

export function fieldWords(el: Element, labels: FieldLabels): string {
  return `${el.getAttribute('placeholder') ?? ''} ${el.getAttribute('name') ?? ''} ${el.getAttribute('aria-label') ?? ''} ${el.id} ${labels.textFor(el)} ${widgetPlaceholder(el)}`.toLowerCase()
}
