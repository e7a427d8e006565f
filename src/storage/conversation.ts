import { z } from 'zod'
import { RunStateSchema, type RunState } from '../core/agent/state'
import { ChatMessageSchema } from '../core/chat'
import { kMaxHistoryMessagesSetting, retainHistory } from '../core/settings'
import { typedKey, type TypedKey } from './area'
import { settingsStore } from './settings'

/**
 * Conversations are kept per site ("history kept per site across closing, reloading and
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
export const tabStore = (tabId: number) =>
  typedKey<TabState>('session', `tab:${tabId}`, TabStateSchema, () => ({ panelOpen: false }))

/** The run's state, schema from the agent core (core/agent/state.ts); one key per tab. */
export const runStore = (tabId: number) =>
  typedKey<RunState | null>('session', `run:${tabId}`, RunStateSchema.nullable(), () => null)
