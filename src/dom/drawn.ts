/**
 * Draws the element a step will act on as a person sees it (src/core/gate/drawn.ts):
 * the rendered text with generated content, alt texts and SVG text, in visual order; the layer
 * over its click point; its frame, link, form and download. The risk check and the question read
 * this, not the DOM text alone: a page can put "Save" in the DOM and draw "Delete everything".
 */
import { visualOrder, type DrawnTarget } from '../core/gate/drawn'
import { readGlyphs, readShapes } from '../core/risk/glyphs'
import { kWords } from '../core/risk/lexicon'
import { foldText, hasWords } from '../core/risk/text'
import { deepContains, roleOf } from './locators'
import { accessibleName, generatedText, referencedText } from './words'
import { kAvaUiAttr, viewOf } from './executor/dom'
import { centerOf } from './executor/events'

const kMaxNodes = 400 // elements visited per drawing: a button is a few; a hostile one stays bounded
const kMaxChars = 400
const kMaxSvgChars = 20_000 // an SVG image's source read for its text
const kMaxPaths = 40 // paths of one SVG read for their shape: an icon has a few

/** The icon an SVG's paths draw (a trash can from a common set), as its emoji: '' when none is known. */
function shapesOf(svg: Element): string {
  return readShapes([...svg.querySelectorAll('path[d]')].slice(0, kMaxPaths).map((p) => p.getAttribute('d') ?? ''))
}

/** The text an SVG image (a data: URL) draws: its <title> and <text>, and the icon its paths draw. */
function svgImageText(url: string): string {
  const m = /^data:image\/svg\+xml(;[^,]*)?,(.*)$/is.exec(url)
  if (!m) return ''
  try {
    const src = (m[1] ?? '').includes('base64') ? atob(m[2]) : decodeURIComponent(m[2])
    const doc = new DOMParser().parseFromString(src.slice(0, kMaxSvgChars), 'image/svg+xml')
    return [
      ...[...doc.querySelectorAll('title, text')].map((n) => n.textContent ?? ''),
      shapesOf(doc.documentElement),
    ].join(' ')
  } catch {
    return ''
  }
}

/** Pictographs a person reads as icons (🗑, 💳), apart from the words and the decoration of generated content. */
const kPictograph = /\p{Extended_Pictographic}/gu

/**
 * The icons drawn by generated content that holds no words: an emoji, or an icon font's glyph Ava
 * knows (core/risk/glyphs.ts). A name leaves them out (dom/words/visibility.ts `generatedText`: a "›" is
 * decoration); a drawing keeps them, for a class can say "archive" where a trash can is drawn.
 */
function generatedIcons(content: string): string {
  let raw = ''
  for (const m of content.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) {
    raw += (m[1] ?? m[2] ?? '')
      .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
      .replace(/\\(.)/g, '$1')
  }
  return [...readGlyphs(raw).matchAll(kPictograph)].map((m) => m[0]).join(' ')
}

function backgroundText(style: CSSStyleDeclaration): string {
  const m = /url\(\s*["']?(data:image\/svg\+xml[^"')]*)/i.exec(style.backgroundImage || '')
  return m ? svgImageText(m[1]) : ''
}

/** One drawing's walk: the elements it may still visit, and whether it met words it cannot read. */
interface Walk {
  nodes: number
  /** Something that draws words Ava cannot read (a canvas, a video or plugin, a page's own counter symbols it cannot see) was drawn. */
  painted: boolean
  /** A raster or remote image large enough to hold words was drawn: it may say more than the label only when no text is drawn beside it. */
  pictured: boolean
  /** Text was drawn in ink (a person reads words of the element's own). */
  ink: boolean
}

/** Smaller pictures are icons: they hold no sentence a person would read instead of the label. */
const kWordsPicture = { width: 48, height: 10 }

function wordsFit(el: Element): boolean {
  const r = el.getBoundingClientRect()
  return r.width >= kWordsPicture.width && r.height >= kWordsPicture.height
}

/** Counter styles a page cannot fill with words of its own. */
const kPlainCounters =
  /^(decimal|decimal-leading-zero|(lower|upper)-(roman|alpha|latin|greek)|disc|circle|square|none|disclosure-(open|closed)|[a-z-]*(numeric|digits|-formal|-informal|armenian|georgian|hebrew|cjk[a-z-]*|hiragana|katakana[a-z-]*|korean[a-z-]*|ethiopic[a-z-]*|arabic-indic|persian|devanagari|bengali|thai|lao|tamil|gujarati|gurmukhi|kannada|khmer|malayalam|myanmar|oriya|telugu|tibetan|mongolian))$/

/** The symbols of the page's own `@counter-style name` in its readable sheets; null when none is found. */
function counterSymbols(doc: Document, name: string): string | null {
  const V = doc.defaultView
  if (!V || typeof V.CSSCounterStyleRule !== 'function') return null
  const scan = (rules: CSSRuleList | undefined, depth: number): string | null => {
    for (const rule of rules ?? []) {
      if (rule instanceof V.CSSCounterStyleRule && rule.name === name)
        return `${rule.symbols} ${rule.additiveSymbols} ${rule.prefix} ${rule.suffix}`.replace(/["']/g, '')
      const inner = depth < 4 && 'cssRules' in rule ? scan((rule as CSSGroupingRule).cssRules, depth + 1) : null
      if (inner !== null) return inner
    }
    return null
  }
  for (const sheet of doc.styleSheets) {
    let rules: CSSRuleList | undefined
    try {
      rules = sheet.cssRules
    } catch {
      continue // another origin's sheet: unreadable
    }
    const found = scan(rules, 0)
    if (found !== null) return found
  }
  return null
}

/**
 * Generated content as drawn: quoted strings and attr() (generatedText), the symbols of a custom
 * counter style, and a note that an image (`url()`) or a counter style Ava cannot read was drawn.
 */
function generated(content: string, el: Element, walk: Walk): string {
  if (!content || content === 'none' || content === 'normal') return ''
  let extra = ''
  for (const m of content.matchAll(/counters?\(\s*[\w-]+\s*(?:,\s*"[^"]*"\s*)?(?:,\s*([\w-]+))?\s*\)/g)) {
    const style = m[1]
    if (!style || kPlainCounters.test(style)) continue
    const symbols = counterSymbols(el.ownerDocument, style)
    if (symbols === null) walk.painted = true
    else extra += ` ${symbols}`
  }
  if (/url\(|image-set\(/.test(content) && wordsFit(el)) walk.pictured = true
  const words = generatedText(content, el)
  return `${words || generatedIcons(content)}${extra}`
}

/** A text node's words are drawn: not at size 0, not in a transparent colour. */
function inkOf(style: CSSStyleDeclaration): boolean {
  if (parseFloat(style.fontSize) === 0) return false
  const color = style.color.replace(/\s+/g, '')
  return !/^rgba\(\d+,\d+,\d+,0(\.0*)?\)$|^transparent$/.test(color)
}

/**
 * A picture inside an element whose words Ava cannot read: `painted` for a canvas, a video or a
 * plugin (rare inside a control, and able to draw over any label), `pictured` for an image that is
 * not a readable SVG (a product photo in a card, a logo: it matters only where the control draws no
 * words of its own, see `drawing`).
 */
function unreadablePicture(el: Element, style: CSSStyleDeclaration, svgText: string): 'painted' | 'pictured' | null {
  if (!wordsFit(el)) return null
  if (el.localName === 'canvas' || el.localName === 'video' || el.localName === 'object' || el.localName === 'embed')
    return 'painted'
  const isImage = el.localName === 'img' || (el.localName === 'input' && (el as HTMLInputElement).type === 'image')
  if (isImage && !svgText) return 'pictured'
  return /url\(/.test(style.backgroundImage || '') && !backgroundText(style) ? 'pictured' : null
}

/** Rendered text of `el` and what is drawn into it, in drawing order, right-to-left overrides reversed. */
function drawText(el: Element, walk: Walk): string {
  if (walk.nodes-- <= 0) return ''
  const V = viewOf(el)
  const style = V.getComputedStyle(el)
  if (style.display === 'none') return ''
  const hidden = style.visibility === 'hidden' || style.visibility === 'collapse'
  const inked = inkOf(style)
  const parts: string[] = []
  if (!hidden) {
    // A list item's marker is drawn before its text, and a page can write words into it.
    if (style.display.includes('list-item')) parts.push(generated(V.getComputedStyle(el, '::marker').content, el, walk))
    parts.push(generated(V.getComputedStyle(el, '::before').content, el, walk), backgroundText(style))
  }
  let svgText = ''
  if (el.localName === 'img' && !hidden) {
    svgText = svgImageText(el.getAttribute('src') ?? '')
    parts.push(el.getAttribute('alt') ?? '', svgText)
  }
  if (el.localName === 'input' && /^(submit|button|reset)$/i.test((el as HTMLInputElement).type) && !hidden && inked) {
    const value = (el as HTMLInputElement).value
    parts.push(value)
    if (value.trim()) walk.ink = true
  }
  if (el.localName === 'input' && (el as HTMLInputElement).type === 'image' && !hidden) {
    svgText = svgImageText(el.getAttribute('src') ?? '')
    parts.push(el.getAttribute('alt') ?? '', svgText)
  }
  const picture = hidden ? null : unreadablePicture(el, style, svgText)
  if (picture) walk[picture] = true
  if (el.localName === 'title' && el.parentElement && el.parentElement.namespaceURI === 'http://www.w3.org/2000/svg')
    parts.push(el.textContent ?? '')
  // What an inline SVG draws, by its shape: a trash can reads as 🗑 whatever its classes say.
  if (el.localName === 'svg' && !hidden) parts.push(shapesOf(el))
  if (el.localName === 'use') {
    const ref = el.getAttribute('href') ?? el.getAttribute('xlink:href') ?? ''
    const used = ref.startsWith('#') ? el.ownerDocument.getElementById(ref.slice(1)) : null
    // A symbol is drawn where it is used, whatever hides its definition.
    if (used && !deepContains(used, el))
      parts.push(
        [...used.querySelectorAll('text, title')]
          .slice(0, 20)
          .map((n) => n.textContent ?? '')
          .join(' '),
        shapesOf(used),
      )
  }
  // A slot draws the nodes assigned to it (its own children only when none are).
  const assigned = el.localName === 'slot' ? (el as HTMLSlotElement).assignedNodes({ flatten: true }) : []
  const root = (el as HTMLElement).shadowRoot ?? el
  for (
    let n = assigned.length ? assigned[0] : root.firstChild, i = 0;
    n;
    n = assigned.length ? assigned[++i] : n.nextSibling
  ) {
    if (n.nodeType === 3) {
      // Text at size 0 or in a transparent colour is in the DOM, not on the screen.
      if (!hidden && inked) {
        parts.push(n.nodeValue ?? '')
        if (n.nodeValue?.trim()) walk.ink = true
      }
    } else if (
      n.nodeType === 1 &&
      (n as Element).localName !== 'title' &&
      (n as Element).localName !== 'script' &&
      (n as Element).localName !== 'style'
    ) {
      parts.push(drawText(n as Element, walk))
    } else if (n.nodeType === 1 && (n as Element).localName === 'title') parts.push(drawText(n as Element, walk))
  }
  if (!hidden) parts.push(generated(V.getComputedStyle(el, '::after').content, el, walk))
  let text = parts.join(' ')
  // `unicode-bidi: bidi-override; direction: rtl` draws its text reversed, as U+202E does.
  if (/override/.test(style.unicodeBidi) && style.direction === 'rtl') text = [...text].reverse().join('')
  return text
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, kMaxChars)

/** The name a person reads on `el`, and whether a picture drawn there may say more than Ava can read. */
function drawing(el: Element): { name: string; painted: boolean } {
  const walk: Walk = { nodes: kMaxNodes, painted: false, pictured: false, ink: false }
  const name = squash(visualOrder(drawText(el, walk)))
  // A control that draws its own words beside a photo (a product card, an avatar with a name) reads as those words.
  return { name, painted: walk.painted || (walk.pictured && !walk.ink) }
}

/** The name a person reads on `el`. */
export function drawnName(el: Element): string {
  return drawing(el).name
}

/**
 * What is drawn over `el`'s click point: the topmost element there that is neither `el`, inside
 * it, one of its ancestors nor its label, counting layers a click passes through
 * (pointer-events: none), which the person still sees. The check runs synchronously, so the
 * page's scripts never see the style it adds for the look.
 */
export function coverOf(el: Element): Element | null {
  const doc = el.ownerDocument
  const V = viewOf(el)
  const at = centerOf(el)
  // A document without layout (a test DOM) has nothing drawn over anything.
  if (
    typeof doc.elementsFromPoint !== 'function' ||
    typeof V.CSSStyleSheet !== 'function' ||
    !('adoptedStyleSheets' in doc)
  )
    return null
  const sheet = new V.CSSStyleSheet()
  sheet.replaceSync('* { pointer-events: auto !important; }')
  // A copy: `adoptedStyleSheets` is a live array, which would hold our sheet once it is set.
  const before = [...doc.adoptedStyleSheets]
  let stack: Element[]
  try {
    doc.adoptedStyleSheets = [...before, sheet]
    stack = doc.elementsFromPoint(at.x, at.y) ?? []
  } finally {
    doc.adoptedStyleSheets = before
  }
  const labels = (el as HTMLInputElement).labels ? [...((el as HTMLInputElement).labels ?? [])] : []
  for (const hit of stack) {
    if (hit === el || deepContains(el, hit) || deepContains(hit, el)) return null
    if (labels.some((l) => l === hit || deepContains(l, hit))) return null
    if (hit.closest(`[${kAvaUiAttr}]`)) continue
    const style = V.getComputedStyle(hit)
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue
    return hit
  }
  return null
}

/**
 * What assistive technology is told the element is called, apart from its drawing: aria-label and
 * the text aria-labelledby points at, read afresh (a page's handlers run between two reads in one
 * task, which the shared name cache would not see). Not `title`: tooltip libraries take it away
 * on hover and put it back, which is no relabelling.
 */
function saidOf(el: Element): string {
  return squash(`${el.getAttribute('aria-label') ?? ''} ${referencedText(el, el.getAttribute('aria-labelledby'), 8)}`)
}

function roleOfDrawn(el: Element): string {
  return roleOf(el) || el.localName
}

/** Text nodes read around a control for the words drawn beside it: a row's worth. */
const kBesideNodes = 60
/** How far from a control its label may be drawn: a gap in a row, a line above. */
const kBesideGap = { x: 160, y: 40 }

/** A control's own words say nothing on their own ("Go", "OK", "→"): what is drawn beside it says what it does. */
function bare(name: string): boolean {
  const folded = foldText(name)
  if (!hasWords(folded)) return true
  return (
    folded.length <= 16 &&
    (kWords.affirmative.test(folded) ||
      kWords.submit.test(folded) ||
      /^(go|next|ok|run|apply|do it|send|yes)$/.test(folded.trim()))
  )
}

/**
 * The words drawn next to `el` where a person sees them: the nearest text on the same line, left
 * or right, or just above, among the text of its parent and grandparent (not its own). By the
 * boxes the text is drawn in, not by DOM order, so flex `order`, `row-reverse` and absolute
 * placement put the label where the person reads it. '' when nothing is drawn near.
 */
function besideOf(el: Element): string {
  const doc = el.ownerDocument
  const box = el.getBoundingClientRect()
  const scope = el.parentElement?.parentElement ?? el.parentElement
  if (!scope || typeof doc.createRange !== 'function' || box.width === 0) return ''
  const walker = doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT)
  const range = doc.createRange()
  let best = ''
  let bestGap = Infinity
  for (let n = walker.nextNode(), i = 0; n && i < kBesideNodes; n = walker.nextNode(), i++) {
    if (!n.nodeValue?.trim() || el.contains(n) || n.parentElement?.closest(`[${kAvaUiAttr}], script, style`)) continue
    range.selectNodeContents(n)
    const r = range.getBoundingClientRect()
    if (r.width === 0 || r.height === 0) continue
    const sameLine = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top) >= Math.min(r.height, box.height) / 2
    const gap = sameLine
      ? Math.max(r.left - box.right, box.left - r.right)
      : Math.min(r.right, box.right) > Math.max(r.left, box.left) && r.bottom <= box.top + 2
        ? box.top - r.bottom
        : Infinity
    const limit = sameLine ? kBesideGap.x : kBesideGap.y
    if (gap < -2 || gap > limit || gap >= bestGap) continue
    bestGap = gap
    best = n.nodeValue
  }
  return squash(best)
}

/** Points of a drag's path read for what is drawn under them: its ends and a few between. */
const kAlongSamples = 8

/**
 * What a person reads along a drag's `path` (page coordinates) from `el`, the knob: the slider's
 * own name, the track (the nearest ancestor whose box holds the whole path) with the words drawn
 * in it and beside it (its parent's: a label next to the track), and what is drawn under the path
 * and where it ends. `unknown` when a picture Ava cannot read is all the track or its surroundings
 * draw (a label only in the track's background image): then the drag is asked about.
 */
export function drawnAlong(
  el: Element,
  path: readonly { x: number; y: number }[],
): { words: string; unknown: boolean } {
  const V = viewOf(el)
  const doc = el.ownerDocument
  const pts = path.map((p) => ({ x: p.x - V.scrollX, y: p.y - V.scrollY }))
  const parts: string[] = []
  let unknown = false
  const read = (n: Element) => {
    const d = drawing(n)
    parts.push(d.name)
    if (d.painted) unknown = true
  }
  const slider = el.closest('[role=slider], input[type=range]') ?? el.querySelector('[role=slider], input[type=range]')
  if (slider) parts.push(accessibleName(slider, 'slider'))
  const holds = (n: Element) => {
    const r = n.getBoundingClientRect()
    return pts.every((p) => p.x >= r.left - 4 && p.x <= r.right + 4 && p.y >= r.top - 4 && p.y <= r.bottom + 4)
  }
  let track: Element | null = el.parentElement
  while (track && track !== doc.body && !holds(track)) track = track.parentElement
  if (track && track !== doc.body && track !== doc.documentElement) {
    read(track)
    if (track.parentElement && track.parentElement !== doc.body) read(track.parentElement)
  }
  if (typeof doc.elementFromPoint === 'function' && pts.length) {
    const seen = new Set<Element>()
    const sample = (p: { x: number; y: number }) => {
      const hit = doc.elementFromPoint(p.x, p.y)
      if (
        !hit ||
        seen.has(hit) ||
        hit === el ||
        el.contains(hit) ||
        hit.closest(`[${kAvaUiAttr}]`) ||
        (track && hit.contains(track))
      )
        return
      seen.add(hit)
      read(hit)
    }
    const step = Math.max(1, Math.floor(pts.length / kAlongSamples))
    for (let i = 0; i < pts.length; i += step) sample(pts[i])
    sample(pts[pts.length - 1])
  }
  return { words: squash([...new Set(parts.map((w) => w.trim()).filter(Boolean))].join(' ')), unknown }
}

/** `el` as it is drawn now; for a drag, with what is drawn along its `path` (page coordinates). */
export function drawnOf(el: Element, path?: readonly { x: number; y: number }[]): DrawnTarget {
  const doc = el.ownerDocument
  const role = roleOfDrawn(el)
  const drawn = drawing(el)
  const d: DrawnTarget = { role, name: drawn.name, frame: doc.location?.origin ?? '' }
  const said = saidOf(el)
  if (said && said !== d.name) d.said = said
  const cover = coverOf(el)
  // A picture Ava cannot read is unknown, named or not: a canvas with no name is not harmless,
  // it is a picture whose words nobody told Ava (a point on "Erase all my data" drawn in it).
  let painted = drawn.painted
  if (bare(d.name || said)) {
    const beside = besideOf(el)
    if (beside) d.beside = beside
  }
  if (path?.length) {
    const along = drawnAlong(el, path)
    if (along.words) d.along = along.words
    painted ||= along.unknown
  }
  if (cover) {
    const over = drawing(cover)
    d.covered = over.name || `(${cover.localName})`
    painted ||= over.painted
  }
  // Words Ava cannot read are drawn on (or over) an element that names itself: the name may not be what the screen says.
  if (painted) d.painted = true
  const link = el.closest('a[href], area[href]') as HTMLAnchorElement | null
  if (link) {
    d.href = link.href
    if (link.hasAttribute('download')) {
      const path = link.href.replace(/[?#].*$/, '').replace(/^.*\//, '')
      d.download = {
        name: link.getAttribute('download') || path || link.href.slice(0, 60),
        url: link.href.slice(0, 200),
      }
    }
  }
  const form = (el as HTMLButtonElement).form ?? el.closest('form')
  if (form) {
    const own =
      (el instanceof V(el).HTMLButtonElement || el instanceof V(el).HTMLInputElement) && el.hasAttribute('formaction')
    d.form = {
      action: own ? (el as HTMLButtonElement).formAction : form.action,
      method: ((el as HTMLButtonElement).formMethod || form.method || 'get').toLowerCase(),
    }
  }
  return d
}

const V = (el: Element) => viewOf(el)
