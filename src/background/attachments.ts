import { z } from 'zod'
import { HeldAttachmentSchema, type Attachment } from '../core/agent/attachments'
import { typedKey } from '../storage/area'

/**
 * The bytes of the files attached to each run, for its `upload` steps. Held in this
 * worker's memory, and in chrome.storage.session as runs are, so a run the worker resumes after a
 * restart still has them — unless they would crowd the area: session storage holds 10 MB in all
 * (runs, tabs included), and a file larger than the budget below is kept in memory only; an upload
 * step naming it after a restart says so (core/agent/attachments.ts). Dropped when the run ends.
 */

/** Base64 characters of attachments a run may keep in session storage (of its 10 MB, shared with run and tab state). */
const kSessionBudgetChars = 6_000_000

const attachStore = (runId: string) =>
  typedKey<Attachment[]>('session', `attach:${runId}`, z.array(HeldAttachmentSchema), () => [])

const held = new Map<string, Attachment[]>()

/** Keeps a new run's files; those within the budget also go to session storage. */
export async function keepAttachments(runId: string, files: Attachment[]): Promise<void> {
  if (!files.length) return
  held.set(runId, files)
  let budget = kSessionBudgetChars
  const kept = files.filter((f) => (budget -= f.base64.length) >= 0)
  // A full area costs the restart copy, not the run: the memory copy still serves this worker.
  if (kept.length)
    await attachStore(runId)
      .set(kept)
      .catch(() => undefined)
}

/** The run's files whose bytes are at hand: this worker's, or those session storage kept across a restart. */
export async function heldAttachments(runId: string): Promise<Attachment[]> {
  const mine = held.get(runId)
  if (mine) return mine
  const stored = await attachStore(runId).get()
  if (stored.length) held.set(runId, stored)
  return stored
}

export async function dropAttachments(runId: string): Promise<void> {
  held.delete(runId)
  await attachStore(runId).remove()
}
