/**
 * Event sequences as a browser sends them for a real person, so that frameworks listening to
 * pointer, mouse or focus events all see what they expect.
 */
function center(el: Element): { clientX: number; clientY: number } {
  const r = el.getBoundingClientRect()
  return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }
}

export function hover(el: Element): void {
  const at = center(el)
  const init = { bubbles: true, cancelable: true, composed: true, view: window, ...at }
  el.dispatchEvent(new PointerEvent('pointerover', { ...init, pointerType: 'mouse', isPrimary: true }))
  el.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false, pointerType: 'mouse', isPrimary: true }))
  el.dispatchEvent(new MouseEvent('mouseover', init))
  el.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }))
  el.dispatchEvent(new PointerEvent('pointermove', { ...init, pointerType: 'mouse', isPrimary: true }))
  el.dispatchEvent(new MouseEvent('mousemove', init))
}

export function click(el: Element): void {
  hover(el)
  const at = center(el)
  const init = { bubbles: true, cancelable: true, composed: true, view: window, button: 0, ...at }
  el.dispatchEvent(new PointerEvent('pointerdown', { ...init, pointerType: 'mouse', isPrimary: true, buttons: 1 }))
  const downOk = el.dispatchEvent(new MouseEvent('mousedown', { ...init, buttons: 1 }))
  if (downOk && el instanceof HTMLElement) el.focus({ preventScroll: true })
  el.dispatchEvent(new PointerEvent('pointerup', { ...init, pointerType: 'mouse', isPrimary: true }))
  el.dispatchEvent(new MouseEvent('mouseup', init))
  // HTMLElement.click() runs the element's activation behaviour (links, submit buttons, labels).
  if (el instanceof HTMLElement) el.click()
  else el.dispatchEvent(new MouseEvent('click', { ...init, detail: 1 }))
}

/**
 * Sets a form control's value the way typing does. React and Vue track the value through the
 * prototype's setter, so the own-property setter a framework installed is bypassed on purpose.
 */
export function fill(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  el.focus({ preventScroll: true })
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set
  el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType: 'insertText', data: value }))
  if (setter) setter.call(el, value)
  else el.value = value
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }))
  el.dispatchEvent(new Event('change', { bubbles: true }))
}

export function fillEditable(el: HTMLElement, value: string): void {
  el.focus({ preventScroll: true })
  el.textContent = value
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }))
}

const keyCodes: Record<string, { code: string; keyCode: number }> = {
  Enter: { code: 'Enter', keyCode: 13 },
  Escape: { code: 'Escape', keyCode: 27 },
  Tab: { code: 'Tab', keyCode: 9 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  Delete: { code: 'Delete', keyCode: 46 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  ArrowLeft: { code: 'ArrowLeft', keyCode: 37 },
  ArrowRight: { code: 'ArrowRight', keyCode: 39 },
  ' ': { code: 'Space', keyCode: 32 },
}

/** Parses "Control+Shift+K" style chords; `${modifier}` is Meta on macOS and Control elsewhere. */
export function parseChord(chord: string, isMac = /Mac/i.test(navigator.platform)): { key: string; ctrl: boolean; shift: boolean; alt: boolean; meta: boolean } {
  const parts = chord.replace('${modifier}', isMac ? 'Meta' : 'Control').split('+').map((p) => p.trim()).filter(Boolean)
  const key = parts.pop() ?? ''
  const has = (...names: string[]) => parts.some((p) => names.includes(p.toLowerCase()))
  return { key: key === 'Space' ? ' ' : key, ctrl: has('control', 'ctrl'), shift: has('shift'), alt: has('alt', 'option'), meta: has('meta', 'cmd', 'command') }
}

/** Dispatches a key press; Enter in a form field submits the form as a browser would. */
export function press(target: Element, chord: string): void {
  const c = parseChord(chord)
  const info = keyCodes[c.key] ?? { code: c.key.length === 1 ? `Key${c.key.toUpperCase()}` : c.key, keyCode: c.key.length === 1 ? c.key.toUpperCase().charCodeAt(0) : 0 }
  const init = { key: c.key, code: info.code, keyCode: info.keyCode, which: info.keyCode, bubbles: true, cancelable: true, composed: true, ctrlKey: c.ctrl, shiftKey: c.shift, altKey: c.alt, metaKey: c.meta }
  const notPrevented = target.dispatchEvent(new KeyboardEvent('keydown', init))
  if (c.key.length === 1 || c.key === 'Enter') target.dispatchEvent(new KeyboardEvent('keypress', init))
  target.dispatchEvent(new KeyboardEvent('keyup', init))
  if (notPrevented && c.key === 'Enter' && target instanceof HTMLInputElement && target.form) target.form.requestSubmit()
}
