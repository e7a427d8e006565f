import type { DomActionName } from '../core/page/command'
import { domAction } from '../core/vocabulary'

/**
 * Where a step would take the page, worked out before it acts: a link followed in
 * this tab or another, a form sent by its button, by Enter in one of its fields (implicit
 * submission) or by the `submit` action. Whether that place is allowed is core's decision
 * (src/core/offsite.ts); what a page script does afterwards is the background gate's to catch.
 */
export interface StepNavigation {
  /** The absolute URL the browser would load. */
  url: string
  /** Opens in another tab or a named window (`target` other than _self, _parent, _top). */
  newTab: boolean
  /** A form submission: the form's fields go along (GET: in the address itself). */
  form?: { method: 'get' | 'post' }
}

/** Elements whose own `type` makes them submit their form when activated. */
const kSubmitTypes = new Set(['submit', 'image'])

/** The last key of a chord ("Control+Enter" → "Enter"); "+" alone is the plus key. */
function mainKey(key: string): string {
  const parts = key.split('+')
  return parts.at(-1) || (key.endsWith('+') ? '+' : key)
}

function resolve(raw: string | null, doc: Document): string | null {
  try {
    return new URL(raw ?? '', doc.baseURI).href
  } catch {
    return null
  }
}

function opensNewTab(target: string | null): boolean {
  const t = (target ?? '').trim().toLowerCase()
  return !!t && t !== '_self' && t !== '_parent' && t !== '_top'
}

function linkOf(el: Element): StepNavigation | null {
  const a = el.closest('a[href], area[href]')
  if (!a) return null
  const url = resolve(a.getAttribute('href'), a.ownerDocument)
  return url ? { url, newTab: opensNewTab(a.getAttribute('target')) } : null
}

/** The button that submits its form when activated, if `el` is (inside) one. */
function submitterOf(el: Element): HTMLButtonElement | HTMLInputElement | null {
  const b = el.closest('button, input')
  if (!b) return null
  const type = (b.getAttribute('type') ?? (b.localName === 'button' ? 'submit' : 'text')).toLowerCase()
  return kSubmitTypes.has(type) ? (b as HTMLButtonElement | HTMLInputElement) : null
}

function formOf(el: Element): HTMLFormElement | null {
  const owner = el.getAttribute('form')
  if (owner) {
    const byId = el.ownerDocument.getElementById(owner)
    if (byId?.localName === 'form') return byId as HTMLFormElement
  }
  return el.closest('form')
}

/** The first submit button of a form: the one implicit submission (Enter) clicks. */
function defaultButton(form: HTMLFormElement): Element | null {
  for (const el of Array.from(form.ownerDocument.querySelectorAll('button, input')))
    if (formOf(el) === form && submitterOf(el) === el) return el
  return null
}

/** A form sent by `submitter` (or by the form itself): where it goes, as the browser reads the attributes. */
function submission(form: HTMLFormElement, submitter: Element | null): StepNavigation | null {
  const attr = (name: string) => submitter?.getAttribute(`form${name}`) ?? form.getAttribute(name)
  const method = (attr('method') ?? 'get').trim().toLowerCase()
  if (method === 'dialog') return null // closes a dialog; nothing is loaded
  const action = attr('action')
  const url = resolve(action && action.trim() ? action : null, form.ownerDocument)
  return url ? { url, newTab: opensNewTab(attr('target')), form: { method: method === 'post' ? 'post' : 'get' } } : null
}

/** Fields where Enter types a new line or opens a list rather than sending the form. */
function enterStaysInField(el: Element): boolean {
  if (el.localName === 'textarea' || el.localName === 'select') return true
  if ((el as HTMLElement).isContentEditable) return true
  return el.localName !== 'input'
}

/**
 * Where `action` on `el` would navigate the page, or null when it would not. `key` is the press
 * action's key. Errs on the side of a navigation: a form that a script would stop from sending
 * is still treated as sent.
 */
export function navigationOf(el: Element, action: DomActionName, key = ''): StepNavigation | null {
  // Keys go to the focused element of a same-origin frame, as the press action sends them.
  while (el.localName === 'iframe') {
    const inner = (el as HTMLIFrameElement).contentDocument?.activeElement
    if (!inner || inner === el) break
    el = inner
  }
  const sends = domAction(action).sends
  if (sends === 'form') {
    const form = el.localName === 'form' ? (el as HTMLFormElement) : formOf(el)
    return form ? submission(form, null) : null
  }
  let activates = sends === 'activation'
  if (sends === 'key') {
    const k = mainKey(key)
    const space = k === ' ' || k.toLowerCase() === 'space'
    if (k === 'Enter') {
      activates = !!linkOf(el) || !!submitterOf(el)
      if (!activates) {
        const form = enterStaysInField(el) ? null : formOf(el)
        return form ? submission(form, defaultButton(form)) : null
      }
    } else activates = space && !!submitterOf(el) // Space presses buttons, never follows links
  }
  if (!activates) return null
  const link = linkOf(el)
  if (link) return link
  const submitter = submitterOf(el)
  const form = submitter ? formOf(submitter) : null
  return form ? submission(form, submitter) : null
}
