/**
 * Small DOM facts the executor needs everywhere: visibility, a printable name for an element,
 * the element a person's click would really land on, and the editable field behind a widget.
 */
import { accessibleName, nameForPeople, normalize, roleOf } from '../locators'
import { holdsSecret } from '../secret-fields'
import { widgetPlaceholder } from '../words'

/** Attribute on Ava's own UI (launcher, panel host): never a target. */
export const kAvaUiAttr = 'data-ava-ui'

export function viewOf(el: Node): Window & typeof globalThis {
  return ((el.ownerDocument ?? (el as Document)).defaultView ?? window) as Window & typeof globalThis
}

/** Ancestors looked at for a zero-size clipping box; accessibility-only lists sit right under one. */
const kClipDepth = 6

export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false
  const r = el.getBoundingClientRect()
  if (r.width === 0 && r.height === 0) return false
  // opacity 0 counts as hidden: Element Plus and Ant Design hide native inputs that way.
  if (
    typeof el.checkVisibility === 'function' &&
    !el.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions)
  )
    return false
  // Ant Design renders an accessibility copy of its options inside a 0×0 overflow-hidden box.
  let n = el.parentElement
  for (let i = 0; n && i < kClipDepth; i++, n = n.parentElement) {
    const b = n.getBoundingClientRect()
    if ((b.width === 0 || b.height === 0) && viewOf(n).getComputedStyle(n).overflow !== 'visible') return false
  }
  return true
}

/** `div.el-overlay`, `button#save`, `input[name=user]`: how messages name an element. */
export function shortName(el: Element): string {
  const tag = el.localName
  if (el.id && el.id.length < 30 && !/\d{3,}/.test(el.id)) return `${tag}#${el.id}`
  const cls =
    typeof el.className === 'string'
      ? el.className
          .trim()
          .split(/\s+/)
          .filter((c) => c && !c.startsWith('is-') && c.length < 40)[0]
      : ''
  if (cls) return `${tag}.${cls}`
  const name = el.getAttribute('name')
  return name ? `${tag}[name=${name}]` : tag
}

/** What a person would call the element: its accessible name, else its text, else its short name. */
export function labelOf(el: Element, max = 50): string {
  // A wrapper widget (an Element Plus switch) is named by the control inside it.
  const inner = () => {
    const control = el.querySelector('input:not([type=hidden]),[role],button,select,textarea')
    return control ? accessibleName(control) : ''
  }
  // Select widgets show their placeholder beside the input, not on it.
  const placeholder = () => normalize(widgetPlaceholder(el, true))
  // The one name computation (dom/words/accname.ts); an element without a role is named as the button
  // it acts as, from its content, or from its icon. Long text is a container's content, not its name.
  const role = roleOf(el)
  const own = nameForPeople(el, role || 'button').name
  const name =
    (role || own.length <= 60 ? own : '') || inner() || placeholder() || el.getAttribute('name') || shortName(el)
  return name.length > max ? `${name.slice(0, max - 1)}…` : name
}

export function quoteLabel(el: Element): string {
  return `"${labelOf(el)}"`
}

/** Page texts as results quote them, `"a", "b"`: the page's words are data, never translated. */
export function quoteTexts(texts: string[]): string {
  return texts.map((t) => `"${t}"`).join(', ')
}

const kClickable =
  'button,a[href],[role=button],[role=link],[role=menuitem],[role=option],[role=tab],[role=checkbox],[role=radio],[role=switch],summary,label'

/**
 * Playwright retargets a click on a button's inner span to the button; we do the same, so
 * actionability (enabled, hit target) is judged on the control a person means.
 */
export function retarget(el: Element): Element {
  if (el.matches('input,textarea,select,button,a[href],[contenteditable=""],[contenteditable=true]')) return el
  return el.closest(kClickable) ?? el
}

/** The text field behind a wrapper (`.el-input`, a label, an Ant Design picker), or null. */
export function editableOf(el: Element): HTMLInputElement | HTMLTextAreaElement | HTMLElement | null {
  const V = viewOf(el)
  if (el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement) return el
  if (el instanceof V.HTMLElement && el.isContentEditable) return el
  if (
    el instanceof V.HTMLLabelElement &&
    el.control &&
    (el.control instanceof V.HTMLInputElement || el.control instanceof V.HTMLTextAreaElement)
  )
    return el.control
  const inner = el.querySelector(
    'input:not([type=hidden]):not([type=checkbox]):not([type=radio]),textarea,[contenteditable=""],[contenteditable=true]',
  )
  return (inner as HTMLInputElement | HTMLTextAreaElement | HTMLElement | null) ?? null
}

export function isTextField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  const V = viewOf(el)
  return (
    (el instanceof V.HTMLInputElement &&
      !/^(checkbox|radio|button|submit|reset|image|file|hidden|range|color)$/i.test(el.type)) ||
    el instanceof V.HTMLTextAreaElement
  )
}

/** A CSS path usable as `css:<path>` to name a candidate that has no agent id yet. */
export function cssPath(el: Element): string {
  const parts: string[] = []
  for (let n: Element | null = el; n && n.localName !== 'html'; n = n.parentElement) {
    if (n.id && /^[A-Za-z][\w-]*$/.test(n.id)) {
      parts.unshift(`#${n.id}`)
      break
    }
    const parent: Element | null = n.parentElement
    if (!parent) {
      parts.unshift(n.localName)
      break
    }
    const same = [...parent.children].filter((c) => c.localName === n!.localName)
    parts.unshift(same.length > 1 ? `${n.localName}:nth-of-type(${same.indexOf(n) + 1})` : n.localName)
  }
  return parts.join(' > ')
}

export function roleName(el: Element): string {
  return roleOf(el) || el.localName
}

/** Values of password fields never leave the page in messages. */
export function shownValue(el: Element, value: string): string {
  // A password, a code, a card field, anything typed from the vault: a fixed mask.
  return holdsSecret(el) ? '•'.repeat(Math.min(value.length, 8)) : value
}

/** The value a field or widget shows now, for results. */
export function displayedValue(el: Element): string {
  const V = viewOf(el)
  if (el instanceof V.HTMLSelectElement) return [...el.selectedOptions].map((o) => normalize(o.text)).join(', ')
  if (el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement) return shownValue(el, el.value)
  const field = el.querySelector(
    'input:not([type=hidden]):not([type=checkbox]):not([type=radio])',
  ) as HTMLInputElement | null
  const text = visibleTextOf(el)
  if (field && field.value) return text ? `${text} ${field.value}`.trim() : field.value
  return text
}

/**
 * Text a person sees in a widget: text nodes whose element is visible. Ant Design repeats the
 * selected value in a 0×0 aria-live region that `innerText` would count twice.
 */
export function visibleTextOf(el: Element): string {
  const parts: string[] = []
  const walker = el.ownerDocument.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */)
  const seen = new Map<Element, boolean>()
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement
    if (!parent || !n.textContent?.trim()) continue
    let shown = seen.get(parent)
    if (shown === undefined) {
      shown = isVisible(parent)
      seen.set(parent, shown)
    }
    if (shown) parts.push(n.textContent)
  }
  return normalize(parts.join(' '))
}
