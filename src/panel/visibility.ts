/**
 * Whether the person can see all of `el` as drawn: Intersection Observer v2 (`trackVisibility`)
 * reports `isVisible` false when any ancestor, in this frame or the page that frames us, has
 * opacity below 1, a filter or a transform other than a 2D translation or proportional scale, or
 * when other content covers it — what a clickjacking page does. Browsers gate permission prompts
 * the same way. Off screen in part counts as not visible too: the person sees only part of what
 * they click.
 */
const kVisibilityDelayMs = 100 // the smallest delay trackVisibility accepts; reports come at most this often
const kFullyInView = 0.99 // sub-pixel layout keeps a fully shown frame a hair under 1

interface VisibilityEntry extends IntersectionObserverEntry {
  readonly isVisible?: boolean
}

/**
 * As browsers gate permission prompts: a click counts only once the frame has been visible without
 * a break for this long, so a panel revealed (or a decoy lifted) just before the click is refused.
 */
export const kSteadyMs = 500
/**
 * A click is acted on only after this long, and dropped if a not-visible report about any time from
 * kSteadyMs before it until then arrives: reports lag by up to one delay, so a decoy drawn in the
 * same task as the click shows up in a report within two.
 */
export const kSettleMs = 2 * kVisibilityDelayMs

export interface Visibility {
  /** Stops watching. */
  stop(): void
  /** Whether the frame was visible without a break from kSteadyMs before `at` until now. */
  steadyAt(at: number): boolean
}

/**
 * Watches `el`; `onChange(true)` only once it has been visible for kSteadyMs without a break,
 * `onChange(false)` as soon as it is not. Times are the frame's `performance.now()` clock, which
 * events' `timeStamp` and observer entries' `time` share.
 */
export function watchVisibility(el: Element, onChange: (steady: boolean) => void): Visibility {
  let visibleSince: number | null = null
  let lastHidden = -Infinity
  let timer: ReturnType<typeof setTimeout> | undefined
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const e = entry as VisibilityEntry
        // A browser without v2 leaves isVisible undefined: then nothing is known, and nothing is refused.
        const visible = e.isIntersecting && e.intersectionRatio >= kFullyInView && e.isVisible !== false
        if (!visible) {
          lastHidden = Math.max(lastHidden, e.time)
          visibleSince = null
        } else visibleSince ??= e.time
      }
      clearTimeout(timer)
      if (visibleSince === null) return onChange(false)
      const wait = visibleSince + kSteadyMs - performance.now()
      if (wait <= 0) onChange(true)
      else {
        onChange(false)
        timer = setTimeout(() => onChange(true), wait)
      }
    },
    { threshold: [0, kFullyInView, 1], trackVisibility: true, delay: kVisibilityDelayMs } as IntersectionObserverInit,
  )
  observer.observe(el)
  return {
    stop: () => {
      clearTimeout(timer)
      observer.disconnect()
    },
    steadyAt: (at) => visibleSince !== null && visibleSince <= at - kSteadyMs && lastHidden < at - kSteadyMs,
  }
}
