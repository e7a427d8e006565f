/**
 * The page side of recording: listens to what the person does — clicks, typing,
 * selections, key presses, scrolls — and emits one RawEvent per action, with the element's
 * selectors and snapshot generated at that moment (a click may remove its element a moment
 * later). Noise is dropped afterwards, in core (src/core/flows/record.ts). Values typed into
 * password fields, or that look like secrets, never leave the page.
 */
import type { RawEvent, RecordedTarget } from '../../core/flows/record'
import { looksSecret } from '../../core/flows/variables'
import { accessibleName, checkedState, isDisabled, normalize, roleOf } from '../locators'
import { isTextField, kAvaUiAttr, labelOf, visibleTextOf } from '../executor/dom'
import { holdsSecret } from '../secret-fields'
import { generateSelectors, snapshotOf } from './selectors'

/** Ancestors climbed from what was clicked to the control a person meant (an icon inside a button). */
const kMaxClimb = 5
/** A description of a field is reused while the person types into it (selectors are not free). */
const kDescribeReuseMs = 2_000
/** A scroll burst ends after this much quiet; then we look whether the page grew. */
const kScrollQuietMs = 400
const kInteractiveRoles = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'checkbox',
  'radio',
  'switch',
  'treeitem',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
])

export interface RecorderOptions {
  emit: (event: RawEvent) => void
  signal: AbortSignal
}

let counter = 0
const keys = new WeakMap<Element, string>()
function keyOf(el: Element): string {
  let k = keys.get(el)
  if (!k) keys.set(el, (k = `e${++counter}`))
  return k
}

/** The control a click meant: the element itself, or the closest interactive ancestor. */
export function actionTarget(start: Element): Element {
  let n: Element | null = start
  for (let i = 0; n && i <= kMaxClimb; i++, n = n.parentElement) {
    if (/^(button|a|input|select|textarea|summary|label|option)$/.test(n.localName)) return n
    if (kInteractiveRoles.has(roleOf(n)) || n.hasAttribute('onclick') || (n as HTMLElement).isContentEditable) return n
  }
  return start
}

function fieldInfo(el: Element): RecordedTarget['field'] {
  const input = el as HTMLInputElement
  return {
    type: el.localName === 'input' ? input.type || 'text' : el.localName,
    ...(el.getAttribute('name') ? { name: el.getAttribute('name')! } : {}),
    ...(el.getAttribute('autocomplete') ? { autocomplete: el.getAttribute('autocomplete')! } : {}),
    // The field's accessible name (dom/words/accname.ts: labels, aria, title, placeholder), as the listing shows it.
    label: accessibleName(el, roleOf(el) || 'textbox') || labelOf(el),
  }
}

const described = new WeakMap<Element, { at: number; target: RecordedTarget }>()

export function describe(el: Element): RecordedTarget | null {
  const cached = described.get(el)
  if (cached && Date.now() - cached.at < kDescribeReuseMs && el.isConnected) return cached.target
  const selectors = generateSelectors(el)
  if (!selectors) return null
  const target: RecordedTarget = { selectors, snapshot: snapshotOf(el), key: keyOf(el), description: labelOf(el) }
  if (/^(input|textarea|select)$/.test(el.localName) || (el as HTMLElement).isContentEditable)
    target.field = fieldInfo(el)
  described.set(el, { at: Date.now(), target })
  return target
}

function isOurs(el: Element): boolean {
  return !!el.closest(`[${kAvaUiAttr}]`)
}

function isToggle(el: Element): boolean {
  if (el.localName === 'input') return /^(checkbox|radio)$/.test((el as HTMLInputElement).type)
  if (el.localName === 'label') {
    const control = (el as HTMLLabelElement).control
    return !!control && control.localName === 'input' && /^(checkbox|radio)$/.test((control as HTMLInputElement).type)
  }
  return false
}

function clickRole(el: Element): 'field' | 'toggle' | 'select' | 'other' {
  if (isToggle(el)) return 'toggle'
  if (el.localName === 'select' || el.localName === 'option') return 'select'
  if (isTextField(el) || (el as HTMLElement).isContentEditable) return 'field'
  return 'other'
}

function chord(e: KeyboardEvent): string {
  const mods = [
    e.ctrlKey && 'Control',
    e.metaKey && 'Meta',
    e.altKey && 'Alt',
    e.shiftKey && e.key.length > 1 && 'Shift',
  ].filter(Boolean)
  return [...mods, e.key].join('+')
}

/** Keys that are steps of their own; letters typed into a field are covered by its final value. */
function isStepKey(e: KeyboardEvent, inField: boolean): boolean {
  if (e.isComposing || ['Control', 'Shift', 'Alt', 'Meta', 'CapsLock'].includes(e.key)) return false
  if (e.ctrlKey || e.metaKey || e.altKey) return true
  if (e.key.length === 1) return !inField && e.key !== ' '
  return true
}

function eventElement(e: Event): Element | null {
  // Inside open shadow roots the composed path starts at the real target.
  const first = e.composedPath()[0]
  return first instanceof Element ? first : e.target instanceof Element ? e.target : null
}

/** Text longer than this is content, not something a check should pin word for word. */
const kMaxCheckText = 100

/**
 * "Check this": what an element shows now, as the assertion a replay repeats. A
 * field's value (a secret one only as being there), a box's checked state, a disabled control,
 * the element's own short text, or else that it is visible.
 */
export function checkOf(el: Element): Extract<RawEvent, { kind: 'check' }>['check'] {
  const V = el.ownerDocument.defaultView ?? window
  if (isDisabled(el)) return { state: 'disabled' }
  const c = checkedState(el)
  if (c === true || c === false) return { state: c ? 'checked' : 'unchecked' }
  if (el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement || el instanceof V.HTMLSelectElement) {
    const field = el.localName === 'select' ? undefined : fieldInfo(el)
    if (holdsSecret(el) || looksSecret(el.value, field)) return { state: 'visible' }
    return { value: el.value }
  }
  const text = visibleTextOf(el)
  return text && text.length <= kMaxCheckText ? { text } : { state: 'visible' }
}

/**
 * The element a check picks: the one under the pointer, not the control around it — a person
 * Alt+clicking a message means the message (the climb of actionTarget is for what a click meant).
 */
function checkTarget(raw: Element): Element {
  // A switch or box is drawn with spans around a hidden input: the input holds the state.
  const box = raw.closest(kToggleWrappers)
  const toggle = box && (box.matches(kToggles) ? box : box.querySelector(kToggles))
  if (toggle) return toggle
  const control = actionTarget(raw)
  return /^(input|select|textarea)$/.test(control.localName) ? control : raw
}
const kToggles = 'input[type=checkbox],input[type=radio],[role=switch],[role=checkbox],[role=radio]'
/** What a person clicks on to mean a toggle: its label, or a component library's wrapper. */
const kToggleWrappers = `${kToggles},label,.el-switch,.el-checkbox,.el-radio,.ant-switch,.ant-checkbox-wrapper,.ant-radio-wrapper`

/**
 * A text check finds its element by anything but that text: the check is there to notice when
 * the text changes, and a selector made of it would then find nothing to compare.
 */
function withoutText(target: RecordedTarget): RecordedTarget {
  const rest = [target.selectors.primary, ...target.selectors.fallback].filter((s) => s.type !== 'text')
  if (!rest.length) return target
  return { ...target, selectors: { primary: rest[0], fallback: rest.slice(1) } }
}

/** Starts listening; everything stops when `signal` aborts. */
export function startRecording({ emit, signal }: RecorderOptions): void {
  const url = () => location.href
  const opts = { capture: true, passive: true, signal } as const
  const early = new WeakMap<Element, RecordedTarget>()
  emit({ kind: 'load', t: Date.now(), url: url() })

  // Alt+click picks "check this": the page never sees that click (window capture runs first), so
  // checking a button does not press it.
  const picking = { capture: true, signal } as const
  // Read when the button goes down: by the click, a checkbox has already flipped (and flips back
  // because the click is cancelled).
  let picked: { el: Element; check: ReturnType<typeof checkOf> } | null = null
  for (const type of [
    'pointerdown',
    'mousedown',
    'pointerup',
    'mouseup',
    'click',
    'auxclick',
    'contextmenu',
  ] as const) {
    window.addEventListener(
      type,
      (e) => {
        const raw = eventElement(e)
        if (!(e as MouseEvent).altKey || !e.isTrusted || !raw || isOurs(raw)) return
        e.preventDefault()
        e.stopImmediatePropagation()
        const el = checkTarget(raw)
        if (type === 'pointerdown') picked = { el, check: checkOf(el) }
        if (type !== 'click') return
        const check = picked?.el === el ? picked.check : checkOf(el)
        picked = null
        const target = describe(el)
        if (target)
          emit({
            kind: 'check',
            t: Date.now(),
            url: url(),
            target: 'text' in check ? withoutText(target) : target,
            check,
          })
      },
      picking,
    )
  }

  document.addEventListener(
    'pointerdown',
    (e) => {
      const raw = eventElement(e)
      if (!raw || isOurs(raw)) return
      const el = actionTarget(raw)
      const target = describe(el)
      if (target) early.set(el, target)
    },
    opts,
  )
  const hovers = watchHoverReveals(signal)
  document.addEventListener(
    'click',
    (e) => {
      const raw = eventElement(e)
      if (!raw || isOurs(raw) || !e.isTrusted) return
      const el = actionTarget(raw)
      const target = early.get(el) ?? describe(el)
      if (!target) return
      const trigger = hovers.triggerOf(el)
      const hovered = trigger && describe(trigger)
      if (hovered) emit({ kind: 'hover', t: Date.now(), url: url(), target: hovered })
      const button = e.button === 2 ? 'right' : e.button === 1 ? 'middle' : 'left'
      emit({
        kind: 'click',
        t: Date.now(),
        url: url(),
        target,
        button,
        count: e.detail >= 2 ? 2 : 1,
        role: clickRole(el),
      })
    },
    opts,
  )
  const onInput = (e: Event) => {
    const el = eventElement(e)
    if (!el || isOurs(el) || !e.isTrusted) return
    const editable = isTextField(el)
      ? el
      : (el as HTMLElement).isContentEditable
        ? el.closest('[contenteditable]')
        : null
    if (!editable) return
    const target = describe(editable)
    if (!target) return
    const value = isTextField(editable) ? editable.value : normalize(editable.textContent)
    const secret = looksSecret(value, target.field)
    emit({ kind: 'input', t: Date.now(), url: url(), target, secret, ...(secret ? {} : { value }) })
  }
  document.addEventListener('input', onInput, opts)
  document.addEventListener(
    'change',
    (e) => {
      const el = eventElement(e)
      if (!el || isOurs(el) || !e.isTrusted) return
      const target = describe(el)
      if (!target) return
      if (el.localName === 'select') {
        const select = el as HTMLSelectElement
        emit({
          kind: 'change',
          t: Date.now(),
          url: url(),
          target,
          control: 'select',
          value: select.multiple ? [...select.selectedOptions].map((o) => o.value).join(',') : select.value,
        })
      } else if (el.localName === 'input' && /^(checkbox|radio)$/.test((el as HTMLInputElement).type)) {
        emit({
          kind: 'change',
          t: Date.now(),
          url: url(),
          target,
          control: (el as HTMLInputElement).type as 'checkbox' | 'radio',
          checked: (el as HTMLInputElement).checked,
        })
      }
    },
    opts,
  )
  document.addEventListener(
    'keydown',
    (e) => {
      const el = eventElement(e)
      if (el && isOurs(el)) return
      const focused = document.activeElement && document.activeElement !== document.body ? document.activeElement : null
      // Letters typed on a focused select choose an option; its change event is the step.
      const inField =
        !!focused &&
        (isTextField(focused) || (focused as HTMLElement).isContentEditable || focused.localName === 'select')
      if (!e.isTrusted || !isStepKey(e, inField)) return
      const target = focused && focused.localName !== 'iframe' ? describe(focused) : null
      emit({ kind: 'key', t: Date.now(), url: url(), key: chord(e), inField, ...(target ? { target } : {}) })
    },
    opts,
  )

  let scrollStart: { y: number; height: number } | null = null
  let quiet: ReturnType<typeof setTimeout> | undefined
  window.addEventListener(
    'scroll',
    () => {
      scrollStart ??= { y: window.scrollY, height: document.documentElement.scrollHeight }
      clearTimeout(quiet)
      quiet = setTimeout(() => {
        const start = scrollStart!
        scrollStart = null
        if (signal.aborted) return
        emit({
          kind: 'scroll',
          t: Date.now(),
          url: url(),
          direction: window.scrollY >= start.y ? 'down' : 'up',
          grew: document.documentElement.scrollHeight > start.height,
        })
      }, kScrollQuietMs)
    },
    opts,
  )
  signal.addEventListener('abort', () => clearTimeout(quiet), { once: true })
}

/** How soon after the pointer arrives a change of the page counts as its hover's doing. */
const kHoverRevealMs = 600
/** Hover reveals remembered at once (menus a person opened on the way). */
const kHoverReveals = 20

/**
 * Menus that open on hover: the pointer arriving on an element, then within a moment
 * the page adding elements or changing classes or styles, means that element's hover showed them.
 * A click later inside what was shown needs that hover first at replay; a click on the hovered
 * element itself (a button that only restyles on hover) does not.
 */
function watchHoverReveals(signal: AbortSignal): { triggerOf(clicked: Element): Element | null } {
  let over: { el: Element; t: number } | null = null
  const reveals: { root: Element; by: Element }[] = []
  document.addEventListener(
    'pointerover',
    (e) => {
      const raw = eventElement(e)
      if (raw && e.isTrusted && !isOurs(raw)) over = { el: raw, t: Date.now() }
    },
    { capture: true, passive: true, signal },
  )
  // What changes after a press or a key is that action's doing (a select opening on its click),
  // not the hover's: the hover window closes with them.
  for (const type of ['pointerdown', 'keydown'] as const)
    document.addEventListener(type, () => (over = null), { capture: true, passive: true, signal })
  const observer = new MutationObserver((records) => {
    if (!over || Date.now() - over.t > kHoverRevealMs) return
    for (const r of records) {
      const roots =
        r.type === 'childList'
          ? [...r.addedNodes].filter((n): n is Element => n instanceof Element)
          : r.target instanceof Element
            ? [r.target]
            : []
      for (const root of roots) {
        // Changes inside content the pointer is already in (a menu item's own hover style) show
        // nothing new; the hovered element itself changing (a menu gaining "open") may.
        if (isOurs(root) || (root !== over.el && root.contains(over.el))) continue
        reveals.push({ root, by: over.el })
      }
    }
    reveals.splice(0, Math.max(0, reveals.length - kHoverReveals))
  })
  observer.observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['class', 'style', 'hidden', 'open', 'aria-expanded'],
  })
  signal.addEventListener('abort', () => observer.disconnect(), { once: true })
  return {
    triggerOf(clicked) {
      for (let i = reveals.length - 1; i >= 0; i--) {
        const { root, by } = reveals[i]
        if (!root.isConnected || !by.isConnected || !root.contains(clicked)) continue
        // The clicked element was the one hovered (or holds it): its hover only restyled it.
        if (clicked.contains(by)) continue
        return actionTarget(by)
      }
      return null
    },
  }
}
