/**
 * The single pass over the page. One depth-first walk visits every
 * element once and reads, per element, a few attributes and at most one computed style (display,
 * cursor, overflow): only where a stylesheet rule, inline style or the UA may set display or
 * cursor (cursor-rules.ts; every element when the sheets can't be read through). Layout
 * (`getBoundingClientRect`, `checkVisibility`) is read only for candidates.
 * Nothing is written to the DOM here, so the browser computes style and layout at most once for
 * the whole scan; ids are written afterwards in one batch (ids.ts).
 *
 * The walk follows `firstElementChild`/`nextElementSibling` rather than a TreeWalker because it
 * carries context down the tree (region, row, label, clipping) and has to step into open shadow
 * roots and same-origin frames, which a TreeWalker does not enter.
 */
import { ElementType, type FrameInfo, type LazyRegion, type Rect, type RegionKind } from '../../core/page/snapshot'
import { elementTypeOf, inputType, isEditableHost, kWidgetRoles, roleOf } from './roles'
import { cssVisibility, geometryHidden, intersectClip, type ClipBox } from './visibility'
import { clip, slug, normalizeText } from '../../core/page/text'
import { frameIdFor } from './ids'
import { regionHeader } from '../words'
import {
  kUaBoxedTags,
  kUaCursorTags,
  kUaMayHideTags,
  kUaStyledTags,
  ruleSelectors,
  ruleTest,
  type RuleTest,
} from './cursor-rules'
import { listenerHints } from './listeners'

/** Subtrees that never hold anything to show or click. */
const kSkipTags = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base'])
/** Elements whose children are not worth visiting (replaced content, options, vector art). */
const kLeafTags = new Set([
  'svg',
  'select',
  'video',
  'audio',
  'canvas',
  'object',
  'embed',
  'img',
  'picture',
  'math',
  'textarea',
  'input',
])
/**
 * Phrasing tags with no role, no content score and no interactivity of their own. Without
 * attributes or children such an element matters only if its cursor makes it clickable, and then
 * the candidate's visibility check (`checkVisibility`) sees a `display: none` anyway: its display
 * is not read (about a quarter of a typical page's elements, one style read each).
 */
const kPlainLeafTags = new Set([
  'span',
  'b',
  'i',
  'em',
  'strong',
  'small',
  'code',
  's',
  'u',
  'sup',
  'sub',
  'mark',
  'abbr',
  'cite',
  'q',
  'kbd',
  'font',
  'br',
  'wbr',
])
/** Ava's own UI (button, panel, overlay) carries this attribute and is never scanned. */
export const kAvaUiAttr = 'data-ava-ui'

/**
 * The attributes the walk asks about, as bits of one mask per element: a single
 * `getAttributeNames()` costs about what two `hasAttribute()` probes do, and an element is asked
 * about a dozen attributes.
 */
const kAttrSkip = 1 // not scanned: ours, inert, or hidden
const kAttrStyle = 2 // may set display or cursor itself: inline style, SVG cursor, popover
const kAttrRole = 4
const kAttrTabindex = 8
const kAttrEditable = 16
const kAttrOnclick = 32
const kAttrLazy = 64 // lazy loading, aria-busy, or a class that may name a placeholder
const kAttrBits = new Map<string, number>([
  [kAvaUiAttr, kAttrSkip],
  ['inert', kAttrSkip],
  // `hidden` is display:none by the UA stylesheet (or content-visibility:hidden for
  // until-found); checked directly for engines whose computed style misses it.
  ['hidden', kAttrSkip],
  ['style', kAttrStyle],
  ['cursor', kAttrStyle],
  ['popover', kAttrStyle],
  ['role', kAttrRole],
  ['tabindex', kAttrTabindex],
  ['contenteditable', kAttrEditable],
  ['onclick', kAttrOnclick],
  // The other handler attributes a press starts with (listeners.ts hints the properties).
  ['onmousedown', kAttrOnclick],
  ['onmouseup', kAttrOnclick],
  ['onpointerdown', kAttrOnclick],
  ['ontouchstart', kAttrOnclick],
  ['onkeydown', kAttrOnclick],
  ['loading', kAttrLazy],
  ['aria-busy', kAttrLazy],
  ['class', kAttrLazy],
])

function attrBits(el: Element): number {
  const names = el.getAttributeNames()
  let bits = 0
  for (let i = 0; i < names.length; i++) bits |= kAttrBits.get(names[i]) ?? 0
  return bits
}

/** Block-level content tags the attention model scores. */
export const kContentTags = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'li',
  'blockquote',
  'td',
  'th',
  'pre',
  'dd',
  'dt',
  'figcaption',
  'caption',
])

/** Landmark roles → region kinds (regions). */
const kRegionByRole: Record<string, RegionKind> = {
  banner: 'header',
  navigation: 'nav',
  main: 'main',
  complementary: 'aside',
  contentinfo: 'footer',
  dialog: 'dialog',
  alertdialog: 'dialog',
  form: 'form',
  search: 'form',
}

/** Class names that mark content still to come (skeletons, infinite-scroll sentinels). */
const kLazyClass = /(?:^|[\s_-])(skeleton|lazyload|lazy-load|infinite|sentinel|load-more|loadmore)(?:$|[\s_-])/i
/** Enough lazy markers to say "more is coming" without listing a whole skeleton grid. */
const kMaxLazyRegions = 30

/** What the walk needs to know about a tag, as bits of one lookup (tagBits). */
const kTagSkip = 1
const kTagLeaf = 2
const kTagPlainLeaf = 4
const kTagUaStyled = 8
const kTagContent = 16
const kTagUaMayHide = 64
const kTagUaBoxed = 128
const kTagUaCursor = 256
const kTagBits = new Map<string, number>()
for (const [tags, bit] of [
  [kSkipTags, kTagSkip],
  [kLeafTags, kTagLeaf],
  [kPlainLeafTags, kTagPlainLeaf],
  [kUaStyledTags, kTagUaStyled],
  [kContentTags, kTagContent],
  [kUaMayHideTags, kTagUaMayHide],
  [kUaBoxedTags, kTagUaBoxed],
  [kUaCursorTags, kTagUaCursor],
] as const) {
  for (const tag of tags) kTagBits.set(tag, (kTagBits.get(tag) ?? 0) | bit)
}

export interface RegionAcc {
  id: string
  kind: RegionKind
  label: string
  el: Element | null
  parent: RegionAcc | null
  elements: number
  doc: DocScan
}

export interface GroupAcc {
  id: string
  kind: 'table' | 'list'
  region: RegionAcc
  items: number
  index: Map<Element, number>
  container: Element
}

/** One scanned document (the top one or a same-origin frame). */
export interface DocScan {
  doc: Document
  view: Window
  /** Id prefix of this document's elements (`frame_<id>_`, nested as needed; '' at the top). */
  prefix: string
  /** Position of this document's viewport in the top viewport. */
  ox: number
  oy: number
  scrollX: number
  scrollY: number
  layout: boolean
  active: Element | null
  /**
   * Whether a stylesheet rule may give an element a `cursor` or `display` of its own
   * (cursor-rules.ts); null to read every element's style.
   */
  cursorRule: RuleTest | null
  /** Whether a rule may give an element an `overflow` (cursor-rules.ts), as `cursorRule`. */
  overflowRule: RuleTest | null
  /**
   * Whether a rule may make an element transparent, invisible or skipped (cursor-rules.ts), as
   * `cursorRule`; null also where checkVisibility() is always asked: no layout, no native
   * helper, or a scan from an element whose ancestors the walk never sees.
   */
  hideRule: RuleTest | null
  /** Whether a rule may `clip` an element away (cursor-rules.ts), as `cursorRule`. */
  clipRule: RuleTest | null
  /** Whether a rule may give an element's ::before/::after readable content (dom/words), as `cursorRule`. */
  generatedRule: RuleTest | null
  /** Elements the page's scripts listen on for a click or key (listeners.ts): hints only. */
  hints: ReadonlySet<Element>
  /** Elements found `display: none` (their subtrees are not walked): dom/words/accname.ts leaves them out. */
  gone: Set<Element>
}

export interface Candidate {
  el: Element
  tag: string
  role: string
  type: ElementType
  region: RegionAcc
  item: Element | null
  group: GroupAcc | null
  label: Element | null
  /** Clickable only by `cursor: pointer`, `onclick` or a listener hint: dropped if it contains a real control. */
  weak: boolean
  /**
   * A weak candidate the page's script listens on that is one of a run of alike siblings (an
   * e-mail list's rows): a row a person clicks, kept when a control inside it is listed too.
   */
  keep?: boolean
  /**
   * A control only because it is a tab stop (tabindex, no native control or widget role): a
   * focusable container such as jQuery UI's menu, dropped when something inside it is listed.
   */
  tabStop?: boolean
  drop: boolean
  ds: DocScan
  bounds: Rect
  inViewport: boolean
}

export interface ContentCandidate {
  el: Element
  tag: string
  region: RegionAcc
  /** Its computed style if the walk read it; the font size is read only for blocks that count. */
  style: CSSStyleDeclaration | null
  ds: DocScan
  /** Nothing can hide it but what the walk already saw: `checkVisibility()` need not be asked. */
  surelyVisible: boolean
  /** The containers around it that may clip it (contentClip). */
  clip: ClipNode | null
}

export interface RawScan {
  candidates: Candidate[]
  regions: RegionAcc[]
  groups: GroupAcc[]
  /** Every content block outside another one, in document order (extractContent chooses). */
  content: ContentCandidate[]
  frames: FrameInfo[]
  lazy: LazyRegion[]
  visited: number
  top: DocScan
  /** Every document scanned: the top one and its same-origin frames. */
  docs: DocScan[]
  viewport: { width: number; height: number }
  paragraphs: number
  charts: number
  hasArticle: boolean
}

/**
 * An ancestor that may clip its descendants, resolved only when a descendant needs it: most
 * containers hold no candidate, and their `overflow` and box are then never read. The scan writes
 * nothing, so a style read now or later gives the same answer.
 */
interface ClipNode {
  el: Element
  /** null when the walk did not need it (cursor-rules.ts); read here on demand. */
  style: CSSStyleDeclaration | null
  /** false for the roots, whose overflow applies to the viewport. */
  clips: boolean
  /** Its overflow is read whatever the sheets say: a UA-styled tag, an inline style, or inside a shadow host. */
  mustRead: boolean
  /** It may hide itself or its subtree whatever the sheets say: a UA tag, an inline style, or inside a shadow host. */
  mayHide: boolean
  parent: ClipNode | null
  /** undefined until resolved. */
  box?: ClipBox | null
  /** It or an ancestor may hide its subtree; undefined until resolved. */
  hides?: boolean
}

/** A context to change for the children: the parent's is copied once (no closure per element). */
function forkOf(next: Ctx, ctx: Ctx): Ctx {
  if (next !== ctx) return next
  // Field by field rather than a spread, so every context shares one object shape.
  return {
    region: ctx.region,
    item: ctx.item,
    group: ctx.group,
    inInteractive: ctx.inInteractive,
    weakOwner: ctx.weakOwner,
    hintOwner: ctx.hintOwner,
    label: ctx.label,
    inContent: ctx.inContent,
    exactCursor: ctx.exactCursor,
  }
}

function clipOf(node: ClipNode | null, ds: DocScan): ClipBox | null {
  if (!node) return null
  if (node.box !== undefined) return node.box
  const outer = clipOf(node.parent, ds)
  node.box = outer
  if (node.clips && mayClip(node, ds)) {
    const overflow = (node.style ?? ds.view.getComputedStyle(node.el)).overflowX
    // Content outside an overflow:hidden box can never be seen there (collapsed panels,
    // carousels). Absolutely positioned descendants that escape it are rare enough to accept.
    if (overflow === 'hidden' || overflow === 'clip') node.box = intersectClip(node.el.getBoundingClientRect(), outer)
  }
  return node.box
}

/** The viewport-space box a content block is visible in: null when nothing around it clips. */
export function contentClip(c: ContentCandidate): ClipBox | null {
  return clipOf(c.clip, c.ds)
}

/** `el` as a container around its children; `own` when its own style may clip or hide (inline, shadow). */
function clipNodeOf(
  el: Element,
  tag: string,
  tagBits: number,
  own: boolean,
  style: CSSStyleDeclaration | null,
  parent: ClipNode | null,
): ClipNode {
  return {
    el,
    style,
    clips: tag !== 'html' && tag !== 'body',
    mustRead: own || (tagBits & kTagUaStyled) !== 0,
    mayHide: own || (tagBits & kTagUaMayHide) !== 0,
    parent,
  }
}

/** True when the node or an ancestor may hide what is below it (cursor-rules.ts). */
function hidesBelow(node: ClipNode | null, rule: RuleTest): boolean {
  if (!node) return false
  node.hides ??= node.mayHide || rule.has(node.el) || hidesBelow(node.parent, rule)
  return node.hides
}

/** False when no rule, inline style or UA rule can give the container an overflow (cursor-rules.ts). */
function mayClip(node: ClipNode, ds: DocScan): boolean {
  const rule = ds.overflowRule
  return rule === null || node.mustRead || rule.has(node.el)
}

interface Ctx {
  region: RegionAcc
  item: Element | null
  group: GroupAcc | null
  inInteractive: boolean
  weakOwner: Candidate | null
  /**
   * The nearest candidate clickable only by a listener hint: a wrapper that may merely delegate
   * (a feed, a React root), dropped as soon as anything below it is listed, which is not kept out.
   */
  hintOwner: Candidate | null
  label: Element | null
  inContent: boolean
  /** Inside a shadow host or custom element: every cursor is read (cursor-rules.ts). */
  exactCursor: boolean
}

export interface ScanOptions {
  includeContent: boolean
}

export function scan(root: Document | Element, opts: ScanOptions): RawScan {
  const steps = scanSteps(root, opts)
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

/**
 * The walk of `scan`, in parts: it pauses (yields) after every `kVisitsPerPart` elements met in
 * the upper `kSteppedDepth` levels of the tree, so that a read may give the page its turn
 * (observe.ts `observeYielding`); below that depth a subtree is walked in one go.
 */
export function* scanSteps(root: Document | Element, opts: ScanOptions): Generator<void, RawScan> {
  const doc = root.nodeType === 9 ? (root as Document) : (root as Element).ownerDocument
  const view = doc.defaultView!
  const top = makeDocScan(doc, view, '', 0, 0, root)
  // Scanning from an element: its inherited cursor, and its ancestors' visibility, are unknown.
  if (root.nodeType !== 9) {
    top.cursorRule = null
    top.hideRule = null
  }
  const out: RawScan = {
    candidates: [],
    regions: [],
    groups: [],
    content: [],
    frames: [],
    lazy: [],
    visited: 0,
    top,
    docs: [top],
    viewport: { width: view.innerWidth, height: view.innerHeight },
    paragraphs: 0,
    charts: 0,
    hasArticle: false,
  }
  const walker = new Walker(out, opts)
  const start = root.nodeType === 9 ? (root as Document).documentElement : (root as Element)
  if (start) yield* walker.scanDocument(start, top)
  return out
}

function makeDocScan(
  doc: Document,
  view: Window,
  prefix: string,
  ox: number,
  oy: number,
  scope: Document | Element = doc,
): DocScan {
  const html = doc.documentElement
  // A DOM without layout (happy-dom, a document being built) reports a zero-width root; then
  // every box counts as visible and geometry checks are skipped.
  const layout = !!html && html.getBoundingClientRect().width > 0
  const rules = ruleSelectors(doc)
  const nativeVisibility = typeof Element !== 'undefined' && typeof Element.prototype.checkVisibility === 'function'
  return {
    doc,
    view,
    prefix,
    ox,
    oy,
    scrollX: view.scrollX || 0,
    scrollY: view.scrollY || 0,
    layout,
    active: deepActive(doc),
    cursorRule: ruleTest(rules.cursor, scope),
    overflowRule: ruleTest(rules.overflow, scope),
    hideRule: layout && nativeVisibility ? ruleTest(rules.hide, scope) : null,
    clipRule: ruleTest(rules.clip, scope),
    generatedRule: ruleTest(rules.generated, scope),
    hints: listenerHints(doc),
    gone: new Set(),
  }
}

function deepActive(doc: Document): Element | null {
  let a: Element | null = doc.activeElement
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement
  return a
}

/** What a candidate's own style may hide it by (Walker.candidate): its visibility, a clip. */
const kCheckVisibility = 1
const kCheckClipped = 2

/** An element whose subtree is to be walked, and what its children get (Walker.open). */
interface Opened {
  first: Element | null
  shadow: ShadowRoot | null
  next: Ctx
  inner: ClipNode | null
  pointer: boolean
  ds: DocScan
  /** A listened-on part, settled after its subtree (Walker.close). */
  hinted: boolean
  c: Candidate | null
  ctx: Ctx
}

/**
 * The levels of the tree walked with a stack that can pause (scanSteps), and how many elements
 * are walked between two pauses: a part of about a millisecond on this machine class, so a read
 * can keep every task it runs well under the browser's 50 ms long-task line.
 */
const kSteppedDepth = 24
const kVisitsPerPart = 256

class Walker {
  private regionIds = new Map<string, number>()
  private groupCount = 0
  /** `checkVisibility()` exists: a candidate's own check covers display (see kPlainLeafTags). */
  private nativeVisibility = typeof Element !== 'undefined' && typeof Element.prototype.checkVisibility === 'function'

  constructor(
    private out: RawScan,
    private opts: ScanOptions,
  ) {}

  *scanDocument(start: Element, ds: DocScan): Generator<void> {
    const page = this.openRegion('page', '', null, null, ds)
    const ctx: Ctx = {
      region: page,
      item: null,
      group: null,
      inInteractive: false,
      weakOwner: null,
      hintOwner: null,
      label: null,
      inContent: false,
      exactCursor: false,
    }
    const first = this.open(start, ctx, null, false, ds)
    if (!first) return
    // The upper levels walked with a stack of their own, so the walk can stop between two elements.
    const stack: { o: Opened; child: Element | null; inShadow: boolean }[] = [
      { o: first, child: first.first, inShadow: false },
    ]
    let since = this.out.visited
    while (stack.length) {
      const top = stack[stack.length - 1]
      let child = top.child
      if (!child && !top.inShadow && top.o.shadow) {
        top.inShadow = true
        child = top.o.shadow.firstElementChild
      }
      if (!child) {
        stack.pop()
        this.close(top.o)
        continue
      }
      top.child = child.nextElementSibling
      const o = top.o
      if (stack.length < kSteppedDepth) {
        const opened = this.open(child, o.next, o.inner, o.pointer, o.ds)
        if (opened) stack.push({ o: opened, child: opened.first, inShadow: false })
      } else this.visit(child, o.next, o.inner, o.pointer, o.ds)
      if (this.out.visited - since >= kVisitsPerPart) {
        since = this.out.visited
        yield
      }
    }
  }

  private openRegion(
    kind: RegionKind,
    label: string,
    el: Element | null,
    parent: RegionAcc | null,
    ds: DocScan,
  ): RegionAcc {
    const base = ds.prefix + (label ? `${kind}_${slug(label, 16)}` : kind)
    const n = (this.regionIds.get(base) ?? 0) + 1
    this.regionIds.set(base, n)
    const region: RegionAcc = { id: n === 1 ? base : `${base}_${n}`, kind, label, el, parent, elements: 0, doc: ds }
    this.out.regions.push(region)
    return region
  }

  /**
   * `clip` is the chain of containers around `el` that may clip it; it is not in `ctx` because
   * nearly every container adds to it, and a context is copied only when something else changes.
   */
  private visit(el: Element, ctx: Ctx, clip: ClipNode | null, parentPointer: boolean, ds: DocScan): void {
    const o = this.open(el, ctx, clip, parentPointer, ds)
    if (!o) return
    for (let child = o.first; child; child = child.nextElementSibling) this.visit(child, o.next, o.inner, o.pointer, ds)
    if (o.shadow) {
      for (let child = o.shadow.firstElementChild; child; child = child.nextElementSibling)
        this.visit(child, o.next, o.inner, o.pointer, ds)
    }
    this.close(o)
  }

  /** After an element's subtree: a listened-on part settles whether its wrapper stays. */
  private close(o: Opened): void {
    if (o.hinted) this.settleHint(o.c, o.ctx)
  }

  /**
   * An element met in the walk: what it is, what it lists, and what its children get; null when
   * its subtree is not walked (skipped, gone, a leaf, a frame).
   */
  private open(el: Element, ctx: Ctx, clip: ClipNode | null, parentPointer: boolean, ds: DocScan): Opened | null {
    const out = this.out
    out.visited++
    const tag = el.localName
    const tagBits = kTagBits.get(tag) ?? 0
    if (tagBits & kTagSkip) return null
    // Most elements of a page carry no attributes at all; they skip every attribute lookup.
    const attrs = el.hasAttributes()
    const bits = attrs ? attrBits(el) : 0
    if (bits & kAttrSkip) return null
    const shadow = el.shadowRoot
    // The context children get: `ctx` until something changes, then a copy (forkOf).
    let next = ctx
    // Shadow hosts and custom elements (which may hold a closed shadow root): sheets scoped to
    // them and slotting decide what their subtree computes and inherits, so every style is read.
    if (!ctx.exactCursor && (shadow !== null || tag.includes('-'))) (next = forkOf(next, ctx)).exactCursor = true
    // An element no stylesheet rule, inline style or UA rule gives a display or cursor of its own
    // is not display:none and has its parent's cursor (cursor-rules.ts): its style is not read.
    let style: CSSStyleDeclaration | null = this.styleMayDiffer(el, tag, tagBits, bits, next, ds)
      ? ds.view.getComputedStyle(el)
      : null
    const plainLeaf =
      !attrs && tagBits & kTagPlainLeaf && el.firstElementChild === null && shadow === null && this.nativeVisibility
    // '' when nothing can set it (the tag's default), null when it may be set but was not read.
    const display = !style ? '' : plainLeaf ? null : style.display
    if (display === 'none') {
      ds.gone.add(el)
      this.hiddenControl(el, tag, ctx, clip, ds)
      return null
    }
    const canBeWeak = !ctx.inInteractive && !ctx.weakOwner
    const role = roleOf(el, tag, (bits & kAttrRole) !== 0)

    if (role !== '' || tag === 'form' || tag === 'label') next = this.enter(el, tag, role, next, ctx, ds)

    if (tag === 'iframe' || tag === 'frame') {
      this.frame(el as HTMLIFrameElement, ctx, clip, ds)
      return null
    }

    const strong = isStrongInteractive(el, tag, role, bits)
    let c = strong
      ? this.candidate(
          el,
          tag,
          role,
          false,
          next,
          clip,
          ds,
          style,
          this.checksOf(el, tagBits, bits, display, next, clip, ds),
        )
      : null
    // Focusable only (tabindex on a plain element): its items are the controls when it has any
    // (a suggestion menu whose <li>s a delegated handler serves); it is listed when it has none.
    const tabStop =
      c !== null &&
      !kWidgetRoles.has(role) &&
      !kNativeControlTags.has(tag) &&
      !(bits & kAttrEditable && isEditableHost(el))
    if (tabStop) c!.tabStop = true
    // The cursor matters only where something may still become a clickable root: not inside a
    // control or a clickable element, nor below one found here.
    let pointer = parentPointer
    if (canBeWeak && !c) {
      // A tag the UA gives only a cursor (cursor-rules.ts) has its style read now, if at all.
      if (!style && tagBits & kTagUaCursor) style = ds.view.getComputedStyle(el)
      if (style) pointer = style.cursor === 'pointer'
    }
    const weak =
      !strong &&
      canBeWeak &&
      ((pointer && !parentPointer && tag !== 'html' && tag !== 'body' && tag !== 'label') ||
        (bits & kAttrOnclick) !== 0)
    // A listener hint counts inside a cursor or onclick wrapper too: the script says which part
    // acts. Not inside a <label>: clicking any part of it is clicking its control, listed already.
    // Not in a data table's cell either: component libraries listen on every status chip they
    // render (Element Plus's el-tag re-emits click whether anyone listens or not), and a chip in
    // a cell that does not even look clickable (no pointer cursor, or it would be listed above)
    // is data to a person, not a control; the row's real controls are listed.
    const hinted =
      !strong &&
      !weak &&
      !ctx.inInteractive &&
      !ctx.label &&
      ds.hints.size > 0 &&
      ds.hints.has(el) &&
      tag !== 'html' &&
      tag !== 'body' &&
      !el.closest('td,th,[role=cell],[role=gridcell]')
    if (weak || hinted) {
      c = this.candidate(
        el,
        tag,
        role,
        true,
        next,
        clip,
        ds,
        style,
        this.checksOf(el, tagBits, bits, display, next, clip, ds),
      )
      if (c && (hinted || ds.hints.has(el)) && repeatedRow(el, ds.hints)) c.keep = true
    }
    if (c) {
      // A clickable wrapper around a real control is noise: the control is what to click. (Around
      // a listened-on part too, once the part is known to stay: settleHint.) A listened-on row
      // stays: the row and the star inside it are two things to click.
      if (strong && ctx.weakOwner && !ctx.weakOwner.keep) ctx.weakOwner.drop = true
      if (ctx.hintOwner && !ctx.hintOwner.keep) ctx.hintOwner.drop = true
      if (strong && !tabStop) (next = forkOf(next, ctx)).inInteractive = true
      else if (hinted || tabStop) (next = forkOf(next, ctx)).hintOwner = c
      else (next = forkOf(next, ctx)).weakOwner = c
    } else if (strong && bits & kAttrEditable && isEditableHost(el)) (next = forkOf(next, ctx)).inInteractive = true

    // A part listed only by a hint is a control, not a container of text blocks (a table row
    // every row of which a component library listens on, a post's whole card).
    if (tagBits & kTagContent && ctx.hintOwner && !ctx.hintOwner.tabStop) ctx.hintOwner.drop = true
    if (tagBits & kTagContent && this.opts.includeContent && !ctx.inContent) {
      out.content.push({
        el,
        tag,
        region: next.region,
        style,
        ds,
        surelyVisible: this.surelyVisible(el, tagBits, bits, display, next, clip, ds),
        clip,
      })
      ;(next = forkOf(next, ctx)).inContent = true
    }
    if (tag === 'p') out.paragraphs++
    else if (tag === 'canvas') out.charts++
    else if (tag === 'article') out.hasArticle = true

    if (bits & kAttrLazy && out.lazy.length < kMaxLazyRegions) this.lazyMarker(el, tag, next.region, ds)

    if (tagBits & kTagLeaf) {
      if (hinted) this.settleHint(c, ctx)
      return null
    }
    const first = el.firstElementChild
    const inner =
      first && ds.layout
        ? clipNodeOf(el, tag, tagBits, next.exactCursor || (bits & kAttrStyle) !== 0, style, clip)
        : clip
    return { first, shadow, next, inner, pointer, ds, hinted, c, ctx }
  }

  /** A listened-on part that stays listed after its subtree replaces the cursor or onclick wrapper around it. */
  private settleHint(c: Candidate | null, ctx: Ctx): void {
    if (c && !c.drop && ctx.weakOwner && !ctx.weakOwner.keep) ctx.weakOwner.drop = true
  }

  /**
   * True when `checkVisibility()` would surely say visible (cursor-rules.ts): no rule, inline
   * style, UA rule or animation can hide the element or an ancestor, and its display (as the walk
   * read it) gives it a box.
   */
  /** Which of its own style's ways to hide a candidate must be checked (Walker.candidate). */
  private checksOf(
    el: Element,
    tagBits: number,
    bits: number,
    display: string | null,
    ctx: Ctx,
    clip: ClipNode | null,
    ds: DocScan,
  ): number {
    let checks = 0
    if (!this.surelyVisible(el, tagBits, bits, display, ctx, clip, ds)) checks |= kCheckVisibility
    if (ds.clipRule === null || ctx.exactCursor || bits & kAttrStyle || ds.clipRule.has(el)) checks |= kCheckClipped
    return checks
  }

  private surelyVisible(
    el: Element,
    tagBits: number,
    bits: number,
    display: string | null,
    ctx: Ctx,
    clip: ClipNode | null,
    ds: DocScan,
  ): boolean {
    const rule = ds.hideRule
    if (rule === null || ctx.exactCursor || bits & kAttrStyle || display === null || display === 'contents')
      return false
    if (tagBits & kTagUaStyled && !(tagBits & kTagUaBoxed)) return false
    return !rule.has(el) && !hidesBelow(clip, rule)
  }

  /** The context for `el`'s children when it opens a region, a row or list item, or a label. */
  private enter(el: Element, tag: string, role: string, next: Ctx, ctx: Ctx, ds: DocScan): Ctx {
    const regionKind = kRegionByRole[role] ?? (tag === 'form' ? 'form' : undefined)
    if (regionKind && (regionKind !== 'dialog' || el.getAttribute('aria-hidden') !== 'true')) {
      ;(next = forkOf(next, ctx)).region = this.openRegion(regionKind, regionLabel(el, regionKind), el, ctx.region, ds)
    }
    if ((role === 'row' && el.parentElement?.localName !== 'thead') || role === 'listitem')
      this.enterItem(el, (next = forkOf(next, ctx)), ctx, ds)
    if (tag === 'label') (next = forkOf(next, ctx)).label = el
    return next
  }

  /**
   * False when `display` is surely the tag's default and `cursor` surely the parent's, or the
   * UA's for the tags it gives only a cursor (cursor-rules.ts), read later if needed.
   */
  private styleMayDiffer(el: Element, tag: string, tagBits: number, bits: number, ctx: Ctx, ds: DocScan): boolean {
    const rule = ds.cursorRule
    if (rule === null || ctx.exactCursor || el.parentElement === null) return true
    // A hidden input is display:none by the UA; other inputs only get a cursor.
    if (tagBits & kTagUaStyled && (!(tagBits & kTagUaCursor) || (tag === 'input' && inputType(el) === 'hidden')))
      return true
    // Inline style, SVG presentation attribute, popovers (display:none until open).
    return (bits & kAttrStyle) !== 0 || rule.has(el)
  }

  private enterItem(el: Element, next: Ctx, ctx: Ctx, _ds: DocScan): void {
    const container = el.parentElement
    if (!container) return
    let group = ctx.group && ctx.group.container === container ? ctx.group : this.groupOf(container)
    if (!group) {
      group = {
        id: `g${++this.groupCount}`,
        kind: el.localName === 'tr' || el.getAttribute('role') === 'row' ? 'table' : 'list',
        region: ctx.region,
        items: 0,
        index: new Map(),
        container,
      }
      this.out.groups.push(group)
      this.groupByContainer.set(container, group)
    }
    group.index.set(el, group.items++)
    next.item = el
    next.group = group
  }

  private groupByContainer = new Map<Element, GroupAcc>()
  private groupOf(container: Element): GroupAcc | undefined {
    return this.groupByContainer.get(container)
  }

  private candidate(
    el: Element,
    tag: string,
    role: string,
    weak: boolean,
    ctx: Ctx,
    clipNode: ClipNode | null,
    ds: DocScan,
    style: CSSStyleDeclaration | null,
    checks: number,
  ): Candidate | null {
    // The style is read here only where something needs it: engines without checkVisibility, a clip.
    if (!style && ((checks & kCheckVisibility && !this.nativeVisibility) || checks & kCheckClipped))
      style = ds.view.getComputedStyle(el)
    let vis = checks & kCheckVisibility ? cssVisibility(el, style) : 'visible'
    let boxEl: Element = el
    if (vis === 'hidden' && isProxiedControl(el, tag)) {
      // Styled checkboxes hide the real input (opacity 0, zero size) behind a visible label.
      const proxy = ctx.label ?? el.parentElement
      if (proxy && cssVisibility(proxy, null) === 'visible') {
        boxEl = proxy
        vis = 'visible'
      }
    }
    if (vis === 'skipped') {
      this.pushLazy('content-visibility', el, ctx.region, ds)
      return null
    }
    if (vis === 'hidden' || (checks & kCheckClipped && style && clippedAway(style))) return null
    let bounds: Rect = { x: 0, y: 0, width: 0, height: 0 }
    let inViewport = true
    if (ds.layout) {
      let r = boxEl.getBoundingClientRect()
      const clip = clipOf(clipNode, ds)
      if (geometryHidden(r, clip, ds.scrollX, ds.scrollY) && isProxiedControl(el, tag) && boxEl === el) {
        const proxy = ctx.label ?? el.parentElement
        if (proxy) r = proxy.getBoundingClientRect()
      }
      if (geometryHidden(r, clip, ds.scrollX, ds.scrollY)) return null
      const vx = ds.ox + r.left
      const vy = ds.oy + r.top
      const top = this.out.top
      bounds = {
        x: Math.round(vx + top.scrollX),
        y: Math.round(vy + top.scrollY),
        width: Math.round(r.width),
        height: Math.round(r.height),
      }
      inViewport =
        vx < this.out.viewport.width && vy < this.out.viewport.height && vx + r.width > 0 && vy + r.height > 0
    }
    const type = elementTypeOf(el, tag, role)
    const c: Candidate = {
      el,
      tag,
      role,
      type,
      region: ctx.region,
      item: ctx.item,
      group: ctx.group,
      label: ctx.label,
      weak,
      drop: false,
      ds,
      bounds,
      inViewport,
    }
    this.out.candidates.push(c)
    return c
  }

  /** A display:none checkbox or radio still counts when a visible <label> toggles it. */
  private hiddenControl(el: Element, tag: string, ctx: Ctx, clip: ClipNode | null, ds: DocScan): void {
    if (tag !== 'input' || !isProxiedControl(el, tag)) return
    const label = ctx.label ?? (el as HTMLInputElement).labels?.[0] ?? null
    if (!label || cssVisibility(label, null) !== 'visible') return
    const type = elementTypeOf(el, tag, roleOf(el, tag))
    let bounds: Rect = { x: 0, y: 0, width: 0, height: 0 }
    let inViewport = true
    if (ds.layout) {
      const r = label.getBoundingClientRect()
      if (geometryHidden(r, clipOf(clip, ds), ds.scrollX, ds.scrollY)) return
      const vx = ds.ox + r.left
      const vy = ds.oy + r.top
      bounds = {
        x: Math.round(vx + this.out.top.scrollX),
        y: Math.round(vy + this.out.top.scrollY),
        width: Math.round(r.width),
        height: Math.round(r.height),
      }
      inViewport =
        vx < this.out.viewport.width && vy < this.out.viewport.height && vx + r.width > 0 && vy + r.height > 0
    }
    this.out.candidates.push({
      el,
      tag,
      role: roleOf(el, tag),
      type,
      region: ctx.region,
      item: ctx.item,
      group: ctx.group,
      label,
      weak: false,
      drop: false,
      ds,
      bounds,
      inViewport,
    })
  }

  private frame(el: HTMLIFrameElement, ctx: Ctx, clip: ClipNode | null, ds: DocScan): void {
    const fid = ds.prefix + 'frame_' + frameIdFor(el)
    const url = el.src || el.getAttribute('src') || 'about:blank'
    let bounds: Rect = { x: 0, y: 0, width: 0, height: 0 }
    let visible = cssVisibility(el, null) === 'visible'
    let r: DOMRect | null = null
    if (ds.layout) {
      r = el.getBoundingClientRect()
      if (geometryHidden(r, clipOf(clip, ds), ds.scrollX, ds.scrollY)) visible = false
      bounds = {
        x: Math.round(ds.ox + r.left + this.out.top.scrollX),
        y: Math.round(ds.oy + r.top + this.out.top.scrollY),
        width: Math.round(r.width),
        height: Math.round(r.height),
      }
    }
    if (!visible) {
      this.out.frames.push({ id: fid, url, bounds, isVisible: false, status: 'hidden' })
      return
    }
    let inner: Document | null
    try {
      inner = el.contentDocument
    } catch {
      inner = null
    }
    if (!inner || !inner.documentElement || !inner.defaultView) {
      // Cross-origin: the browser allows us bounds and url only.
      this.out.frames.push({ id: fid, url, bounds, isVisible: true, status: 'cross_origin_restricted' })
      return
    }
    this.out.frames.push({ id: fid, url: inner.URL || url, bounds, isVisible: true, status: 'merged' })
    const ox = ds.ox + (r ? r.left + el.clientLeft : 0)
    const oy = ds.oy + (r ? r.top + el.clientTop : 0)
    const child = makeDocScan(inner, inner.defaultView, fid + '_', ox, oy)
    this.out.docs.push(child)
    const page = this.openRegion('page', '', null, ctx.region, child)
    const frameCtx: Ctx = {
      region: page,
      item: null,
      group: null,
      inInteractive: false,
      weakOwner: null,
      hintOwner: null,
      label: null,
      inContent: false,
      exactCursor: false,
    }
    this.visit(inner.documentElement, frameCtx, null, false, child)
  }

  private lazyMarker(el: Element, tag: string, region: RegionAcc, ds: DocScan): void {
    if (tag === 'img') {
      const img = el as HTMLImageElement
      if (img.loading === 'lazy' && !img.complete) this.pushLazy('lazy-image', el, region, ds)
      return
    }
    if (el.getAttribute('aria-busy') === 'true') {
      this.pushLazy('busy', el, region, ds)
      return
    }
    const cls = el.getAttribute('class')
    if (cls) {
      const m = kLazyClass.exec(cls)
      if (m) this.pushLazy(m[1].toLowerCase() === 'skeleton' ? 'placeholder' : 'sentinel', el, region, ds)
    }
  }

  private pushLazy(kind: LazyRegion['kind'], el: Element, region: RegionAcc, ds: DocScan): void {
    if (this.out.lazy.length >= kMaxLazyRegions) return
    let bounds: Rect = { x: 0, y: 0, width: 0, height: 0 }
    if (ds.layout) {
      const r = el.getBoundingClientRect()
      bounds = {
        x: Math.round(ds.ox + r.left + this.out.top.scrollX),
        y: Math.round(ds.oy + r.top + this.out.top.scrollY),
        width: Math.round(r.width),
        height: Math.round(r.height),
      }
    }
    this.out.lazy.push({ kind, bounds, region: region.id })
  }
}

/** Tags that are controls by themselves, whatever their tabindex. */
const kNativeControlTags = new Set(['a', 'area', 'button', 'select', 'textarea', 'input', 'summary', 'video', 'audio'])

/**
 * Native controls, widget roles, tab stops and editing hosts: interactable by themselves.
 * `bits` says which of the attributes the walk tracks the element has (attrBits).
 */
function isStrongInteractive(el: Element, tag: string, role: string, bits: number): boolean {
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') || kWidgetRoles.has(role)
    case 'button':
    case 'select':
    case 'textarea':
      return true
    case 'input':
      return inputType(el) !== 'hidden'
    case 'summary':
      return el.parentElement?.localName === 'details' && el.parentElement.querySelector(':scope > summary') === el
    case 'video':
    case 'audio':
      return el.hasAttribute('controls')
  }
  if (kWidgetRoles.has(role)) return true
  if (bits & kAttrTabindex && Number(el.getAttribute('tabindex')) >= 0 && tag !== 'html' && tag !== 'body') return true
  return (bits & kAttrEditable) !== 0 && isEditableHost(el) && el.parentElement?.isContentEditable !== true
}

/**
 * One of a run of alike siblings the page listens on (same tag and class, each hinted): the rows of
 * a list a person clicks (an e-mail list of `div`s), not a wrapper that delegates for its parts.
 */
function repeatedRow(el: Element, hints: ReadonlySet<Element>): boolean {
  const cls = el.getAttribute('class')
  const alike = (s: Element | null) =>
    !!s && s.localName === el.localName && s.getAttribute('class') === cls && hints.has(s)
  return alike(el.previousElementSibling) || alike(el.nextElementSibling)
}

/** The "visually hidden" pattern: `clip: rect(0 0 0 0)` or `clip-path: inset(50%)` on the element. */
function clippedAway(style: CSSStyleDeclaration): boolean {
  // Both clip and the usual clip-path variant come with absolute positioning.
  const position = style.position
  if (position !== 'absolute' && position !== 'fixed') return false
  const clipRect = style.clip
  if (clipRect && clipRect.startsWith('rect(')) {
    const n = clipRect.match(/-?[\d.]+/g)?.map(Number) ?? []
    // rect(top, right, bottom, left): nothing shows when bottom <= top or right <= left.
    if (n.length === 4 && (n[2] <= n[0] || n[1] <= n[3])) return true
  }
  const path = style.clipPath
  return path === 'inset(50%)' || path === 'inset(100%)'
}

function isProxiedControl(el: Element, tag: string): boolean {
  if (tag !== 'input') return false
  const t = inputType(el)
  return t === 'checkbox' || t === 'radio' || t === 'file'
}

function regionLabel(el: Element, kind: RegionKind): string {
  return clip(regionHeader(el, kind), 24)
}

/** Text of a row or list item for context and relevance: no option lists, no code, no buttons. */
export function itemText(item: Element, max = 200): string {
  const acc = { text: '', length: 0, max }
  collectText(item, acc)
  return normalizeText(acc.text)
}

/**
 * Characters of a card's text read for its twins' context: its title and first words, where the
 * word that tells it apart usually is. The whole text would walk every card's subtree each scan.
 */
const kCardTextMax = 48

/**
 * The text of each twin's card: the largest ancestor that holds it and none of the other twins,
 * the repeated unit a person tells them apart by (a product card around its Buy button). '' where
 * the twin's parent already holds another one (buttons side by side). `seen` keeps the texts of
 * one scan: a card's Buy and More ask for the same one.
 */
export function cardTexts(twins: Element[], seen: Map<Element, string>): string[] {
  const below = new Map<Element, number>()
  for (const el of twins) for (let a = el.parentElement; a; a = a.parentElement) below.set(a, (below.get(a) ?? 0) + 1)
  return twins.map((el) => {
    let card: Element | null = null
    for (let a = el.parentElement; a && below.get(a) === 1; a = a.parentElement) card = a
    if (!card) return ''
    let text = seen.get(card)
    if (text === undefined) seen.set(card, (text = itemText(card, kCardTextMax)))
    return text
  })
}

const kNonSpace = /\S/

/** Appends the text under `node` to `acc` until `acc.max` characters are in. */
function collectText(node: Element, acc: { text: string; length: number; max: number }): void {
  for (let n = node.firstChild; n && acc.length < acc.max; n = n.nextSibling) {
    if (n.nodeType === 3) {
      const t = (n as Text).data
      if (kNonSpace.test(t)) {
        acc.text += t
        acc.length += t.length
      }
    } else if (n.nodeType === 1) {
      const el = n as Element
      const tag = el.localName
      if (kSkipTags.has(tag) || tag === 'select' || tag === 'button' || tag === 'svg' || tag === 'textarea') continue
      if (el.hasAttributes() && (el.getAttribute('role') === 'button' || el.hasAttribute(kAvaUiAttr))) continue
      acc.text += ' '
      collectText(el, acc)
      acc.text += ' '
    }
  }
}
