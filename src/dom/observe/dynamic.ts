/**
 * Lazy-loaded and infinitely scrolling content: scroll, wait, observe again, and
 * collect what appeared, until a stop condition, the end of the page, or the scroll limit.
 */
import { sleep } from '../../core/sleep'
import { abortError } from './errors'
import type { ElementRecord } from '../../core/page/snapshot'
import { observe, type ObserveOptions } from './observe'

/** Default number of scroll steps (maxScrolls). */
export const kMaxScrolls = 10
/** Default wait after each scroll for new content to arrive (scrollDelay). */
export const kScrollDelayMs = 400
/** Each step scrolls this share of the viewport, so consecutive views overlap a little. */
const kScrollShare = 0.9

export interface ScrollCollectOptions {
  maxScrolls?: number
  delayMs?: number
  /** Stop as soon as this returns true for the elements collected so far. */
  stopWhen?: (elements: ElementRecord[]) => boolean
  signal?: AbortSignal
  /** The scrolling box; default the document's scrolling element. */
  scroller?: Element
  observe?: Omit<ObserveOptions, 'request' | 'budgetTokens'>
}

export interface ScrollCollectResult {
  elements: ElementRecord[]
  scrolls: number
  reason: 'stopped' | 'end' | 'max'
}

export async function scrollAndCollect(options: ScrollCollectOptions = {}): Promise<ScrollCollectResult> {
  const maxScrolls = options.maxScrolls ?? kMaxScrolls
  const delay = options.delayMs ?? kScrollDelayMs
  const doc =
    (options.observe?.root &&
      (options.observe.root.nodeType === 9
        ? (options.observe.root as Document)
        : (options.observe.root as Element).ownerDocument)) ||
    document
  const scroller = options.scroller ?? doc.scrollingElement ?? doc.documentElement
  const collected = new Map<string, ElementRecord>()
  const collect = () => {
    // Stable ids make this a union: an element seen twice is one entry, its latest state wins.
    for (const e of observe({ ...options.observe, includeContent: false }).elements) collected.set(e.id, e)
  }
  const list = () => [...collected.values()]
  collect()
  let scrolls = 0
  while (true) {
    if (options.signal?.aborted) throw abortError(options.signal)
    if (options.stopWhen?.(list())) return { elements: list(), scrolls, reason: 'stopped' }
    if (scrolls >= maxScrolls) return { elements: list(), scrolls, reason: 'max' }
    const before = scroller.scrollTop
    const height =
      scroller === doc.scrollingElement
        ? (doc.defaultView?.innerHeight ?? scroller.clientHeight)
        : scroller.clientHeight
    scroller.scrollTop = before + Math.max(1, Math.round(height * kScrollShare))
    scrolls++
    await sleep(delay, options.signal).catch(() => {
      throw abortError(options.signal!)
    })
    const moved = scroller.scrollTop !== before
    const count = collected.size
    collect()
    if (!moved && collected.size === count) return { elements: list(), scrolls, reason: 'end' }
  }
}
