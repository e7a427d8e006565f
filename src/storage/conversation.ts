import { z } from 'zod'
import type { ChatMessage } from '../core/chat'
import type { Instruction } from '../core/instruction/schema'
import { kMaxHistoryMessagesSetting, retainHistory } from '../core/settings'
import { typedKey, type TypedKey } from './area'
import { settingsStore } from './settings'

/**
 * Conversations are kept per site (issue 6: "history kept per site across closing, reloading and
 * navigating") in chrome.storage.local; what belongs to one tab — whether its panel is open, the
 * run in progress — lives in chrome.storage.session, which survives the worker but not the browser.
 */
export interface History {
  messages: ChatMessage[]
  /** Bumped on every change; live events carry it so a panel can drop those its snapshot already has. */
  seq: number
}

/** Schema version of `history:<origin>`. */
export const HISTORY_VERSION = 1
/**
 * The hard ceiling, whatever the settings say; the person's retention (settings.history, by
 * messages or by days) is applied on every write by `historyStore`.
 */
export const kMaxHistoryMessages = kMaxHistoryMessagesSetting

export const kHistoryPrefix = 'history:'
const HistorySchema = z.object({ messages: z.array(z.any()), seq: z.number().int().nonnegative() }) as unknown as z.ZodType<History>
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
export interface PlannerMessage {
  role: 'user' | 'assistant'
  content: string
}

/** Everything a run needs to go on after a navigation or a worker restart. */
export interface RunState {
  id: string
  tabId: number
  /** The site whose conversation the run writes into. */
  origin: string
  request: string
  /** The page the request was made on: the cache key is taken from it. */
  startUrl: string
  messageId: string
  status: 'planning' | 'running' | 'waiting' | 'done' | 'failed' | 'stopped'
  iteration: number
  /** Instructions executed so far, redacted: the loop guard and the cache read them. */
  executed: Instruction[]
  /** Whether any step typed a literal value into a password field: such a run is not cached. */
  typedSecretLiteral: boolean
  planner: PlannerMessage[]
  usage: { input: number; output: number }
  startedAt: number
  endedAt?: number
  replay: boolean
  noCache: boolean
  cacheKey?: string
}
const RunStateSchema = z.object({ id: z.string(), tabId: z.number(), origin: z.string(), request: z.string() }).passthrough() as unknown as z.ZodType<RunState>
export const runStore = (tabId: number) => typedKey<RunState | null>('session', `run:${tabId}`, RunStateSchema.nullable() as z.ZodType<RunState | null>, () => null)
