/** Element state (ElementState) from native properties first and ARIA second. */
import type { ElementAttrs, ElementState, ElementType } from '../../core/page/snapshot'
import { clip } from '../../core/page/text'
import { holdsSecret } from '../secret-fields'

const kNoNames: string[] = []

/**
 * One element's attributes, their names read once: a record asks about two dozen attributes of
 * which an element carries a few, and `getAttribute` costs a DOM call even for an absent one.
 * Names compare as `getAttribute` matches them for the lower-case names asked here.
 */
export class Attrs {
  private names: string[]

  constructor(private el: Element) {
    this.names = el.hasAttributes() ? el.getAttributeNames() : kNoNames
  }

  get(name: string): string | null {
    return this.names.includes(name) ? this.el.getAttribute(name) : null
  }

  has(name: string): boolean {
    return this.names.includes(name)
  }
}

function ariaBool(attrs: Attrs, name: string): boolean | undefined {
  const v = attrs.get(name)
  if (v === null || v === 'undefined' || v === '') return undefined
  return v === 'true'
}

function matches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector)
  } catch {
    // A DOM without this pseudo-class (older engines, happy-dom) simply reports "no".
    return false
  }
}

/** HTML: a disabled fieldset disables its controls, except those in its first legend. */
function inDisabledFieldset(el: Element): boolean {
  const fieldset = el.closest('fieldset[disabled]')
  if (!fieldset) return false
  const legend = fieldset.querySelector(':scope > legend')
  return !legend || !legend.contains(el)
}

const kFormControls = new Set(['button', 'input', 'select', 'textarea', 'fieldset', 'optgroup', 'option'])

export function readState(
  el: Element,
  tag: string,
  type: ElementType,
  active: Element | null,
  attrs: Attrs,
): ElementState {
  const state: ElementState = { disabled: false }
  // :disabled covers the disabled attribute and a disabled <fieldset> ancestor in one native match.
  if (kFormControls.has(tag) ? matches(el, ':disabled') || (el as HTMLButtonElement).disabled === true : false)
    state.disabled = true
  if (!state.disabled && kFormControls.has(tag) && inDisabledFieldset(el)) state.disabled = true
  if (attrs.get('aria-disabled') === 'true') state.disabled = true

  if (tag === 'input' && (type === 'checkbox' || type === 'radio')) {
    const input = el as HTMLInputElement
    state.checked = input.indeterminate ? 'mixed' : input.checked
  } else {
    const ariaChecked = attrs.get('aria-checked') ?? attrs.get('aria-pressed')
    if (ariaChecked === 'mixed') state.checked = 'mixed'
    else if (ariaChecked === 'true' || ariaChecked === 'false') state.checked = ariaChecked === 'true'
  }
  if (tag === 'option') state.selected = (el as HTMLOptionElement).selected
  else {
    const sel = ariaBool(attrs, 'aria-selected')
    if (sel !== undefined) state.selected = sel
  }
  const expanded = ariaBool(attrs, 'aria-expanded')
  if (expanded !== undefined) state.expanded = expanded
  else if (tag === 'summary' && el.parentElement?.localName === 'details')
    state.expanded = (el.parentElement as HTMLDetailsElement).open

  const readOnly = (tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly
  if (readOnly || attrs.get('aria-readonly') === 'true') state.readonly = true
  if (
    ((tag === 'input' || tag === 'select' || tag === 'textarea') && (el as HTMLInputElement).required) ||
    attrs.get('aria-required') === 'true'
  ) {
    state.required = true
  }
  if (
    attrs.get('aria-invalid') === 'true' ||
    ((tag === 'input' || tag === 'select' || tag === 'textarea') && matches(el, ':user-invalid'))
  )
    state.invalid = true
  if (el === active) state.focused = true

  const value = readValue(el, tag, type, attrs)
  if (value !== undefined) state.value = value
  return state
}

function readValue(el: Element, tag: string, type: ElementType, attrs: Attrs): string | undefined {
  // Never copy a password into a snapshot that may reach an LLM (security notes).
  if (type === 'password_input') return undefined
  if (tag === 'select') {
    const sel = el as HTMLSelectElement
    const texts = Array.from(sel.selectedOptions ?? []).map((o) => o.textContent ?? '')
    return clip(texts.join(', '))
  }
  if (
    tag === 'textarea' ||
    (tag === 'input' && type !== 'checkbox' && type !== 'radio' && type !== 'button' && type !== 'file_input')
  ) {
    const v = (el as HTMLInputElement).value
    // Nor a code, a card number or anything typed from the vault: listed without its value.
    if (typeof v !== 'string' || holdsSecret(el, v !== '')) return undefined
    return clip(v)
  }
  if (type === 'textarea' || type === 'text_input') {
    const now = attrs.get('aria-valuetext') ?? attrs.get('aria-valuenow')
    if (now !== null) return clip(now)
    if (attrs.has('contenteditable')) return holdsSecret(el) ? undefined : clip(el.textContent)
  }
  return undefined
}

/** Key attributes the model benefits from (input type, placeholder, link target, name). */
export function readAttrs(tag: string, attrs: Attrs): ElementAttrs {
  const out: ElementAttrs = {}
  if (tag === 'input') {
    const t = (attrs.get('type') ?? 'text').toLowerCase()
    if (t !== 'text') out.inputType = t
  }
  const placeholder = attrs.get('placeholder')
  if (placeholder) out.placeholder = clip(placeholder)
  if (tag === 'a') {
    const href = attrs.get('href')
    if (href) out.href = clip(href, 120)
  }
  const name = attrs.get('name')
  if (name) out.name = clip(name)
  return out
}
