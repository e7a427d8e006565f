import { z } from 'zod'
import { InstructionSchema } from './schema'

/**
 * One entry of the instruction cache: a request seen before on the same
 * kind of page, and the steps that answered it. The background stores these, the popup lists and
 * edits them; both read this one schema, and a stored or hand-edited entry is checked against it.
 */
export const CacheEntrySchema = z.object({
  /** Derived from the request, the site, the path and the packs' versions (core/agent/cache-key). */
  key: z.string(),
  request: z.string(),
  origin: z.string(),
  path: z.string(),
  /** Replayed as they are: each must be an instruction the agent can run. */
  steps: z.array(InstructionSchema),
  createdAt: z.number(),
  updatedAt: z.number(),
  hits: z.number(),
  repairs: z.number(),
  /**
   * Where the plan came from (core/agent/provenance.ts): written with page text in front of the
   * model, and which of its steps act on what a page could have asked for. Such a plan replays only
   * after the person has reviewed it once (`reviewedAt`).
   */
  provenance: z
    .object({
      pageShaped: z.boolean(),
      risky: z.array(z.object({ index: z.number().int().min(0), why: z.string(), text: z.string() })),
    })
    .optional(),
  reviewedAt: z.number().optional(),
})
export type CacheEntry = z.infer<typeof CacheEntrySchema>
