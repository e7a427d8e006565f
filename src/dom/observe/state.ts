/** Element state (seed 002 §3, ElementState) from native properties first and ARIA second. */
import { clip } from './text'
import type { ElementAttrs, ElementState, ElementType } from './types'

function ariaBool(el: Element, name: string): boolean | undefined {
  const v = el.getAttribute(name)
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

export function readState(el: Element, tag: string, type: ElementType, active: Element | null): ElementState {
  const state: ElementState = { disabled: false }
  // :disabled covers the disabled attribute and a disabled <fieldset> ancestor in one native match.
  if (kFormControls.has(tag) ? matches(el, ':disabled') || (el as HTMLButtonElement).disabled === true : false) state.disabled = true
  if (!state.disabled && kFormControls.has(tag) && inDisabledFieldset(el)) state.disabled = true
  if (el.getAttribute('aria-disabled') === 'true') state.disabled = true

  if (tag === 'input' && (type === 'checkbox' || type === 'radio')) {
    const input = el as HTMLInputElement
    state.checked = input.indeterminate ? 'mixed' : input.checked
  } else {
    const ariaChecked = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed')
    if (ariaChecked === 'mixed') state.checked = 'mixed'
    else if (ariaChecked === 'true' || ariaChecked === 'false') state.checked = ariaChecked === 'true'
  }
  if (tag === 'option') state.selected = (el as HTMLOptionElement).selected
  else {
    const sel = ariaBool(el, 'aria-selected')
    if (sel !== undefined) state.selected = sel
  }
  const expanded = ariaBool(el, 'aria-expanded')
  if (expanded !== undefined) state.expanded = expanded
  else if (tag === 'summary' && el.parentElement?.localName === 'details') state.expanded = (el.parentElement as HTMLDetailsElement).open

  const readOnly = (tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly
  if (readOnly || el.getAttribute('aria-readonly') === 'true') state.readonly = true
  if (((tag === 'input' || tag === 'select' || tag === 'textarea') && (el as HTMLInputElement).required) || el.getAttribute('aria-required') === 'true') {
    state.required = true
  }
  if (el.getAttribute('aria-invalid') === 'true' || ((tag === 'input' || tag === 'select' || tag === 'textarea') && matches(el, ':user-invalid'))) state.invalid = true
  if (el === active) state.focused = true

  const value = readValue(el, tag, type)
  if (value !== undefined) state.value = value
  return state
}

function readValue(el: Element, tag: string, type: ElementType): string | undefined {
  // Never copy a password into a snapshot that may reach an LLM (seed 003, security notes).
  if (type === 'password_input') return undefined
  if (tag === 'select') {
    const sel = el as HTMLSelectElement
    const texts = Array.from(sel.selectedOptions ?? []).map((o) => o.textContent ?? '')
    return clip(texts.join(', '))
  }
  if (tag === 'textarea' || (tag === 'input' && type !== 'checkbox' && type !== 'radio' && type !== 'button' && type !== 'file_input')) {
    const v = (el as HTMLInputElement).value
    return typeof v === 'string' ? clip(v) : undefined
  }
  if (type === 'textarea' || type === 'text_input') {
    const now = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow')
    if (now !== null) return clip(now)
    if (el.getAttribute('contenteditable') !== null) return clip(el.textContent)
  }
  return undefined
}

/** Key attributes the model benefits from (input type, placeholder, link target, name). */
export function readAttrs(el: Element, tag: string): ElementAttrs {
  const attrs: ElementAttrs = {}
  if (tag === 'input') {
    const t = (el.getAttribute('type') ?? 'text').toLowerCase()
    if (t !== 'text') attrs.inputType = t
  }
  const placeholder = el.getAttribute('placeholder')
  if (placeholder) attrs.placeholder = clip(placeholder)
  if (tag === 'a') {
    const href = el.getAttribute('href')
    if (href) attrs.href = clip(href, 120)
  }
  const name = el.getAttribute('name')
  if (name) attrs.name = clip(name)
  return attrs
}
