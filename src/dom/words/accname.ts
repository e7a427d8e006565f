/**
 * Accessible names: the one implementation (a part of an element's words, dom/words). The Observe
 * scanner (labels and semantic ids), the `role:` locators, the semantic rung, the executor's
 * messages, the risk check and the recorder all ask this file, so a name the model reads in a
 * listing is the name every other part finds and shows.
 *
 * It follows accname 1.2's text alternative computation (https://www.w3.org/TR/accname-1.2/,
 * "Computation steps") with HTML-AAM's host-language rules:
 * - 2A hidden content is left out: `aria-hidden`, `hidden`, `display: none`, `visibility: hidden`
 *   (its visible children still count), the unopened part of a `<details>`; `<style>`, `<script>`,
 *   `<template>` and `<noscript>` never count;
 * - 2B `aria-labelledby`, followed once (no recursion into the referenced nodes' own
 *   labelledby), a referenced node counted with its hidden content when it is itself hidden;
 * - 2C an embedded control inside a label or content gives its value: a text field's value, a
 *   select's or listbox's chosen options, a range's `aria-valuetext`/`aria-valuenow`/value;
 * - 2D `aria-label` (ignored for an embedded control, which 2C named);
 * - 2E the host language: input buttons' value (Submit/Reset by default), image inputs' and
 *   images' `alt`, `<label>`s (hidden ones too, as browsers do), a fieldset's legend, a table's
 *   caption, a figure's figcaption, an SVG's `<title>`; then, for text fields, `title` and
 *   `placeholder` (`aria-placeholder`);
 * - 2F/2G/2H name from content for the roles that allow it (and for a generic clickable, which
 *   Ava lists as a button): CSS generated content (`::before`, `::after`), text nodes, each child
 *   by the same rules (with `aria-owns`, open shadow roots and slots);
 * - 2I the `title` tooltip last.
 *
 * Not covered: `aria-describedby` (no description is computed), whitespace from CSS `display`
 * (block-level tags are told by name, not by computed style), `content: "x" / "alt"` alternative
 * text syntax.
 *
 * Why hand-written rather than `dom-accessibility-api`: with its computeAccessibleName the observe
 * suite's scan_ms went from 10.9 to 27.1 ms on table-200 and from 92.8 to 342.5 ms on
 * synthetic-35k (it reads computed style for every node it visits), and it names clickable generic
 * elements "". Here a computed style is read only where a rule of the page's stylesheets, an inline
 * style or the UA may hide the node or give it generated content (cursor-rules.ts, from the same
 * pass over the sheets the scanner makes), and a `NameCache` (visibility.ts) holds those answers for one scan,
 * as Playwright's roleUtils holds its caches for one pass. The locators and the executor ask
 * outside a scan: they share one cache until the current task ends (a microtask clears it).
 *
 * A control a script made clickable that has no name at all (an icon-only span in a feed) gets a
 * guessed name from its icon (icons.ts, `guessedName`); it is marked as guessed wherever it is shown.
 *
 * Roles come from the one role table (observe/roles.ts), as every other part reads them.
 */
import type { Attrs } from '../observe/state'
import { normalizeText } from '../../core/page/text'
import { accessibleRole, inputType } from '../observe/roles'
import { guessedName, ligatureName } from './icons'
import { kGone, kInvisible, kNoPseudo, kShown, sharedCache, type NameCache } from './visibility'

/**
 * Where the label came from, in the priority order of semantic ids: 1 aria,
 * 2 visible text, 3 placeholder/title, 4 name attribute, 5 nothing (type + number). `icon` is a
 * guessed name (guessedName), listed as such.
 */
export type NameSource = 'aria' | 'text' | 'placeholder' | 'title' | 'icon' | 'name' | 'none'

export interface ComputedName {
  /** Whitespace-collapsed, not yet truncated. */
  name: string
  source: NameSource
  /** The name is the element's content (2F): its visible text, as the record shows it. */
  content?: boolean
}

/** Roles whose name may come from their content (WAI-ARIA 1.2 "name from: contents"). */
const kNameFromContent = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'cell',
  'gridcell',
  'row',
  'rowheader',
  'columnheader',
  'heading',
  'tooltip',
  'sectionhead',
  // Not in ARIA's list: Ava lists a clickable list item as an item a person names by its text.
  'listitem',
])

/**
 * Roles whose content is not part of an ancestor's name (landmarks and composite widgets): a
 * button holding a navigation is not named by the links in it (Playwright's roleUtils keeps the
 * same exclusions for descendants).
 */
const kNoContentInName = new Set([
  'navigation',
  'main',
  'banner',
  'complementary',
  'contentinfo',
  'form',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'tablist',
  'toolbar',
  'tree',
  'treegrid',
  'grid',
  'table',
  'list',
  'feed',
  'log',
  'article',
])

/** Elements labelable by <label> (HTML "labelable elements"). */
const kLabelable = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress'])

/** Form fields: their text is their value, never their name. */
const kFields = new Set(['input', 'select', 'textarea'])

/** Never text: neither shown nor read (2A, and HTML's "not rendered" elements). */
const kNeverText = new Set(['style', 'script', 'template', 'noscript', 'head', 'meta', 'link', 'base'])

/**
 * Tags laid out inline by default: their text joins their neighbours' without a space
 * ("Re<b>ad</b>" is "Read"); every other element is a block, set apart by spaces, as a person
 * reads a name spread over lines or cells. Told by tag, since display would cost a style read.
 */
const kInline = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
  'label',
  'output',
  'del',
  'ins',
  'nobr',
  'tt',
  'big',
])

const kNone: readonly Element[] = []

/** Nodes visited per name: a clickable card of thousands of nodes is named by its first words. */
const kMaxNodes = 150
/** Characters gathered per name: far more than a label shows (50) or a descriptor needs. */
const kMaxChars = 300

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
    return id ? this.labelsFor(el, id)[0] : undefined
  }

  labelsOf(el: Element, id: string | null, wrap: Element | null): readonly Element[] {
    const byFor = id ? this.labelsFor(el, id) : kNone
    if (!wrap || byFor.includes(wrap)) return byFor
    return byFor.length === 0 ? [wrap] : inTreeOrder([...byFor, wrap])
  }

  /** Every `label[for]` naming `id` in the element's tree. */
  labelsFor(el: Element, id: string): readonly Element[] {
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

/** One computation: its cache, the nodes it may still visit, and the elements already on its path. */
interface Walk {
  cache: NameCache
  nodes: number
  chars: number
  labels: LabelLookup
  /** The element whose name is computed: a label around it does not name it with itself. */
  root: Element
  /** Made on the first step into a child: most names are read without one. */
  visited: Set<Element> | null
}

interface Step {
  /** 2B has been taken: a referenced node's own aria-labelledby is not followed. */
  inLabelledBy: boolean
  /** The node counts with its hidden content: it, or the node referenced, is hidden (2B note). */
  includeHidden: boolean
  /** The node is part of another's name (content, a label, a referenced node): 2C applies. */
  embedded: boolean
  /** An ancestor on the path is visibility:hidden: this node's own style decides. */
  invisible: boolean
}

const kRootStep: Step = { inLabelledBy: false, includeHidden: false, embedded: false, invisible: false }

function ariaHidden(el: Element): boolean {
  return el.getAttribute('aria-hidden') === 'true'
}

const kTextInputTypes = new Set([
  'text',
  'search',
  'email',
  'tel',
  'url',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
  'color',
])

/** The value an embedded control contributes to the name around it (2C), or null when it is none. */
function embeddedValue(el: Element, tag: string, role: string): string | null {
  if (tag === 'input') {
    const type = inputType(el)
    if (type === 'range')
      return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? (el as HTMLInputElement).value
    if (kTextInputTypes.has(type)) return type === 'password' ? '' : (el as HTMLInputElement).value
    return null
  }
  if (tag === 'textarea') return (el as HTMLTextAreaElement).value
  if (tag === 'select') {
    const sel = el as HTMLSelectElement
    return Array.from(sel.selectedOptions ?? [])
      .map((o) => o.textContent ?? '')
      .join(' ')
  }
  switch (role) {
    case 'textbox':
    case 'searchbox':
      return el.textContent ?? ''
    case 'combobox':
    case 'listbox': {
      const chosen = el.querySelectorAll('[role=option][aria-selected=true]')
      return chosen.length
        ? Array.from(chosen)
            .map((o) => o.textContent ?? '')
            .join(' ')
        : el.localName === 'input'
          ? (el as HTMLInputElement).value
          : null
    }
    case 'slider':
    case 'spinbutton':
    case 'progressbar':
    case 'scrollbar':
    case 'meter':
      return el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? ''
  }
  return null
}

/**
 * The elements an ID-reference list names (`aria-labelledby`, `aria-describedby`, `aria-owns`,
 * `aria-controls`), in the element's own tree (a shadow root's ids are its own), missing ids left
 * out: the one place such references are resolved. `max` bounds the ids read.
 */
export function referencedElements(el: Element, ids: string | null, max = Infinity): Element[] {
  if (!ids) return []
  const root = el.getRootNode() as Document | ShadowRoot
  const out: Element[] = []
  for (const id of ids.split(/\s+/).filter(Boolean).slice(0, max)) {
    // An element outside any document (a detached tree) has no getElementById on its root.
    const ref = root.getElementById?.(id) ?? null
    if (ref) out.push(ref)
  }
  return out
}

/** The raw text of the nodes an ID-reference list names, joined by spaces ('' for none). */
export function referencedText(el: Element, ids: string | null, max = Infinity): string {
  return referencedElements(el, ids, max)
    .map((ref) => ref.textContent ?? '')
    .join(' ')
}

/** 2B: the text of the nodes `ids` names, each computed as if it were the root, hidden ones whole. */
function labelledByText(el: Element, ids: string, walk: Walk, step: Step): string {
  const parts: string[] = []
  for (const ref of referencedElements(el, ids)) {
    const hidden =
      step.includeHidden ||
      ariaHidden(ref) ||
      walk.cache.visibility(ref, false) !== kShown ||
      hiddenAncestor(ref, walk.cache)
    parts.push(
      alternative(ref, walk, { inLabelledBy: true, includeHidden: hidden, embedded: true, invisible: false }, true),
    )
  }
  return normalizeText(parts.join(' '))
}

/** Whether an ancestor of `el` hides it (a label[for] or referenced node inside a hidden container). */
function hiddenAncestor(el: Element, cache: NameCache): boolean {
  for (let a = el.parentElement; a && a.localName !== 'body'; a = a.parentElement) {
    if (ariaHidden(a) || cache.visibility(a, false) === kGone) return true
  }
  return false
}

/** 2E for labelable elements: their <label>s' text, without the control itself, hidden labels whole. */
function labelsText(labels: readonly Element[], walk: Walk, step: Step): string {
  const parts: string[] = []
  for (const label of labels) {
    const hidden = step.includeHidden || ariaHidden(label) || walk.cache.visibility(label, false) !== kShown
    parts.push(
      alternative(
        label,
        walk,
        { inLabelledBy: step.inLabelledBy, includeHidden: hidden, embedded: true, invisible: false },
        true,
      ),
    )
  }
  return normalizeText(parts.join(' '))
}

const kDefaultButtonValue: Record<string, string> = { submit: 'Submit', reset: 'Reset' }

/**
 * The text alternative of `el` (accname 1.2 §4.3.2). `direct`: the node is the root or directly
 * referenced (by aria-labelledby or as a label), so 2A does not leave it out.
 */
function alternative(el: Element, walk: Walk, step: Step, direct: boolean): string {
  if (--walk.nodes < 0 || walk.chars > kMaxChars) return ''
  const tag = el.localName
  if (kNeverText.has(tag) || (tag === 'title' && el.namespaceURI !== 'http://www.w3.org/2000/svg')) return ''
  // 2A: hidden and not referenced.
  let visibility = kShown
  if (!direct && !step.includeHidden) {
    if (ariaHidden(el)) return ''
    visibility = walk.cache.visibility(el, step.invisible)
    if (visibility === kGone) return ''
  }
  const visited = (walk.visited ??= new Set())
  if (visited.has(el)) return ''
  visited.add(el)
  try {
    const role = accessibleRole(el, tag)
    // 2B
    if (!step.inLabelledBy) {
      const ids = el.getAttribute('aria-labelledby')
      if (ids) {
        const text = labelledByText(el, ids, walk, step)
        if (text) return text
      }
    }
    // 2C: an embedded control gives its value.
    if (step.embedded && el !== walk.root) {
      const value = embeddedValue(el, tag, role)
      if (value !== null) return value
    }
    // 2D
    const aria = el.getAttribute('aria-label')
    if (aria && aria.trim()) return aria
    // 2E
    const host = hostLabel(el, tag, walk, step)
    if (host) return host
    // 2F: name from content, for the roles that allow it and for every part of another's name.
    if (
      kNameFromContent.has(role) ||
      (step.embedded && !kNoContentInName.has(role)) ||
      (direct && el !== walk.root) ||
      tag === 'label' ||
      tag === 'legend'
    ) {
      const text = contentText(el, walk, step, visibility === kInvisible)
      if (text.trim()) return text
    }
    // 2I
    const title = el.getAttribute('title')
    if (title && title.trim()) return title
    return ''
  } finally {
    visited.delete(el)
  }
}

/** 2E: the host language's own label for `el`, or ''. */
function hostLabel(el: Element, tag: string, walk: Walk, step: Step): string {
  if (tag === 'input') {
    const type = inputType(el)
    if (type === 'button' || type === 'submit' || type === 'reset') {
      const labels = walk.labels.labelsOf(el, el.getAttribute('id'), el.closest('label'))
      const byLabel = labels.length ? labelsText(labels, walk, step) : ''
      return byLabel || (el as HTMLInputElement).value || kDefaultButtonValue[type] || ''
    }
    if (type === 'image') return el.getAttribute('alt') || el.getAttribute('value') || ''
  }
  if (kLabelable.has(tag) && !(step.embedded && el !== walk.root)) {
    const labels = walk.labels.labelsOf(el, el.getAttribute('id'), el === walk.root ? el.closest('label') : null)
    if (labels.length) {
      const text = labelsText(labels, walk, step)
      if (text) return text
    }
  }
  if (tag === 'img' || tag === 'area') return el.getAttribute('alt') ?? ''
  if (tag === 'svg') {
    for (let c = el.firstElementChild; c; c = c.nextElementSibling)
      if (c.localName === 'title') return c.textContent ?? ''
  }
  if (!step.embedded) {
    const caption = tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : tag === 'figure' ? 'figcaption' : ''
    if (caption) {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling)
        if (c.localName === caption) return contentText(c, walk, step, false)
    }
  }
  if (tag === 'input' || tag === 'textarea') {
    // A text field's placeholder, then its title: Chromium's order (its name-calc-inputs test),
    // which Ava's pages are read in; HTML-AAM now lists title first.
    const placeholder = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder')
    if (placeholder && placeholder.trim()) return placeholder
    return el.getAttribute('title') ?? ''
  }
  return ''
}

/** 2F–2H: ::before, each child (text nodes as they are, elements by `alternative`), ::after. */
function contentText(el: Element, walk: Walk, step: Step, invisible: boolean): string {
  const cache = walk.cache
  const [before, after] = invisible ? kNoPseudo : cache.generated(el)
  let out = before
  const childStep: Step = {
    inLabelledBy: step.inLabelledBy,
    includeHidden: step.includeHidden,
    embedded: true,
    invisible: invisible || step.invisible,
  }
  const blocks =
    el.firstElementChild !== null && el.firstElementChild !== el.lastElementChild && cache.blockChildren(el)
  const shadow = (el as HTMLElement).shadowRoot
  // A closed <details> shows its summary only.
  const closed = el.localName === 'details' && !el.hasAttribute('open')
  const first: Node | null =
    el.localName === 'slot' ? null : closed ? el.querySelector(':scope > summary') : (shadow ?? el).firstChild
  if (el.localName === 'slot') {
    const assigned = (el as HTMLSlotElement).assignedNodes?.() ?? []
    const nodes = assigned.length ? assigned : Array.from(el.childNodes)
    for (const n of nodes) out += childText(n, walk, childStep, invisible, false)
  }
  for (let n = first; n; n = closed ? null : n.nextSibling) {
    out += childText(n, walk, childStep, invisible, blocks)
    if (walk.nodes < 0 || walk.chars > kMaxChars) break
  }
  const owns = el.getAttribute('aria-owns')
  if (owns) {
    for (const owned of referencedElements(el, owns))
      if (!el.contains(owned)) out += childText(owned, walk, childStep, invisible, true)
  }
  return out + after
}

function childText(n: Node, walk: Walk, step: Step, invisible: boolean, block: boolean): string {
  if (n.nodeType === 3) {
    if (invisible) return ''
    const t = (n as Text).data
    walk.chars += t.length
    return t
  }
  if (n.nodeType !== 1) return ''
  const child = n as Element
  if (child === walk.root) return ''
  const text = alternative(child, walk, step, false)
  if (!text) return ''
  return kInline.has(child.localName) && !block ? text : ` ${text} `
}

function newWalk(root: Element, cache: NameCache, labels: LabelLookup): Walk {
  return { cache, nodes: kMaxNodes, chars: 0, labels, root, visited: null }
}

/** Whether `el`'s subtree is text only (no element children, no generated content), for the fast path. */
function plainText(el: Element, cache: NameCache): boolean {
  return el.firstElementChild === null && !(el as HTMLElement).shadowRoot && cache.generated(el) === kNoPseudo
}

/**
 * The accessible name of `el` with the role it is treated as, and where it came from. `attrs`
 * are the scanner's reads of its attributes; `wrap` a <label> ancestor found during the walk.
 */
function nameOf(
  el: Element,
  tag: string,
  role: string,
  attrs: AttrReader,
  labels: LabelLookup,
  wrap: Element | null,
  cache: NameCache,
): ComputedName {
  const walk = newWalk(el, cache, labels)
  const labelledBy = attrs.get('aria-labelledby')
  if (labelledBy) {
    const name = labelledByText(el, labelledBy, walk, kRootStep)
    if (name) return { name, source: 'aria' }
  }
  const aria = attrs.get('aria-label')
  if (aria && aria.trim()) return { name: normalizeText(aria), source: 'aria' }

  if (tag === 'input') {
    const type = (attrs.get('type') ?? 'text').toLowerCase()
    if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') {
      const name = normalizeText(hostLabel(el, tag, walk, kRootStep))
      if (name) return { name, source: 'text' }
    }
  }
  if (kLabelable.has(tag)) {
    const found = labels.labelsOf(el, attrs.get('id'), wrap)
    if (found.length > 0) {
      const name = labelsText(found, walk, kRootStep)
      if (name) return { name, source: 'text' }
    }
  }
  if (tag === 'img' || tag === 'area' || tag === 'svg' || tag === 'fieldset' || tag === 'table' || tag === 'figure') {
    const name = normalizeText(hostLabel(el, tag, walk, kRootStep))
    if (name) return { name, source: 'text' }
  }
  if (kNameFromContent.has(role) && !kFields.has(tag)) {
    // Most controls hold their text and nothing else: read it at once.
    const content = plainText(el, cache)
      ? normalizeText(el.textContent ?? '')
      : normalizeText(contentText(el, walk, kRootStep, false))
    if (content) return { name: content, source: 'text', content: true }
  }
  // A field's placeholder, then its title (hostLabel); elsewhere the title is the tooltip (2I).
  const placeholder = attrs.get('placeholder') ?? attrs.get('aria-placeholder')
  if (placeholder && placeholder.trim()) return { name: normalizeText(placeholder), source: 'placeholder' }
  const title = attrs.get('title')
  if (title && title.trim()) return { name: normalizeText(title), source: 'title' }
  return { name: '', source: 'none' }
}

/**
 * The label of an element the scanner indexed, and where it came from. `wrapLabel` is the <label>
 * ancestor found during the walk, if any. An element with no name that is not a field gets a
 * guessed one from its icon (source `icon`).
 */
export function computeName(
  el: Element,
  tag: string,
  role: string,
  labels: LabelIndex,
  wrapLabel: Element | null,
  attrs: Attrs,
  cache: NameCache,
): ComputedName {
  // An indexed element without a role (an onclick div, a cursor:pointer span) is listed as a
  // button, so it is named as a button is: from its content.
  const name = nameOf(el, tag, role || 'button', attrs, labels, wrapLabel, cache)
  if (name.source === 'text' && !kFields.has(tag)) {
    const ligature = ligatureName(el, name.name)
    if (ligature) return { name: ligature, source: 'icon' }
  }
  if (name.source !== 'none') return name
  if (!kFields.has(tag)) {
    const guess = guessedName(el)
    if (guess) return { name: guess, source: 'icon' }
  }
  // The name attribute is no accessible name, but it is the best id text left.
  const nameAttr = attrs.get('name')
  if (nameAttr && nameAttr.trim()) return { name: normalizeText(nameAttr), source: 'name' }
  return name
}

const kElementAttrs = (el: Element): AttrReader => ({ get: (n) => el.getAttribute(n) })

/** The accessible name of any element with the given role (the `role:` locators, the recorder). */
export function accessibleName(el: Element, role: string, cache: NameCache = sharedCache()): string {
  const key = `${role}`
  const hit = cache.names.get(el)
  if (hit !== undefined && hit.startsWith(key + '\u0000')) return hit.slice(key.length + 1)
  const name = nameOf(el, el.localName, role, kElementAttrs(el), kLiveLabels, null, cache).name
  cache.names.set(el, `${key}\u0000${name}`)
  return name
}

/**
 * What a person would call `el`: its accessible name, else the name guessed from its icon. The
 * semantic rung matches descriptors against this ("the Like button" on an icon-only span).
 */
export function nameForPeople(el: Element, role: string): { name: string; guessed: boolean } {
  const name = accessibleName(el, role || 'button')
  if (name) {
    const ligature = ligatureName(el, name)
    return ligature ? { name: ligature, guessed: true } : { name, guessed: false }
  }
  const tag = el.localName
  const guess = kFields.has(tag) ? '' : guessedName(el)
  return { name: guess, guessed: !!guess }
}

/**
 * The accessible name, else, for an element that shows no text at all, the name guessed from its
 * icon: what the semantic rung reads as an element's own name.
 */
export function nameOrGuess(el: Element, role: string): string {
  const name = accessibleName(el, role)
  if (name || kFields.has(el.localName) || (el.textContent ?? '').trim()) return name
  return guessedName(el)
}

/** The text of a form control's <label>s, without the control itself (a select's options are its value). */
export function labelText(el: Element): string {
  const labels = kLiveLabels.labelsOf(el, null, null)
  return labels.length === 0 ? '' : labelsText(labels, newWalk(el, sharedCache(), kLiveLabels), kRootStep)
}

/**
 * Visible text of an element for the record's `text` field: a select's chosen option, an input
 * button's value, else its name from content when that is what names it, else its text content.
 */
export function visibleText(el: Element, tag: string, attrs: Attrs, name: ComputedName): string {
  if (tag === 'select') {
    const sel = el as HTMLSelectElement
    return normalizeText(sel.selectedOptions?.[0]?.textContent ?? '')
  }
  if (tag === 'input') {
    const type = (attrs.get('type') ?? 'text').toLowerCase()
    return type === 'button' || type === 'submit' || type === 'reset'
      ? normalizeText((el as HTMLInputElement).value)
      : ''
  }
  if (tag === 'textarea') return ''
  // Named from its content: that is its text, without what is hidden or never shown.
  if (name.content) return name.name
  return normalizeText(el.textContent ?? '')
}
