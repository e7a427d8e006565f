import { z } from 'zod'
import { structuredByDefault, type PlanPath } from '../core/providers'
import type { LlmSettings } from '../core/settings'
import { typedKey } from './area'

/**
 * Profiles whose server rejected structured output (docs/agent.md, "Structured output"): profile
 * id → the endpoint that rejected it. Ava asked once, fell back to plain text, and asks no more
 * while the profile points there; a changed provider, address or model is asked afresh.
 */
const RefusedSchema = z.record(z.string(), z.string())
const refusedStore = typedKey<Record<string, string>>('local', 'structuredRefused', RefusedSchema, () => ({}))

const endpoint = (llm: Pick<LlmSettings, 'provider' | 'baseUrl' | 'model'>) =>
  `${llm.provider} ${llm.baseUrl.trim().replace(/\/+$/, '')} ${llm.model}`

export const structuredRefused = {
  /** Whether to ask this profile for structured output now. */
  async wanted(profileId: string, llm: LlmSettings): Promise<boolean> {
    const mode = llm.structuredOutput ?? 'auto'
    if (mode === 'off' || (mode === 'auto' && !structuredByDefault(llm))) return false
    const refused = await refusedStore.get().catch(() => ({}) as Record<string, string>)
    return refused[profileId] !== endpoint(llm)
  },
  async remember(profileId: string, llm?: LlmSettings): Promise<void> {
    if (!llm) return
    try {
      await refusedStore.set({ ...(await refusedStore.get()), [profileId]: endpoint(llm) })
    } catch {
      // a full storage area: the next run asks once more
    }
  },
}

/**
 * The plan path `Test connection` found an unknown server accepts (docs/settings.md, "How the plan
 * comes back"): profile id → its endpoint and the path. Used while the profile points there.
 */
const PathsSchema = z.record(z.string(), z.object({ endpoint: z.string(), path: z.enum(['schema', 'tools', 'text']) }))
const pathsStore = typedKey<Record<string, { endpoint: string; path: PlanPath }>>(
  'local',
  'planPaths',
  PathsSchema,
  () => ({}),
)

export const planPaths = {
  async learned(profileId: string, llm: LlmSettings): Promise<PlanPath | undefined> {
    const all = await pathsStore.get().catch(() => ({}) as Record<string, { endpoint: string; path: PlanPath }>)
    const hit = all[profileId]
    return hit && hit.endpoint === endpoint(llm) ? hit.path : undefined
  },
  async remember(profileId: string, llm: LlmSettings, path: PlanPath): Promise<void> {
    try {
      await pathsStore.set({ ...(await pathsStore.get()), [profileId]: { endpoint: endpoint(llm), path } })
    } catch {
      // a full storage area: the next Test connection finds it again
    }
  },
}
