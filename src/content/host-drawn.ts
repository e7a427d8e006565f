/**
 * How the page draws Ava's panel, read in the page at every frame while the panel shows
 * (docs/security.md, "The panel frame"): the computed opacity, filter, transform, clip, mask and
 * blending of the frame, its host and the root; the frame's box (moved, or out of the window);
 * and what covers it — the layers a page can put over a host that sits last in the root at the
 * top z-index (a later sibling, the root's `::after`, the top layer) and, at the click point,
 * whatever is hit there. The panel asks at each click whether the frame was drawn so, without a
 * break, from 500 ms before the click until now (`faultSince`): the decision is made from the
 * drawing at the moment of the click, not from an observer's last report.
 */

/** Why a click on the panel was not taken. Each has its sentence in the locales (`panel.drawn.*`). */
export type DrawnFault = 'faded' | 'transformed' | 'clipped' | 'covered' | 'moved' | 'offscreen' | 'hidden'

/** The frame must have been drawn plainly this long before a click: as the panel's own guard (src/panel/visibility.ts). */
const kSteadyMs = 500
const kOpaque = 0.999

const now = () => performance.timeOrigin + performance.now()

/** A transform that only moves (a matrix of 1, 0, 0, 1): the box check sees the move itself. */
function onlyMoves(t: string): boolean {
  if (!t || t === 'none') return true
  const m = /^matrix\(([^)]+)\)$/.exec(t)
  if (!m) return false
  const [a, b, c, d] = m[1].split(',').map(Number)
  return a === 1 && b === 0 && c === 0 && d === 1
}

/** What is wrong with how `el` itself is drawn, as an ancestor or as the frame. */
function styleFault(el: Element): DrawnFault | null {
  const s = getComputedStyle(el)
  if (s.visibility !== 'visible' || s.display === 'none' || s.contentVisibility === 'hidden') return 'hidden'
  if (
    Number(s.opacity) < kOpaque ||
    (s.filter && s.filter !== 'none') ||
    (s.mixBlendMode && s.mixBlendMode !== 'normal')
  )
    return 'faded'
  if (
    !onlyMoves(s.transform) ||
    (s.scale && s.scale !== 'none') ||
    (s.rotate && s.rotate !== 'none') ||
    (s.perspective && s.perspective !== 'none')
  )
    return 'transformed'
  const mask = s.maskImage || (s as CSSStyleDeclaration & { webkitMaskImage?: string }).webkitMaskImage || 'none'
  if ((s.clipPath && s.clipPath !== 'none') || mask !== 'none' || (s.clip && s.clip !== 'auto')) return 'clipped'
  return null
}

function intersects(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
}

/** A layer the page may draw over the host whatever its pointer-events: later in the root, the root's ::after, the top layer. */
function coveringLayer(host: Element, box: DOMRect): boolean {
  const drawn = (el: Element) => {
    const s = getComputedStyle(el)
    return (
      s.display !== 'none' &&
      s.visibility === 'visible' &&
      Number(s.opacity) > 0 &&
      intersects(el.getBoundingClientRect(), box)
    )
  }
  for (let n = host.nextElementSibling; n; n = n.nextElementSibling) if (drawn(n)) return true
  const after = getComputedStyle(document.documentElement, '::after')
  if (after.content && after.content !== 'none' && after.content !== 'normal' && after.display !== 'none') return true
  for (const el of document.querySelectorAll(':modal, :popover-open')) if (drawn(el)) return true
  return !!document.fullscreenElement && document.fullscreenElement !== host
}

/** What is wrong with the frame as drawn now; `point` (in the frame) is also hit-tested when given. */
function faultNow(
  host: Element,
  frame: HTMLElement,
  point?: { x: number; y: number },
): { fault: DrawnFault | null; box: DOMRect } {
  const box = frame.getBoundingClientRect()
  if (frame.hidden) return { fault: 'hidden', box }
  for (const el of [frame, host, document.documentElement]) {
    const fault = styleFault(el)
    if (fault) return { fault, box }
  }
  if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight || box.width === 0)
    return { fault: 'offscreen', box }
  if (coveringLayer(host, box)) return { fault: 'covered', box }
  const probe = point ? [{ x: box.left + point.x, y: box.top + point.y }] : []
  probe.push({ x: box.left + box.width / 2, y: box.top + box.height / 2 })
  for (const p of probe) {
    const hit = document.elementFromPoint(p.x, p.y)
    if (hit !== host) return { fault: 'covered', box }
  }
  return { fault: null, box }
}

export interface HostDrawn {
  /** Why the frame was not drawn plainly at some time from kSteadyMs before `at` (epoch ms) until now; null when it was. */
  faultSince(at: number, point?: { x: number; y: number }): DrawnFault | null
  stop(): void
}

/** Reads how the frame is drawn at every animation frame; stops with `stop()`. */
export function watchHostDrawn(host: Element, frame: HTMLElement): HostDrawn {
  let last: { at: number; fault: DrawnFault } | null = null
  let box: DOMRect | null = null
  let raf = 0
  const note = (fault: DrawnFault) => (last = { at: now(), fault })
  const sample = () => {
    const out = faultNow(host, frame)
    if (out.fault) note(out.fault)
    if (
      box &&
      (box.left !== out.box.left ||
        box.top !== out.box.top ||
        box.width !== out.box.width ||
        box.height !== out.box.height)
    )
      note('moved')
    box = out.box
    raf = requestAnimationFrame(sample)
  }
  // Not yet seen counts as not drawn plainly: a click right after the panel opened waits its 500 ms.
  note('hidden')
  raf = requestAnimationFrame(sample)
  return {
    faultSince(at, point) {
      const out = faultNow(host, frame, point)
      if (out.fault) return out.fault
      return last && last.at >= at - kSteadyMs ? last.fault : null
    },
    stop: () => cancelAnimationFrame(raf),
  }
}
