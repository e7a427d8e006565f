/**
 * Event sequences as Chromium sends them for a real person (UI Events, Pointer Events), so
 * frameworks that listen to pointerdown, mousedown or focus react as they would to a hand.
 * Events are dispatched on the element at the point when it lies inside the target, exactly as
 * the browser's hit test would choose it.
 */
import { deepContains, deepElementFromPoint } from '../locators'
import { viewOf } from './dom'

export interface Point {
  x: number
  y: number
}

export function centerOf(el: Element): Point {
  const r = el.getBoundingClientRect()
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
}

/** The innermost element at the target's centre when it belongs to the target, else the target. */
function hitTarget(el: Element, at: Point): Element {
  const hit = deepElementFromPoint(el.ownerDocument, at.x, at.y)
  return hit && deepContains(el, hit) ? hit : el
}

type Mods = { ctrlKey?: boolean; shiftKey?: boolean; altKey?: boolean; metaKey?: boolean }

function mouseInit(el: Element, at: Point, extra: MouseEventInit = {}): MouseEventInit {
  const view = viewOf(el)
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view,
    clientX: at.x,
    clientY: at.y,
    screenX: at.x + view.screenX,
    screenY: at.y + view.screenY,
    ...extra,
  }
}

function pointer(el: Element, type: string, init: MouseEventInit, pressed: boolean): boolean {
  const V = viewOf(el)
  const bubbles = type !== 'pointerenter' && type !== 'pointerleave'
  return el.dispatchEvent(
    new V.PointerEvent(type, {
      ...init,
      bubbles,
      pointerId: 1,
      pointerType: 'mouse',
      isPrimary: true,
      width: 1,
      height: 1,
      pressure: pressed ? 0.5 : 0,
    }),
  )
}

function mouse(el: Element, type: string, init: MouseEventInit): boolean {
  const V = viewOf(el)
  const bubbles = type !== 'mouseenter' && type !== 'mouseleave'
  return el.dispatchEvent(new V.MouseEvent(type, { ...init, bubbles }))
}

/**
 * pointerover, pointerenter, mouseover, mouseenter, pointermove, mousemove: what moving the mouse
 * onto `el` from outside sends. The enter events do not bubble, so, as a browser does, each
 * element entered gets its own, outermost first (Element Plus tooltips listen on the trigger).
 */
export function hover(el: Element, at = centerOf(el)): void {
  const target = hitTarget(el, at)
  const init = mouseInit(target, at)
  pointer(target, 'pointerover', init, false)
  const entered: Element[] = []
  for (
    let n: Element | null = target;
    n;
    n = n.parentElement ?? ((n.getRootNode() as ShadowRoot).host as Element | undefined) ?? null
  )
    entered.unshift(n)
  for (const n of entered) pointer(n, 'pointerenter', init, false)
  mouse(target, 'mouseover', init)
  for (const n of entered) mouse(n, 'mouseenter', init)
  pointer(target, 'pointermove', init, false)
  mouse(target, 'mousemove', init)
}

const kFocusable =
  'a[href],area[href],button,input,select,textarea,iframe,summary,[tabindex],[contenteditable=""],[contenteditable=true]'

/** Focus moves where a mousedown puts it: the closest focusable ancestor, else nowhere. */
function focusOnMouseDown(target: Element): void {
  const doc = target.ownerDocument
  let focusable: Element | null = null
  for (
    let n: Element | null = target;
    n;
    n = n.parentElement ?? ((n.getRootNode() as ShadowRoot).host as Element | null) ?? null
  ) {
    if (n.matches(kFocusable) && !(n as HTMLButtonElement).disabled) {
      focusable = n
      break
    }
  }
  if (focusable) (focusable as HTMLElement).focus({ preventScroll: true })
  else if (doc.activeElement && doc.activeElement !== doc.body) (doc.activeElement as HTMLElement).blur?.()
}

export interface ClickOptions {
  button?: 'left' | 'right' | 'middle'
  count?: number
  modifiers?: Mods
  /** Where on the element, in the top document's CSS pixels (a point named in a screenshot); else its centre. */
  atPage?: Point
}

/** A top-document point in the viewport of `el`'s window now (its scroll may have moved since). */
export function pageToView(el: Element, p: Point): Point {
  const view = viewOf(el)
  return { x: p.x - view.scrollX, y: p.y - view.scrollY }
}

const kButtons = { left: 0, middle: 1, right: 2 } as const

/** Whether a hit at the click point lands on `el`: the element, inside it, or its label or labelled control. */
export function landsOn(el: Element, hit: Element | null): boolean {
  if (!hit) return false
  if (deepContains(el, hit)) return true
  const labels = (el as HTMLInputElement).labels
  if (labels && [...labels].some((l) => deepContains(l, hit))) return true
  return el.localName === 'label' && !!(el as HTMLLabelElement).control && (el as HTMLLabelElement).control === hit
}

/** A click stopped before it landed: what the hit test or the caller's re-check found. */
export interface ClickStopped {
  stopped: string
}

/**
 * The full click: move, then for each click pointerdown, mousedown, focus, pointerup, mouseup,
 * click (detail = click number); a second click adds dblclick; a right click ends in contextmenu.
 * After the move and after each press the point is hit-tested again (Playwright's
 * expectHitTarget): when what lies there is no longer `el` — the page swapped, moved or covered it
 * while its handlers ran — the click stops before its release, and `check` (the gate drawing the
 * element again) may stop it the same way.
 */
export function click(
  el: Element,
  options: ClickOptions = {},
  at = centerOf(el),
  check?: () => string | null,
): ClickStopped | null {
  hover(el, at)
  const button = kButtons[options.button ?? 'left']
  const count = options.count ?? 1
  const stopped = (): ClickStopped | null => {
    const hit = deepElementFromPoint(el.ownerDocument, at.x, at.y)
    if (!el.isConnected || !landsOn(el, hit)) return { stopped: 'hit' }
    const why = check?.()
    return why ? { stopped: why } : null
  }
  for (let i = 1; i <= count; i++) {
    const moved = stopped()
    if (moved) return moved
    // The page may re-render between clicks (a list row replaced on the first click): look again.
    const target = hitTarget(el, at)
    const base = mouseInit(target, at, { button, detail: i, ...options.modifiers })
    pointer(target, 'pointerdown', { ...base, buttons: 1 << (button === 2 ? 1 : button === 1 ? 2 : 0) }, true)
    if (mouse(target, 'mousedown', { ...base, buttons: 1 })) focusOnMouseDown(target)
    const pressed = stopped()
    if (pressed) return pressed
    pointer(target, 'pointerup', { ...base, buttons: 0 }, false)
    mouse(target, 'mouseup', { ...base, buttons: 0 })
    // The release's handlers ran too. A page that acted on the release took the element away or
    // hid it (Select2 picks an option on mouseup and closes its list): that was the click, and no
    // click event goes to whatever is left there. One still drawn gets the click only as the person
    // allowed it, drawn as they saw it.
    if (!el.isConnected || el.getClientRects().length === 0) return null
    const released = check?.()
    if (released) return { stopped: released }
    if (button === 0) mouse(target, 'click', base)
    else if (button === 2) mouse(target, 'contextmenu', base)
    else mouse(target, 'auxclick', base)
    if (i === 2 && button === 0) mouse(target, 'dblclick', base)
  }
  return null
}

/**
 * A drag along `path` (viewport points) as a mouse draws it: the move onto the first point, a
 * press there, a move to each next point with the button held, the release on the last one
 * (Pointer Events; a signature pad or a canvas slider listens to these). The first point is
 * hit-tested like a click's, and `check` (the gate's second look) may stop it before the press.
 */
export function drag(el: Element, path: Point[], check?: () => string | null): ClickStopped | null {
  const first = path[0]
  hover(el, first)
  const hit = deepElementFromPoint(el.ownerDocument, first.x, first.y)
  if (!el.isConnected || !landsOn(el, hit)) return { stopped: 'hit' }
  const why = check?.()
  if (why) return { stopped: why }
  const target = hitTarget(el, first)
  pointer(target, 'pointerdown', mouseInit(target, first, { button: 0, buttons: 1, detail: 1 }), true)
  if (mouse(target, 'mousedown', mouseInit(target, first, { button: 0, buttons: 1, detail: 1 })))
    focusOnMouseDown(target)
  for (const p of path.slice(1)) {
    pointer(target, 'pointermove', mouseInit(target, p, { button: -1, buttons: 1 }), true)
    mouse(target, 'mousemove', mouseInit(target, p, { button: 0, buttons: 1 }))
  }
  const last = path[path.length - 1]
  pointer(target, 'pointerup', mouseInit(target, last, { button: 0, buttons: 0 }), false)
  mouse(target, 'mouseup', mouseInit(target, last, { button: 0, buttons: 0, detail: 1 }))
  return null
}

/** The forced DOM operation of for elements attached but not visible. */
export function forceClick(el: Element): void {
  if (el instanceof viewOf(el).HTMLElement) el.click()
  else el.dispatchEvent(new (viewOf(el).MouseEvent)('click', { bubbles: true, cancelable: true, composed: true }))
}

type TextControl = HTMLInputElement | HTMLTextAreaElement

function valueSetter(el: TextControl): ((v: string) => void) | undefined {
  const V = viewOf(el)
  const proto = el instanceof V.HTMLTextAreaElement ? V.HTMLTextAreaElement.prototype : V.HTMLInputElement.prototype
  const set = Object.getOwnPropertyDescriptor(proto, 'value')?.set
  return set ? (v: string) => set.call(el, v) : undefined
}

/**
 * Sets the value the way the browser does when a person edits it. React tracks the value through
 * an own-property setter on the node, so the prototype's setter is used on purpose: React then
 * sees the change in the input event. Vue's v-model reads `el.value` on `input`.
 */
export function setNativeValue(el: TextControl, value: string): void {
  const set = valueSetter(el)
  if (set) set(value)
  else el.value = value
}

function inputEvent(el: Element, type: 'beforeinput' | 'input', inputType: string, data: string | null): boolean {
  const V = viewOf(el)
  return el.dispatchEvent(
    new V.InputEvent(type, { bubbles: true, cancelable: type === 'beforeinput', composed: true, inputType, data }),
  )
}

/** fill: select everything, replace it in one edit, then input and change. */
export function fill(el: TextControl, value: string): void {
  el.focus({ preventScroll: true })
  try {
    el.select()
  } catch {
    // Some input types (date, number) have no selection API.
  }
  if (!inputEvent(el, 'beforeinput', value ? 'insertText' : 'deleteContentBackward', value || null)) return
  setNativeValue(el, value)
  inputEvent(el, 'input', value ? 'insertText' : 'deleteContentBackward', value || null)
  el.dispatchEvent(new (viewOf(el).Event)('change', { bubbles: true }))
}

export function fillEditable(el: HTMLElement, value: string): void {
  el.focus({ preventScroll: true })
  const sel = el.ownerDocument.getSelection()
  sel?.selectAllChildren(el)
  // execCommand keeps the editor's undo stack and fires beforeinput/input itself.
  if (!el.ownerDocument.execCommand('insertText', false, value)) {
    el.textContent = value
    inputEvent(el, 'input', 'insertText', value)
  }
}

interface KeyInfo {
  key: string
  code: string
  keyCode: number
  /** The text the key inserts, if any. */
  text?: string
}

const kNamedKeys: Record<string, [code: string, keyCode: number]> = {
  Enter: ['Enter', 13],
  Escape: ['Escape', 27],
  Tab: ['Tab', 9],
  Backspace: ['Backspace', 8],
  Delete: ['Delete', 46],
  ArrowUp: ['ArrowUp', 38],
  ArrowDown: ['ArrowDown', 40],
  ArrowLeft: ['ArrowLeft', 37],
  ArrowRight: ['ArrowRight', 39],
  Home: ['Home', 36],
  End: ['End', 35],
  PageUp: ['PageUp', 33],
  PageDown: ['PageDown', 34],
  ' ': ['Space', 32],
  Control: ['ControlLeft', 17],
  Shift: ['ShiftLeft', 16],
  Alt: ['AltLeft', 18],
  Meta: ['MetaLeft', 91],
}

const kKeyAliases: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  space: ' ',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  del: 'Delete',
}

export function keyInfo(name: string): KeyInfo {
  const key =
    kKeyAliases[name.toLowerCase()] ??
    (name.length === 1 ? name : (Object.keys(kNamedKeys).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name))
  const named = kNamedKeys[key]
  if (named)
    return { key, code: named[0], keyCode: named[1], text: key === ' ' ? ' ' : key === 'Enter' ? '\r' : undefined }
  if (key.length === 1) {
    const upper = key.toUpperCase()
    const code = /[a-z]/i.test(key) ? `Key${upper}` : /\d/.test(key) ? `Digit${key}` : ''
    return { key, code, keyCode: upper.charCodeAt(0), text: key }
  }
  return { key, code: key, keyCode: 0 }
}

export interface Chord {
  key: string
  ctrlKey: boolean
  shiftKey: boolean
  altKey: boolean
  metaKey: boolean
}

/** "Control+Shift+K", "${modifier}+A": `${modifier}` is Meta on macOS and Control elsewhere. */
export function parseChord(chord: string, isMac = /Mac|iPhone|iPad/i.test(navigator.platform)): Chord {
  const text = chord.replaceAll('${modifier}', isMac ? 'Meta' : 'Control')
  // "Control++" presses the plus key.
  const parts = text.endsWith('++') ? [...text.slice(0, -2).split('+'), '+'] : text.split('+')
  const names = parts.map((p) => p.trim()).filter(Boolean)
  const key = names.pop() ?? ''
  const has = (...aliases: string[]) => names.some((p) => aliases.includes(p.toLowerCase()))
  return {
    key,
    ctrlKey: has('control', 'ctrl'),
    shiftKey: has('shift'),
    altKey: has('alt', 'option'),
    metaKey: has('meta', 'cmd', 'command', 'super'),
  }
}

function keyboard(el: Element, type: string, info: KeyInfo, mods: Mods): boolean {
  const V = viewOf(el)
  return el.dispatchEvent(
    new V.KeyboardEvent(type, {
      key: info.key,
      code: info.code,
      keyCode: info.keyCode,
      which: info.keyCode,
      bubbles: true,
      cancelable: true,
      composed: true,
      view: V,
      ...mods,
    } as KeyboardEventInit),
  )
}

/** Inserts `text` at the caret of a text control, as typing does. */
function insertAtCaret(el: TextControl, text: string): void {
  let start = el.value.length
  let end = start
  try {
    start = el.selectionStart ?? start
    end = el.selectionEnd ?? end
  } catch {
    // No selection API on this input type: append.
  }
  setNativeValue(el, el.value.slice(0, start) + text + el.value.slice(end))
  try {
    el.setSelectionRange(start + text.length, start + text.length)
  } catch {
    // As above.
  }
}

function deleteBackward(el: TextControl): void {
  const start = el.selectionStart ?? el.value.length
  const end = el.selectionEnd ?? start
  const from = start === end ? Math.max(0, start - 1) : start
  setNativeValue(el, el.value.slice(0, from) + el.value.slice(end))
  el.setSelectionRange(from, from)
}

/**
 * One key press: keydown, keypress (for keys that make text), the edit with beforeinput and
 * input, keyup. Enter in a form field submits the form the way implicit submission
 * does (HTML §4.10.21.2): through the default button when there is one.
 */
export function pressKey(target: Element, chord: string): void {
  const c = parseChord(chord)
  dispatchKey(target, keyInfo(c.key), {
    ctrlKey: c.ctrlKey,
    shiftKey: c.shiftKey,
    altKey: c.altKey,
    metaKey: c.metaKey,
  })
}

export function dispatchKey(target: Element, info: KeyInfo, mods: Mods = {}): void {
  const commands = mods.ctrlKey || mods.metaKey || mods.altKey
  const notPrevented = keyboard(target, 'keydown', info, mods)
  const V = viewOf(target)
  const field =
    target instanceof V.HTMLInputElement || target instanceof V.HTMLTextAreaElement ? (target as TextControl) : null
  const editable = !field && target instanceof V.HTMLElement && target.isContentEditable ? target : null
  if (notPrevented && info.text && !commands) {
    const pressed = keyboard(target, 'keypress', info, mods)
    if (pressed && editable) editableKey(editable, info.key === 'Enter' ? 'insertParagraph' : 'insertText', info.text)
    else if (pressed && field) {
      if (info.key === 'Enter') {
        if (field instanceof V.HTMLTextAreaElement && inputEvent(field, 'beforeinput', 'insertLineBreak', null)) {
          insertAtCaret(field, '\n')
          inputEvent(field, 'input', 'insertLineBreak', null)
        }
      } else if (inputEvent(field, 'beforeinput', 'insertText', info.text)) {
        insertAtCaret(field, info.text)
        inputEvent(field, 'input', 'insertText', info.text)
      }
    }
  } else if (notPrevented && editable && (info.key === 'Backspace' || info.key === 'Delete') && !commands) {
    editableKey(editable, info.key === 'Backspace' ? 'delete' : 'forwardDelete')
  } else if (notPrevented && field && (info.key === 'Backspace' || info.key === 'Delete') && !commands) {
    if (inputEvent(field, 'beforeinput', 'deleteContentBackward', null)) {
      deleteBackward(field)
      inputEvent(field, 'input', 'deleteContentBackward', null)
    }
  } else if (notPrevented && field && commands && info.key.toLowerCase() === 'a') {
    field.select()
  }
  keyboard(target, 'keyup', info, mods)
  if (notPrevented && info.key === 'Enter' && field instanceof V.HTMLInputElement && field.form && !commands)
    implicitSubmit(field.form)
}

/**
 * What a key press does in a contenteditable host: synthetic key events insert nothing there, so
 * the editing command the browser would run for that key runs at the caret (it fires
 * beforeinput/input itself, which rich editors like Quill and ProseMirror read). A caret outside
 * the host goes to its end first.
 */
function editableKey(
  el: HTMLElement,
  command: 'insertText' | 'insertParagraph' | 'delete' | 'forwardDelete',
  text?: string,
): void {
  const doc = el.ownerDocument
  const sel = doc.getSelection()
  // A caret on the host itself, between its blocks, would also start a line of its own.
  // A selection inside the host (everything, before the first key) is replaced, as by a person.
  if (
    sel &&
    (!sel.anchorNode ||
      !el.contains(sel.anchorNode) ||
      (sel.isCollapsed && sel.anchorNode === el && el.firstElementChild))
  ) {
    // The end of the last line, inside its block (an editor's empty line is `<p><br></p>`): a
    // caret after the block would start a new line.
    let box: Node = el
    while (box.lastChild && box.lastChild.nodeType === 1 && box.lastChild.nodeName !== 'BR') box = box.lastChild
    const last = box.lastChild
    if (last?.nodeType === 3) sel.collapse(last, (last as Text).length)
    else sel.collapse(box, last?.nodeName === 'BR' ? box.childNodes.length - 1 : box.childNodes.length)
  }
  if (doc.execCommand(command, false, text) || command !== 'insertText' || text === undefined) return
  el.append(text)
  inputEvent(el, 'input', 'insertText', text)
}

function implicitSubmit(form: HTMLFormElement): void {
  const submitter = form.querySelector(
    'button:not([type]),button[type=submit],input[type=submit],input[type=image]',
  ) as HTMLElement | null
  if (submitter) {
    if (!(submitter as HTMLButtonElement).disabled) submitter.click()
    return
  }
  const fields = form.querySelectorAll(
    'input:not([type]),input[type=text],input[type=email],input[type=password],input[type=search],input[type=tel],input[type=url],input[type=number]',
  )
  if (fields.length === 1) form.requestSubmit()
}

/** type: one key press per character, so keystroke listeners (autocomplete, masks) see each one. */
export async function typeText(
  target: Element,
  text: string,
  delayMs = 0,
  wait: (ms: number) => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  // No change event: a browser sends it when the field loses focus, not after the last key.
  // A rich editor takes in each key from its own observers and selection events, between key
  // presses as it would between a person's: it gets a task's turn after each one.
  const editor = (target as HTMLElement).isContentEditable && !(target instanceof viewOf(target).HTMLInputElement)
  for (const ch of text) {
    dispatchKey(target, keyInfo(ch === '\n' ? 'Enter' : ch))
    if (delayMs > 0) await wait(delayMs)
    else if (editor) await new Promise((r) => setTimeout(r, 0))
  }
}
