/**
 * Accessible names, computed only for indexed elements and along the cheap paths of the accname
 * algorithm (https://www.w3.org/TR/accname-1.2/, HTML-AAM "accessible name computations"):
 * aria-labelledby, aria-label, native label, content, placeholder, title. The full recursive
 * algorithm (as in `dom-accessibility-api`) reads computed style for every descendant it visits
 * and costs far more than the whole scan; see docs/page-representation.md for the measurement.
 */
import type { Attrs } from './state'
import { normalizeText } from './text'

/**
 * Where the label came from, in the priority order of semantic ids (seed 002 §3.2): 1 aria,
 * 2 visible text, 3 placeholder/title, 4 name attribute, 5 nothing (type + number).
 */
export type NameSource = 'aria' | 'text' | 'placeholder' | 'title' | 'name' | 'none'

export interface ComputedName {
  /** Whitespace-collapsed, not yet truncated. */
  name: string
  source: NameSource
}

/** Roles whose name may come from their content (WAI-ARIA "name from: contents"). */
const kNameFromContent = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'treeitem', 'gridcell', 'row', 'cell', 'heading', 'listitem', '',
])

/** Elements labelable by <label> (HTML "labelable elements"). */
const kLabelable = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress'])

/** A per-scan cache of `label[for]` texts, one query per document or shadow root. */
export class LabelIndex {
  private byRoot = new Map<Node, Map<string, Element>>()

  /** The first `label[for]` naming `id` (the element's id attribute) in the element's tree. */
  labelFor(el: Element, id: string | null): Element | undefined {
    if (!id) return undefined
    const root = el.getRootNode() as Document | ShadowRoot
    let map = this.byRoot.get(root)
    if (!map) {
      map = new Map()
      for (const label of Array.from(root.querySelectorAll('label[for]'))) {
        const key = label.getAttribute('for')!
        if (!map.has(key)) map.set(key, label)
      }
      this.byRoot.set(root, map)
    }
    return map.get(id)
  }
}

function byIdText(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot
  const parts: string[] = []
  for (const id of ids.split(/\s+/)) {
    if (!id) continue
    const ref = root.getElementById?.(id)
    if (!ref) continue
    parts.push(ref.getAttribute('aria-label') || ref.textContent || '')
  }
  return normalizeText(parts.join(' '))
}

/** Text of a label element without the text of the control it wraps (a select's options). */
function labelText(label: Element, control: Element): string {
  if (!label.contains(control)) return normalizeText(label.textContent ?? '')
  let out = ''
  for (let n = label.firstChild; n; n = n.nextSibling) {
    if (n === control) continue
    if (n.nodeType === 3) out += n.textContent
    else if (n.nodeType === 1 && !(n as Element).contains(control) && (n as Element).localName !== 'select') out += ' ' + (n.textContent ?? '') + ' '
    else if (n.nodeType === 1 && (n as Element).contains(control)) out += ' ' + labelText(n as Element, control) + ' '
  }
  return normalizeText(out)
}

/** Name of an icon-only control: a descendant image's alt, an svg title, a labelled child. */
function iconName(el: Element): string {
  const inner = el.querySelector('img[alt]:not([alt=""]),[aria-label],svg title,[title]')
  if (!inner) return ''
  if (inner.localName === 'title') return normalizeText(inner.textContent ?? '')
  return normalizeText(inner.getAttribute('aria-label') || inner.getAttribute('alt') || inner.getAttribute('title') || '')
}

const kDefaultButtonValue: Record<string, string> = { submit: 'Submit', reset: 'Reset' }

/**
 * The accessible name of an interactable element and where it came from.
 * `wrapLabel` is the <label> ancestor found during the walk, if any; `text` is the element's
 * `ownText`, read once for the name and the record's text.
 */
export function computeName(el: Element, tag: string, role: string, labels: LabelIndex, wrapLabel: Element | null, attrs: Attrs, text: string): ComputedName {
  const labelledBy = attrs.get('aria-labelledby')
  if (labelledBy) {
    const name = byIdText(el, labelledBy)
    if (name) return { name, source: 'aria' }
  }
  const aria = attrs.get('aria-label')
  if (aria && aria.trim()) return { name: normalizeText(aria), source: 'aria' }

  if (tag === 'input') {
    const type = (attrs.get('type') ?? 'text').toLowerCase()
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const value = normalizeText((el as HTMLInputElement).value || kDefaultButtonValue[type] || '')
      if (value) return { name: value, source: 'text' }
    }
    if (type === 'image') {
      const alt = normalizeText(attrs.get('alt') ?? '')
      if (alt) return { name: alt, source: 'text' }
    }
  }
  if (kLabelable.has(tag)) {
    const forLabel = labels.labelFor(el, attrs.get('id'))
    const label = forLabel ?? wrapLabel
    if (label) {
      const name = labelText(label, el)
      if (name) return { name, source: 'text' }
    }
  }
  if (tag === 'img' || tag === 'area') {
    const alt = normalizeText(attrs.get('alt') ?? '')
    if (alt) return { name: alt, source: 'text' }
  }
  if (kNameFromContent.has(role) && tag !== 'input' && tag !== 'select' && tag !== 'textarea') {
    if (text) return { name: text, source: 'text' }
    const icon = iconName(el)
    if (icon) return { name: icon, source: 'text' }
  }
  const placeholder = attrs.get('placeholder') ?? attrs.get('aria-placeholder')
  if (placeholder && placeholder.trim()) return { name: normalizeText(placeholder), source: 'placeholder' }
  const title = attrs.get('title')
  if (title && title.trim()) return { name: normalizeText(title), source: 'title' }
  const nameAttr = attrs.get('name')
  if (nameAttr && nameAttr.trim()) return { name: normalizeText(nameAttr), source: 'name' }
  return { name: '', source: 'none' }
}

/** An element's whitespace-collapsed text content; '' for form fields, whose text is their value. */
export function ownText(el: Element, tag: string): string {
  return tag === 'input' || tag === 'select' || tag === 'textarea' ? '' : normalizeText(el.textContent ?? '')
}

/** Visible text of an element for the record's `text` field; `text` is its `ownText`. */
export function visibleText(el: Element, tag: string, attrs: Attrs, text: string): string {
  if (tag === 'select') {
    const sel = el as HTMLSelectElement
    return normalizeText(sel.selectedOptions?.[0]?.textContent ?? '')
  }
  if (tag === 'input') {
    const type = (attrs.get('type') ?? 'text').toLowerCase()
    return type === 'button' || type === 'submit' || type === 'reset' ? normalizeText((el as HTMLInputElement).value) : ''
  }
  return text
}
