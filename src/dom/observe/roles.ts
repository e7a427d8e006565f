/**
 * Roles, element types and what can be done with each: descriptor tables, not switches.
 * Implicit roles follow HTML-AAM ("HTML Element Role Mappings"); only the elements the engine
 * cares about are listed, everything else is generic.
 */
import { ElementType } from '../../core/page/snapshot'

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

interface ImplicitRole {
  /** Every role `of` can return: the `role:` engine's CSS for a role is built from these. */
  roles: readonly string[]
  of: RoleOf
}

const always = (role: string): ImplicitRole => ({ roles: [role], of: () => role })

/** HTML-AAM implicit roles, keyed by lower-case local name. */
const implicitRoles: Record<string, ImplicitRole> = {
  a: { roles: ['link'], of: (el) => (el.hasAttribute('href') ? 'link' : '') },
  area: { roles: ['link'], of: (el) => (el.hasAttribute('href') ? 'link' : '') },
  button: always('button'),
  input: {
    roles: [...new Set([...Object.values(inputRoles), 'textbox', 'combobox'])],
    of: (el) => {
      const type = inputType(el)
      if (type === 'hidden') return ''
      if (
        (type === 'text' || type === 'search' || type === 'email' || type === 'tel' || type === 'url') &&
        el.hasAttribute('list')
      )
        return 'combobox'
      return inputRoles[type] ?? 'textbox'
    },
  },
  select: {
    roles: ['combobox', 'listbox'],
    of: (el) => ((el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'),
  },
  textarea: always('textbox'),
  option: always('option'),
  summary: always('button'),
  img: { roles: ['img', 'presentation'], of: (el) => (el.getAttribute('alt') === '' ? 'presentation' : 'img') },
  h1: always('heading'),
  h2: always('heading'),
  h3: always('heading'),
  h4: always('heading'),
  h5: always('heading'),
  h6: always('heading'),
  nav: always('navigation'),
  main: always('main'),
  aside: always('complementary'),
  header: { roles: ['banner'], of: (el) => (inSectioningContent(el) ? '' : 'banner') },
  footer: { roles: ['contentinfo'], of: (el) => (inSectioningContent(el) ? '' : 'contentinfo') },
  form: always('form'),
  search: always('search'),
  dialog: always('dialog'),
  table: always('table'),
  tr: always('row'),
  td: always('cell'),
  th: always('columnheader'),
  ul: always('list'),
  ol: always('list'),
  menu: always('list'),
  li: always('listitem'),
  article: always('article'),
  fieldset: always('group'),
  details: always('group'),
  progress: always('progressbar'),
}

/** header/footer are landmarks only when not scoped to article, aside, main, nav or section. */
function inSectioningContent(el: Element): boolean {
  return el.parentElement?.closest('article,aside,main,nav,section') != null
}

export function inputType(el: Element): string {
  return (el.getAttribute('type') ?? 'text').toLowerCase()
}

/** The first token of a `role` attribute, lower-cased; '' for none, presentation or no attribute. */
export function explicitRole(value: string | null): string {
  if (!value) return ''
  const first = value.trim().split(/\s+/)[0].toLowerCase()
  return first === 'none' || first === 'presentation' ? '' : first
}

/** The element's role: the first token of an explicit `role`, else the implicit one. */
export function roleOf(el: Element, tag: string, attrs = true): string {
  const explicit = attrs ? explicitRole(el.getAttribute('role')) : ''
  if (explicit) return explicit
  const implicit = implicitRoles[tag]
  return implicit ? implicit.of(el) : ''
}

/**
 * The role a person and assistive technology meet: `roleOf`, and an editing host is a textbox
 * (a rich-text editor is what a person calls a text box; the scanner lists it by type instead).
 */
export function accessibleRole(el: Element, tag = el.localName): string {
  const explicit = explicitRole(el.getAttribute('role'))
  if (explicit) return explicit
  // The attribute first: `isContentEditable` may bring the page's style up to date.
  if (el.getAttribute('contenteditable') !== null && (el as HTMLElement).isContentEditable) return 'textbox'
  return roleOf(el, tag, false)
}

/**
 * CSS per role for the elements that may have it, from the same table `roleOf` reads: the tags
 * whose implicit role can be it, and any element that names it (the caller still checks `roleOf`).
 */
export const kImplicitRoleCarriers: Record<string, string> = (() => {
  const tagsByRole: Record<string, string[]> = {}
  for (const [tag, implicit] of Object.entries(implicitRoles))
    for (const role of implicit.roles) (tagsByRole[role] ??= []).push(tag)
  const out: Record<string, string> = {}
  for (const [role, tags] of Object.entries(tagsByRole)) out[role] = [...tags, `[role~="${role}" i]`].join(',')
  return out
})()

/** Roles that make an element interactable on their own (WAI-ARIA widget roles). */
export const kWidgetRoles = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
  'listbox',
  'gridcell',
])

/** ElementType for a role; roles outside the enum map to their closest type. */
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
  if (
    (tag === 'img' || tag === 'svg' || tag === 'canvas') &&
    (role === 'img' || role === '' || role === 'presentation')
  )
    return ElementType.IMAGE
  if (role === 'textbox' && (el.getAttribute('aria-multiline') === 'true' || isEditableHost(el)))
    return ElementType.TEXTAREA
  if (
    role === 'combobox' &&
    tag !== 'select' &&
    el.getAttribute('aria-readonly') !== 'true' &&
    (tag === 'input' || isEditableHost(el))
  ) {
    return ElementType.TEXT_INPUT
  }
  if (!role && isEditableHost(el)) return ElementType.TEXTAREA
  return typeByRole[role] ?? ElementType.BUTTON
}

export function isEditableHost(el: Element): boolean {
  const ce = el.getAttribute('contenteditable')
  return ce !== null && ce !== 'false'
}
