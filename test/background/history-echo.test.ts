// The storage echo of the worker's own history writes (src/background/conversation.ts):
// an echo that arrives after a newer write is still ours, and must not drop the text held ahead
// of storage, nor send the history's numbering back (the panel then took the run's last events,
// its usage and its cut note, for old ones and never showed them).
import { expect, it, vi } from 'vitest'
import type { History } from '../../src/storage/conversation'

type Change = { newValue?: History }
const stored = new Map<string, History>()
const echoes: Record<string, Change>[] = []
const seqs: number[] = []
let listener: (changes: Record<string, Change>, area: string) => void = () => undefined

vi.mock('webextension-polyfill', () => ({
  default: {
    storage: { onChanged: { addListener: (l: typeof listener) => void (listener = l) } },
    tabs: { get: async () => ({}) },
  },
}))
vi.mock('../../src/background/tabs', () => ({ currentDoc: () => undefined }))
vi.mock('../../src/background/panels', () => ({
  emitToPanels: (_tab: number, _e: unknown, seq: number) => void seqs.push(seq),
}))
vi.mock('../../src/storage/conversation', () => ({
  DEFAULT_HISTORY: () => ({ messages: [], seq: 0 }),
  kMaxHistoryMessages: 2_000,
  runStore: () => ({ get: async () => null }),
  historyStore: (origin: string) => ({
    get: async () => structuredClone(stored.get(origin) ?? { messages: [], seq: 0 }),
    set: async (h: History) => {
      stored.set(origin, structuredClone(h))
      // Delivered when the test says: storage reports changes later than the write resolves.
      echoes.push({ [`history:${origin}`]: { newValue: structuredClone(h) } })
    },
  }),
}))

const { chatWriter, readHistory, watchHistories } = await import('../../src/background/conversation')

it('keeps unstored text and numbers events upwards when its own older writes echo late', async () => {
  vi.useFakeTimers()
  watchHistories()
  const origin = 'https://echo.example'
  const chat = chatWriter(origin, () => 1)
  const m = await chat.add({ role: 'assistant', text: '', steps: [] }) // stored, echo 1 pending
  await chat.add({ role: 'system', text: 'note' }) // stored, echo 2 pending
  void chat.text(m.id, 'streamed words')
  await vi.advanceTimersByTimeAsync(100) // the text reaches the panel, not yet storage
  for (const e of echoes.splice(0)) listener(e, 'local')
  await chat.patch(m.id, { usage: { input: 1, output: 2 } })
  await chat.flush()
  for (const e of echoes.splice(0)) listener(e, 'local')

  expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
  expect(new Set(seqs).size).toBe(seqs.length)
  const h = await readHistory(origin)
  expect(h.messages.find((x) => x.id === m.id)).toMatchObject({
    text: 'streamed words',
    usage: { input: 1, output: 2 },
  })
  expect(stored.get(origin)!.messages.find((x) => x.id === m.id)!.text).toBe('streamed words')
  vi.useRealTimers()
})
