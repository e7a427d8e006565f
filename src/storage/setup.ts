import { z } from 'zod'
import { typedKey } from './area'

/**
 * First run: whether a model has ever answered on this browser. Until one has, the
 * panel says what is missing instead of sending a request nobody will answer. Nothing secret.
 */
export const FirstRunSchema = z.object({ answeredAt: z.number().optional() })
export type FirstRun = z.infer<typeof FirstRunSchema>
export const firstRunStore = typedKey<FirstRun>('local', 'firstRun', FirstRunSchema, () => ({}))

// The worker answers many completions per run: after the first write, remembering it here saves
// a storage read per completion until the worker stops.
let known = false

/** Records that a model answered. Best effort: a failed write only means the panel asks again. */
export async function markAnswered(): Promise<void> {
  if (known) return
  try {
    if ((await firstRunStore.get()).answeredAt === undefined) await firstRunStore.set({ answeredAt: Date.now() })
    known = true
  } catch {
    // a full storage area: the next answer tries again
  }
}
