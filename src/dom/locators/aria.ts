/**
 * Roles, accessible names and ARIA states, as far as the `role:` engine, the semantic ladder and
 * the recorder need them. Roles and names are Observe's (src/dom/observe/roles.ts and dom/words),
 * so the locators read a page as the listing the agent saw describes it.
 */
import { normalizeText } from '../../core/page/text'
import {
  accessibleName as nameWithRole,
  nameForPeople as namedForPeople,
  nameOrGuess as namedOrGuessed,
} from '../words'
import { accessibleRole, kImplicitRoleCarriers } from '../observe/roles'

/**
 * CSS that finds every element that may have a role, so the role engine does not visit the
 * whole tree. A contenteditable element is a textbox here (see `roleOf`).
 */
export const kRoleCarriers: Record<string, string> = {
  ...kImplicitRoleCarriers,
  textbox: `${kImplicitRoleCarriers.textbox},[contenteditable]`,
}

/** role="switch checkbox" lists fallbacks; the first token is the role (WAI-ARIA §7.1). A contenteditable element is a textbox. */
export function roleOf(el: Element): string {
  return accessibleRole(el)
}

export function normalize(text: string | null | undefined): string {
  return normalizeText(text ?? '')
}

export { labelText } from '../words'

export function accessibleName(el: Element, role = roleOf(el)): string {
  return nameWithRole(el, role)
}

/** The accessible name, or the name guessed from an icon, and whether it is a guess (dom/words). */
export function nameForPeople(el: Element, role = roleOf(el)): { name: string; guessed: boolean } {
  return namedForPeople(el, role)
}

/** The accessible name, or for an element showing no text the name guessed from its icon (dom/words). */
export function nameOrGuess(el: Element, role = roleOf(el)): string {
  return namedOrGuessed(el, role)
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
  if (
    el instanceof (el.ownerDocument.defaultView ?? window).HTMLInputElement &&
    (el.type === 'checkbox' || el.type === 'radio')
  ) {
    return el.indeterminate ? 'mixed' : el.checked
  }
  const aria = el.getAttribute('aria-checked')
  if (aria === 'mixed') return 'mixed'
  if (aria === 'true' || aria === 'false') return aria === 'true'
  const inner = el.querySelector('input[type=checkbox],input[type=radio],[role=checkbox],[role=switch],[role=radio]')
  if (inner) return checkedState(inner)
  if (
    typeof el.className === 'string' &&
    /(^|\s)(el-switch|el-checkbox|el-radio|ant-switch|ant-checkbox|ant-radio)/.test(el.className)
  )
    return kClassChecked.test(el.className)
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
