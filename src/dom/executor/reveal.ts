/**
 * Targets a person has to move to before using them:
 *   - controls shown only while their row, card or menu trigger is hovered: hover the container,
 *     then click, as a hand does;
 *   - a target inside a closed menu or collapsible that the description names ("Export in the
 *     More menu", "折叠面板'高级设置'里的开关"): open the container, then look inside it;
 *   - a target not loaded yet on a page with lazy or infinite-scroll regions: scroll and collect
 *     before giving up. A settled page without such regions never scrolls.
 *
 * Detection is by effect, never by class names: a hidden element counts as hover-revealed when
 * hovering an ancestor (or the trigger the menu is labelled by) makes it visible.
 */
import type { Candidate } from '../../core/exec'
import { observe, scrollAndCollect } from '../observe'
import { isVisible, kAvaUiAttr, labelOf, viewOf } from './dom'
import { click, hover } from './events'
import type { Located, TargetSpec } from './ladder'
import { candidateId, interactiveIn, kMinScore, parseQuery, scoreElement, semanticMatch } from './semantic'
import { nextFrame, nextPaint, waitFor } from './wait'
import { referencedElements } from '../words'
import { sameBox } from './actionability'

/** The attribute that stands in for `:hover` in the rewritten hover rules. */
const kHoverAttr = 'data-ava-hover'
/** Ancestors tried as the hovered container: a row action sits a few levels below its row. */
const kMaxDepth = 12
/** Hidden look-alikes considered on a miss: enough for a table's rows, cheap to score. */
const kMaxHidden = 50
/** How long a click on a menu trigger or section header gets to show its content. */
const kOpenWaitMs = 1_500
/** How long a hover menu gets to open (libraries wait 100–300 ms before showing, then animate). */
const kHoverMenuWaitMs = 1_000
/** A script that shows row actions on mouseenter does it at once; a little slack for a frame. */
const kScriptHoverWaitMs = 250
/** Longest wait for a revealed menu to stop moving; library animations take 200–300 ms. */
const kSettleMs = 600
/** Bounds on a miss: a few screens, stopping as soon as nothing new loads. */
const kMissScrolls = 6
const kMissScrollDelayMs = 400
/** Lazy markers that mean more content can still arrive; a lazy image alone adds no controls. */
const kGrowingKinds = new Set(['sentinel', 'busy', 'placeholder', 'content-visibility'])

// ---------------------------------------------------------------------------------------------
// CSS :hover, emulated. Dispatched mouse events never set `:hover`, so the page's own hover rules
// are copied with `:hover` replaced by an attribute and applied to the elements under the
// pointer: the same declarations, the same specificity, only while Ava's pointer is there.

interface HoverSheet {
  key: string
  sheet: CSSStyleSheet | null
}
const sheets = new WeakMap<Document, HoverSheet>()

function collectHoverRules(rules: CSSRuleList, view: Window, out: string[]): void {
  for (const rule of rules) {
    const style = rule as CSSStyleRule
    if (typeof style.selectorText === 'string') {
      if (style.selectorText.includes(':hover'))
        out.push(`${style.selectorText.replace(/:hover\b/g, `[${kHoverAttr}]`)}{${style.style.cssText}}`)
      continue
    }
    const media = rule as CSSMediaRule
    if (media.media && !view.matchMedia(media.media.mediaText).matches) continue
    // @media that applies, @supports, @layer: their rules count as the page's own.
    const group = (rule as CSSGroupingRule).cssRules
    if (group) collectHoverRules(group, view, out)
  }
}

function hoverSheet(doc: Document): CSSStyleSheet | null {
  const view = doc.defaultView
  if (!view) return null
  // CSS-in-JS libraries add sheets as they render: rebuild when the set of sheets has changed.
  let count = 0
  for (const s of doc.styleSheets) {
    try {
      count += s.cssRules.length
    } catch {
      // A cross-origin sheet cannot be read; its hover rules stay invisible to us.
    }
  }
  const key = `${doc.styleSheets.length}:${count}`
  const cached = sheets.get(doc)
  if (cached?.key === key) return cached.sheet
  const texts: string[] = []
  for (const s of doc.styleSheets) {
    try {
      collectHoverRules(s.cssRules, view, texts)
    } catch {
      // unreadable (cross-origin) sheet
    }
  }
  let sheet: CSSStyleSheet | null = null
  if (texts.length) {
    // A constructed sheet, not a <style>: a page's CSP does not block it and its DOM stays as it was.
    sheet = new (view as Window & typeof globalThis).CSSStyleSheet()
    sheet.replaceSync(texts.join('\n'))
  }
  sheets.set(doc, { key, sheet })
  return sheet
}

/** The pointer's place in the page: which elements are "hovered" now, undone by `release`. */
export interface Hovering {
  /** The element the pointer was moved onto (row, card, menu trigger). */
  container: Element
  release(): void
}

function markPath(el: Element, upTo: Element | null): Element[] {
  const marked: Element[] = []
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (!n.hasAttribute(kHoverAttr)) {
      n.setAttribute(kHoverAttr, '')
      marked.push(n)
    }
    if (n === upTo) break
  }
  return marked
}

function unmark(marked: Element[]): void {
  for (const n of marked) n.removeAttribute(kHoverAttr)
}

function adopt(doc: Document, sheet: CSSStyleSheet): () => void {
  doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet]
  return () => {
    doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet)
  }
}

/**
 * Emulated `:hover` for several hidden elements at once (each with its ancestors, as when the
 * pointer rests on it); returns the ones it made visible and an undo. Several at once so that a
 * description matching a hidden "Delete" in every row is seen as ambiguous, not as the first row.
 */
function cssReveal(targets: Element[]): { shown: Element[]; undo: () => void } | null {
  const doc = targets[0]?.ownerDocument
  const sheet = doc && hoverSheet(doc)
  if (!doc || !sheet) return null
  const drop = adopt(doc, sheet)
  const marked = targets.flatMap((t) => markPath(t, null))
  const undo = () => {
    unmark(marked)
    drop()
  }
  const shown = targets.filter(isVisible)
  if (!shown.length) {
    undo()
    return null
  }
  return { shown, undo }
}

/** The nearest ancestor whose hover (and its ancestors', as the pointer is inside them) shows `el`. */
function cssContainer(el: Element, sheet: CSSStyleSheet): Element | null {
  const doc = el.ownerDocument
  const drop = adopt(doc, sheet)
  const marked: Element[] = []
  try {
    let depth = 0
    for (let n = el.parentElement; n && n !== doc.body && depth < kMaxDepth; n = n.parentElement, depth++) {
      marked.push(...markPath(n, n))
      if (isVisible(el)) return n
    }
    return null
  } finally {
    unmark(marked)
    drop()
  }
}

/** The trigger a hidden menu or popup belongs to (aria-labelledby, or a trigger's aria-controls/owns). */
function popupTrigger(el: Element): Element | null {
  const doc = el.ownerDocument
  for (let n: Element | null = el; n && n !== doc.body; n = n.parentElement) {
    const labelled: Element | null = referencedElements(n, n.getAttribute('aria-labelledby'), 1)[0] ?? null
    if (labelled && labelled !== n && !n.contains(labelled) && isVisible(labelled)) return labelled
    if (n.id) {
      const id = CSS.escape(n.id)
      const trigger = doc.querySelector(`[aria-controls~="${id}"],[aria-owns~="${id}"]`)
      if (trigger && !n.contains(trigger) && isVisible(trigger)) return trigger
    }
  }
  return null
}

function scrollToView(el: Element): void {
  const r = el.getBoundingClientRect()
  const view = viewOf(el)
  if (r.top < 0 || r.left < 0 || r.bottom > view.innerHeight || r.right > view.innerWidth)
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' })
}

/** Moves the pointer onto `container` (mouse events and emulated :hover) and waits for `el` to show. */
async function hoverUntilShown(
  el: Element,
  container: Element,
  sheet: CSSStyleSheet | null,
  waitMs: number,
  signal?: AbortSignal,
): Promise<Hovering | null> {
  const doc = el.ownerDocument
  scrollToView(container)
  const drop = sheet ? adopt(doc, sheet) : () => undefined
  const marked = sheet ? markPath(container, null) : []
  hover(container)
  const release = () => {
    unmark(marked)
    drop()
  }
  await nextPaint(viewOf(el))
  if (await shownWithin(el, waitMs, signal)) {
    await settled(el)
    return { container, release }
  }
  release()
  return null
}

/**
 * Looks once a frame: a menu shows through a transition's first frames, which no mutation
 * reports, so a poll on a timer would see it up to a poll late.
 */
async function shownWithin(el: Element, ms: number, signal?: AbortSignal): Promise<boolean> {
  const until = Date.now() + ms
  for (;;) {
    if (isVisible(el)) return true
    if (Date.now() >= until || signal?.aborted) return false
    await nextFrame(viewOf(el))
  }
}

/** Waits (briefly) for an opening menu's slide or zoom to end, as a person waits to aim. */
async function settled(el: Element): Promise<void> {
  const view = viewOf(el)
  const until = Date.now() + kSettleMs
  // A frame apart, as the click's own stability check looks; still to the eye is still enough.
  let last: DOMRect | null = null
  for (;;) {
    const now = el.getBoundingClientRect()
    if ((last && sameBox(last, now)) || Date.now() > until) return
    last = now
    await nextFrame(view)
  }
}

/**
 * Makes a target that exists but shows only on hover visible the way a person does: the pointer
 * moves onto its row or card (or the menu's trigger). Null when the element is visible already or
 * no hover shows it; the caller releases the hover after its action.
 */
export async function revealByHover(el: Element, signal?: AbortSignal): Promise<Hovering | null> {
  if (!el.isConnected || isVisible(el) || el.closest(`[${kAvaUiAttr}]`)) return null
  // A closed <details> opens on a click of its summary; no hover shows what it holds.
  if (el.closest('details:not([open])')) return null
  const sheet = hoverSheet(el.ownerDocument)
  const byCss = sheet && cssContainer(el, sheet)
  if (byCss) return hoverUntilShown(el, byCss, sheet, 0, signal)
  const trigger = popupTrigger(el)
  // A section header (aria-expanded without a popup) opens on click, not on hover.
  if (trigger && (trigger.hasAttribute('aria-haspopup') || !trigger.hasAttribute('aria-expanded')))
    return hoverUntilShown(el, trigger, sheet, kHoverMenuWaitMs, signal)
  if (trigger) return null
  // A script that shows the content on mouseenter: the nearest laid-out ancestors, inner first.
  let tries = 0
  for (let n = el.parentElement; n && n !== el.ownerDocument.body && tries < 2; n = n.parentElement) {
    if (!isVisible(n)) continue
    tries++
    const shown = await hoverUntilShown(el, n, sheet, kScriptHoverWaitMs, signal)
    if (shown) return shown
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// "X in the Y menu", "Y 菜单里的 X": the container a description names.

const kEnKinds = 'menu|dropdown|submenu|section|panel|collapse|accordion|group|details|drawer|list'
const kEnScope = new RegExp(
  `^(.+?)\\s+(?:in|inside|within|under|from)\\s+(?:the\\s+)?(.+?)(?:\\s+(${kEnKinds}))?\\s*$`,
  'i',
)
const kZhKinds = '下拉菜单|折叠面板|菜单|下拉框|下拉|面板|折叠|分组|区域|部分|栏目|列表'
const kZhKind = new RegExp(kZhKinds)
const kZhScope = /^(?:在)?(.+?)(?:里面|之中|里|中|内)的(.+)$|^在(.+?)(?:里面|之中|里|中|内)(.+)$/
const kQuotes = /["“”'‘’「」『』]/g

export interface Scoped {
  target: string
  container: string
  /** The description calls it a menu, collapsible, section…: opening it is what it asks. */
  kind: boolean
}

/** Splits a description into its target and the container that holds it, or null. */
export function splitScope(description: string): Scoped | null {
  const text = description.trim()
  const en = kEnScope.exec(text)
  if (en) {
    const container = en[2].replace(kQuotes, '').trim()
    // "Save in the dialog" is a scope the ladder handles; "Sign in button" names no container.
    if (parseQuery(container).tokens.length && !/^(dialog|modal|form|row|table|page|card|window)$/i.test(container))
      return { target: en[1].replace(/^(?:the|a|an)\s+/i, '').trim(), container, kind: !!en[3] }
  }
  // Chinese needs 的 or a leading 在 to tell "在…里" from a word that merely contains 中 or 里.
  const zh = kZhScope.exec(text)
  if (zh) {
    const [where, what] = zh[1] ? [zh[1], zh[2]] : [zh[3], zh[4]]
    const container = where.replace(new RegExp(kZhKinds, 'g'), '').replace(kQuotes, '').trim()
    const target = what.replace(kQuotes, '').trim()
    if (container && target) return { target, container, kind: kZhKind.test(where) }
  }
  return null
}

/** Signs a visible element opens something: a closed <details>, aria-expanded=false, a popup trigger. */
function isClosedTrigger(el: Element): boolean {
  if (el.localName === 'summary') return !(el.parentElement as HTMLDetailsElement | null)?.open
  if (el.getAttribute('aria-expanded') === 'false') return true
  const popup = el.getAttribute('aria-haspopup')
  return !!popup && popup !== 'false'
}

/** The control that opens the named container: its summary, header or trigger. */
function findTrigger(name: string, kind: boolean): Element | null {
  const m = semanticMatch(name)
  const pick = (el: Element) => el.closest('summary,[aria-expanded],[aria-haspopup]') ?? el
  if (m.best) {
    const el = pick(m.best)
    return isClosedTrigger(el) || kind ? el : null
  }
  // A header that is not a control by itself (a plain div with a click handler) but shows the name.
  if (!kind) return null
  const name_ = name.toLowerCase()
  const doc = document
  const all = interactiveIn(doc).filter((el) => isVisible(el) && labelOf(el).toLowerCase().includes(name_))
  return all.length === 1 ? pick(all[0]) : null
}

/**
 * Opens the container as a person would and returns what `look` finds inside: a section header or
 * a closed <details> is clicked; a menu trigger is hovered first, and clicked only when the hover
 * showed nothing (a click on an open hover menu would close it again).
 */
async function openContainer<T extends { el: Element }>(
  trigger: Element,
  look: () => T | null,
  signal?: AbortSignal,
): Promise<T | null> {
  const doc = trigger.ownerDocument
  scrollToView(trigger)
  const collapsible =
    trigger.localName === 'summary' || (trigger.hasAttribute('aria-expanded') && !trigger.hasAttribute('aria-haspopup'))
  if (!collapsible) {
    hover(trigger)
    const seen = await waitFor(look, kHoverMenuWaitMs, signal, doc)
    if (seen) {
      await settled(seen.el)
      return seen
    }
  }
  click(trigger)
  await nextPaint(viewOf(trigger))
  const found = await waitFor(look, kOpenWaitMs, signal, doc)
  if (found) await settled(found.el)
  return found
}

function located(el: Element, candidates: Candidate[], description: string): Located {
  return {
    el,
    rung: 'semantic',
    candidates,
    relocate: () => (el.isConnected ? el : (semanticMatch(description).best ?? null)),
  }
}

/** After opening: the target among what the opening showed (new visible matches first). */
function matchOpened(target: string, before: Set<Element>): Located | null {
  const m = semanticMatch(target)
  const fresh = m.elements.filter((el) => !before.has(el))
  if (m.best && !before.has(m.best)) return located(m.best, m.candidates, target)
  if (fresh.length === 1) return located(fresh[0], m.candidates, target)
  // Role-only or short descriptions ("开关", "the switch"): score what the opening showed.
  const q = parseQuery(target)
  const scored = interactiveIn(document)
    .filter((el) => !before.has(el) && isVisible(el) && !el.closest(`[${kAvaUiAttr}]`))
    .map((el) => ({ el, s: scoreElement(q, el)?.score ?? 0 }))
    .filter((x) => x.s >= kMinScore * 0.8)
    .sort((a, b) => b.s - a.s)
  if (
    scored.length === 1 ||
    (scored.length > 1 &&
      scored[0].s - scored[1].s > 0.05 &&
      !scored[1].el.contains(scored[0].el) &&
      !scored[0].el.contains(scored[1].el))
  ) {
    return located(
      scored[0].el,
      scored
        .map((x) => ({ id: candidateId(x.el), label: labelOf(x.el), score: Math.round(x.s * 100) / 100 }))
        .slice(0, 5),
      target,
    )
  }
  return null
}

/** Visible elements the target part matches now: what opening must add to. */
function visibleNow(): Set<Element> {
  return new Set(interactiveIn(document).filter(isVisible))
}

// ---------------------------------------------------------------------------------------------
// The miss path of the locator ladder.

/**
 * Called by `locate` before it looks: a description that names the closed menu or section holding
 * its target ("Export in the More menu", "折叠面板'高级设置'里的开关") opens it and finds the target
 * among what the opening showed. Null when the description names no container, the container is
 * open already (the ladder then looks as usual), or nothing fitting appeared.
 */
export async function openNamedContainer(description: string, signal?: AbortSignal): Promise<Located | null> {
  const scoped = splitScope(description)
  if (!scoped) return null
  const trigger = findTrigger(scoped.container, scoped.kind)
  if (!trigger) return null
  // A menu that shows no aria state is closed when its item is nowhere to be seen.
  if (!isClosedTrigger(trigger) && (!scoped.kind || semanticMatch(scoped.target).best)) return null
  const before = visibleNow()
  return openContainer(trigger, () => matchOpened(scoped.target, before), signal)
}

/** Hidden interactive elements the description fits, best first. */
function hiddenMatches(description: string): Element[] {
  const q = parseQuery(description)
  // A lone letter or a number is in half the labels of a table; a word picks a hidden control.
  const words = q.tokens.filter((t) => t.length > 1 && !/^\d+$/.test(t))
  const needles = [...(words.length ? words : q.tokens), ...(q.quoted ? [q.quoted.toLowerCase()] : [])]
  if (!needles.length) return []
  const out: Array<{ el: Element; score: number }> = []
  for (const el of interactiveIn(document)) {
    if (out.length >= kMaxHidden) break
    // Words first: layout is read only for the few elements that carry one of the words.
    const hay =
      `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''} ${el.textContent ?? ''}`.toLowerCase()
    if (!needles.some((t) => hay.includes(t))) continue
    if (el.closest(`[${kAvaUiAttr}]`) || isVisible(el)) continue
    const s = scoreElement(q, el)
    if (s && s.score >= kMinScore) out.push({ el, score: s.score })
  }
  return out.sort((a, b) => b.score - a.score).map((x) => x.el)
}

/** Markers scan.ts reports as lazy regions, as one cheap query: most pages have none. */
const kLazyMarkers =
  '[aria-busy=true],[class*=infinite],[class*=sentinel],[class*=load-more],[class*=loadmore],[class*=skeleton],[class*=lazy]'

/** True when the page says more content is still to come. */
export function pageGrows(): boolean {
  // The full scan (about 150 ms on a page of 5,000 controls) only when a marker is there at all.
  if (!document.querySelector(kLazyMarkers)) return false
  return observe({ includeContent: false }).lazyRegions.some((r) => kGrowingKinds.has(r.kind))
}

/** The scroller that holds the lazy content: an inner scrolling box when the list has one. */
function lazyScroller(): Element | undefined {
  const marker = document.querySelector(kLazyMarkers)
  for (let n = marker?.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    const oy = viewOf(n).getComputedStyle(n).overflowY
    if ((oy === 'auto' || oy === 'scroll') && n.scrollHeight > n.clientHeight + 1) return n
  }
  return undefined
}

/**
 * Called by `locate` when nothing matched: tries, in order, opening the container the
 * description names, the hover that shows a hidden match, and scrolling a growing page. `probe`
 * is the ladder's own look; it may record an ambiguity, which the caller then reports.
 */
export async function revealMissing(
  spec: TargetSpec,
  probe: () => Located | null,
  opts: { signal?: AbortSignal },
): Promise<Located | null> {
  const description = spec.semantic
  if (description) {
    const scoped = splitScope(description)
    const hidden = hiddenMatches(scoped?.target ?? description)
    // Every hidden look-alike at once, by CSS: the ladder sees them all and calls a tie a tie.
    const css = hidden.length ? cssReveal(hidden) : null
    if (css) {
      const found = probe()
      css.undo()
      if (found) return found
    }
    // One clear match shown by a script or a menu trigger: move there and look again.
    const rest = css ? hidden.filter((el) => !css.shown.includes(el)) : hidden
    if (rest.length === 1 || (rest.length > 1 && scoreGap(description, rest))) {
      const shown = await revealByHover(rest[0], opts.signal)
      if (shown) {
        const found = probe()
        if (found) return found
        shown.release()
      }
    }
  }
  if (!pageGrows()) return null
  let found: Located | null = null
  await scrollAndCollect({
    maxScrolls: kMissScrolls,
    delayMs: kMissScrollDelayMs,
    signal: opts.signal,
    scroller: lazyScroller(),
    stopWhen: () => !!(found = probe()),
  }).catch(() => undefined)
  return found ?? probe()
}

function scoreGap(description: string, hidden: Element[]): boolean {
  const q = parseQuery(description)
  const [a, b] = hidden.map((el) => scoreElement(q, el)?.score ?? 0)
  return a - b > 0.05
}
