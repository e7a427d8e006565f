/**
 * Accessible names: the one implementation, used by the Observe scanner (record labels and
 * semantic ids) and by the `role:` locators, so a name the agent reads in a listing is the name a
 * `role:button[name=...]` finds. It follows the cheap paths of accname 1.2
 * (https://www.w3.org/TR/accname-1.2/) and HTML-AAM's name computations: aria-labelledby,
 * aria-label, a button input's value, <label>, alt, content (or an icon's alt/title), placeholder,
 * title. It never reads computed style.
 *
 * Why not `dom-accessibility-api` (issue 19): with its computeAccessibleName in front of this
 * file's fallbacks, the observe suite's scan_ms went from 10.9 to 27.1 ms on table-200, 92.8 to
 * 342.5 ms on synthetic-35k, and the cold first scan of table-1000 from 0.2 to 1.8 s (it reads
 * computed style for every node it visits). It also names clickable generic elements "" and
 * skips placeholders, so keeping it would have meant a second, fast implementation beside it.
 */
import type { Attrs } from './state'
import { normalizeText } from '../../core/page/text'

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

/** Roles whose name may come from their content (WAI-ARIA 1.2 "name from: contents"). */
const kNameFromContent = new Set([
  'button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'treeitem', 'cell', 'gridcell', 'row', 'columnheader', 'heading', 'listitem', 'tooltip',
])

/** Elements labelable by <label> (HTML "labelable elements"). */
const kLabelable = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress'])

/** Form fields: their text is their value, never their name. */
const kFields = new Set(['input', 'select', 'textarea'])

const kNone: readonly Element[] = []

/** The attribute reads the name computation makes: the scanner's `Attrs`, or the element itself. */
interface AttrReader {
  get(name: string): string | null
}

/** How the name computation finds an element's <label>s. */
interface LabelLookup {
  /** The labels of `el` in tree order; `id` is its id attribute, `wrap` a <label> ancestor already known. */
  labelsOf(el: Element, id: string | null, wrap: Element | null): readonly Element[]
}

/**
 * A per-scan index of `label[for]`, one query per document or shadow root: `el.labels` searches
 * the tree for every field, which on a page of thousands of inputs costs more than the scan.
 */
export class LabelIndex implements LabelLookup {
  private byRoot = new Map<Node, Map<string, Element[]>>()

  /** The first `label[for]` naming `id` (the element's id attribute) in the element's tree. */
  labelFor(el: Element, id: string | null): Element | undefined {
    return id ? this.forId(el, id)[0] : undefined
  }

  labelsOf(el: Element, id: string | null, wrap: Element | null): readonly Element[] {
    const byFor = id ? this.forId(el, id) : kNone
    if (!wrap || byFor.includes(wrap)) return byFor
    return byFor.length === 0 ? [wrap] : inTreeOrder([...byFor, wrap])
  }

  private forId(el: Element, id: string): readonly Element[] {
    const root = el.getRootNode() as Document | ShadowRoot
    let map = this.byRoot.get(root)
    if (!map) {
      map = new Map()
      for (const label of Array.from(root.querySelectorAll('label[for]'))) {
        const key = label.getAttribute('for')!
        const list = map.get(key)
        if (list) list.push(label)
        else map.set(key, [label])
      }
      this.byRoot.set(root, map)
    }
    return map.get(id) ?? kNone
  }
}

/** Labels are read in tree order (HTML-AAM), whichever way they were found. */
function inTreeOrder(labels: Element[]): Element[] {
  return labels.sort((a, b) => (a.compareDocumentPosition(b) & 4 /* FOLLOWING */ ? -1 : 1))
}

/** For one element at a time (locators): the DOM's own `labels`, skipped when there can be none. */
const kLiveLabels: LabelLookup = {
  labelsOf(el) {
    // `labels` searches the tree; an element with no id and no <label> around it has none.
    if (!el.id && !el.closest('label')) return kNone
    const labels = (el as HTMLInputElement).labels
    if (!labels || labels.length === 0) return kNone
    // happy-dom lists label[for] before a wrapping label; Chromium already gives tree order.
    return labels.length === 1 ? [labels[0]] : inTreeOrder(Array.from(labels))
  },
}

function byIdText(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot
  const parts: string[] = []
  for (const id of ids.split(/\s+/)) {
    const ref = id ? root.getElementById?.(id) : null
    if (ref) parts.push(ref.getAttribute('aria-label') || ref.textContent || '')
  }
  return normalizeText(parts.join(' '))
}

/** Text of a label without the control it wraps and without other fields' contents (a select's options). */
function textOfLabel(label: Element, control: Element): string {
  if (!label.contains(control)) return label.textContent ?? ''
  let out = ''
  for (let n = label.firstChild; n; n = n.nextSibling) {
    if (n === control) continue
    if (n.nodeType === 3) out += n.textContent
    else if (n.nodeType === 1) {
      const child = n as Element
      if (child.contains(control)) out += ' ' + textOfLabel(child, control) + ' '
      else if (child.localName !== 'select' && child.localName !== 'textarea') out += ' ' + (child.textContent ?? '') + ' '
    }
  }
  return out
}

function labelsText(labels: readonly Element[], control: Element): string {
  if (labels.length === 1) return normalizeText(textOfLabel(labels[0], control))
  return normalizeText(labels.map((l) => textOfLabel(l, control)).join(' '))
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
 * The accessible name and where it came from. `text` is the element's `ownText` when the caller
 * has read it already, else null (read only if the name comes from content).
 */
function nameOf(el: Element, tag: string, role: string, attrs: AttrReader, text: string | null, labels: LabelLookup, wrap: Element | null): ComputedName {
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
    const found = labels.labelsOf(el, attrs.get('id'), wrap)
    if (found.length > 0) {
      const name = labelsText(found, el)
      if (name) return { name, source: 'text' }
    }
  }
  if (tag === 'img' || tag === 'area') {
    const alt = normalizeText(attrs.get('alt') ?? '')
    if (alt) return { name: alt, source: 'text' }
  }
  // HTML-AAM: a fieldset is named by its legend, a table by its caption.
  if (tag === 'fieldset' || tag === 'table') {
    const caption = el.querySelector(tag === 'fieldset' ? ':scope > legend' : ':scope > caption')
    const name = normalizeText(caption?.textContent ?? '')
    if (name) return { name, source: 'text' }
  }
  if (kNameFromContent.has(role) && !kFields.has(tag)) {
    const content = text ?? ownText(el, tag)
    if (content) return { name: content, source: 'text' }
    const icon = iconName(el)
    if (icon) return { name: icon, source: 'text' }
  }
  const placeholder = attrs.get('placeholder') ?? attrs.get('aria-placeholder')
  if (placeholder && placeholder.trim()) return { name: normalizeText(placeholder), source: 'placeholder' }
  const title = attrs.get('title')
  if (title && title.trim()) return { name: normalizeText(title), source: 'title' }
  return { name: '', source: 'none' }
}

/**
 * The label of an element the scanner indexed, and where it came from. `wrapLabel` is the <label>
 * ancestor found during the walk, if any; `text` is the element's `ownText`, read once for the
 * name and the record's text.
 */
export function computeName(el: Element, tag: string, role: string, labels: LabelIndex, wrapLabel: Element | null, attrs: Attrs, text: string): ComputedName {
  // An indexed element without a role (an onclick div, a cursor:pointer span) is listed as a
  // button, so it is named as a button is: from its content.
  const name = nameOf(el, tag, role || 'button', attrs, text, labels, wrapLabel)
  if (name.source !== 'none') return name
  // The name attribute is no accessible name, but it is the best id text left (seed 002 §3.2).
  const nameAttr = attrs.get('name')
  if (nameAttr && nameAttr.trim()) return { name: normalizeText(nameAttr), source: 'name' }
  return name
}

/** The accessible name of any element with the given role (the `role:` locators, the recorder). */
export function accessibleName(el: Element, role: string): string {
  return nameOf(el, el.localName, role, { get: (n) => el.getAttribute(n) }, null, kLiveLabels, null).name
}

/** The text of a form control's <label>s, without the control's own text (a select's options). */
export function labelText(el: Element): string {
  const labels = kLiveLabels.labelsOf(el, null, null)
  return labels.length === 0 ? '' : labelsText(labels, el)
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
