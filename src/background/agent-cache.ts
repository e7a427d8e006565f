import { z } from 'zod'
import { cacheKeyMaterial } from '../core/agent/cache-key'
import { CacheEntrySchema, type CacheEntry } from '../core/instruction/cache-entry'
import type { Instruction } from '../core/instruction/schema'
import { typedKey } from '../storage/area'

/**
 * The instruction cache (seed 001 §2.4, §4.4): a request seen before on the same kind of page
 * replays its steps with no LLM call. Entries can be listed, edited as JSON and deleted.
 */

// Re-exported for this module's callers; the type lives in core so the popup shares it.
export type { CacheEntry }

const kMaxEntries = 200 // least recently used entries go first

const CacheSchema = z.record(z.string(), CacheEntrySchema)
const cacheStore = typedKey<Record<string, CacheEntry>>('local', 'instructionCache', CacheSchema, () => ({}))

export async function cacheKey(request: string, url: string, packVersions: Record<string, string> = {}): Promise<string> {
  const bytes = new TextEncoder().encode(cacheKeyMaterial(request, url, packVersions))
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('')
}

export async function lookup(key: string): Promise<CacheEntry | undefined> {
  return (await cacheStore.get())[key]
}

let writes: Promise<unknown> = Promise.resolve()
function update(fn: (all: Record<string, CacheEntry>) => void): Promise<void> {
  const next = writes.then(async () => {
    const all = await cacheStore.get()
    fn(all)
    const keys = Object.keys(all)
    if (keys.length > kMaxEntries) {
      keys.sort((a, b) => all[a].updatedAt - all[b].updatedAt)
      for (const k of keys.slice(0, keys.length - kMaxEntries)) delete all[k]
    }
    await cacheStore.set(all)
  })
  writes = next.catch(() => undefined)
  return next
}

export function save(entry: Omit<CacheEntry, 'createdAt' | 'updatedAt' | 'hits' | 'repairs'>): Promise<void> {
  const now = Date.now()
  return update((all) => {
    const old = all[entry.key]
    all[entry.key] = { ...entry, createdAt: old?.createdAt ?? now, updatedAt: now, hits: old?.hits ?? 0, repairs: old?.repairs ?? 0 }
  })
}

export function recordHit(key: string, repairedSteps?: { index: number; instruction: Instruction }[]): Promise<void> {
  return update((all) => {
    const e = all[key]
    if (!e) return
    e.hits++
    e.updatedAt = Date.now()
    for (const r of repairedSteps ?? []) {
      e.steps[r.index] = r.instruction
      e.repairs++
    }
  })
}

export function remove(key: string): Promise<void> {
  return update((all) => void delete all[key])
}

export async function list(): Promise<CacheEntry[]> {
  return Object.values(await cacheStore.get()).sort((a, b) => b.updatedAt - a.updatedAt)
}

export function replace(entry: CacheEntry): Promise<void> {
  return update((all) => void (all[entry.key] = { ...entry, updatedAt: Date.now() }))
}
