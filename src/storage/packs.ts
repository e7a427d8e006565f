import { z } from 'zod'
import { typedKey } from './area'

/** Schema version of `packs.user` and `packs.trash` (shape unchanged since the registry issue). */
export const PACKS_VERSION = 1

/** The person's own action packs (imported from a file, a URL or pasted), by namespace. */
export interface UserPack {
  namespace: string
  version: string
  text: string
  enabled: boolean
  /** Where it came from: a file name, a URL, or "pasted". */
  origin: string
  installedAt: number
}
export const UserPackSchema = z.object({
  namespace: z.string(),
  version: z.string(),
  text: z.string(),
  enabled: z.boolean(),
  origin: z.string(),
  installedAt: z.number(),
})
export const DEFAULT_USER_PACKS = (): Record<string, UserPack> => ({})
export const userPacksStore = typedKey<Record<string, UserPack>>(
  'local',
  'packs.user',
  z.record(z.string(), UserPackSchema),
  DEFAULT_USER_PACKS,
)

/** A deleted pack, kept so "Undo" can bring it back even after the popup has closed. */
export interface TrashedPack extends UserPack {
  deletedAt: number
}
/** Only the most recent deletions are worth undoing; older ones go for good. */
export const kMaxTrash = 10
const TrashSchema = z.record(z.string(), UserPackSchema.extend({ deletedAt: z.number() }))
export const packTrashStore = typedKey<Record<string, TrashedPack>>('local', 'packs.trash', TrashSchema, () => ({}))

/** Keeps the newest `kMaxTrash` entries. */
export function trimTrash(trash: Record<string, TrashedPack>): Record<string, TrashedPack> {
  const kept = Object.values(trash)
    .sort((a, b) => b.deletedAt - a.deletedAt)
    .slice(0, kMaxTrash)
  return Object.fromEntries(kept.map((p) => [p.namespace, p]))
}
