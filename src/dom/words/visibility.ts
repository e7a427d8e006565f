/**
 * Whether a node shows, as a name computation needs to know it (accname 2A), and the text CSS
 * generates for it (2F): read from computed style only where a rule of the page's stylesheets,
 * an inline style or the UA may hide it or give it content (observe/cursor-rules.ts), and kept in
 * a `NameCache` for one pass: one scan, or one task for the locators and the executor.
 */
import { ruleSelectors, ruleTest, type RuleTest } from '../observe/cursor-rules'

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
export const kShown = 0
export const kGone = 1
export const kInvisible = 2

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

export const kNoPseudo: [string, string] = ['', '']

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
