// The page channel's one sender (src/background/page.ts): a command goes to the tab's current
// document; a step that navigates may take its document with it and still have done its job; any
// other command that lost its document goes to the next one; a link that opens a tab moves the
// work there. The tab's documents are played by a fake messenger.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { PageCommand } from '../../src/core/page/command'

// The fake tab fails in Chrome's words; the real transport's classifier types them, as in the extension.
const { ProtocolError, channelError, isGoneMidMessage, isReceiverGone } = await import('../../src/messaging/transport')

type Doc = (command: PageCommand) => Promise<unknown>
/** The documents of the fake tab, by documentId, and what each received. */
let docs: Record<string, Doc> = {}
let received: { documentId?: string; command: PageCommand }[] = []
const created: { url: string; openerTabId: number }[] = []

vi.mock('webextension-polyfill', () => ({
  default: {
    tabs: {
      get: async (id: number) => ({ id, status: 'complete', url: 'https://shop.test/', title: 'Shop' }),
      create: async (p: { url: string; openerTabId: number }) => {
        created.push(p)
        return { id: 99 }
      },
    },
  },
}))
vi.mock('../../src/messaging', () => ({
  ProtocolError,
  isGoneMidMessage,
  isReceiverGone,
  async sendToTab(_tabId: number, name: string, command: PageCommand, target: { documentId?: string }) {
    if (name !== 'bg→content:command') throw new Error(`unexpected message ${name}`)
    received.push({ documentId: target.documentId, command })
    const doc = target.documentId ? docs[target.documentId] : undefined
    if (!doc) throw channelError(new Error('Could not establish connection. Receiving end does not exist.'))
    return doc(command).catch((e: unknown) => Promise.reject(channelError(e)))
  },
}))
// Where a failed check looks next (frame-check.ts) is covered in e2e/agent/check-frames.test.ts.
vi.mock('../../src/background/frame-check', () => ({
  noteActedFrame: async () => undefined,
  verifyInFrames: async () => null,
}))
vi.mock('../../src/background/frames', () => ({
  frameTarget: async () => null,
  outcomeFromFrame: (o: unknown) => o,
  withFrames: async (_t: number, info: { url: string; title: string; listing: string }) => info,
  forgetFrameRoutes: async () => undefined,
}))

const { sendCommand, execInPage, pageContext } = await import('../../src/background/page')
const { markReady } = await import('../../src/background/tabs')

// Budgets, not waits: a step sent again to the next document succeeds as soon as that document is
// there; the test that gives up moves the clock past the budget instead of waiting it out.
const click: PageCommand<'act'> = {
  kind: 'act',
  step: { action: 'click', target: { targetId: 'btn_login' } },
  timeoutMs: 10_000,
}
const fill: PageCommand<'act'> = {
  kind: 'act',
  step: { action: 'fill', target: { targetId: 'input_user' }, value: 'alice' },
  timeoutMs: 10_000,
}
const goneMidMessage = () =>
  Promise.reject(
    new Error(
      'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received',
    ),
  )

beforeEach(() => {
  docs = {}
  received = []
  created.length = 0
})

describe('sendCommand', () => {
  it('counts a click whose document went away under it as done, and waits for the next document', async () => {
    docs.login = goneMidMessage
    markReady(1, { documentId: 'login', url: 'https://shop.test/login' })
    const sent = sendCommand(1, click)
    setTimeout(() => markReady(1, { documentId: 'dash', url: 'https://shop.test/dashboard' }), 20)
    expect(await sent).toMatchObject({ ok: true, navigating: true, wentAway: 'page', tabId: 1 })
    // The next command goes to the new document, never to the one that left.
    docs.dash = async () => ({ ok: true, url: 'https://shop.test/dashboard' })
    expect(await sendCommand(1, { kind: 'url' })).toMatchObject({ ok: true, url: 'https://shop.test/dashboard' })
    expect(received.map((r) => r.documentId)).toEqual(['login', 'dash'])
  })

  it('never counts a click nobody took as done: it goes to the next document', async () => {
    // The previous step's navigation took 'leaving' away before this click reached it.
    markReady(7, { documentId: 'leaving', url: 'https://shop.test/login' })
    const sent = sendCommand(7, click)
    setTimeout(() => {
      docs.next = async () => ({ ok: true, detail: 'Clicked "Details"' })
      markReady(7, { documentId: 'next', url: 'https://shop.test/dashboard' })
    }, 20)
    expect(await sent).toMatchObject({ ok: true, detail: 'Clicked "Details"', tabId: 7 })
    expect(received.map((r) => r.documentId)).toEqual(['leaving', 'next'])
  })

  it('sends a step that cannot navigate again to the next document when its own went away', async () => {
    markReady(2, { documentId: 'old', url: 'https://shop.test/a' }) // no receiver: it is unloading
    const sent = sendCommand(2, fill)
    setTimeout(() => {
      docs.fresh = async () => ({ ok: true, detail: 'Typed "alice"' })
      markReady(2, { documentId: 'fresh', url: 'https://shop.test/b' })
    }, 20)
    expect(await sent).toMatchObject({ ok: true, detail: 'Typed "alice"', tabId: 2 })
    expect(received.map((r) => r.documentId)).toEqual(['old', 'fresh'])
  })

  it('gives up with ELEMENT_STALE, as data, when no document takes the step in its time', async () => {
    markReady(3, { documentId: 'gone-1', url: 'https://shop.test/' })
    const sent = sendCommand(3, fill)
    const now = Date.now()
    setTimeout(() => {
      vi.spyOn(Date, 'now').mockReturnValue(now + 60_000) // past the step's time and the grace
      markReady(3, { documentId: 'gone-2', url: 'https://shop.test/' })
    }, 20)
    expect(await sent).toMatchObject({ ok: false, code: 'ELEMENT_STALE', tabId: 3 })
    vi.restoreAllMocks()
    expect(received.map((r) => r.documentId)).toEqual(['gone-1', 'gone-2'])
  })

  it('reports a page that does not answer as a TIMEOUT failure, not a throw', async () => {
    docs.slow = () => Promise.reject(new ProtocolError('TIMEOUT', 'The page did not answer in 30 s.'))
    markReady(4, { documentId: 'slow', url: 'https://shop.test/' })
    expect(await sendCommand(4, fill)).toEqual({
      ok: false,
      code: 'TIMEOUT',
      message: 'The page did not answer in 30 s.',
      tabId: 4,
    })
  })

  it('opens a link meant for a new tab there and moves the work into it', async () => {
    docs.list = async () => ({
      ok: true,
      detail: 'Opened https://docs.test/ in a new tab',
      openTab: 'https://docs.test/',
    })
    markReady(5, { documentId: 'list', url: 'https://shop.test/' })
    const moved: number[] = []
    const sent = sendCommand(5, click, { onTabChange: (t) => moved.push(t) })
    setTimeout(() => markReady(99, { documentId: 'docs', url: 'https://docs.test/' }), 20)
    const out = await sent
    expect(created).toEqual([{ url: 'https://docs.test/', openerTabId: 5, active: true }])
    expect(moved).toEqual([99])
    expect(out).toMatchObject({ ok: true, tabId: 99 })
  })
})

describe('execInPage and pageContext', () => {
  it('names a step that navigated for the person', async () => {
    docs.form = goneMidMessage
    markReady(6, { documentId: 'form', url: 'https://shop.test/login' })
    const ran = execInPage(
      6,
      { step_id: 1, action_type: 'click', params: { target_id: 'btn_login' }, description: 'Log in' },
      { signal: new AbortController().signal, confirm: [], confirmed: false },
    )
    setTimeout(() => markReady(6, { documentId: 'home', url: 'https://shop.test/' }), 20)
    expect(await ran).toMatchObject({ ok: true, detail: 'Log in — the page navigated', tabId: 6 })
    expect(received[0].command).toEqual({
      kind: 'act',
      step: { action: 'click', target: { targetId: 'btn_login', selectors: undefined, semantic: undefined } },
      timeoutMs: 10_000,
      confirm: [],
      confirmed: false,
      describe: true,
    })
  })

  it('reads the page, telling a settling page the tab’s requests instead of being polled', async () => {
    docs.page = async (c) =>
      c.kind === 'read'
        ? { ok: true, info: { url: 'https://shop.test/', title: 'Shop', listing: '[btn_1] Buy' } }
        : { ok: true }
    markReady(7, { documentId: 'page', url: 'https://shop.test/' })
    expect(await pageContext(7, 'buy', undefined, true)).toEqual({
      url: 'https://shop.test/',
      title: 'Shop',
      listing: '[btn_1] Buy',
    })
    expect(received.map((r) => r.command)).toEqual([{ kind: 'read', request: 'buy', settle: true, pending: 0 }])
  })

  it('asks for more of the page’s content blocks when a tab is read for what it says', async () => {
    docs.page = async (c) =>
      c.kind === 'read'
        ? { ok: true, info: { url: 'https://shop.test/', title: 'Shop', listing: 'p: €3' } }
        : { ok: true }
    markReady(8, { documentId: 'offer', url: 'https://shop.test/' })
    await pageContext(8, 'which is cheapest', undefined, true, 30)
    expect(received.map((r) => r.command)).toEqual([
      { kind: 'read', request: 'which is cheapest', settle: true, pending: 0, sections: 30 },
    ])
  })
})
