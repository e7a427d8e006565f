// Which document a run's next step goes to while the tab navigates (src/background/tabs.ts): a
// navigation that has started but not committed holds the step back; one that comes to nothing
// (a 204, a download, an error) lets it go to the document that is still there.
import { describe, expect, it, vi } from 'vitest'

vi.mock('webextension-polyfill', () => ({
  default: { tabs: { get: async () => ({ status: 'complete', url: 'https://shop.test/' }) } },
}))
vi.mock('../../src/background/frames', () => ({ forgetFrameRoutes: async () => undefined }))

const {
  cameToNothing,
  markReady,
  markPending,
  markNavigating,
  savedNotShown,
  settlePending,
  waitForDoc,
  waitForNextDoc,
} = await import('../../src/background/tabs')

/** What the promise has settled to after the pending timers and microtasks have run: undefined while it waits. */
async function peek<T>(p: Promise<T>): Promise<T | Error | undefined> {
  let out: T | Error | undefined
  p.then(
    (v) => (out = v),
    (e: Error) => (out = e),
  )
  await new Promise((r) => setTimeout(r, 5))
  return out
}

describe('waitForDoc while the top frame navigates', () => {
  it('waits for a started navigation to commit and goes to the new document, not the old one', async () => {
    markReady(1, { documentId: 'login', url: 'https://shop.test/login' })
    markPending(1) // the click submitted the form; the server has not answered yet
    const next = waitForDoc(1)
    expect(await peek(next)).toBeUndefined()
    markNavigating(1) // committed
    expect(await peek(next)).toBeUndefined()
    markReady(1, { documentId: 'dash', url: 'https://shop.test/dashboard' })
    expect(await peek(next)).toEqual({ documentId: 'dash', url: 'https://shop.test/dashboard' })
  })

  it('goes back to the document that is there when the navigation comes to nothing', async () => {
    markReady(2, { documentId: 'page', url: 'https://shop.test/report' })
    markPending(2) // a link to a download, say
    const next = waitForDoc(2)
    expect(await peek(next)).toBeUndefined()
    settlePending(2)
    expect(await peek(next)).toEqual({ documentId: 'page', url: 'https://shop.test/report' })
  })

  it('gives a navigation that neither commits nor fails up after the timeout, and uses the document there', async () => {
    markReady(3, { documentId: 'page', url: 'https://shop.test/' })
    markPending(3)
    const next = waitForDoc(3, { timeoutMs: 30 })
    expect(await peek(next)).toBeUndefined()
    await new Promise((r) => setTimeout(r, 40))
    expect(await peek(next)).toEqual({ documentId: 'page', url: 'https://shop.test/' })
  })

  it('stops waiting when the run is cancelled', async () => {
    markReady(4, { documentId: 'page', url: 'https://shop.test/' })
    markPending(4)
    const abort = new AbortController()
    const next = waitForDoc(4, { signal: abort.signal })
    expect(await peek(next)).toBeUndefined()
    abort.abort(new Error('cancelled'))
    expect(await peek(next)).toEqual(new Error('cancelled'))
  })

  it('answers at once when nothing is under way', async () => {
    markReady(5, { documentId: 'page', url: 'https://shop.test/' })
    expect(await peek(waitForDoc(5))).toEqual({ documentId: 'page', url: 'https://shop.test/' })
  })
})

describe('savedNotShown: a top-level response the browser saves, which never commits', () => {
  it('knows a download by its disposition or its type, and a response with no content', () => {
    expect(savedNotShown(200, [{ name: 'Content-Disposition', value: 'attachment; filename="orders.csv"' }])).toBe(true)
    expect(savedNotShown(200, [{ name: 'content-type', value: 'application/octet-stream' }])).toBe(true)
    expect(savedNotShown(204)).toBe(true)
  })
  it('leaves a page, an inline file and a redirect to the commit', () => {
    expect(savedNotShown(200, [{ name: 'content-type', value: 'text/html; charset=utf-8' }])).toBe(false)
    expect(savedNotShown(200, [{ name: 'content-disposition', value: 'inline; filename="a.pdf"' }])).toBe(false)
    expect(savedNotShown(302, [{ name: 'location', value: '/next' }])).toBe(false)
  })
})

describe('waitForNextDoc after a step that took its document with it', () => {
  it('goes on with the page that is there when the link was a download, told before or after the step answered', async () => {
    markReady(11, { documentId: 'orders', url: 'https://shop.test/orders' })
    const since = Date.now()
    cameToNothing(11) // the export's response was saved, before the click's answer came back
    expect(await peek(waitForNextDoc(11, 'orders', since))).toBeUndefined() // resolved: no value, no wait
    expect(await peek(waitForDoc(11))).toEqual({ documentId: 'orders', url: 'https://shop.test/orders' })

    const later = Date.now()
    const next = waitForNextDoc(11, 'orders', later)
    let settled = false
    void next.then(() => (settled = true))
    await peek(next)
    expect(settled).toBe(false)
    cameToNothing(11) // the second export's response came after the step answered
    await peek(next)
    expect(settled).toBe(true)
    expect(await peek(waitForDoc(11))).toEqual({ documentId: 'orders', url: 'https://shop.test/orders' })
  })

  it('waits for the new document when the navigation committed, and a download from before the step does not end the wait', async () => {
    markReady(12, { documentId: 'form', url: 'https://shop.test/form' })
    cameToNothing(12) // an earlier step's download
    await new Promise((r) => setTimeout(r, 2))
    const next = waitForNextDoc(12, 'form', Date.now())
    let settled = false
    void next.then(() => (settled = true))
    await peek(next)
    expect(settled).toBe(false)
    markNavigating(12)
    markReady(12, { documentId: 'thanks', url: 'https://shop.test/thanks' })
    await peek(next)
    expect(settled).toBe(true)
  })
})
