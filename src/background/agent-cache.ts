import { z } from 'zod'
import { cacheKeyMaterial } from '../core/agent/cache-key'
import type { ChatMessage } from '../core/chat'
import { CacheEntrySchema, type CacheEntry } from '../core/instruction/cache-entry'
import { InstructionSchema, type Instruction } from '../core/instruction/schema'
import { typedKey } from '../storage/area'
import { chatWriter, conversationOf, readHistory } from './conversation'

/**
 * The instruction cache: a request seen before on the same kind of page
 * replays its steps with no LLM call. Entries can be listed, edited as JSON and deleted.
 */

// Re-exported for this module's callers; the type lives in core so the popup shares it.
export type { CacheEntry }

const kMaxEntries = 200 // least recently used entries go first

const CacheSchema = z.record(z.string(), CacheEntrySchema)
const cacheStore = typedKey<Record<string, CacheEntry>>('local', 'instructionCache', CacheSchema, () => ({}))

export async function cacheKey(
  request: string,
  url: string,
  packVersions: Record<string, string> = {},
): Promise<string> {
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
    all[entry.key] = {
      ...entry,
      createdAt: old?.createdAt ?? now,
      updatedAt: now,
      hits: old?.hits ?? 0,
      repairs: old?.repairs ?? 0,
    }
  })
}

/** The person reviewed a plan page content could have shaped (core/agent/provenance.ts): it replays unasked from now on. */
export function markReviewed(key: string): Promise<void> {
  return update((all) => {
    if (all[key]) all[key] = { ...all[key], reviewedAt: Date.now() }
  })
}

/**
 * A cached plan that needed a repair: the repaired steps wait here, keyed by the
 * entry, until the person accepts them, as a flow's heal does; the entry keeps its old steps
 * meanwhile. `card` is the chat question that offers the review.
 */
const PendingRepairSchema = z.object({
  key: z.string(),
  request: z.string(),
  steps: z.array(
    z.object({ index: z.number().int().nonnegative(), before: InstructionSchema.optional(), after: InstructionSchema }),
  ),
  proposedAt: z.number(),
  card: z.object({ origin: z.string(), messageId: z.string() }).optional(),
})
export type PendingRepair = z.infer<typeof PendingRepairSchema>
const repairsStore = typedKey<Record<string, PendingRepair>>(
  'local',
  'instructionCacheRepairs',
  z.record(z.string(), PendingRepairSchema),
  () => ({}),
)

/** The chat a repair proposal is asked in: the run's own writer. */
type Asker = Pick<ReturnType<typeof chatWriter>, 'add'>

/** The id a review card carries (its `runId`), so the chat's answer finds the proposal. */
const kReviewPrefix = 'cache-repair:'

/**
 * A replay from the cache ended: one more hit. Steps that had to be repaired are proposed for
 * review, never written silently; with `chat`, the person is asked in the chat.
 */
export async function recordHit(
  key: string,
  repairedSteps: { index: number; instruction: Instruction }[] = [],
  chat?: Asker,
): Promise<void> {
  let entry: CacheEntry | undefined
  await update((all) => {
    entry = all[key]
    if (!entry) return
    entry.hits++
    entry.updatedAt = Date.now()
  })
  if (!entry || !repairedSteps.length) return
  const steps = repairedSteps.map((r) => ({ index: r.index, before: entry!.steps[r.index], after: r.instruction }))
  const proposal: PendingRepair = { key, request: entry.request, steps, proposedAt: Date.now() }
  // Still unanswered from an earlier replay: the same question stands for the newer repair.
  const asked = (await repairsStore.get())[key]?.card
  if (asked) proposal.card = asked
  else if (chat) {
    const list = steps.map((s) => s.index + 1).join(', ')
    const what = steps.map((s) => s.after.description ?? s.after.action_type).join('; ')
    const text = `The saved steps for "${entry.request}" needed a repair (step ${list}: ${what}). Keep the repaired steps for next time?`
    const card = await chat.add({
      role: 'system',
      kind: 'confirm',
      text,
      confirm: {
        runId: `${kReviewPrefix}${key}`,
        step: steps[0].index,
        reason: text,
        state: 'pending',
        review: true,
        msg: { key: 'cache.review.question', params: { request: entry.request, steps: list, what } },
      },
    } as Omit<ChatMessage, 'id' | 'ts'>)
    proposal.card = { origin: entry.origin, messageId: card.id }
  }
  await repairQueue(async (all) => void (all[key] = proposal))
}

let repairWrites: Promise<unknown> = Promise.resolve()
function repairQueue<T>(fn: (all: Record<string, PendingRepair>) => Promise<T> | T): Promise<T> {
  const next = repairWrites.then(async () => {
    const all = await repairsStore.get()
    const out = await fn(all)
    await repairsStore.set(all)
    return out
  })
  repairWrites = next.catch(() => undefined)
  return next
}

export async function pendingRepairs(): Promise<PendingRepair[]> {
  return Object.values(await repairsStore.get())
}

/**
 * Accepts (the entry's steps are replaced, `repairs` counted) or rejects (nothing changes) the
 * repair proposed for an entry. False when there is none.
 */
export async function reviewRepair(key: string, accept: boolean): Promise<boolean> {
  const proposal = await repairQueue((all) => {
    const p = all[key]
    delete all[key]
    return p
  })
  if (!proposal) return false
  if (accept) {
    await update((all) => {
      const e = all[key]
      if (!e) return
      for (const s of proposal.steps) {
        // Only over the step the proposal was made from: an entry edited meanwhile keeps its edit.
        if (s.before !== undefined && JSON.stringify(e.steps[s.index]) !== JSON.stringify(s.before)) continue
        e.steps[s.index] = s.after
        e.repairs++
      }
      e.updatedAt = Date.now()
    })
  }
  return true
}

/** The chat's Accept / Reject on a review card (its id starts with kReviewPrefix); false when it is not one. */
export async function answerRepairReview(tabId: number, id: string, accept: boolean): Promise<boolean> {
  if (!id.startsWith(kReviewPrefix)) return false
  const key = id.slice(kReviewPrefix.length)
  const card = (await repairsStore.get())[key]?.card
  if (!(await reviewRepair(key, accept))) return false
  if (card) {
    const origin = await conversationOf(tabId).catch(() => card.origin)
    const asked = (await readHistory(origin)).messages.find((m) => m.id === card.messageId)?.confirm
    if (asked)
      await chatWriter(origin, () => tabId).patch(card.messageId, {
        confirm: { ...asked, state: accept ? 'allowed' : 'denied' },
      })
  }
  return true
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
