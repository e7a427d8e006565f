import { describe, expect, it } from 'vitest'
import {
  classifySender,
  createMessenger,
  type MessageSenderLike,
  type RuntimeLike,
} from '../../src/messaging/transport'

const id = 'abcdefghijklmnopabcdefghijklmnop'
const ext = `chrome-extension://${id}/`

describe('classifySender', () => {
  it.each<[string, MessageSenderLike, string | null]>([
    ['our content script in a tab', { id, url: 'https://example.com/a', tab: { id: 3 }, frameId: 0 }, 'tab'],
    ['our options page', { id, url: `${ext}src/options/index.html`, tab: { id: 4 } }, 'options'],
    ['our popup', { id, url: `${ext}src/popup/index.html` }, 'popup'],
    ['our panel framed in a tab', { id, url: `${ext}src/panel/index.html`, tab: { id: 3 }, frameId: 7 }, 'panel'],
    ['our panel page opened outside a tab', { id, url: `${ext}src/panel/index.html` }, 'background'],
    ['the service worker', { id, url: `${ext}service-worker-loader.js` }, 'background'],
    ['the service worker without a url', { id }, 'background'],
    ['another extension', { id: 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', url: 'https://example.com', tab: { id: 3 } }, null],
    ['an unknown page of ours inside a tab', { id, url: `${ext}src/other.html`, tab: { id: 3 } }, null],
    ['no id at all', { url: 'https://example.com', tab: { id: 3 } }, null],
  ])('%s', (_name, sender, kind) => {
    expect(classifySender(sender, id)).toBe(kind)
  })
})

/** An in-process stand-in for runtime messaging: enough to exercise the dispatch rules. */
function fakeRuntime() {
  let listener: ((m: unknown, s: MessageSenderLike) => Promise<unknown> | undefined) | null = null
  const runtime: RuntimeLike = {
    id,
    sendMessage: async () => undefined,
    onMessage: { addListener: (cb) => void (listener = cb) },
  }
  return { runtime, deliver: (m: unknown, s: MessageSenderLike) => listener!(m, s) }
}

describe('handle', () => {
  it('runs the handler only for the senders it accepts', async () => {
    const { runtime, deliver } = fakeRuntime()
    const m = createMessenger(runtime)
    const calls: unknown[] = []
    m.handle('options→bg:settings.get', ['options'], (req, ctx) => {
      calls.push(ctx.kind)
      return { settings: {} as never }
    })
    const envelope = { ava: 1, name: 'options→bg:settings.get', req: {} }
    expect(await deliver(envelope, { id, url: `${ext}src/options/index.html` })).toEqual({
      ok: true,
      res: { settings: {} },
    })
    expect(await deliver(envelope, { id, url: 'https://evil.example/', tab: { id: 1 } })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    })
    expect(await deliver(envelope, { id: 'other', url: `${ext}src/options/index.html` })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    })
    expect(calls).toEqual(['options'])
  })

  it('applies the authoriser of a sender kind before any handler', async () => {
    const { runtime, deliver } = fakeRuntime()
    const m = createMessenger(runtime)
    m.authorize('panel', (ctx) => ctx.frameId === 7)
    m.handle('panel→bg:chat.load', ['panel'], () => ({
      messages: [],
      run: null,
      seq: 0,
      origin: 'https://example.com',
    }))
    const envelope = { ava: 1, name: 'panel→bg:chat.load', req: {} }
    const panel = (frameId: number) => ({ id, url: `${ext}src/panel/index.html`, tab: { id: 1 }, frameId })
    expect(await deliver(envelope, panel(7))).toMatchObject({ ok: true })
    expect(await deliver(envelope, panel(8))).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', message: expect.stringContaining('not been authorised') },
    })
  })

  it('returns handler errors as data with their code', async () => {
    const { runtime, deliver } = fakeRuntime()
    const m = createMessenger(runtime)
    m.handle('popup→bg:packs.list', ['popup'], () => {
      throw Object.assign(new Error('registry is reloading'), { code: 'BUSY' })
    })
    expect(
      await deliver({ ava: 1, name: 'popup→bg:packs.list', req: {} }, { id, url: `${ext}src/popup/index.html` }),
    ).toEqual({ ok: false, error: { code: 'BUSY', message: 'registry is reloading' } })
  })

  it('ignores messages that are not ours or have no handler here', () => {
    const { runtime, deliver } = fakeRuntime()
    createMessenger(runtime).handle('popup→bg:packs.list', ['popup'], () => ({ packs: [] }))
    expect(deliver({ hello: 1 }, { id })).toBeUndefined()
    expect(deliver({ ava: 1, name: 'panel→bg:run.stop', req: {} }, { id })).toBeUndefined()
  })

  it('refuses two handlers for one message', () => {
    const m = createMessenger(fakeRuntime().runtime)
    m.handle('popup→bg:packs.list', ['popup'], () => ({ packs: [] }))
    expect(() => m.handle('popup→bg:packs.list', ['popup'], () => ({ packs: [] }))).toThrow(/Two handlers/)
  })
})
