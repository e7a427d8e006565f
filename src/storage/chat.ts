import { z } from 'zod'
import type { ChatMessage, RunView } from '../core/chat'
import { typedKey } from './area'

/**
 * The conversation and run of one tab, in chrome.storage.session so that it survives the
 * service worker being stopped and the page navigating, and is gone when the browser closes.
 */
export interface TabChat {
  messages: ChatMessage[]
  run: RunView | null
  panelOpen: boolean
  /** Bumped on every change; live events carry it so a panel can drop those its snapshot already has. */
  seq: number
}

// The stored shape is ours and written only by the background; the schema guards against a
// version skew after an update rather than against hostile input.
const TabChatSchema = z.object({
  messages: z.array(z.any()),
  run: z.any().nullable(),
  panelOpen: z.boolean(),
  seq: z.number().int().nonnegative(),
}) as unknown as z.ZodType<TabChat>

export const DEFAULT_TAB_CHAT = (): TabChat => ({ messages: [], run: null, panelOpen: false, seq: 0 })

export const tabChatStore = (tabId: number) => typedKey<TabChat>('session', `chat:${tabId}`, TabChatSchema, DEFAULT_TAB_CHAT)
