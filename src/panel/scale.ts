/**
 * Whether the page draws this frame at another scale than the person's own zoom (docs/security.md,
 * "The panel frame"). A CSS `zoom` on the page's root shrinks the panel to a dot or blows it up,
 * yet Intersection Observer v2 still calls it visible: zoom is no opacity, filter or transform.
 * It shows in this frame's devicePixelRatio, which is the page's (the person's zoom and screen)
 * times every CSS zoom above the frame; the boot script tells us the page's through the
 * background, and a difference means the page is scaling Ava.
 */
import { kSteadyMs } from './visibility'

const kTolerance = 0.02 // rounding of ratios such as 1.1 × 0.9; a page's zoom that small changes nothing readable

export interface Scale {
  /** The page's devicePixelRatio arrived (or changed). */
  setPageDpr(dpr: number): void
  /** Whether the frame was drawn at the person's own scale without a break from `ms` before `at` until now. */
  steadyAt(at: number): boolean
  stop(): void
}

/** Watches this frame's devicePixelRatio against the page's; `onChange(true)` while the page scales the frame. */
export function watchScale(onChange: (scaled: boolean) => void): Scale {
  let pageDpr: number | null = null
  let scaled = false
  let lastScaled = -Infinity
  let query: MediaQueryList | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const check = () => {
    const now = pageDpr !== null && Math.abs(devicePixelRatio / pageDpr - 1) > kTolerance
    if (now || scaled) lastScaled = performance.now() // the moment it ended counts too
    if (now === scaled) return
    scaled = now
    clearTimeout(timer)
    // As for visibility: said to be over only once the frame has been at the person's scale for kSteadyMs.
    if (now) onChange(true)
    else timer = setTimeout(() => onChange(false), kSteadyMs)
  }
  const listen = () => {
    query?.removeEventListener('change', onDpr)
    query = matchMedia(`(resolution: ${devicePixelRatio}dppx)`)
    query.addEventListener('change', onDpr)
  }
  function onDpr() {
    check()
    listen()
  }
  listen()
  return {
    setPageDpr(dpr) {
      pageDpr = dpr
      check()
    },
    steadyAt: (at) => !scaled && lastScaled < at - kSteadyMs,
    stop: () => {
      clearTimeout(timer)
      query?.removeEventListener('change', onDpr)
    },
  }
}
