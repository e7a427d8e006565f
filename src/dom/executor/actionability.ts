/**
 * Actionability (after Playwright's checks): attached, scrolled into view, visible,
 * enabled, stable (not animating) and hit-testable. Each failure is reported with its reason;
 * an element attached but never visible gets a forced DOM operation instead.
 */
import type { ExecFailure } from '../../core/exec'
import { sleep } from '../../core/sleep'
import { deepContains, deepElementFromPoint, isDisabled } from '../locators'
import { centerOf, landsOn, type Point } from './events'
import { isVisible, kAvaUiAttr, quoteLabel, shortName, viewOf } from './dom'
import { fail } from '../../core/exec'
import { nextFrame } from './wait'

/**
 * An element still invisible after this long is operated through the DOM. Long
 * enough for a dialog's fade-in (Element Plus and Ant Design animate for 200–300 ms).
 */
export const kVisibleGraceMs = 400
/** Between two looks while waiting for an element to become actionable. */
const kRetryMs = 50
/** Classes of the layers that block the page under a dialog: what "covered by" names. */
const kOverlayClass = /(overlay|mask|modal|backdrop|loading)/i

export interface Checks {
  visible?: boolean
  enabled?: boolean
  stable?: boolean
  hitTest?: boolean
  /** Fields must accept typing. */
  editable?: boolean
  /** When the element never becomes visible, act through the DOM instead of failing. */
  allowForce?: boolean
}

/** `at`: the point a pointer action aims at, inside the element's visible, unobstructed area. */
export type Actionable = { ok: true; el: Element; forced: boolean; at?: Point }

function inViewport(el: Element): boolean {
  const r = el.getBoundingClientRect()
  const view = viewOf(el)
  return r.top >= 0 && r.left >= 0 && r.bottom <= view.innerHeight && r.right <= view.innerWidth
}

/**
 * Movement below this between two frames is invisible and cannot move the pointer off its pixel:
 * the last frames of an ease-out (Element Plus's and Ant Design's zooms) creep by fractions of a
 * pixel for a third of the animation, and a person aims long before they end. The hit test still
 * decides where the click lands.
 */
const kStillPx = 0.5

/** Whether two boxes of the same element, a frame apart, look the same to a person. */
export function sameBox(a: DOMRect, b: DOMRect): boolean {
  return (
    Math.abs(a.x - b.x) < kStillPx &&
    Math.abs(a.y - b.y) < kStillPx &&
    Math.abs(a.width - b.width) < kStillPx &&
    Math.abs(a.height - b.height) < kStillPx
  )
}

async function isStable(el: Element): Promise<boolean> {
  const a = el.getBoundingClientRect()
  await nextFrame(viewOf(el))
  return sameBox(a, el.getBoundingClientRect())
}

/** The blocking layer a hit belongs to (a dialog's mask, a loading veil), else the hit itself. */
function layerOf(hit: Element, el: Element): Element {
  let layer: Element | null = null
  for (let n: Element | null = hit; n && n !== el.ownerDocument.body; n = n.parentElement) {
    if (typeof n.className === 'string' && kOverlayClass.test(n.className)) layer = n
  }
  return layer ?? hit
}

/** Whether a click landing on `hit` reaches `el`: the element, inside it, its label or its labelled control. */
function reaches(el: Element, hit: Element | null): boolean {
  return landsOn(el, hit) || (hit?.localName === 'label' && (hit as HTMLLabelElement).control === el)
}

/**
 * The part of `el`'s box inside the window. Ancestors that clip it are left to the hit test: a
 * fixed or absolutely placed element escapes an `overflow` box that is not its containing block,
 * and the sampled points that a clip hides simply hit something else.
 */
function visibleBox(el: Element): { left: number; top: number; right: number; bottom: number } | null {
  const r = el.getBoundingClientRect()
  const view = viewOf(el)
  const box = {
    left: Math.max(r.left, 0),
    top: Math.max(r.top, 0),
    right: Math.min(r.right, view.innerWidth),
    bottom: Math.min(r.bottom, view.innerHeight),
  }
  return box.right - box.left >= 1 && box.bottom - box.top >= 1 ? box : null
}

/** Points inside a box: its centre first, then a 5 × 5 grid from the middle outwards. */
function aimPoints(b: { left: number; top: number; right: number; bottom: number }): Point[] {
  const w = b.right - b.left
  const h = b.bottom - b.top
  const out: Point[] = [{ x: b.left + w / 2, y: b.top + h / 2 }]
  const steps = [0.5, 0.3, 0.7, 0.1, 0.9]
  for (const fy of steps)
    for (const fx of steps) if (fx !== 0.5 || fy !== 0.5) out.push({ x: b.left + w * fx, y: b.top + h * fy })
  return out
}

/** Where a click on `el` lands on it, as Playwright aims: the first point of its visible area whose hit test reaches it. */
export function clickPoint(el: Element): { at: Point } | { cover: Element | null; ownUi: boolean } {
  const box = visibleBox(el)
  if (!box) return { cover: null, ownUi: false }
  const points = aimPoints(box)
  let first: Element | null = null
  let ownUi = false
  for (const p of points) {
    const hit = deepElementFromPoint(el.ownerDocument, p.x, p.y)
    if (reaches(el, hit)) return { at: p }
    first ??= hit
    if (hit?.closest(`[${kAvaUiAttr}]`)) ownUi = true
  }
  return { cover: first && layerOf(first, el), ownUi }
}

/** What covers the element's centre, named by the blocking layer when there is one. */
export function coveringElement(el: Element): Element | null {
  const at = centerOf(el)
  const hit = deepElementFromPoint(el.ownerDocument, at.x, at.y)
  if (!hit || reaches(el, hit)) return null
  // A click on a label reaches its control, and the other way round.
  if ((el as HTMLInputElement).labels && [...((el as HTMLInputElement).labels ?? [])].some((l) => deepContains(l, hit)))
    return null
  return layerOf(hit, el)
}

/** Whether Ava's own button or panel lies over any of the element's visible area. */
function underOwnUi(el: Element): boolean {
  const box = visibleBox(el)
  if (!box) return false
  return [
    ...aimPoints(box).slice(0, 1),
    { x: box.left + 1, y: box.top + 1 },
    { x: box.right - 1, y: box.top + 1 },
    { x: box.left + 1, y: box.bottom - 1 },
    { x: box.right - 1, y: box.bottom - 1 },
  ].some((p) => !!deepElementFromPoint(el.ownerDocument, p.x, p.y)?.closest(`[${kAvaUiAttr}]`))
}

/** `el`'s box in the top window's coordinates (through same-origin frames), for Ava's launcher. */
function boxInTop(el: Element): { x: number; y: number; width: number; height: number } {
  const r = el.getBoundingClientRect()
  let x = r.left
  let y = r.top
  try {
    for (let w: Window | null = viewOf(el); w && w !== w.top && w.frameElement; w = w.parent) {
      const f = w.frameElement.getBoundingClientRect()
      x += f.left
      y += f.top
    }
  } catch {
    // A cross-origin parent: this frame's own content script moves nothing.
  }
  return { x, y, width: r.width, height: r.height }
}

function describeCover(cover: Element): string {
  return shortName(cover)
}

export async function ensureActionable(
  initial: Element,
  checks: Checks,
  opts: {
    deadline: number
    signal?: AbortSignal
    relocate?: () => Element | null
    makeRoom?: (box: { x: number; y: number; width: number; height: number }) => Promise<void>
  },
): Promise<Actionable | ExecFailure> {
  let el = initial
  const started = Date.now()
  let roomMade = false
  for (;;) {
    if (!el.isConnected) {
      const again = opts.relocate?.()
      if (!again)
        return fail('ELEMENT_STALE', `${quoteLabel(el)} left the page before it could be used.`, {
          suggestion: 'Observe the page again.',
        })
      el = again
    }
    let reason: ExecFailure | null = null
    if (checks.visible || checks.hitTest) {
      if (!inViewport(el)) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
    }
    const visible = isVisible(el)
    if (!visible && (checks.visible || checks.hitTest)) {
      if (checks.allowForce && Date.now() - started >= Math.min(kVisibleGraceMs, opts.deadline - started))
        return { ok: true, el, forced: true }
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is on the page but not visible.`, {
        reason: 'not-visible',
        suggestion: 'Open the section, tab or menu that shows it first.',
      })
    } else if (checks.enabled && isDisabled(el)) {
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is disabled.`, {
        reason: 'disabled',
        suggestion: 'Fill in what the form needs first, or wait until the page enables it.',
      })
    } else if (checks.editable && ((el as HTMLInputElement).readOnly || el.getAttribute('aria-readonly') === 'true')) {
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is read-only.`, {
        reason: 'read-only',
        suggestion: 'Use select for dropdowns and pickers.',
      })
    } else if (checks.stable && !(await isStable(el))) {
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} keeps moving (animating).`, { reason: 'not-stable' })
    } else if (visible && opts.makeRoom && !roomMade && underOwnUi(el)) {
      // Ava's own panel over the target: it moves away, visibly, before anything is done.
      roomMade = true
      await opts.makeRoom(boxInTop(el))
      continue
    } else if (checks.hitTest && visible) {
      const aim = clickPoint(el)
      if ('at' in aim) return { ok: true, el, forced: false, at: aim.at }
      if (aim.cover)
        reason = fail(
          'NOT_ACTIONABLE',
          `${quoteLabel(el)} is covered by ${describeCover(aim.cover)}, which would receive the click.`,
          { reason: 'obscured', suggestion: 'Close the dialog, mask or popup on top of it first.' },
        )
      else
        reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is on the page but no part of it is in view.`, {
          reason: 'not-visible',
        })
    }
    if (!reason) return { ok: true, el, forced: false }
    if (Date.now() + kRetryMs > opts.deadline || opts.signal?.aborted) return reason
    // A moving element is looked at again on the next frame (isStable waited one already): a
    // pause here would only add to the animation it waits out.
    if (reason.reason === 'not-stable') continue
    // An abort ends the wait early and the next pass returns its result: the executor reports, never throws.
    await sleep(kRetryMs, opts.signal).catch(() => undefined)
  }
}
