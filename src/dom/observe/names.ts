/**
 * Accessible names and the names a person would give an unnamed control: the one implementation.
 * The Observe scanner (labels and semantic ids), the `role:` locators, the semantic rung, the
 * executor's messages, the risk check and the recorder all ask this file, so a name the model
 * reads in a listing is the name every other part finds and shows.
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
 * pass over the sheets the scanner makes), and a `NameCache` holds those answers for one scan,
 * as Playwright's roleUtils holds its caches for one pass. The locators and the executor ask
 * outside a scan: they share one cache until the current task ends (a microtask clears it).
 *
 * A control a script made clickable that has no name at all (an icon-only span in a feed) gets a
 * guessed name from its icon: `guessedName`; it is marked as guessed wherever it is shown.
 */
import type { Attrs } from './state'
import { normalizeText } from '../../core/page/text'
import { kMeaningGlyph, readGlyphs, readShapes } from '../../core/risk/glyphs'
import { pictureAction } from '../../core/page/icon-meaning'
import { ruleSelectors, ruleTest, type RuleTest } from './cursor-rules'

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

/** Tags the UA may hide or not render (closed details content, options outside a select, …). */
const kUaMayHide = new Set([
  'option',
  'optgroup',
  'datalist',
  'dialog',
  'details',
  'summary',
  'input',
  'slot',
  'area',
  'map',
  'audio',
  'video',
  'object',
  'embed',
  'iframe',
  'rp',
  'rt',
  'noembed',
  'noframes',
  'track',
  'source',
  'param',
  'select',
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

/** What the stylesheets of one document may do to an element (cursor-rules.ts); null: read every one. */
export interface DocRules {
  /** A rule may set `display` (or `cursor`). */
  display: RuleTest | null
  /** A rule may set `visibility` (or opacity, content-visibility). */
  hide: RuleTest | null
  /** A rule gives its `::before`/`::after` readable content. */
  generated: RuleTest | null
  /**
   * In a scan: the elements the scanner found `display: none` (it reads display wherever a rule
   * may set it, and does not enter them). Any other element it walked is displayed, so its
   * display is not read again; `visibility` is read only where a rule or inline style may set it.
   */
  gone?: ReadonlySet<Element>
}

/** Not hidden, hidden with its subtree (display:none), or only its own text (visibility:hidden). */
const kShown = 0
const kGone = 1
const kInvisible = 2

/**
 * What one pass of name computations shares: the stylesheet tests per document, the visibility
 * and generated content read per element, the names computed so far. Valid while the DOM and
 * styles do not change: one per scan, or one per task for the locators (`sharedCache`).
 */
export class NameCache {
  private rules = new Map<Document, DocRules>()
  private shown = new Map<Element, number>()
  private pseudo = new Map<Element, [string, string]>()
  /** Accessible names by element and role (locators ask for the same elements again). */
  readonly names = new Map<Element, string>()

  /** Uses the scanner's tests for a document rather than reading its sheets again. */
  setRules(doc: Document, rules: DocRules): void {
    this.rules.set(doc, rules)
    if (doc === this.lastDoc) this.lastRules = rules
  }

  private lastDoc: Document | null = null
  private lastRules: DocRules | null = null

  rulesOf(doc: Document): DocRules {
    // Nearly every question is about one document: no map lookup for it.
    if (doc === this.lastDoc) return this.lastRules!
    let r = this.rules.get(doc)
    if (!r) {
      const sels = ruleSelectors(doc)
      r = {
        display: ruleTest(sels.cursor, doc),
        hide: ruleTest(sels.hide, doc),
        generated: ruleTest(sels.generated, doc),
      }
      this.rules.set(doc, r)
    }
    this.lastDoc = doc
    this.lastRules = r
    return r
  }

  /**
   * kShown, kGone or kInvisible for `el` as a part of a name. `parentInvisible`: visibility is
   * inherited, so under a visibility:hidden element every child's own style decides.
   */
  visibility(el: Element, parentInvisible: boolean): number {
    if (el.hasAttribute('hidden') && el.getAttribute('hidden') !== 'until-found') return kGone
    // In a scan the answer costs no more than a lookup: nothing to remember.
    if (this.rulesOf(el.ownerDocument).gone) return this.scannedVisibility(el, parentInvisible)
    let v = this.shown.get(el)
    if (v !== undefined) return v
    v = kShown
    {
      const doc = el.ownerDocument
      const rules = this.rulesOf(doc)
      const tag = el.localName
      const may =
        parentInvisible ||
        el.hasAttribute('style') ||
        rules.display === null ||
        rules.hide === null ||
        rules.display.has(el) ||
        rules.hide.has(el) ||
        kUaMayHide.has(tag) ||
        tag.includes('-') ||
        // The document's rules say nothing of a shadow tree's own sheets.
        el.getRootNode().nodeType !== 9
      if (may) {
        const style = doc.defaultView?.getComputedStyle(el)
        if (style) {
          if (style.display === 'none') v = kGone
          else if (style.visibility === 'hidden' || style.visibility === 'collapse') v = kInvisible
        }
      }
      // The content of a closed <details> other than its summary is not rendered.
      const parent = el.parentElement
      if (v === kShown && parent && parent.localName === 'details' && !parent.hasAttribute('open') && tag !== 'summary')
        v = kGone
    }
    this.shown.set(el, v)
    return v
  }

  /**
   * Whether `el` lays its children out as blocks whatever their tags (flex, grid, table rows):
   * a webmail row of <span>s in a flex box reads "Darryl Pham · Quarterly report", not one word.
   */
  blockChildren(el: Element): boolean {
    let v = this.blocky.get(el)
    if (v !== undefined) return v
    v = false
    const rules = this.rulesOf(el.ownerDocument)
    if (rules.display === null || rules.display.has(el) || el.hasAttribute('style')) {
      const display = el.ownerDocument.defaultView?.getComputedStyle(el).display ?? ''
      v = /flex|grid|table/.test(display)
    }
    this.blocky.set(el, v)
    return v
  }

  private blocky = new Map<Element, boolean>()

  /** `visibility` for an element of a scan (DocRules.gone). */
  private scannedVisibility(el: Element, parentInvisible: boolean): number {
    const rules = this.rulesOf(el.ownerDocument)
    if (rules.gone!.has(el)) return kGone
    const parent = el.parentElement
    if (parent && parent.localName === 'details' && !parent.hasAttribute('open') && el.localName !== 'summary')
      return kGone
    if (parentInvisible || el.hasAttribute('style') || (rules.hide !== null && rules.hide.has(el))) {
      const visibility = el.ownerDocument.defaultView?.getComputedStyle(el).visibility
      if (visibility === 'hidden' || visibility === 'collapse') return kInvisible
    }
    return kShown
  }

  /** The readable text of `el`'s ::before and ::after (2F), '' where no rule can give one. */
  generated(el: Element): [string, string] {
    const rules = this.rulesOf(el.ownerDocument)
    // The common case, no rule for this element: nothing to read or remember.
    if (rules.generated !== null && !rules.generated.has(el)) return kNoPseudo
    let p = this.pseudo.get(el)
    if (p) return p
    p = kNoPseudo
    {
      const view = el.ownerDocument.defaultView
      if (view)
        p = [
          generatedText(view.getComputedStyle(el, '::before').content, el),
          generatedText(view.getComputedStyle(el, '::after').content, el),
        ]
    }
    this.pseudo.set(el, p)
    return p
  }
}

const kNoPseudo: [string, string] = ['', '']

/**
 * The text of a computed `content` value: its strings (CSS escapes decoded) and `attr()` values.
 * Icon-font glyphs (private-use characters) and content of punctuation or symbols only are left
 * out: they name nothing a person would say.
 */
export function generatedText(content: string, el: Element): string {
  if (!content || content === 'none' || content === 'normal') return ''
  let out = ''
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)/g
  for (let m = re.exec(content); m; m = re.exec(content)) {
    if (m[3]) out += el.getAttribute(m[3]) ?? ''
    else
      out += (m[1] ?? m[2] ?? '')
        .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
        .replace(/\\(.)/g, '$1')
  }
  out = out.replace(/[\ue000-\uf8ff]/g, '')
  // Only punctuation or symbols (a required field's "*", a breadcrumb's "›"): decoration, which
  // the listing says otherwise (the `required` flag), not words of the name. Chromium keeps them.
  return kWordChar.test(out) ? out : ''
}

const kWordChar = /[\p{L}\p{N}]/u

let shared: NameCache | null = null

/** One cache for the current task's name computations outside a scan (the locators, the executor). */
export function sharedCache(): NameCache {
  if (!shared) {
    shared = new NameCache()
    queueMicrotask(() => (shared = null))
  }
  return shared
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

function inputTypeOf(el: Element): string {
  return (el.getAttribute('type') ?? 'text').toLowerCase()
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
    const type = inputTypeOf(el)
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

function implicitRoleOf(el: Element, tag: string): string {
  const explicit = (el.getAttribute('role') ?? '').trim().split(/\s+/)[0].toLowerCase()
  if (explicit && explicit !== 'none' && explicit !== 'presentation') return explicit
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : ''
    case 'button':
    case 'summary':
      return 'button'
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return 'heading'
    case 'nav':
      return 'navigation'
    case 'main':
      return 'main'
    case 'form':
      return 'form'
    case 'table':
      return 'table'
    case 'ul':
    case 'ol':
      return 'list'
    case 'dialog':
      return 'dialog'
    case 'article':
      return 'article'
    case 'select':
      return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox'
    case 'textarea':
      return 'textbox'
    case 'input': {
      const type = inputTypeOf(el)
      return type === 'range' ? 'slider' : type === 'number' ? 'spinbutton' : kTextInputTypes.has(type) ? 'textbox' : ''
    }
  }
  if ((el as HTMLElement).isContentEditable && el.getAttribute('contenteditable') !== null) return 'textbox'
  return ''
}

/** 2B: the text of the nodes `ids` names, each computed as if it were the root, hidden ones whole. */
function labelledByText(el: Element, ids: string, walk: Walk, step: Step): string {
  const root = el.getRootNode() as Document | ShadowRoot
  const parts: string[] = []
  for (const id of ids.split(/\s+/)) {
    const ref = id ? (root.getElementById?.(id) ?? null) : null
    if (!ref) continue
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
    const role = implicitRoleOf(el, tag)
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
    const type = inputTypeOf(el)
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
    const root = el.getRootNode() as Document | ShadowRoot
    for (const id of owns.split(/\s+/)) {
      const owned = id ? root.getElementById?.(id) : null
      if (owned && !el.contains(owned)) out += childText(owned, walk, childStep, invisible, true)
    }
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

/** The words a drawn icon's meaning is listed by (withMeaning adds "delete" to "trash"). */
const kGlyphWords: Record<string, string> = {
  [kMeaningGlyph.destructive]: 'trash',
  [kMeaningGlyph.payment]: 'credit card',
  [kMeaningGlyph.permission]: 'unlock',
  [kMeaningGlyph.data_send]: 'send',
}

/**
 * The meaning an icon draws, read off the drawing: an inline SVG's or SVG image's path shape, an
 * icon font's glyph or an emoji in `::before` / `::after`. '' when nothing drawn is known.
 */
function drawnIconWord(parts: Element[]): string {
  for (const n of parts) {
    let drawn = ''
    if (n.localName === 'svg')
      drawn = readShapes([...n.querySelectorAll('path[d]')].slice(0, 40).map((p) => p.getAttribute('d') ?? ''))
    else if (n.localName === 'img') {
      const m = /^data:image\/svg\+xml(;[^,]*)?,(.*)$/is.exec(n.getAttribute('src') ?? '')
      if (m) {
        try {
          const src = (m[1] ?? '').includes('base64') ? atob(m[2]) : decodeURIComponent(m[2])
          drawn = readShapes([...src.slice(0, 20_000).matchAll(/\bd\s*=\s*["']([^"']+)["']/g)].map((x) => x[1]))
        } catch {
          drawn = ''
        }
      }
    } else {
      const V = n.ownerDocument.defaultView
      for (const pseudo of ['::before', '::after']) drawn ||= readGlyphs(V?.getComputedStyle(n, pseudo).content ?? '')
    }
    for (const [glyph, word] of Object.entries(kGlyphWords)) if (drawn.includes(glyph)) return word
  }
  return ''
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

// ---------------------------------------------------------------------------------------------
// Guessed names: an unnamed control named from its icon.

/** Icon-font classes whose text is a ligature: the glyph's name (`thumb_up`), not words on screen. */
const kLigatureClass = /(?:^|\s)(?:material-icons[\w-]*|material-symbols[\w-]*|mdc-icon|google-symbols)(?:\s|$)/

/** The name of an icon drawn by a ligature (Material Icons `favorite`), spelt as words; '' if none. */
function ligatureName(el: Element, name: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(name) || name.length > 40) return ''
  const glyph = kLigatureClass.test(el.getAttribute('class') ?? '')
    ? el
    : el.firstElementChild &&
      el.querySelector('[class*=material-icons],[class*=material-symbols],.mdc-icon,[class*=google-symbols]')
  if (!glyph || normalizeText(glyph.textContent ?? '') !== name) return ''
  return name.replace(/_/g, ' ')
}

/**
 * Class words that say nothing about what a control does: layout, state, the library's own
 * prefixes and the word "icon" itself. What is left of `fa-regular fa-heart` is "heart".
 */
const kNoiseWords = new Set([
  'icon',
  'icons',
  'ico',
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'fad',
  'fat',
  'fass',
  'fasr',
  'solid',
  'regular',
  'light',
  'thin',
  'duotone',
  'brands',
  'sharp',
  'bi',
  'mdi',
  'ti',
  'ri',
  'ion',
  'ionicon',
  'glyphicon',
  'anticon',
  'el',
  'lucide',
  'feather',
  'octicon',
  'svg',
  'img',
  'image',
  'material',
  'symbols',
  'outlined',
  'outline',
  'filled',
  'fill',
  'line',
  'round',
  'rounded',
  'two',
  'tone',
  'sm',
  'md',
  'lg',
  'xl',
  'xs',
  'small',
  'large',
  'alt',
  'o',
  'btn',
  'button',
  'action',
  'actions',
  'item',
  'items',
  'link',
  'wrapper',
  'wrap',
  'container',
  'inner',
  'outer',
  'box',
  'control',
  'controls',
  'tool',
  'tools',
  'toolbar',
  'clickable',
  'pointer',
  'active',
  'selected',
  'hover',
  'focus',
  'disabled',
  'enabled',
  'open',
  'closed',
  'show',
  'hide',
  'hidden',
  'visible',
  'left',
  'right',
  'top',
  'bottom',
  'pull',
  'float',
  'flex',
  'inline',
  'block',
  'd',
  'p',
  'm',
  'px',
  'py',
  'mx',
  'my',
  'ml',
  'mr',
  'mt',
  'mb',
  'pl',
  'pr',
  'js',
  'ui',
  'ng',
  'v',
  'x',
  'is',
  'has',
  'text',
  'muted',
  'primary',
  'secondary',
  'default',
  'gray',
  'grey',
  'dark',
  'white',
  'black',
  'color',
  'span',
  'div',
  'col',
  'row',
  'grid',
  'cell',
  'size',
  'w',
  'h',
  'c',
  'a',
  'i',
  'b',
  'u',
  'hand',
  'cursor',
  'tweet',
  'post',
  'card',
  'feed',
  'mail',
  'list',
])

/** A class that is a generated hash (CSS modules, styled-components, emotion): no words in it. */
const kHashClass = /^(?:css|sc|jsx|emotion|svelte|_)-|^(?=[a-zA-Z0-9]*\d)(?=[a-zA-Z0-9]*[a-zA-Z])[a-zA-Z0-9]{5,}$/

/**
 * Words that name what a control does, most common first on feeds, mail and toolbars: when an
 * icon's or control's classes hold one, it is the guess (`ProfileTweet-action--favorite
 * js-toggleState` is "favorite", not "toggle state").
 */
const kActionWords = new Set([
  'reply',
  'retweet',
  'repost',
  'share',
  'like',
  'unlike',
  'heart',
  'favorite',
  'favourite',
  'star',
  'bookmark',
  'comment',
  'comments',
  'quote',
  'follow',
  'delete',
  'trash',
  'remove',
  'archive',
  'spam',
  'report',
  'flag',
  'edit',
  'pencil',
  'copy',
  'paste',
  'cut',
  'save',
  'download',
  'upload',
  'send',
  'search',
  'settings',
  'gear',
  'cog',
  'menu',
  'more',
  'ellipsis',
  'kebab',
  'close',
  'plus',
  'add',
  'minus',
  'refresh',
  'reload',
  'undo',
  'redo',
  'play',
  'pause',
  'stop',
  'mute',
  'unmute',
  'volume',
  'next',
  'prev',
  'previous',
  'back',
  'forward',
  'expand',
  'collapse',
  'print',
  'attach',
  'paperclip',
  'lock',
  'unlock',
  'pin',
  'bell',
  'notification',
  'notifications',
  'home',
  'cart',
  'filter',
  'sort',
  'info',
  'help',
  'thumbs',
  'thumb',
  'up',
  'down',
  'zoom',
  'fullscreen',
  'calendar',
  'emoji',
  'smile',
  'camera',
  'mic',
  'location',
  'envelope',
  'inbox',
  'unread',
  'check',
  'checkmark',
  'done',
  'cancel',
  'block',
  'eye',
  'sync',
  'logout',
  'login',
])

/** The words a class token says, noise left out: `icon-trash` → trash, `fa-thumbs-up` → thumbs up. */
function classWords(cls: string): string[] {
  const out: string[] = []
  for (const token of cls.split(/\s+/)) {
    if (!token || token.length > 40 || kHashClass.test(token) || /^(?:is|has)-/.test(token)) continue
    const words = token
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[-_\s]+/)
      .filter((w) => w && !kNoiseWords.has(w) && !/^\d+$/.test(w) && /^[a-z]/.test(w))
    if (words.length) out.push(words.join(' '))
  }
  return out
}

const kIconSelector =
  'i, svg, img, use, [class*="icon" i], [class*=fa-], [class*=bi-], [class*=mdi-], [data-icon], [title], [aria-label]'
const kMaxIconParts = 12

/**
 * What people call the action an icon stands for, where the icon's own name is a picture: a heart
 * is "like", a trash can "delete". The guess says both ("like heart"), so either word finds it.
 */
function withMeaning(guess: string): string {
  const first = guess.split(' ')[0]
  const meaning = pictureAction(first)
  return meaning && !guess.includes(meaning) ? `${meaning} ${guess}` : guess
}

/** The words of an image file name: `/img/reply-icon@2x.png` → reply. */
function fileWords(src: string): string {
  const file = src
    .replace(/[?#].*$/, '')
    .replace(/^.*\//, '')
    .replace(/@\dx/, '')
    .replace(/\.\w+$/, '')
  if (!file || /^data:/.test(src)) return ''
  return classWords(file.replace(/[.]/g, '-')).join(' ')
}

/**
 * A name for a control that has none, read off its icon (issue "pages nobody wrote"): a `title`
 * or `aria-label` inside it, an SVG's `<title>` or `<use>` target, an image's file name, a
 * `data-icon`, else the words of its icon's and its own class names. '' when nothing says anything.
 * It is a guess: callers mark it as one.
 */
export function guessedName(el: Element): string {
  const guess = iconWords(el)
  return guess ? withMeaning(guess) : ''
}

function iconWords(el: Element): string {
  const parts = [el, ...Array.from(el.querySelectorAll(kIconSelector)).slice(0, kMaxIconParts)]
  // What the page itself wrote for people first, then what its code names the icon.
  for (const n of parts) {
    if (n === el) continue
    const said =
      n.getAttribute('aria-label') || n.getAttribute('title') || (n.localName === 'img' ? n.getAttribute('alt') : '')
    if (said && said.trim()) return normalizeText(said)
    if (n.localName === 'svg') {
      const title = n.querySelector('title')?.textContent
      if (title && title.trim()) return normalizeText(title)
    }
  }
  // What the icon draws comes before what its code calls it: a class may say "archive" where a
  // trash can is drawn (core/risk/glyphs.ts; docs/page-representation.md, "Icon names").
  const drawn = drawnIconWord(parts)
  if (drawn) return drawn
  for (const n of parts) {
    if (n.localName === 'use') {
      const href = n.getAttribute('href') ?? n.getAttribute('xlink:href') ?? ''
      const id = href.replace(/^.*#/, '')
      const target = id ? n.ownerDocument.getElementById(id) : null
      const title = target?.querySelector('title')?.textContent
      if (title && title.trim()) return normalizeText(title)
      const words = classWords(id).join(' ')
      if (words) return words
    }
    if (n.localName === 'img') {
      const words = fileWords(n.getAttribute('src') ?? '')
      if (words) return words
    }
    const icon = n.getAttribute('data-icon')
    if (icon) {
      const words = classWords(icon).join(' ')
      if (words) return words
    }
  }
  // Class names: an icon's own first (the <i class="fa fa-heart"> inside), then the control's;
  // a word that names an action wins over the others.
  let first = ''
  for (const n of [...parts.slice(1), el]) {
    const words = classWords(n.getAttribute('class') ?? '')
    for (const w of words) {
      const parts = w.split(' ')
      const at = parts.findIndex((x) => kActionWords.has(x))
      if (at >= 0) return parts.slice(at).join(' ')
    }
    first ||= words[words.length - 1] ?? ''
  }
  return first
}
