// The transport turns every way a message can be lost into a code and a sentence of ours:
// Chrome's own wording ("A listener indicated an asynchronous response…") never reaches a person.
import { describe, expect, it } from 'vitest'
import {
  ChannelError,
  ProtocolError,
  channelError,
  createMessenger,
  isGoneMidMessage,
  isReceiverGone,
  type MessageSenderLike,
  type RuntimeLike,
  type TabsLike,
} from '../../src/messaging/transport'

const id = 'abcdefghijklmnopabcdefghijklmnop'
const kRaw = /message channel|listener indicated|Extension context|Receiving end|back\/forward|No frame|No tab/i

// Chromium's and the polyfill's sentences, as they arrive in a rejected sendMessage.
const kChrome: [string, string][] = [
  [
    'A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received',
    'GONE_MID_MESSAGE',
  ],
  [
    'The page keeping the extension port is moved into back/forward cache, so the message channel is closed.',
    'GONE_MID_MESSAGE',
  ],
  ['The message port closed before a response was received.', 'NO_RECEIVER'],
  ['Could not establish connection. Receiving end does not exist.', 'NO_RECEIVER'],
  ['No frame with id 7 in tab 3.', 'NO_RECEIVER'],
  ['No document with id 4C1F2E.', 'NO_RECEIVER'],
  ['No tab with id: 12.', 'NO_RECEIVER'],
  ['Extension context invalidated.', 'CONTEXT_GONE'],
  ['Something new the browser says one day', 'CHANNEL'],
]

describe('channelError', () => {
  it.each(kChrome)('types "%s" as %s, with a sentence of ours', (text, code) => {
    const e = channelError(new Error(text))
    expect(e).toBeInstanceOf(ChannelError)
    expect(e.code).toBe(code)
    expect(e.message).not.toMatch(kRaw)
    expect(e.message).not.toBe(text)
    expect((e as ChannelError).detail).toBe(text)
  })

  it('tells a receiver that went away from one that was never there', () => {
    const mid = channelError(new Error(kChrome[0][0]))
    const none = channelError(new Error(kChrome[3][0]))
    expect(none.code).toBe('NO_RECEIVER')
    expect([isReceiverGone(mid), isGoneMidMessage(mid)]).toEqual([true, true])
    expect([isReceiverGone(none), isGoneMidMessage(none)]).toEqual([true, false])
    expect(isReceiverGone(channelError(new Error('Extension context invalidated.')))).toBe(false)
    // Decided by code, never by reading text: an untyped error with the words is not "gone".
    expect(isReceiverGone(new Error(kChrome[0][0]))).toBe(false)
  })

  it('passes an error that already has a code', () => {
    const e = new ProtocolError('FORBIDDEN', 'not from here')
    expect(channelError(e)).toBe(e)
  })
})

describe('a messenger whose messages are lost', () => {
  const failing = (text: string, sync = false) => {
    const fail = () => {
      if (sync) throw new Error(text)
      return Promise.reject(new Error(text))
    }
    const runtime: RuntimeLike = { id, sendMessage: fail, onMessage: { addListener: () => undefined } }
    const tabs: TabsLike = { sendMessage: fail }
    return createMessenger(runtime, tabs)
  }

  it.each(kChrome)('rejects "%s" from either send as a typed error', async (text, code) => {
    const m = failing(text)
    await expect(m.sendToTab(1, 'bg→content:command', { kind: 'url' })).rejects.toMatchObject({
      code,
      message: expect.not.stringMatching(kRaw),
    })
    await expect(m.send('panel→bg:run.stop', {})).rejects.toMatchObject({
      code,
      message: expect.not.stringMatching(kRaw),
    })
  })

  it('types an error thrown at the call itself (a context cut off from the extension)', async () => {
    await expect(failing('Extension context invalidated.', true).send('panel→bg:run.stop', {})).rejects.toMatchObject({
      code: 'CONTEXT_GONE',
    })
  })

  it('types a receiver that never answered (the polyfill resolves undefined)', async () => {
    const runtime: RuntimeLike = { id, sendMessage: async () => undefined, onMessage: { addListener: () => undefined } }
    await expect(
      createMessenger(runtime, { sendMessage: async () => undefined }).sendToTab(1, 'bg→content:command', {
        kind: 'url',
      }),
    ).rejects.toMatchObject({ code: 'NO_RECEIVER' })
  })
})

describe('a handler that lets a browser messaging error through', () => {
  it('answers with the code and our sentence, not Chrome’s', async () => {
    let listener: ((m: unknown, s: MessageSenderLike) => Promise<unknown> | undefined) | null = null
    const runtime: RuntimeLike = {
      id,
      sendMessage: async () => undefined,
      onMessage: { addListener: (cb) => void (listener = cb) },
    }
    createMessenger(runtime).handle('popup→bg:packs.list', ['popup'], () => {
      throw new Error(kChrome[0][0])
    })
    const reply = (await listener!(
      { ava: 1, name: 'popup→bg:packs.list', req: {} },
      { id, url: `chrome-extension://${id}/src/popup/index.html` },
    )) as { ok: false; error: { code: string; message: string } }
    expect(reply.error.code).toBe('GONE_MID_MESSAGE')
    expect(reply.error.message).not.toMatch(kRaw)
  })
})
