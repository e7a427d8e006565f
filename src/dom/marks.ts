/**
 * Ava's marks for a screenshot (docs/agent.md, "Screenshots"): each listed element's box and the
 * id the listing gives it (set-of-marks), and every field holding a secret blacked out, drawn in
 * a closed shadow root as the panel is, so the page can neither read nor restyle them. The
 * background captures the tab while they are up and removes them at once.
 */
import type { Mark, PageCommands } from '../core/page/command'
import { kAvaUiAttr } from './executor/dom'
import { deepQuerySelectorAll } from './locators'
import { safeResolveHandle } from './observe'
import { holdsSecret } from './secret-fields'
import { secretDrawings } from './shot-secrets'

const kMarksValue = 'marks'
/** Above everything a page can stack (the maximum 32-bit z-index). */
const kTopZ = '2147483647'
/**
 * Distinct, saturated colours, so neighbouring marks are told apart and none reads as page
 * content; the label is white on the colour. Never black: black is what a hidden field looks like.
 */
const kPalette = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#008080',
  '#f032e6',
  '#9a6324',
  '#800000',
  '#000075',
]
const kLabelPx = 14 // label height in CSS px: legible after scaling to the screenshot's width, underscores inside it
/** Too few elements listed for what a person sees: the picture may say more (docs/agent.md). */
const kFewElements = 3
/** An image or canvas smaller than this (CSS px, each side) is an icon, not content. */
const kMinContentPx = 40

type MarksResult = PageCommands['marks']['res']

interface Shown {
  host: HTMLElement
  /** Ava's debug outline, hidden while the capture is taken. */
  hidden: { el: HTMLElement; visibility: string }[]
}
let shown: Shown | null = null

/** The element's box in this document's viewport, through the same-origin frames that hold it. */
function rectInView(el: Element): DOMRect | null {
  let r = el.getBoundingClientRect()
  if (r.width <= 0 || r.height <= 0) {
    // A `display: contents` element draws its text in its children's boxes.
    const range = el.ownerDocument.createRange()
    range.selectNodeContents(el)
    r = range.getBoundingClientRect()
  }
  let x = r.left
  let y = r.top
  for (let win: Window | null = el.ownerDocument.defaultView; win && win !== window; win = win.parent) {
    const frame = win.frameElement
    if (!frame) return null
    const fr = frame.getBoundingClientRect()
    x += fr.left + frame.clientLeft
    y += fr.top + frame.clientTop
  }
  r = new DOMRect(x, y, r.width, r.height)
  return r
}

function inView(r: DOMRect): boolean {
  return r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight
}

/** Why the listing alone may not show what the page shows. */
function poorness(listed: number): string[] {
  const poor: string[] = []
  const big = (el: Element) => {
    const r = el.getBoundingClientRect()
    return inView(r) && r.width >= kMinContentPx && r.height >= kMinContentPx
  }
  if (deepQuerySelectorAll('canvas').some(big)) poor.push('canvas')
  const unnamed = deepQuerySelectorAll('img, svg[role=img], [role=img]').filter(
    (el) => big(el) && !(el.getAttribute('alt') || el.getAttribute('aria-label') || el.getAttribute('title')),
  )
  if (unnamed.length) poor.push('unnamed_images')
  if (listed < kFewElements) poor.push('few_elements')
  return poor
}

/**
 * Draws the marks of `ids` (the ids the listing showed; `prefix` added where a background merged
 * this frame under one) and black boxes over secret fields, then waits for them to be painted.
 * `ids` null: this document is on a site never captured, and is drawn all black.
 */
export async function showMarks(
  ids: readonly string[] | null,
  prefix = '',
  hide: readonly string[] = [],
  since?: number,
): Promise<MarksResult> {
  hideMarks()
  const host = document.createElement('div')
  host.setAttribute(kAvaUiAttr, kMarksValue)
  host.style.cssText = `all:initial;position:fixed;left:0;top:0;width:100vw;height:100vh;pointer-events:none;z-index:${kTopZ};${ids ? '' : 'background:#000;'}`
  const root = host.attachShadow({ mode: 'closed' })
  if (!ids) {
    document.documentElement.appendChild(host)
    shown = { host, hidden: [] }
    await painted()
    return {
      marks: [],
      blacked: 1,
      poor: [],
      view: { viewWidth: innerWidth, viewHeight: innerHeight, scrollX, scrollY, dpr: devicePixelRatio },
    }
  }
  const marks: Mark[] = []
  const taken: DOMRect[] = []
  for (const id of ids) {
    const found = safeResolveHandle(id)
    if (!found.ok) continue
    const r = rectInView(found.value)
    if (!r || !inView(r)) continue
    const color = kPalette[marks.length % kPalette.length]
    const label = prefix + id
    const box = document.createElement('div')
    box.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;box-sizing:border-box;border:2px solid ${color};`
    root.appendChild(box)
    // The label sits outside the box, above it (below when there is no room, or another label is
    // there), so the element's own text stays readable.
    const width = Math.min(label.length * 7.2 + 6, innerWidth)
    let top = r.top - kLabelPx - 1 >= 0 ? r.top - kLabelPx - 1 : r.bottom + 1
    const left = Math.max(0, Math.min(r.left, innerWidth - width))
    if (taken.some((t) => Math.abs(t.top - top) < kLabelPx && t.left < left + width && left < t.right))
      top = r.bottom + 1
    taken.push(new DOMRect(left, top, width, kLabelPx))
    const tag = document.createElement('div')
    tag.textContent = label
    tag.style.cssText = `position:fixed;left:${left}px;top:${top}px;height:${kLabelPx}px;font:bold 11px/${kLabelPx}px monospace;color:#fff;background:${color};padding:0 3px;white-space:nowrap;`
    root.appendChild(tag)
    marks.push({ id: label, x: r.left, y: r.top, width: r.width, height: r.height })
  }
  // [privacy] What the model must never read, it must never see either (src/dom/secret-fields.ts).
  let blacked = 0
  // …and wherever the page drew a secret again: text, another field, and what Ava cannot read (shot-secrets.ts).
  const drawn = secretDrawings(hide, since)
  const secretFields = deepQuerySelectorAll('input, textarea, [contenteditable]').filter((field) =>
    holdsSecret(field, !!((field as HTMLInputElement).value ?? field.textContent)),
  )
  for (const field of new Set([...secretFields, ...drawn.covers])) {
    const r = rectInView(field)
    if (!r || !inView(r)) continue
    const cover = document.createElement('div')
    // A few pixels past the field: its border and focus ring can show the length of what is typed.
    cover.style.cssText = `position:fixed;left:${r.left - 2}px;top:${r.top - 2}px;width:${r.width + 4}px;height:${r.height + 4}px;background:#000;`
    root.appendChild(cover)
    blacked++
  }
  const hidden: Shown['hidden'] = []
  // The debug outline (observe/overlay.ts) would read as marks; the panel and its button are
  // hidden by the launcher (content/launcher.ts `capturing`), which owns them.
  for (const el of document.querySelectorAll<HTMLElement>(`[${kAvaUiAttr}="observe-overlay"]`)) {
    hidden.push({ el, visibility: el.style.visibility })
    el.style.visibility = 'hidden'
  }
  document.documentElement.appendChild(host)
  shown = { host, hidden }
  await painted()
  return {
    marks,
    blacked,
    ...(drawn.unsure.length ? { unsure: drawn.unsure } : {}),
    poor: prefix ? [] : poorness(marks.length),
    view: { viewWidth: innerWidth, viewHeight: innerHeight, scrollX, scrollY, dpr: devicePixelRatio },
  }
}

export function hideMarks(): void {
  if (!shown) return
  shown.host.remove()
  for (const h of shown.hidden) h.el.style.visibility = h.visibility
  shown = null
}

const kPaintWaitMs = 200 // a hidden document runs no frames; the capture of a shown tab needs two

/** Resolves once what was drawn has reached the screen (two animation frames), or after a short wait. */
function painted(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, kPaintWaitMs)
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer)
        resolve()
      }),
    )
  })
}
