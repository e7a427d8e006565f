import { z } from 'zod'
import { ChatMessageSchema, RunStatusSchema } from '../core/chat'
import { InstructionSchema } from '../core/instruction/schema'
import { kMaxHistoryMessagesSetting, retainHistory } from '../core/settings'
import { typedKey, type TypedKey } from './area'
import { settingsStore } from './settings'

/**
 * Conversations are kept per site (issue 6: "history kept per site across closing, reloading and
 * navigating") in chrome.storage.local; what belongs to one tab — whether its panel is open, the
 * run in progress — lives in chrome.storage.session, which survives the worker but not the browser.
 */
export const HistorySchema = z.object({
  messages: z.array(ChatMessageSchema),
  /** Bumped on every change; live events carry it so a panel can drop those its snapshot already has. */
  seq: z.number().int().nonnegative(),
})
export type History = z.infer<typeof HistorySchema>

/** Schema version of `history:<origin>`. */
export const HISTORY_VERSION = 1
/**
 * The hard ceiling, whatever the settings say; the person's retention (settings.history, by
 * messages or by days) is applied on every write by `historyStore`.
 */
export const kMaxHistoryMessages = kMaxHistoryMessagesSetting

export const kHistoryPrefix = 'history:'
export const DEFAULT_HISTORY = (): History => ({ messages: [], seq: 0 })

/** One site's history; writes keep only what the retention setting allows. */
export const historyStore = (origin: string): TypedKey<History> => {
  const k = typedKey<History>('local', `${kHistoryPrefix}${origin}`, HistorySchema, DEFAULT_HISTORY)
  return {
    ...k,
    async set(h) {
      const keep = (await settingsStore.get()).history
      await k.set({ ...h, messages: retainHistory(h.messages, keep) })
    },
  }
}

export interface TabState {
  panelOpen: boolean
}
const TabStateSchema = z.object({ panelOpen: z.boolean() })
export const tabStore = (tabId: number) => typedKey<TabState>('session', `tab:${tabId}`, TabStateSchema, () => ({ panelOpen: false }))

/** A planner message as kept between iterations (secrets already redacted). */
const PlannerMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.string() })
export type PlannerMessage = z.infer<typeof PlannerMessageSchema>

/** Everything a run needs to go on after a navigation or a worker restart. */
const RunStateSchema = z.object({
  id: z.string(),
  tabId: z.number(),
  /** The site whose conversation the run writes into. */
  origin: z.string(),
  request: z.string(),
  /** The page the request was made on: the cache key is taken from it. */
  startUrl: z.string(),
  messageId: z.string(),
  status: RunStatusSchema,
  iteration: z.number(),
  /** Instructions executed so far, redacted: the loop guard and the cache read them. */
  executed: z.array(InstructionSchema),
  /** Whether any step typed a literal value into a password field: such a run is not cached. */
  typedSecretLiteral: z.boolean(),
  planner: z.array(PlannerMessageSchema),
  usage: z.object({ input: z.number(), output: z.number() }),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  replay: z.boolean(),
  noCache: z.boolean(),
  cacheKey: z.string().optional(),
})
export type RunState = z.infer<typeof RunStateSchema>
export const runStore = (tabId: number) => typedKey<RunState | null>('session', `run:${tabId}`, RunStateSchema.nullable(), () => null)
