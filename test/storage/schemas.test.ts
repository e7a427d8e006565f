import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fake } from './fake-browser'
import { loginEvents } from '../flows/fixtures'

vi.mock('webextension-polyfill', () => ({ default: fake.browser }))

/**
 * The stored histories, runs, instruction cache and flows are checked against real schemas: a
 * value that fails is reported (set aside under `<key>.invalid`, listed by listInvalid) and the
 * default is returned instead, never the bad value.
 */
const { listInvalid } = await import('../../src/storage/area')
const { historyStore, runStore } = await import('../../src/storage/conversation')
const { draftStore, recordingStore, savedFlowsStore } = await import('../../src/storage/flows')
const cache = await import('../../src/background/agent-cache')
const { flowFromEvents, RawEventSchema } = await import('../../src/core/flows')

beforeEach(() => fake.reset())

const click = { step_id: 1, action_type: 'click', params: { semantic_locator: 'Save' } }
const message = {
  id: 'm1',
  role: 'assistant',
  text: 'Done',
  ts: 1,
  steps: [{ index: 0, instruction: click, status: 'ok' }],
}
const run = {
  id: 'r1',
  tabId: 7,
  origin: 'https://a.example',
  request: 'save it',
  startUrl: 'https://a.example/x',
  messageId: 'm1',
  status: 'running',
  iteration: 1,
  executed: [click],
  typedSecretLiteral: false,
  planner: [{ role: 'user', content: 'save it' }],
  usage: { input: 10, output: 5 },
  startedAt: 1,
  replay: false,
  noCache: false,
}
const entry = {
  key: 'k1',
  request: 'save it',
  origin: 'https://a.example',
  path: '/x',
  steps: [click],
  createdAt: 1,
  updatedAt: 1,
  hits: 0,
  repairs: 0,
}
const flow = flowFromEvents(loginEvents(), { name: 'Log in', source: 'recording' })
const saved = {
  id: 'recorded:flow:log-in',
  namespace: 'recorded',
  action: 'recorded:flow:log-in',
  flow,
  savedAt: 1,
  pending: [],
}

/** Stores `value` under `key` as another context (or an older Ava) would, bypassing the schema. */
async function plant(area: 'local' | 'session', key: string, value: unknown): Promise<void> {
  await fake.browser.storage[area].set({ [key]: value })
}

async function reported(area: 'local' | 'session', key: string): Promise<string[]> {
  const found = (await listInvalid(area)).find((i) => i.key === key)
  expect(found, `${key} was not set aside`).toBeDefined()
  expect(fake.browser.storage[area].data.has(key)).toBe(false)
  return found!.issues
}

describe('stored values are checked against their schemas', () => {
  it('a history round-trips, and one with an instruction that is not one is reported, not returned', async () => {
    const store = historyStore('https://a.example')
    await plant('local', store.key, { seq: 1, messages: [message] })
    expect(await store.get()).toEqual({ seq: 1, messages: [message] })

    const broken = {
      ...message,
      steps: [{ index: 0, instruction: { ...click, action_type: 'teleport' }, status: 'ok' }],
    }
    await plant('local', store.key, { seq: 2, messages: [broken] })
    expect(await store.get()).toEqual({ seq: 0, messages: [] })
    expect(await reported('local', store.key)).toEqual([
      expect.stringContaining('messages.0.steps.0.instruction.action_type'),
    ])
  })

  it('a run round-trips, and one missing what a resume needs is reported, not returned', async () => {
    const store = runStore(7)
    await store.set(run as never)
    expect(await store.get()).toEqual(run)

    const { executed: _, ...partial } = run
    await plant('session', store.key, partial)
    expect(await store.get()).toBeNull()
    expect(await reported('session', store.key)).toEqual([expect.stringContaining('executed')])
  })

  it('a cache entry whose steps cannot be replayed is reported, not replayed', async () => {
    await plant('local', 'instructionCache', { k1: entry })
    expect(await cache.lookup('k1')).toEqual(entry)

    await plant('local', 'instructionCache', {
      k1: { ...entry, steps: [{ step_id: 1, action_type: 'navigate', params: { url: 'javascript:alert(1)' } }] },
    })
    expect(await cache.lookup('k1')).toBeUndefined()
    expect(await reported('local', 'instructionCache')).toEqual([expect.stringContaining('k1.steps.0.params.url')])
  })

  it('the cache refuses to store steps that are not instructions', async () => {
    await expect(
      cache.save({ ...entry, steps: [{ step_id: 1, action_type: 'click', params: {} }] as never }),
    ).rejects.toThrow(/click needs one of/)
    expect(fake.browser.storage.local.data.has('instructionCache')).toBe(false)
  })

  it('saved flows round-trip, and a flow that no longer parses is reported, not replayed', async () => {
    await savedFlowsStore.set({ [saved.id]: saved })
    expect(await savedFlowsStore.get()).toEqual({ [saved.id]: saved })

    await plant('local', savedFlowsStore.key, { [saved.id]: { ...saved, flow: { ...flow, steps: [] } } })
    expect(await savedFlowsStore.get()).toEqual({})
    expect(await reported('local', savedFlowsStore.key)).toEqual([expect.stringContaining(`${saved.id}.flow.steps`)])
  })

  it('a draft must be a flow', async () => {
    const store = draftStore(3)
    await store.set(flow)
    expect(await store.get()).toEqual(flow)
    await plant('session', store.key, { version: '1.0', steps: 'none' })
    expect(await store.get()).toBeNull()
    await reported('session', store.key)
  })

  it('a recording keeps the recorder’s events as they were, and one with an unknown event is reported', async () => {
    const store = recordingStore(3)
    const recording = { startedAt: 1, startUrl: 'https://app.test/login', events: loginEvents() }
    await store.set(recording)
    expect(await store.get()).toEqual(recording)

    await plant('session', store.key, {
      ...recording,
      events: [...recording.events, { kind: 'teleport', t: 1, url: 'x' }],
    })
    expect(await store.get()).toBeNull()
    expect(await reported('session', store.key)).toEqual([
      expect.stringContaining(`events.${recording.events.length}.kind`),
    ])
  })

  it('every event the recorder fixtures emit is a valid RawEvent, unchanged by parsing', () => {
    for (const e of loginEvents()) expect(RawEventSchema.parse(e)).toEqual(e)
  })
})
