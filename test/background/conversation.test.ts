// The conversation writer (src/background/conversation.ts, issue 19): streamed text reaches
// storage and the panel in batches, not once per token, and never after a write issued later.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { History } from '../../src/storage/conversation'

const stored = new Map<string, History>()
const writes: History[] = []
const events: unknown[] = []

vi.mock('webextension-polyfill', () => ({ default: { storage: { onChanged: { addListener: () => undefined } }, tabs: { get: async () => ({}) } } }))
vi.mock('../../src/background/tabs', () => ({ currentDoc: () => undefined }))
vi.mock('../../src/background/panels', () => ({ emitToPanels: (_tab: number, e: unknown) => void events.push(e) }))
vi.mock('../../src/storage/conversation', () => ({
  DEFAULT_HISTORY: () => ({ messages: [], seq: 0 }),
  kMaxHistoryMessages: 2_000,
  runStore: () => ({ get: async () => null }),
  historyStore: (origin: string) => ({
    get: async () => structuredClone(stored.get(origin) ?? { messages: [], seq: 0 }),
    set: async (h: History) => {
      writes.push(structuredClone(h))
      stored.set(origin, structuredClone(h))
    },
  }),
}))

const { chatWriter } = await import('../../src/background/conversation')

let origin = 0
beforeEach(() => {
  writes.length = 0
  events.length = 0
  vi.useFakeTimers()
})

async function writerWithMessage() {
  const chat = chatWriter(`https://site${++origin}.example`, () => 1)
  const m = await chat.add({ role: 'assistant', text: '', steps: [] })
  writes.length = 0
  events.length = 0
  return { chat, id: m.id }
}

describe('streamed text', () => {
  it('is written once per batch, not once per token', async () => {
    const { chat, id } = await writerWithMessage()
    const tokens = Array.from({ length: 50 }, (_, i) => `t${i} `)
    const written = tokens.map((t) => chat.text(id, t))
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toEqual([])
    await vi.advanceTimersByTimeAsync(100)
    await Promise.all(written)
    expect(writes).toHaveLength(1)
    expect(writes[0].messages[0].text).toBe(tokens.join(''))
    expect(events).toEqual([{ type: 'text', messageId: id, delta: tokens.join('') }])
  })

  it('goes out before any later write, in order', async () => {
    const { chat, id } = await writerWithMessage()
    void chat.text(id, 'Signing ')
    void chat.text(id, 'in.')
    const step = { index: 0, status: 'pending' as const, instruction: { step_id: 1, action_type: 'click' as const, params: { semantic_locator: 'Log in' } } }
    await chat.step(id, step)
    expect(events.map((e) => (e as { type: string }).type)).toEqual(['text', 'step'])
    expect(writes.at(-1)!.messages[0]).toMatchObject({ text: 'Signing in.', steps: [step] })
  })

  it('is written by flush at the end of a run', async () => {
    const { chat, id } = await writerWithMessage()
    void chat.text(id, 'The answer.')
    await chat.flush()
    expect(writes.map((h) => h.messages[0].text)).toEqual(['The answer.'])
  })
})
