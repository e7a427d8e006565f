/**
 * Roles, accessible names and ARIA states, as far as the `role:` engine and the semantic ladder
 * need them. Implicit roles are Observe's HTML-AAM table (src/dom/observe/roles.ts); names follow
 * the cheap paths of accname 1.2 (aria-labelledby, aria-label, label, alt,
 * content, placeholder, title). Reading computed style for every descendant, as the full
 * algorithm does, would cost more than the whole lookup (issue 5 bench: locate ≤ 10 ms).
 */
import { roleOf as implicitRoleOf } from '../observe/roles'

/**
 * CSS that finds every element that may have a role, so the role engine does not visit the
 * whole tree: the tags with an implicit role plus any explicit role.
 */
export const kRoleCarriers: Record<string, string> = {
  button: 'button,input[type=button],input[type=submit],input[type=reset],input[type=image],input[type=file],summary,[role=button]',
  link: 'a[href],area[href],[role=link]',
  textbox: 'input:not([type]),input[type=text],input[type=email],input[type=tel],input[type=url],input[type=password],input[type=date],input[type=time],input[type=datetime-local],input[type=month],input[type=week],textarea,[role=textbox],[contenteditable=""],[contenteditable=true]',
  checkbox: 'input[type=checkbox],[role=checkbox]',
  radio: 'input[type=radio],[role=radio]',
  combobox: 'select,input[list],[role=combobox]',
  listbox: 'select,[role=listbox]',
  option: 'option,[role=option]',
  heading: 'h1,h2,h3,h4,h5,h6,[role=heading]',
  row: 'tr,[role=row]',
  searchbox: 'input[type=search],[role=searchbox]',
  spinbutton: 'input[type=number],[role=spinbutton]',
  slider: 'input[type=range],[role=slider]',
  img: 'img,[role=img]',
  dialog: 'dialog,[role=dialog]',
  list: 'ul,ol,menu,[role=list]',
  listitem: 'li,[role=listitem]',
  table: 'table,[role=table]',
  columnheader: 'th,[role=columnheader]',
  navigation: 'nav,[role=navigation]',
  cell: 'td,[role=cell],[role=gridcell]',
}

export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role')
  if (explicit) {
    // role="switch checkbox" lists fallbacks; the first known one is the role (WAI-ARIA §7.1).
    const first = explicit.trim().split(/\s+/)[0]
    if (first && first !== 'none' && first !== 'presentation') return first
  }
  if ((el as HTMLElement).isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox'
  // Implicit roles come from Observe's HTML-AAM table, so both read a page the same way.
  return implicitRoleOf(el, el.localName, false)
}

/** Roles whose name may come from their content (WAI-ARIA "name from: contents"). */
const kNameFromContent = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'cell', 'gridcell', 'row', 'columnheader', 'heading', 'listitem', 'tooltip'])

export function normalize(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim()
}

function textOfIds(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot
  const parts: string[] = []
  for (const id of ids.split(/\s+/)) {
    const ref = id ? root.getElementById?.(id) : null
    if (ref) parts.push(ref.getAttribute('aria-label') || ref.textContent || '')
  }
  return normalize(parts.join(' '))
}

/** The label elements of a form control, without the control's own text (a select's options). */
export function labelText(el: Element): string {
  // `labels` searches the whole document; an element with no id and no label around it has none.
  if (!el.id && !el.closest('label')) return ''
  const labels = (el as HTMLInputElement).labels
  if (!labels || labels.length === 0) return ''
  const parts: string[] = []
  for (const label of labels) {
    if (!label.contains(el)) parts.push(label.textContent ?? '')
    else {
      const clone = label.cloneNode(true) as Element
      for (const c of clone.querySelectorAll('select,textarea,option')) c.remove()
      parts.push(clone.textContent ?? '')
    }
  }
  return normalize(parts.join(' '))
}

const kDefaultButtonValue: Record<string, string> = { submit: 'Submit', reset: 'Reset' }

export function accessibleName(el: Element, role = roleOf(el)): string {
  const labelledBy = el.getAttribute('aria-labelledby')
  if (labelledBy) {
    const name = textOfIds(el, labelledBy)
    if (name) return name
  }
  const aria = normalize(el.getAttribute('aria-label'))
  if (aria) return aria
  const tag = el.localName
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase()
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const value = normalize((el as HTMLInputElement).value || kDefaultButtonValue[type])
      if (value) return value
    }
    if (type === 'image') {
      const alt = normalize(el.getAttribute('alt'))
      if (alt) return alt
    }
  }
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button' || tag === 'meter' || tag === 'progress') {
    const label = labelText(el)
    if (label) return label
  }
  if (tag === 'img' || tag === 'area') {
    const alt = normalize(el.getAttribute('alt'))
    if (alt) return alt
  }
  if (kNameFromContent.has(role) && tag !== 'input' && tag !== 'select' && tag !== 'textarea') {
    const text = normalize(el.textContent)
    if (text) return text
    const icon = el.querySelector('img[alt]:not([alt=""]),[aria-label],svg title,[title]')
    if (icon) return normalize(icon.localName === 'title' ? icon.textContent : icon.getAttribute('aria-label') || icon.getAttribute('alt') || icon.getAttribute('title'))
  }
  const placeholder = normalize(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder'))
  if (placeholder) return placeholder
  return normalize(el.getAttribute('title'))
}

/** The ARIA states the `role:` engine filters on (`[checked]`, `[expanded=false]`, ...). */
export const kStateNames = ['checked', 'expanded', 'disabled', 'selected', 'pressed'] as const
export type StateName = (typeof kStateNames)[number]

const kClassChecked = /(^|\s)(is-checked|[\w-]+-checked)(\s|$)/
const kClassDisabled = /(^|\s)(is-disabled|[\w-]+-disabled)(\s|$)/

/**
 * Checked state of a checkbox-like widget: the native input, aria-checked, or the class a
 * component library puts on its wrapper (Element Plus `is-checked`, Ant Design `ant-*-checked`).
 * `null` when the element is not checkable at all.
 */
export function checkedState(el: Element): boolean | 'mixed' | null {
  if (el instanceof (el.ownerDocument.defaultView ?? window).HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
    return el.indeterminate ? 'mixed' : el.checked
  }
  const aria = el.getAttribute('aria-checked')
  if (aria === 'mixed') return 'mixed'
  if (aria === 'true' || aria === 'false') return aria === 'true'
  const inner = el.querySelector('input[type=checkbox],input[type=radio],[role=checkbox],[role=switch],[role=radio]')
  if (inner) return checkedState(inner)
  if (typeof el.className === 'string' && /(^|\s)(el-switch|el-checkbox|el-radio|ant-switch|ant-checkbox|ant-radio)/.test(el.className)) return kClassChecked.test(el.className)
  return null
}

export function isDisabled(el: Element): boolean {
  if ((el as HTMLButtonElement).disabled === true) return true
  if (el.closest('[aria-disabled=true]')) return true
  if (el.matches(':disabled')) return true
  return typeof el.className === 'string' && kClassDisabled.test(el.className)
}

/**
 * State readers; `undefined` where the state does not apply (no aria-expanded on a button), so
 * `[expanded=false]` matches only elements that say they are collapsed, as in Playwright.
 */
const kStateReaders: Record<StateName, (el: Element) => boolean | 'mixed' | undefined> = {
  checked: (el) => checkedState(el) ?? undefined,
  disabled: isDisabled,
  expanded: (el) => (el.localName === 'details' ? (el as HTMLDetailsElement).open : ariaBool(el, 'aria-expanded')),
  selected: (el) => (el.localName === 'option' ? (el as HTMLOptionElement).selected : ariaBool(el, 'aria-selected')),
  pressed: (el) => (el.getAttribute('aria-pressed') === 'mixed' ? 'mixed' : ariaBool(el, 'aria-pressed')),
}

function ariaBool(el: Element, name: string): boolean | undefined {
  const v = el.getAttribute(name)
  return v === 'true' ? true : v === 'false' ? false : undefined
}

export function stateOf(el: Element, state: StateName): boolean | 'mixed' | undefined {
  return kStateReaders[state](el)
}
