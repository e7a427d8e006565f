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

export function watchVisibility(el: Element, onChange: (visible: boolean) => void): () => void {
  const observer = new IntersectionObserver(
    (entries) => {
      const e = entries.at(-1) as VisibilityEntry | undefined
      // A browser without v2 leaves isVisible undefined: then nothing is known, and nothing is refused.
      if (e) onChange(e.isIntersecting && e.intersectionRatio >= kFullyInView && e.isVisible !== false)
    },
    { threshold: [0, kFullyInView, 1], trackVisibility: true, delay: kVisibilityDelayMs } as IntersectionObserverInit,
  )
  observer.observe(el)
  return () => observer.disconnect()
}
