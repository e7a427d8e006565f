// Chrome's quota on tabs.captureVisibleTab (two a second, the third fails): the background's
// captures are spaced to stay under it, one that meets it anyway is taken again, and one that never
// comes back is given up rather than holding the run. The tab is played by a fake captureVisibleTab
// that keeps Chrome's rule and words.
import { beforeEach, expect, it, vi } from 'vitest'

let calls: number[] = []
let hang = false
vi.mock('webextension-polyfill', () => ({
  default: {
    tabs: {
      captureVisibleTab: async () => {
        if (hang) return new Promise<string>(() => undefined)
        const now = Date.now()
        calls.push(now)
        if (calls.filter((t) => now - t < 1_000).length > 2)
          throw new Error('This request exceeds the MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND quota.')
        return 'data:image/png;base64,'
      },
    },
    runtime: { getURL: (p: string) => `chrome-extension://ava/${p}` },
    storage: { local: {}, session: {}, onChanged: { addListener: () => undefined } },
  },
}))

const { captureSpaced } = await import('../../src/background/screenshot')

beforeEach(() => {
  calls = []
  hang = false
})

it('five captures asked at once all come back, none over two a second', async () => {
  const shots = await Promise.all([1, 2, 3, 4, 5].map(() => captureSpaced(1)))
  expect(shots).toHaveLength(5)
  for (const t of calls) expect(calls.filter((u) => u >= t && u - t < 1_000).length).toBeLessThanOrEqual(2)
}, 20_000)

it('a capture met by the quota (another extension took one) is taken again a second later', async () => {
  // Two taken just now, not by Ava's spacing.
  calls = [Date.now(), Date.now()]
  await expect(captureSpaced(1)).resolves.toMatch(/^data:image\/png/)
  expect(calls.length).toBeGreaterThanOrEqual(4)
}, 20_000)

it('a capture that never comes back is given up with a reason', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] })
  try {
    hang = true
    const shot = captureSpaced(1)
    const said = expect(shot).rejects.toThrow(/no picture came/)
    await vi.advanceTimersByTimeAsync(11_000)
    await said
  } finally {
    vi.useRealTimers()
  }
})
