/**
 * Actionability (issue 5, after Playwright's checks): attached, scrolled into view, visible,
 * enabled, stable (not animating) and hit-testable. Each failure is reported with its reason;
 * an element attached but never visible gets the forced DOM operation of seed 001 §2.3.
 */
import type { ExecFailure } from '../../core/exec'
import { sleep } from '../../core/sleep'
import { deepContains, deepElementFromPoint, isDisabled } from '../locators'
import { centerOf } from './events'
import { isVisible, quoteLabel, shortName, viewOf } from './dom'
import { fail } from './ladder'
import { nextFrame } from './wait'

/**
 * An element still invisible after this long is operated through the DOM (seed 001 §2.3). Long
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

export type Actionable = { ok: true; el: Element; forced: boolean }

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
  return Math.abs(a.x - b.x) < kStillPx && Math.abs(a.y - b.y) < kStillPx && Math.abs(a.width - b.width) < kStillPx && Math.abs(a.height - b.height) < kStillPx
}

async function isStable(el: Element): Promise<boolean> {
  const a = el.getBoundingClientRect()
  await nextFrame(viewOf(el))
  return sameBox(a, el.getBoundingClientRect())
}

/** What covers the element's centre, named by the blocking layer when there is one. */
export function coveringElement(el: Element): Element | null {
  const at = centerOf(el)
  const hit = deepElementFromPoint(el.ownerDocument, at.x, at.y)
  if (!hit || deepContains(el, hit)) return null
  // A click on a label reaches its control, and the other way round.
  if ((el as HTMLInputElement).labels && [...((el as HTMLInputElement).labels ?? [])].some((l) => deepContains(l, hit))) return null
  if (hit.localName === 'label' && (hit as HTMLLabelElement).control === el) return null
  let layer: Element | null = null
  for (let n: Element | null = hit; n && n !== el.ownerDocument.body; n = n.parentElement) {
    if (typeof n.className === 'string' && kOverlayClass.test(n.className)) layer = n
  }
  return layer ?? hit
}

function describeCover(cover: Element): string {
  return shortName(cover)
}

export async function ensureActionable(
  initial: Element,
  checks: Checks,
  opts: { deadline: number; signal?: AbortSignal; relocate?: () => Element | null },
): Promise<Actionable | ExecFailure> {
  let el = initial
  const started = Date.now()
  for (;;) {
    if (!el.isConnected) {
      const again = opts.relocate?.()
      if (!again) return fail('ELEMENT_STALE', `${quoteLabel(el)} left the page before it could be used.`, { suggestion: 'Observe the page again.' })
      el = again
    }
    let reason: ExecFailure | null = null
    if (checks.visible || checks.hitTest) {
      if (!inViewport(el)) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
    }
    const visible = isVisible(el)
    if (!visible && (checks.visible || checks.hitTest)) {
      if (checks.allowForce && Date.now() - started >= Math.min(kVisibleGraceMs, opts.deadline - started)) return { ok: true, el, forced: true }
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is on the page but not visible.`, { reason: 'not-visible', suggestion: 'Open the section, tab or menu that shows it first.' })
    } else if (checks.enabled && isDisabled(el)) {
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is disabled.`, { reason: 'disabled', suggestion: 'Fill in what the form needs first, or wait until the page enables it.' })
    } else if (checks.editable && ((el as HTMLInputElement).readOnly || el.getAttribute('aria-readonly') === 'true')) {
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is read-only.`, { reason: 'read-only', suggestion: 'Use select for dropdowns and pickers.' })
    } else if (checks.stable && !(await isStable(el))) {
      reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} keeps moving (animating).`, { reason: 'not-stable' })
    } else if (checks.hitTest && visible) {
      const cover = coveringElement(el)
      if (cover) reason = fail('NOT_ACTIONABLE', `${quoteLabel(el)} is covered by ${describeCover(cover)}, which would receive the click.`, { reason: 'obscured', suggestion: 'Close the dialog, mask or popup on top of it first.' })
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
