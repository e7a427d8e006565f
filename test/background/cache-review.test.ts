// a cached plan that needed a repair is proposed for review, as a flow's heal is:
// nothing is written into the instruction cache until the person accepts, and it is after.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatMessage } from '../../src/core/chat'
import type { Instruction } from '../../src/core/instruction/schema'
import { fake } from '../storage/fake-browser'

const cards: ChatMessage[] = []
const patches: { id: string; patch: Partial<ChatMessage> }[] = []
vi.mock('webextension-polyfill', () => ({ default: fake.browser }))
vi.mock('../../src/background/conversation', () => ({
  conversationOf: async () => 'http://shop.test',
  readHistory: async () => ({ messages: cards, seq: 0 }),
  chatWriter: () => ({ patch: async (id: string, patch: Partial<ChatMessage>) => void patches.push({ id, patch }) }),
}))

const cache = await import('../../src/background/agent-cache')

const click = (target: string, description: string): Instruction => ({
  step_id: 1,
  action_type: 'click',
  params: { fallback_selector: target },
  description,
})
const chat = {
  add: async (m: Omit<ChatMessage, 'id' | 'ts'>) => {
    const card = { ...m, id: `m${cards.length + 1}`, ts: 0 } as ChatMessage
    cards.push(card)
    return card
  },
}
const stored = async () =>
  (await fake.browser.storage.local.get('instructionCache')).instructionCache as Record<
    string,
    { steps: Instruction[]; hits: number; repairs: number }
  >

beforeEach(async () => {
  fake.reset()
  cards.length = 0
  patches.length = 0
  await cache.save({
    key: 'k1',
    request: 'buy milk',
    origin: 'http://shop.test',
    path: '/',
    steps: [click('#search', 'Search'), click('#buy', 'Buy')],
  })
})

describe('instruction-cache repairs are reviewed', () => {
  it('keeps the repaired plan pending and asks; the entry is unchanged until Accept', async () => {
    await cache.recordHit('k1', [{ index: 1, instruction: click('#buy-now', 'Buy now') }], chat)
    const before = (await stored()).k1
    expect(before.steps[1].params.fallback_selector).toBe('#buy')
    expect(before).toMatchObject({ hits: 1, repairs: 0 })
    expect(await cache.pendingRepairs()).toEqual([
      expect.objectContaining({
        key: 'k1',
        steps: [expect.objectContaining({ index: 1, after: click('#buy-now', 'Buy now') })],
      }),
    ])
    expect(cards).toHaveLength(1)
    expect(cards[0].confirm).toMatchObject({
      runId: 'cache-repair:k1',
      review: true,
      state: 'pending',
      msg: { key: 'cache.review.question', params: { request: 'buy milk', steps: '2' } },
    })

    expect(await cache.answerRepairReview(7, cards[0].confirm!.runId, true)).toBe(true)
    const after = (await stored()).k1
    expect(after.steps.map((s) => s.params.fallback_selector)).toEqual(['#search', '#buy-now'])
    expect(after.repairs).toBe(1)
    expect(await cache.pendingRepairs()).toEqual([])
    expect(patches).toEqual([{ id: 'm1', patch: { confirm: expect.objectContaining({ state: 'allowed' }) } }])
  })

  it('Reject drops the proposal and leaves the entry as it was', async () => {
    await cache.recordHit('k1', [{ index: 0, instruction: click('#q', 'Search box') }], chat)
    expect(await cache.reviewRepair('k1', false)).toBe(true)
    expect((await stored()).k1.steps[0].params.fallback_selector).toBe('#search')
    expect((await stored()).k1.repairs).toBe(0)
    expect(await cache.pendingRepairs()).toEqual([])
    // Nothing left to answer.
    expect(await cache.reviewRepair('k1', true)).toBe(false)
  })

  it('a replay that needed no repair proposes nothing and asks nothing', async () => {
    await cache.recordHit('k1', [], chat)
    expect((await stored()).k1.hits).toBe(1)
    expect(await cache.pendingRepairs()).toEqual([])
    expect(cards).toHaveLength(0)
  })

  it('an Accept does not overwrite a step the person edited meanwhile', async () => {
    await cache.recordHit('k1', [{ index: 1, instruction: click('#buy-now', 'Buy now') }], chat)
    const entry = (await cache.list())[0]
    await cache.replace({ ...entry, steps: [entry.steps[0], click('#buy-edited', 'Buy')] })
    await cache.reviewRepair('k1', true)
    expect((await stored()).k1.steps[1].params.fallback_selector).toBe('#buy-edited')
  })

  it('a second repair before the answer updates the proposal under the same question', async () => {
    await cache.recordHit('k1', [{ index: 1, instruction: click('#buy-now', 'Buy now') }], chat)
    await cache.recordHit('k1', [{ index: 1, instruction: click('#buy-2', 'Buy now') }], chat)
    expect(cards).toHaveLength(1)
    await cache.answerRepairReview(7, cards[0].confirm!.runId, true)
    expect((await stored()).k1.steps[1].params.fallback_selector).toBe('#buy-2')
  })

  it('answers only its own cards', async () => {
    expect(await cache.answerRepairReview(7, 'run-123', true)).toBe(false)
  })
})
