/**
 * Which elements can be `display: none`, have a `cursor` other than their parent's, or clip their
 * content (`overflow`), read from the document's own stylesheets once per scan (never cached
 * across scans: sheets and classes change without mutations the scan could see).
 *
 * `cursor` is inherited and `display` is not, so an element no rule sets either on is not
 * display:none and has its parent's cursor. The scan reads the computed style (costly per element)
 * only for elements that may differ: those matched by a selector of a rule setting `cursor`,
 * `display` or `all`, elements with an inline style, a `cursor` attribute (SVG) or `popover`, the
 * tags the UA stylesheet styles (kUaStyledTags), roots, and whole subtrees
 * of shadow hosts and custom elements (their shadow sheets, `:host` and `::slotted` rules, and
 * slotting, which changes what a light child inherits from). Anything this module can't see
 * through — an unreadable (cross-origin) sheet, nested or scoped rules, `::part`, a keyframe
 * animating `cursor`, too many rules — makes it answer `null`: read every element's style.
 * `overflow` is not inherited either: a container no rule, inline style or UA rule gives an
 * overflow of its own does not clip, and its overflow is not read. Likewise an element that no
 * rule, inline style, UA rule or running animation can make transparent, invisible or skipped
 * (`opacity`, `visibility`, `content-visibility`), inside ancestors none can either, is visible,
 * and its `checkVisibility()` is not asked; one none can `clip` is not clipped away.
 */

/** More rules than this in one list and one `matches()` costs about as much as the style read. */
const kMaxCursorRules = 24

/**
 * Tags the UA stylesheet gives a cursor (Chromium: a, area → pointer; controls → default/text) or
 * may give `display: none` (closed dialogs, audio without controls, hidden inputs, ruby fallback,
 * media sources...), with the other replaced and form elements for good measure.
 */
export const kUaStyledTags = new Set([
  'a',
  'area',
  'button',
  'input',
  'label',
  'select',
  'textarea',
  'option',
  'optgroup',
  'datalist',
  'dialog',
  'param',
  'rp',
  'rt',
  'noembed',
  'noframes',
  'track',
  'source',
  'audio',
  'video',
  'embed',
  'object',
  'iframe',
  'frame',
  'frameset',
  'slot',
  'details',
  'summary',
  'img',
  'canvas',
  'svg',
  'math',
  'picture',
  'map',
  'marquee',
  'keygen',
  'applet',
  'fieldset',
  'legend',
  'output',
  'meter',
  'progress',
  // Clipped by the UA stylesheet (Chromium: overflow hidden or clip); the replaced ones above too.
  'hr',
])

/**
 * The UA-styled tags whose UA style differs from their parent's only in `cursor` (links, controls,
 * labels: never display:none or contents, but a hidden input): without a rule of the page of their
 * own their style is read only when the cursor matters.
 */
export const kUaCursorTags = new Set(['a', 'button', 'label', 'select', 'textarea', 'summary', 'input'])

/**
 * Tags whose subtree or own box the UA may withhold (Chromium: the children of replaced elements,
 * form controls, br/wbr, table columns and closed details are not rendered; embed without
 * content and slot have no box): their visibility, and their descendants', is always asked.
 * The other UA-styled tags render themselves and their children like any element.
 */
export const kUaMayHideTags = new Set([...kUaStyledTags, 'br', 'wbr', 'col', 'colgroup'])
for (const tag of ['a', 'button', 'label', 'summary', 'fieldset', 'legend', 'output', 'dialog'])
  kUaMayHideTags.delete(tag)
/** UA-styled tags that always have a box of their own when not display:none (their children may not). */
export const kUaBoxedTags = new Set([
  'a',
  'button',
  'label',
  'summary',
  'fieldset',
  'legend',
  'output',
  'dialog',
  'input',
  'select',
  'textarea',
])

/** Selectors of the elements a stylesheet rule may style (see the module comment). */
export interface RuleSelectors {
  /** Rules setting `cursor`, `display` or `all`: '' when none does, null to read every element. */
  cursor: string | null
  /** Rules setting `overflow` (any longhand) or `all`: '' when none does, null to read every one. */
  overflow: string | null
  /** Rules setting `opacity`, `visibility`, `content-visibility` or `all`; null also while anything animates. */
  hide: string | null
  /** Rules setting `clip`, `clip-path` or `all` (the UA sets neither); null also while anything animates. */
  clip: string | null
  /**
   * Elements whose `::before` or `::after` a rule gives readable `content` (dom/words reads it for
   * accessible names): the rules' selectors without the pseudo-element. Icon-font glyphs
   * (private-use characters) and empty strings (clearfix) are not readable and not listed.
   */
  generated: string | null
}

/**
 * Whether a rule of one selector list may style an element, for one document (or the element a
 * scan starts from). The list is matched once, by a querySelectorAll on first use, rather than by
 * a `matches()` per element. One class for every list and scan, so the scan's call sites stay
 * monomorphic.
 */
export class RuleTest {
  private matched: Set<Element> | undefined

  constructor(
    private sel: string,
    private scope: Document | Element,
  ) {}

  has(el: Element): boolean {
    if (this.sel === '') return false
    if (!this.matched) {
      this.matched = new Set(this.scope.querySelectorAll(this.sel))
      if (this.scope.nodeType === 1 && (this.scope as Element).matches(this.sel))
        this.matched.add(this.scope as Element)
    }
    return this.matched.has(el)
  }
}

/** The test for one list, or null when every element must be read. */
export function ruleTest(sel: string | null, scope: Document | Element): RuleTest | null {
  return sel === null ? null : new RuleTest(sel, scope)
}

class Unknown extends Error {}

// Longhands as a declaration block lists them, with the shorthands an engine may list instead.
const kCursorProps = ['cursor', 'display', 'all']
const kOverflowProps = ['overflow', 'overflow-x', 'overflow-y', 'overflow-inline', 'overflow-block', 'all']
const kHideProps = ['opacity', 'visibility', 'content-visibility', 'all']
const kClipProps = ['clip', 'clip-path', 'all']

/**
 * Which lists a declaration block sets a property of, a bit per list: one pass over the names it
 * declares rather than a getPropertyValue per property of interest.
 */
function listsSetBy(style: CSSStyleDeclaration | undefined, lists: List[]): number {
  let mask = 0
  if (!style) return mask
  for (let i = 0; i < style.length; i++) {
    const name = style[i]
    for (let l = 0; l < lists.length; l++) if (lists[l].props.includes(name)) mask |= 1 << l
  }
  return mask
}

/** One list of selectors; `over` when it can't be matched (too long, or unknown): read every element. */
interface List {
  props: string[]
  sels: string[]
  over: boolean
  /** Selectors kept before the list counts as unknown (kMaxCursorRules unless said). */
  max?: number
}

function add(list: List, sel: string): void {
  if (list.over) return
  list.sels.push(sel)
  if (list.sels.length > (list.max ?? kMaxCursorRules)) list.over = true
}

/** More generated-content rules than this and every element's pseudo-elements are read. */
const kMaxGeneratedRules = 200
const kPseudo = /::?(?:before|after)\b/i
const kPseudoAll = /::?(?:before|after)\b/gi

/**
 * Whether a `content` value draws something a person reads: a string with a letter or digit
 * outside the private-use areas icon fonts draw from, `attr()` or a counter; not `none`,
 * `normal`, `""` or a lone "*".
 */
export function readableContent(value: string): boolean {
  if (!value || value === 'none' || value === 'normal') return false
  if (/attr\(|counters?\(/i.test(value)) return true
  const strings = value.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g)
  if (!strings) return false
  // A CSS escape of a private-use code point (\f004) is an icon glyph too; a string of
  // punctuation or symbols only ("*", "›") is decoration (dom/words/visibility.ts generatedText).
  return strings.some((s) => /[\p{L}\p{N}]/u.test(s.slice(1, -1).replace(/\\(?:e|f)[0-9a-f]{3}\s?/gi, '')))
}

function addGenerated(list: List, selectorText: string): void {
  for (const part of selectorText.split(',')) {
    if (!kPseudo.test(part)) continue
    const sel = part.replace(kPseudoAll, '').trim()
    add(list, !sel || /[>+~]$/.test(sel) ? `${sel} *`.trim() : sel)
  }
}

function collect(rules: CSSRuleList, lists: List[], depth: number): void {
  if (depth > 8) throw new Unknown()
  for (let i = 0; i < rules.length; i++) {
    // Past the cursor list's cap (it is first) every style is read anyway, and a sheet that
    // large sets opacity and overflow past their caps too: it is not walked to its end.
    if (lists[0].over) throw new Unknown()
    const rule = rules[i] as CSSRule & {
      cssRules?: CSSRuleList
      styleSheet?: CSSStyleSheet | null
      selectorText?: string
      style?: CSSStyleDeclaration
    }
    const type = rule.constructor?.name
    if (type === 'CSSStyleRule') {
      // Nested rules carry relative selectors (`&:hover`) that matches() can't take alone.
      if (rule.cssRules && rule.cssRules.length > 0) throw new Unknown()
      const mask = listsSetBy(rule.style, lists)
      if (mask === 0) continue
      const sel = rule.selectorText ?? ''
      // Shadow-crossing selectors match elements this document's matches() can't test.
      const unmatchable = !sel || /::part|:host|::slotted/i.test(sel)
      for (let l = 0; l < lists.length; l++) {
        if (!(mask & (1 << l))) continue
        if (unmatchable) lists[l].over = true
        else add(lists[l], sel)
      }
    } else if (type === 'CSSImportRule') {
      const sheet = rule.styleSheet
      if (!sheet) throw new Unknown()
      collect(sheet.cssRules, lists, depth + 1)
    } else if (
      type === 'CSSMediaRule' ||
      type === 'CSSSupportsRule' ||
      type === 'CSSLayerBlockRule' ||
      type === 'CSSContainerRule'
    ) {
      // Conditions are ignored: a rule that may apply is treated as applying (one more read).
      collect(rule.cssRules!, lists, depth + 1)
    } else if (type === 'CSSKeyframesRule') {
      const frames = rule.cssRules!
      // An animation may set the property on any element: read every one.
      for (let k = 0; k < frames.length; k++) {
        const mask = listsSetBy((frames[k] as CSSKeyframeRule).style, lists)
        for (let l = 0; l < lists.length; l++) if (mask & (1 << l)) lists[l].over = true
      }
    } else if (rule.cssRules !== undefined || type === undefined) {
      // @scope, @starting-style and any grouping rule not known here.
      throw new Unknown()
    }
    // @font-face, @page, @namespace, @layer statements, @property: no element style.
  }
}

/** The list as one selector ('' when empty), or null when it is too long or matches() rejects it. */
function joined(list: List, doc: Document): string | null {
  if (list.over) return null
  if (list.sels.length === 0) return ''
  const sel = list.sels.join(', ')
  try {
    // A selector the parser kept but matches() rejects (namespaces, vendor pseudo-classes).
    doc.documentElement?.matches(sel)
    return sel
  } catch {
    return null
  }
}

/**
 * Selector lists matching every element a stylesheet rule may set `cursor` (or `display`) and
 * `overflow` on; each is '' when no rule does, or null when the sheets can't be read through and
 * every element needs its style read.
 */
export function ruleSelectors(doc: Document): RuleSelectors {
  const cursor: List = { props: kCursorProps, sels: [], over: false }
  const overflow: List = { props: kOverflowProps, sels: [], over: false }
  const hide: List = { props: kHideProps, sels: [], over: false }
  const clip: List = { props: kClipProps, sels: [], over: false }
  try {
    const sheets: CSSStyleSheet[] = [
      ...Array.from(doc.styleSheets),
      ...((doc as Document & { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets ?? []),
    ]
    // cssRules throws on a cross-origin sheet; that is the fallback too.
    for (const sheet of sheets) collect(sheet.cssRules, [cursor, overflow, hide, clip], 0)
  } catch {
    return { cursor: null, overflow: null, hide: null, clip: null, generated: generatedSelectors(doc) }
  }
  // Transitions and script animations (Element.animate) fade or clip elements without any rule saying so.
  if (typeof doc.getAnimations !== 'function' || doc.getAnimations().length > 0) hide.over = clip.over = true
  return {
    cursor: joined(cursor, doc),
    overflow: joined(overflow, doc),
    hide: joined(hide, doc),
    clip: joined(clip, doc),
    generated: generatedSelectors(doc),
  }
}

/** The generated-content list of a document, kept while its sheets are the same sheets of the same lengths. */
const generatedBySheets = new WeakMap<Document, { sheets: CSSStyleSheet[]; lengths: number[]; sel: string | null }>()

function collectGenerated(rules: CSSRuleList, list: List, depth: number): void {
  if (depth > 8) throw new Unknown()
  for (let i = 0; i < rules.length; i++) {
    if (list.over) return
    const rule = rules[i] as CSSRule & {
      cssRules?: CSSRuleList
      styleSheet?: CSSStyleSheet | null
      selectorText?: string
      style?: CSSStyleDeclaration
    }
    const sel = rule.selectorText
    if (sel !== undefined) {
      if (rule.cssRules && rule.cssRules.length > 0) throw new Unknown()
      if (kPseudo.test(sel) && rule.style && readableContent(rule.style.getPropertyValue('content')))
        addGenerated(list, sel)
    } else if (rule.styleSheet !== undefined) {
      if (!rule.styleSheet) throw new Unknown()
      collectGenerated(rule.styleSheet.cssRules, list, depth + 1)
    } else if (rule.cssRules) collectGenerated(rule.cssRules, list, depth + 1)
  }
}

/**
 * Selectors of the elements whose ::before/::after a rule gives readable content (dom/words), or
 * null when the sheets can't be read through. A sheet as large as a component library's is
 * walked once, not on every scan: the list is kept while the document has the same sheets with
 * the same numbers of rules (a changed `<style>` text is a new sheet; insertRule changes a count).
 */
export function generatedSelectors(doc: Document): string | null {
  let sheets: CSSStyleSheet[]
  let lengths: number[]
  try {
    sheets = [
      ...Array.from(doc.styleSheets),
      ...((doc as Document & { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets ?? []),
    ]
    lengths = sheets.map((s) => s.cssRules.length)
  } catch {
    return null
  }
  const kept = generatedBySheets.get(doc)
  if (
    kept &&
    kept.sheets.length === sheets.length &&
    kept.sheets.every((s, i) => s === sheets[i] && kept.lengths[i] === lengths[i])
  )
    return kept.sel
  const list: List = { props: [], sels: [], over: false, max: kMaxGeneratedRules }
  let sel: string | null
  try {
    for (const sheet of sheets) collectGenerated(sheet.cssRules, list, 0)
    sel = joined(list, doc)
  } catch {
    sel = null
  }
  generatedBySheets.set(doc, { sheets, lengths, sel })
  return sel
}
