// @vitest-environment happy-dom
// Readiness with short windows, and merging a frame's snapshot.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { mergeFrameSnapshot } from '../../../src/core/page/frames'
import type { PageSnapshot } from '../../../src/core/page/snapshot'
import { clearAgentIds, observe, waitForReady, type PendingRequestSource } from '../../../src/dom/observe'
import { page } from './helpers'

const requests = (n: () => number): PendingRequestSource => ({ pending: n })

describe('waitForReady', () => {
  let timers: ReturnType<typeof setInterval>[] = []
  afterEach(() => {
    for (const t of timers) clearInterval(t)
    timers = []
  })

  test('a silent page is ready after the quiet window', async () => {
    const doc = page('<p>still</p>')
    const r = await waitForReady({ document: doc, quietWindowMs: 30, maxWaitMs: 2000 })
    expect(r).toMatchObject({ ready: true, reason: 'quiet', mutations: 0, pendingRequests: 0 })
  })

  test('a page that never stops mutating ends at the cap, not ready', async () => {
    const doc = page('<p id="clock">0</p>')
    let n = 0
    timers.push(setInterval(() => (doc.getElementById('clock')!.textContent = String(++n)), 10))
    const r = await waitForReady({ document: doc, quietWindowMs: 100, maxWaitMs: 300 })
    expect(r.ready).toBe(false)
    expect(r.reason).toBe('timeout')
    expect(r.mutations).toBeGreaterThan(0)
  })

  test('up to two pending requests (a long poll) do not block; three do', async () => {
    const doc = page('<p>x</p>')
    await expect(
      waitForReady({ document: doc, quietWindowMs: 20, maxWaitMs: 1000, requests: requests(() => 2) }),
    ).resolves.toMatchObject({ ready: true, pendingRequests: 2 })
    await expect(
      waitForReady({ document: doc, quietWindowMs: 20, maxWaitMs: 200, requests: requests(() => 3) }),
    ).resolves.toMatchObject({ ready: false, pendingRequests: 3 })
  })

  test('our own id attributes are not page activity', async () => {
    const doc = page('<button>Go</button>')
    const wait = waitForReady({ document: doc, quietWindowMs: 50, maxWaitMs: 2000 })
    clearAgentIds()
    observe({ root: doc })
    await expect(wait).resolves.toMatchObject({ ready: true, mutations: 0 })
  })

  test('open dialogs are reported', async () => {
    const doc = page('<div role="dialog" aria-modal="true" aria-label="Cookies"><button>Accept</button></div>')
    const r = await waitForReady({ document: doc, quietWindowMs: 10, maxWaitMs: 1000 })
    expect(r.modals).toEqual([{ kind: 'dialog', label: 'Cookies', modal: true }])
  })

  test('an abort rejects with CANCELLED', async () => {
    const doc = page('<p>x</p>')
    const ctl = new AbortController()
    const wait = waitForReady({ document: doc, quietWindowMs: 1000, maxWaitMs: 5000, signal: ctl.signal })
    ctl.abort(new Error('run cancelled'))
    await expect(wait).rejects.toMatchObject({ code: 'CANCELLED' })
  })
})

describe('mergeFrameSnapshot', () => {
  beforeEach(() => clearAgentIds())

  const withFrame = (): PageSnapshot => {
    const s = observe({ root: page('<button>Top</button>'), includeContent: false })
    return {
      ...s,
      frames: [
        {
          id: 'frame_pay',
          url: 'https://pay.test/',
          bounds: { x: 100, y: 200, width: 300, height: 150 },
          isVisible: true,
          status: 'cross_origin_restricted',
        },
      ],
    }
  }

  test("the child's elements come in under the frame prefix, moved into the parent's coordinates", () => {
    const parent = withFrame()
    const child = observe({
      root: page('<form><input aria-label="Card"><button>Pay</button></form>'),
      includeContent: false,
    })
    child.elements[0].bounds = { x: 5, y: 6, width: 10, height: 10 }
    const merged = mergeFrameSnapshot(parent, 'frame_pay', child)
    expect(merged.elements.map((e) => e.id)).toEqual(['btn_top', 'frame_pay_input_card', 'frame_pay_btn_pay'])
    expect(merged.elements[1]).toMatchObject({
      frame: 'frame_pay',
      region: 'frame_pay_form',
      bounds: { x: 105, y: 206, width: 10, height: 10 },
    })
    expect(merged.frames[0].status).toBe('merged')
    expect(merged.stats.interactive).toBe(3)
    expect(parent.elements).toHaveLength(1)
  })

  test('an unknown frame id is refused with the list of frames', () => {
    expect(() => mergeFrameSnapshot(withFrame(), 'frame_nope', withFrame())).toThrow(/no frame "frame_nope".*frame_pay/)
  })
})
