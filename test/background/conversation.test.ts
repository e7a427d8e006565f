// The conversation writer (src/background/conversation.ts): streamed text
// reaches the panel in batches, not once per token, and storage at most once a second, never
// after a write issued later; an answer is capped with a note.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { History } from '../../src/storage/conversation'

const stored = new Map<string, History>()
const writes: History[] = []
const events: unknown[] = []

vi.mock('webextension-polyfill', () => ({
  default: { storage: { onChanged: { addListener: () => undefined } }, tabs: { get: async () => ({}) } },
}))
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

const removedRecords: string[] = []
vi.mock('../../src/storage/records', () => ({
  recordsStore: (origin: string) => ({ remove: async () => void removedRecords.push(origin) }),
}))

const { chatWriter, clearHistory, readHistory } = await import('../../src/background/conversation')

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
  it('reaches the panel once per batch and storage once a second, not once per token', async () => {
    const { chat, id } = await writerWithMessage()
    const tokens = Array.from({ length: 50 }, (_, i) => `t${i} `)
    const sent = tokens.map((t) => chat.text(id, t))
    await vi.advanceTimersByTimeAsync(0)
    expect(events).toEqual([])
    await vi.advanceTimersByTimeAsync(100)
    await Promise.all(sent)
    expect(events).toEqual([{ type: 'text', messageId: id, delta: tokens.join('') }])
    expect(writes).toEqual([])
    for (let i = 0; i < 9; i++) {
      void chat.text(id, `${i}`)
      await vi.advanceTimersByTimeAsync(100)
    }
    expect(events).toHaveLength(10)
    expect(writes).toEqual([]) // 900 ms after the first text reached the panel
    await vi.advanceTimersByTimeAsync(100)
    expect(writes).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(writes.at(-1)!.messages[0].text).toBe(tokens.join('') + '012345678')
  })

  it('keeps flowing while the stream never lets a timer fire', async () => {
    const { chat, id } = await writerWithMessage()
    // Deltas read in one long run of microtasks: the clock moves, no timer runs.
    for (let i = 0; i < 30; i++) {
      vi.setSystemTime(Date.now() + 10)
      void chat.text(id, `${i} `)
    }
    await Promise.resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(events.length).toBeGreaterThanOrEqual(2)
  })

  it('is in the history a panel loads before it reaches storage', async () => {
    const site = `https://site${++origin}.example`
    const chat = chatWriter(site, () => 1)
    const m = await chat.add({ role: 'assistant', text: '', steps: [] })
    void chat.text(m.id, 'Half an answer')
    await vi.advanceTimersByTimeAsync(100)
    expect(stored.get(site)!.messages[0].text).toBe('')
    const h = await readHistory(site)
    expect(h.messages[0].text).toBe('Half an answer')
    expect(h.seq).toBeGreaterThan(stored.get(site)!.seq)
  })

  it('is cut at the cap, with a note once', async () => {
    const { kMaxAnswerChars } = await import('../../src/core/chat')
    const { chat, id } = await writerWithMessage()
    void chat.text(id, 'x'.repeat(kMaxAnswerChars - 3))
    void chat.text(id, 'abcdef')
    await vi.advanceTimersByTimeAsync(100)
    void chat.text(id, 'more')
    await chat.flush()
    const m = writes.at(-1)!.messages[0]
    expect(m.text).toBe('x'.repeat(kMaxAnswerChars - 3) + 'abc')
    expect(m.hint).toBe('ANSWER_CUT')
    expect(events).toEqual([{ type: 'message', message: expect.objectContaining({ id, hint: 'ANSWER_CUT' }) }])
  })

  it('goes out before any later write, in order', async () => {
    const { chat, id } = await writerWithMessage()
    void chat.text(id, 'Signing ')
    void chat.text(id, 'in.')
    const step = {
      index: 0,
      status: 'pending' as const,
      instruction: { step_id: 1, action_type: 'click' as const, params: { semantic_locator: 'Log in' } },
    }
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

describe("deleting a site's history", () => {
  it('deletes its run records with it (docs/run-record.md, "Kept records")', async () => {
    vi.useRealTimers()
    await clearHistory('https://records.example')
    expect(removedRecords).toEqual(['https://records.example'])
  })
})
