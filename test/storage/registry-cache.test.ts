import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fake } from './fake-browser'

vi.mock('webextension-polyfill', () => ({ default: fake.browser }))

const { registryCacheStore } = await import('../../src/storage/registry-cache')
const { loadPacks, loadPacksCached } = await import('../../src/core/registry')

beforeEach(() => fake.reset())

const text =
  'namespace: site\nversion: 1.0.0\nactions:\n  a:b:\n    description: Does b.\n    steps:\n      - action: getUrl\n'
const sources = [{ source: 'user' as const, files: [{ path: 'user:site', text }] }]

describe('registry cache key (session storage)', () => {
  it('keeps the load result across a worker start: written on the first load, restored on the next', async () => {
    expect((await loadPacksCached(sources, registryCacheStore)).cache).toBe('miss')
    expect(fake.browser.storage.session.data.has(registryCacheStore.key)).toBe(true)
    expect(fake.browser.storage.local.data.size).toBe(0)
    const again = await loadPacksCached(sources, registryCacheStore)
    expect(again.cache).toBe('hit')
    expect(again.result).toEqual(loadPacks(sources))
  })

  it('reads a stored value of another shape as no cache, and the load parses', async () => {
    await fake.browser.storage.session.set({ [registryCacheStore.key]: { format: 99, hash: 'x', json: '{}' } })
    expect(await registryCacheStore.get()).toBeNull()
    const out = await loadPacksCached(sources, registryCacheStore)
    expect(out.cache).toBe('miss')
    expect(out.result).toEqual(loadPacks(sources))
    expect((await registryCacheStore.get())?.hash).toBe(out.hash)
  })
})
