import { z } from 'zod'
import { typedKey } from './area'

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
const UserPackSchema = z.object({
  namespace: z.string(),
  version: z.string(),
  text: z.string(),
  enabled: z.boolean(),
  origin: z.string(),
  installedAt: z.number(),
})
export const userPacksStore = typedKey<Record<string, UserPack>>('local', 'packs.user', z.record(z.string(), UserPackSchema), () => ({}))
