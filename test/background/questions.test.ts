// The worker's one answer to every question card (src/background/questions.ts): a card the
// registry holds is answered by its rules; a cached plan's review card is answered from storage;
// a card left pending from before a worker restart is closed, and nothing is done.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatMessage } from '../../src/core/chat'

/** vi.waitFor polls every 50 ms for 1 s by default: too short for a loaded machine. */
const kPatience = { timeout: 10_000 }

const cards: ChatMessage[] = []
const patches: { id: string; patch: Partial<ChatMessage> }[] = []
const reviews: { tabId: number; id: string; accept: boolean }[] = []
/** Card ids are unique for the worker's life, as the chat's are: the registry outlives each test. */
let seq = 0
/** What the worker registered on `tabs.onRemoved`: the test closes a tab by calling it. */
const removedListeners: ((tabId: number) => void)[] = []
vi.mock('webextension-polyfill', () => ({
  default: { tabs: { onRemoved: { addListener: (fn: (tabId: number) => void) => removedListeners.push(fn) } } },
}))
vi.mock('../../src/background/conversation', () => ({
  conversationOf: async () => 'http://shop.test',
  readHistory: async () => ({ messages: cards, seq: 0 }),
  chatWriter: () => ({
    add: async (m: Omit<ChatMessage, 'id' | 'ts'>) => {
      const card = { ...m, id: `m${++seq}`, ts: 0 } as ChatMessage
      cards.push(card)
      return card
    },
    patch: async (id: string, patch: Partial<ChatMessage>) => {
      patches.push({ id, patch })
      const card = cards.find((c) => c.id === id)
      if (card) Object.assign(card, patch)
    },
  }),
}))
vi.mock('../../src/background/agent-cache', () => ({
  answerRepairReview: async (tabId: number, id: string, accept: boolean) => (reviews.push({ tabId, id, accept }), true),
}))

const q = await import('../../src/background/questions')
const { chatWriter } = await import('../../src/background/conversation')
const chat = (chatWriter as unknown as () => Parameters<typeof q.askInPanel>[1])()
const card = {
  text: 'Delete: may delete something',
  reason: 'may delete something',
  step: 1,
  msg: { key: 'risk.ask.step', params: {} },
}

beforeEach(() => {
  cards.length = 0
  patches.length = 0
  reviews.length = 0
})

describe('answerQuestion: one answer for every card', () => {
  it('answers a panel question from its tab, once; its card shows the answer (rule: second-answer)', async () => {
    const asked = q.askInPanel(5, chat, { ...card, owner: 'replay_1' })
    await vi.waitFor(() => expect(cards).toHaveLength(1), kPatience)
    expect(await q.answerQuestion({ tab: 6 }, cards[0].id, true)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(await q.answerQuestion({ tab: 5 }, cards[0].id, true)).toEqual({ ok: true })
    expect(await asked).toBe(true)
    expect(cards[0].confirm?.state).toBe('allowed')
    expect(await q.answerQuestion({ tab: 5 }, cards[0].id, false)).toEqual({ ok: false, reason: 'answered' })
    expect(cards[0].confirm?.state).toBe('allowed')
  })

  it('Stop in the tab is a no for every question shown there; the card says denied', async () => {
    const asked = q.askInPanel(5, chat, { ...card, owner: 'slash_1' })
    await vi.waitFor(() => expect(cards).toHaveLength(1), kPatience)
    expect(q.stopQuestions(5)).toBe(true)
    expect(await asked).toBe(false)
    await vi.waitFor(() => expect(cards[0].confirm?.state).toBe('denied'), kPatience)
    expect(await q.answerQuestion({ tab: 5 }, cards[0].id, true)).toEqual({ ok: false, reason: 'closed' })
    expect(q.stopQuestions(5)).toBe(false)
  })

  it('a closed tab closes its questions as a no, and only its own (rule: tab-closed)', async () => {
    q.watchQuestionTabs()
    const asked = q.askInPanel(5, chat, { ...card, owner: 'slash_2' })
    const other = q.askInPanel(6, chat, { ...card, owner: 'slash_3' })
    await vi.waitFor(() => expect(cards).toHaveLength(2))
    for (const fn of removedListeners) fn(5)
    expect(await asked).toBe(false)
    expect(await q.answerQuestion({ tab: 5 }, cards[0].id, true)).toEqual({ ok: false, reason: 'closed' })
    expect(await q.answerQuestion({ tab: 6 }, cards[1].id, true)).toEqual({ ok: true })
    expect(await other).toBe(true)
  })

  it('closes a card left pending by a worker that is gone, doing nothing (rule: worker-restart)', async () => {
    cards.push({
      id: 'old',
      role: 'system',
      kind: 'confirm',
      text: 'x',
      ts: 0,
      confirm: { runId: 'replay_0', step: 0, reason: 'x', state: 'pending' },
    })
    expect(await q.answerQuestion({ tab: 5 }, 'old', true)).toEqual({ ok: false, reason: 'closed' })
    expect(cards[0].confirm?.state).toBe('closed')
    expect(reviews).toEqual([])
  })

  it('an answer to a card shown a moment before its asker waits on it is kept for that wait', async () => {
    // The agent writes its card, then its run state, then waits: the person may be quicker.
    cards.push({
      id: 'early',
      role: 'system',
      kind: 'confirm',
      text: 'x',
      ts: 0,
      confirm: { runId: 'run_1', step: 0, reason: 'x', state: 'pending' },
    })
    const answer = q.answerQuestion({ tab: 5 }, 'early', true)
    await new Promise((r) => setTimeout(r, 200))
    const waited = q.waitInTab(5, 'early', 'run_1')
    expect(await answer).toEqual({ ok: true })
    expect(await waited).toBe(true)
    expect(cards[0].confirm?.state).toBe('pending') // the asker writes the outcome on its card
  })

  it('routes a cached plan’s review card to its proposal in storage', async () => {
    cards.push({
      id: 'rv',
      role: 'system',
      kind: 'confirm',
      text: 'keep?',
      ts: 0,
      confirm: { runId: 'cache-repair:k1', step: 0, reason: 'keep?', state: 'pending', review: true },
    })
    expect(await q.answerQuestion({ tab: 5 }, 'rv', true)).toEqual({ ok: true })
    expect(reviews).toEqual([{ tabId: 5, id: 'cache-repair:k1', accept: true }])
  })

  it('answers a popup question only from the popup run that asked it', async () => {
    const run = q.openPopupRun('p1')
    const asked = q.askInPopup('p1', { id: 'pq1', reason: 'r', msg: { key: 'risk.ask.step', params: {} } })
    expect(await q.nextPopupQuestion('p1')).toMatchObject({ id: 'pq1' })
    expect(await q.answerQuestion({ popup: 'p2' }, 'pq1', true)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(await q.answerQuestion({ tab: 5 }, 'pq1', true)).toEqual({ ok: false, reason: 'elsewhere' })
    expect(await q.answerQuestion({ popup: 'p1' }, 'pq1', true)).toEqual({ ok: true })
    expect(await asked).toBe(true)
    // The run ends: a question still open would be a no, and the popup is told there are no more.
    const next = q.nextPopupQuestion('p1')
    run.end()
    expect(await next).toBeNull()
  })
})
