/**
 * A queue one producer fills while one consumer drains it with `for await`: the instruction
 * stream pushes steps as they arrive, the executor takes them one at a time.
 */
export interface AsyncQueue<T> extends AsyncIterable<T> {
  push(item: T): void
  /** No more items will come; the consumer finishes once the queue is empty. */
  close(): void
}

export function createAsyncQueue<T>(): AsyncQueue<T> {
  const items: T[] = []
  let closed = false
  let wake: (() => void) | undefined

  return {
    push(item) {
      if (closed) throw new Error('push after close')
      items.push(item)
      wake?.()
    },
    close() {
      closed = true
      wake?.()
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (items.length) {
          yield items.shift()!
          continue
        }
        if (closed) return
        await new Promise<void>((r) => (wake = r))
        wake = undefined
      }
    },
  }
}
