import { beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { fake } from './fake-browser'

vi.mock('webextension-polyfill', () => ({ default: fake.browser }))

const { typedKey, StorageQuotaError, kLastStorageErrorKey, listInvalid, discardInvalid } =
  await import('../../src/storage/area')
const { historyStore, kMaxHistoryMessages } = await import('../../src/storage/conversation')
const { settingsStore } = await import('../../src/storage/settings')
const { pruneHistories } = await import('../../src/storage/migrations')
const { trimTrash, kMaxTrash, userPacksStore, DEFAULT_USER_PACKS } = await import('../../src/storage/packs')
const { VaultSchema, vaultStore } = await import('../../src/storage/vault')
const { DEFAULT_SETTINGS, retainHistory } = await import('../../src/core/settings')

beforeEach(() => fake.reset())

const day = 86_400_000
const msg = (i: number, ts: number) => ({ id: `m${i}`, role: 'user', text: `#${i}`, ts })

describe('typed keys', () => {
  const counter = typedKey('local', 'counter', z.number().int(), () => 0)

  it('reads the default when nothing is stored and what was written otherwise', async () => {
    expect(await counter.get()).toBe(0)
    await counter.set(4)
    expect(await counter.get()).toBe(4)
  })

  it('refuses to write a value that fails the schema', async () => {
    await expect(counter.set(1.5)).rejects.toThrow()
    expect(fake.browser.storage.local.data.has('counter')).toBe(false)
  })

  it('tells every watcher about writes from any context, and stops when asked', async () => {
    const seen: number[] = []
    const off = counter.watch((v) => seen.push(v))
    await counter.set(1)
    await fake.browser.storage.local.set({ counter: 2 }) // as another context would write it
    await fake.browser.storage.local.set({ counter: 'not a number' }) // unreadable: not passed on
    await fake.browser.storage.session.set({ counter: 9 }) // another area
    await counter.remove()
    off()
    await counter.set(3)
    expect(seen).toEqual([1, 2, 0])
  })

  it('reports a full storage area as a StorageQuotaError and remembers it for the options page', async () => {
    fake.quota.local = 200
    const big = typedKey('local', 'big', z.string(), () => '')
    const err = await big.set('x'.repeat(500)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(StorageQuotaError)
    expect(err).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      key: 'big',
      message: expect.stringContaining('storage is full'),
    })
    expect(fake.browser.storage.session.data.get(kLastStorageErrorKey)).toMatchObject({
      key: 'big',
      code: 'QUOTA_EXCEEDED',
    })
    expect(await big.get()).toBe('')
  })

  it('lists and discards what was set aside', async () => {
    await fake.browser.storage.local.set({ counter: 'three' })
    expect(await counter.get()).toBe(0)
    const [aside] = await listInvalid()
    expect(aside).toMatchObject({ key: 'counter', value: 'three', issues: [expect.stringContaining('(root)')] })
    await discardInvalid('counter')
    expect(await listInvalid()).toEqual([])
  })
})

describe('history retention', () => {
  const now = Date.UTC(2026, 0, 31)
  it('keeps the newest messages, or those younger than the days', () => {
    const msgs = [msg(1, now - 10 * day), msg(2, now - 3 * day), msg(3, now - day), msg(4, now)]
    expect(retainHistory(msgs, { keep: 'messages', messages: 2, days: 1 }, now).map((m) => m.id)).toEqual(['m3', 'm4'])
    expect(retainHistory(msgs, { keep: 'days', messages: 1, days: 5 }, now).map((m) => m.id)).toEqual([
      'm2',
      'm3',
      'm4',
    ])
    expect(retainHistory(msgs, { keep: 'days', messages: 1, days: 5 }, now + 30 * day)).toEqual([])
    expect(retainHistory(msgs, { keep: 'messages', messages: 10, days: 1 }, now)).toBe(msgs)
  })

  it('is applied on every write of a site history, from the stored setting', async () => {
    await settingsStore.set({ ...DEFAULT_SETTINGS, history: { keep: 'messages', messages: 3, days: 30 } })
    const h = historyStore('https://a.example')
    await h.set({ seq: 1, messages: [1, 2, 3, 4, 5].map((i) => msg(i, Date.now())) as never })
    expect((await h.get()).messages.map((m) => m.id)).toEqual(['m3', 'm4', 'm5'])
    expect(kMaxHistoryMessages).toBeGreaterThanOrEqual(DEFAULT_SETTINGS.history.messages)
  })

  it('pruneHistories applies a new setting to every site at once and leaves other keys alone', async () => {
    const now = Date.now()
    await fake.browser.storage.local.set({
      'history:https://a.example': { seq: 4, messages: [msg(1, now - 40 * day), msg(2, now - day)] },
      'history:https://b.example': { seq: 1, messages: [msg(3, now)] },
      settings: DEFAULT_SETTINGS,
    })
    expect(await pruneHistories({ keep: 'days', messages: 200, days: 30 }, now)).toBe(1)
    expect(fake.browser.storage.local.data.get('history:https://a.example')).toEqual({
      seq: 5,
      messages: [msg(2, now - day)],
    })
    expect(fake.browser.storage.local.data.get('history:https://b.example')).toEqual({
      seq: 1,
      messages: [msg(3, now)],
    })
  })
})

describe('packs and vault', () => {
  it('user packs default to none and keep their shape', async () => {
    expect(await userPacksStore.get()).toEqual(DEFAULT_USER_PACKS())
    const pack = { namespace: 'demo', version: '1.0.0', text: 'x', enabled: true, origin: 'pasted', installedAt: 1 }
    await userPacksStore.set({ demo: pack })
    expect(await userPacksStore.get()).toEqual({ demo: pack })
  })

  it('the trash keeps only the most recent deletions', () => {
    const trash = Object.fromEntries(
      Array.from({ length: kMaxTrash + 3 }, (_, i) => [
        `p${i}`,
        { namespace: `p${i}`, version: '1.0.0', text: '', enabled: true, origin: 'x', installedAt: 0, deletedAt: i },
      ]),
    )
    const kept = trimTrash(trash)
    expect(Object.keys(kept)).toHaveLength(kMaxTrash)
    expect(kept.p0).toBeUndefined()
    expect(kept[`p${kMaxTrash + 2}`]).toBeDefined()
  })

  it('vault names are plain identifiers and values are bounded', async () => {
    expect(VaultSchema.safeParse({ API_TOKEN: 'x', 'site.pass-word_2': 'y' }).success).toBe(true)
    expect(VaultSchema.safeParse({ 'has space': 'x' }).success).toBe(false)
    expect(VaultSchema.safeParse({ BIG: 'x'.repeat(5000) }).success).toBe(false)
    await vaultStore.set({ TOKEN: 's3cret' })
    expect(await vaultStore.get()).toEqual({ TOKEN: 's3cret' })
  })
})
