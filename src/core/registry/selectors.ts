import { sleep as coreSleep } from '../sleep'
import { parseSelector, type ParsedSelector } from '../page/selectors'

// Which of a step's candidate selectors matches, and remembering the winner.
// The grammar is core/page/selectors.ts; the engines run in the page (src/dom/locators).

// ---------------------------------------------------------------------------------------------
// Winner cache

/** "最大缓存条目: 1000". */
export const kSelectorCacheSize = 1000

/**
 * LRU of the candidate that last matched, keyed by `namespace:action:step:template`.
 * Cleared on navigation and on reload, because another page may need another candidate.
 */
export class SelectorCache {
  private readonly entries = new Map<string, string>()

  constructor(readonly capacity: number = kSelectorCacheSize) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: string, value: string): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string)
  }

  /** Without a scope everything goes; with one, only keys starting with it (e.g. a namespace). */
  clear(scope?: string): void {
    if (scope === undefined) {
      this.entries.clear()
      return
    }
    for (const key of [...this.entries.keys()]) if (key.startsWith(scope)) this.entries.delete(key)
  }

  get size(): number {
    return this.entries.size
  }
}

/** How long to wait between two looks for an element that is not there yet. */
export const kSelectorPollMs = 100

export interface ResolveSelectorOptions {
  /** Counts the elements a selector matches right now (BrowserPort.query). */
  query: (selector: ParsedSelector, signal: AbortSignal) => Promise<number>
  cache?: SelectorCache
  cacheKey?: string
  signal: AbortSignal
  /** Keep looking until this many ms have passed; 0 looks once. */
  timeoutMs: number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/**
 * Primary, then each fallback, in order, until one matches; the cached winner is tried
 * first. Returns `null` when nothing matched before the time ran out.
 */
export async function resolveCandidates(
  candidates: readonly string[],
  options: ResolveSelectorOptions,
): Promise<{ selector: ParsedSelector; index: number } | null> {
  const parsed = candidates.map(parseSelector)
  const cachedRaw = options.cacheKey ? options.cache?.get(options.cacheKey) : undefined
  const order = parsed.map((_, i) => i)
  const cachedIndex = cachedRaw === undefined ? -1 : candidates.indexOf(cachedRaw)
  if (cachedIndex > 0) order.unshift(...order.splice(cachedIndex, 1))
  const sleep = options.sleep ?? coreSleep
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    for (const i of order) {
      if ((await options.query(parsed[i], options.signal)) > 0) {
        if (options.cacheKey) options.cache?.set(options.cacheKey, candidates[i])
        return { selector: parsed[i], index: i }
      }
    }
    const left = deadline - Date.now()
    if (left <= 0) return null
    await sleep(Math.min(kSelectorPollMs, left), options.signal)
  }
}
