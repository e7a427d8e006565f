// @vitest-environment happy-dom
// Readiness with the network counter: a page renders what a response brought a task
// after the response ends, so the quiet window starts again from each change of the count.
import { expect, test } from 'vitest'
import { waitForReady, type PendingRequestSource } from '../../../src/dom/observe'
import { page } from './helpers'

/** A count the test moves, telling its subscribers as the background does (src/dom/page/receiver.ts). */
function counter(start: number): PendingRequestSource & { set(n: number): void } {
  let n = start
  const subs = new Set<() => void>()
  return {
    pending: () => n,
    subscribe: (fn) => (subs.add(fn), () => void subs.delete(fn)),
    set(v) {
      n = v
      for (const fn of subs) fn()
    },
  }
}

test('the page is read after it rendered what the last requests brought, not in the gap before', async () => {
  const doc = page('<p id="out"></p>')
  const requests = counter(3)
  const ready = waitForReady({ document: doc, quietWindowMs: 300, maxWaitMs: 5_000, requests })
  // The DOM has long been quiet when the requests end; the page renders their answer a task later.
  await new Promise((r) => setTimeout(r, 400))
  requests.set(0)
  setTimeout(() => (doc.getElementById('out')!.textContent = 'Orders loaded'), 0)
  const report = await ready
  expect(report.ready).toBe(true)
  expect(doc.getElementById('out')!.textContent).toBe('Orders loaded')
  expect(report.mutations).toBeGreaterThan(0)
})
