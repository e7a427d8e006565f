/**
 * Roles, element types and what can be done with each: descriptor tables, not switches.
 * Implicit roles follow HTML-AAM ("HTML Element Role Mappings"); only the elements the engine
 * cares about are listed, everything else is generic.
 */
import { ElementType, type ElementAction } from './types'

type RoleOf = (el: Element) => string

const inputRoles: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  email: 'textbox',
  tel: 'textbox',
  text: 'textbox',
  url: 'textbox',
  // HTML-AAM gives these no role; the engine still treats them as text-like fields.
  password: 'textbox',
  date: 'textbox',
  'datetime-local': 'textbox',
  month: 'textbox',
  week: 'textbox',
  time: 'textbox',
  color: 'textbox',
  file: 'button',
}

/** HTML-AAM implicit roles, keyed by lower-case local name. */
const implicitRoles: Record<string, RoleOf> = {
  a: (el) => (el.hasAttribute('href') ? 'link' : ''),
  area: (el) => (el.hasAttribute('href') ? 'link' : ''),
  button: () => 'button',
  input: (el) => {
    const type = inputType(el)
    if ((type === 'text' || type === 'search' || type === 'email' || type === 'tel' || type === 'url') && el.hasAttribute('list')) return 'combobox'
    return inputRoles[type] ?? 'textbox'
  },
  select: (el) => ((el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'),
  textarea: () => 'textbox',
  option: () => 'option',
  summary: () => 'button',
  img: (el) => (el.getAttribute('alt') === '' ? 'presentation' : 'img'),
  h1: () => 'heading',
  h2: () => 'heading',
  h3: () => 'heading',
  h4: () => 'heading',
  h5: () => 'heading',
  h6: () => 'heading',
  nav: () => 'navigation',
  main: () => 'main',
  aside: () => 'complementary',
  header: (el) => (inSectioningContent(el) ? '' : 'banner'),
  footer: (el) => (inSectioningContent(el) ? '' : 'contentinfo'),
  form: () => 'form',
  search: () => 'search',
  dialog: () => 'dialog',
  table: () => 'table',
  tr: () => 'row',
  td: () => 'cell',
  th: () => 'columnheader',
  ul: () => 'list',
  ol: () => 'list',
  menu: () => 'list',
  li: () => 'listitem',
  article: () => 'article',
  fieldset: () => 'group',
  details: () => 'group',
  progress: () => 'progressbar',
}

/** header/footer are landmarks only when not scoped to article, aside, main, nav or section. */
function inSectioningContent(el: Element): boolean {
  return el.parentElement?.closest('article,aside,main,nav,section') != null
}

export function inputType(el: Element): string {
  return (el.getAttribute('type') ?? 'text').toLowerCase()
}

/** The element's role: the first token of an explicit `role`, else the implicit one. */
export function roleOf(el: Element, tag: string, attrs = true): string {
  const explicit = attrs ? el.getAttribute('role') : null
  if (explicit) {
    const first = explicit.trim().split(/\s+/)[0].toLowerCase()
    if (first && first !== 'none' && first !== 'presentation') return first
  }
  const implicit = implicitRoles[tag]
  return implicit ? implicit(el) : ''
}

/** Roles that make an element interactable on their own (WAI-ARIA widget roles). */
export const kWidgetRoles = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem', 'listbox', 'gridcell',
])

/** ElementType for a role (seed 002 §3.1); roles outside the enum map to their closest type. */
const typeByRole: Record<string, ElementType> = {
  button: ElementType.BUTTON,
  link: ElementType.LINK,
  checkbox: ElementType.CHECKBOX,
  switch: ElementType.CHECKBOX,
  menuitemcheckbox: ElementType.CHECKBOX,
  radio: ElementType.RADIO,
  menuitemradio: ElementType.RADIO,
  tab: ElementType.TAB,
  menuitem: ElementType.MENU_ITEM,
  option: ElementType.LIST_ITEM,
  treeitem: ElementType.LIST_ITEM,
  gridcell: ElementType.LIST_ITEM,
  row: ElementType.LIST_ITEM,
  listitem: ElementType.LIST_ITEM,
  combobox: ElementType.SELECT,
  listbox: ElementType.SELECT,
  textbox: ElementType.TEXT_INPUT,
  searchbox: ElementType.TEXT_INPUT,
  spinbutton: ElementType.TEXT_INPUT,
  slider: ElementType.TEXT_INPUT,
  img: ElementType.IMAGE,
}

/** The ElementType of an interactable element, from its tag first and its role second. */
export function elementTypeOf(el: Element, tag: string, role: string): ElementType {
  if (tag === 'input') {
    const type = inputType(el)
    if (type === 'password') return ElementType.PASSWORD_INPUT
    if (type === 'file') return ElementType.FILE_INPUT
    if (type === 'image') return ElementType.BUTTON
    // An <input list> is a combobox role but takes typing.
    if (role === 'combobox') return ElementType.TEXT_INPUT
  }
  if (tag === 'textarea') return ElementType.TEXTAREA
  if (tag === 'select') return ElementType.SELECT
  if (tag === 'video' || tag === 'audio') return ElementType.VIDEO
  if ((tag === 'img' || tag === 'svg' || tag === 'canvas') && (role === 'img' || role === '' || role === 'presentation')) return ElementType.IMAGE
  if (role === 'textbox' && (el.getAttribute('aria-multiline') === 'true' || isEditableHost(el))) return ElementType.TEXTAREA
  if (role === 'combobox' && tag !== 'select' && el.getAttribute('aria-readonly') !== 'true' && (tag === 'input' || isEditableHost(el))) {
    return ElementType.TEXT_INPUT
  }
  if (!role && isEditableHost(el)) return ElementType.TEXTAREA
  return typeByRole[role] ?? ElementType.BUTTON
}

export function isEditableHost(el: Element): boolean {
  const ce = el.getAttribute('contenteditable')
  return ce !== null && ce !== 'false'
}

/** Id prefix per type (seed 002 §3.2: `btn_登录`, `input_搜索`, `link_了解更多`); each is one token. */
export const kIdPrefix: Record<ElementType, string> = {
  button: 'btn',
  link: 'link',
  text_input: 'input',
  password_input: 'password',
  textarea: 'textarea',
  checkbox: 'checkbox',
  radio: 'radio',
  select: 'select',
  file_input: 'file',
  image: 'img',
  video: 'video',
  tab: 'tab',
  menu_item: 'menu',
  list_item: 'item',
}

/** The role a type implies; the listing names the role only when it differs. */
export const kDefaultRole: Record<ElementType, string> = {
  button: 'button',
  link: 'link',
  text_input: 'textbox',
  password_input: 'textbox',
  textarea: 'textbox',
  checkbox: 'checkbox',
  radio: 'radio',
  select: 'combobox',
  file_input: 'button',
  image: 'img',
  video: '',
  tab: 'tab',
  menu_item: 'menuitem',
  list_item: 'option',
}

/** Actions per type (seed 002 §5). */
export const kActions: Record<ElementType, ElementAction[]> = {
  button: ['click', 'hover', 'focus'],
  link: ['click', 'hover', 'focus'],
  text_input: ['type', 'focus', 'submit'],
  password_input: ['type', 'focus', 'submit'],
  textarea: ['type', 'focus'],
  checkbox: ['check', 'click', 'focus'],
  radio: ['check', 'click', 'focus'],
  select: ['select', 'click', 'focus'],
  file_input: ['upload', 'click'],
  image: ['click', 'hover'],
  video: ['click', 'scroll'],
  tab: ['click', 'focus'],
  menu_item: ['click', 'hover'],
  list_item: ['click', 'hover'],
}
