import { z } from 'zod'
import { cacheKeyMaterial } from '../core/agent/cache-key'
import type { Instruction } from '../core/instruction/schema'
import { typedKey } from '../storage/area'

/**
 * The instruction cache (seed 001 §2.4, §4.4): a request seen before on the same kind of page
 * replays its steps with no LLM call. Entries can be listed, edited as JSON and deleted.
 */
export interface CacheEntry {
  key: string
  request: string
  origin: string
  path: string
  steps: Instruction[]
  createdAt: number
  updatedAt: number
  hits: number
  repairs: number
}

const kMaxEntries = 200 // least recently used entries go first

const EntrySchema = z.object({
  key: z.string(),
  request: z.string(),
  origin: z.string(),
  path: z.string(),
  steps: z.array(z.any()),
  createdAt: z.number(),
  updatedAt: z.number(),
  hits: z.number(),
  repairs: z.number(),
}) as unknown as z.ZodType<CacheEntry>
const CacheSchema = z.record(z.string(), EntrySchema)
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
