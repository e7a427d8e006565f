import type { Instruction } from './instruction/schema'

/** What the panel shows and the background keeps per tab (in the session storage area). */
export type StepStatus = 'pending' | 'running' | 'ok' | 'failed' | 'skipped'

export interface StepView {
  index: number
  instruction: Instruction
  status: StepStatus
  /** One line for the person: what happened, or what went wrong and what to do. */
  detail?: string
  durationMs?: number
  /** Which locator rung found the element (target_id, selector, semantic, ...). */
  rung?: string
}

export type MessageRole = 'user' | 'assistant' | 'system'

export interface ChatMessage {
  id: string
  role: MessageRole
  text: string
  ts: number
  /** Steps of the run this assistant message belongs to. */
  steps?: StepView[]
  /** `error` messages are shown in the error style with a hint. */
  kind?: 'info' | 'error' | 'confirm'
  hint?: string
  /** Assistant answers are markdown, rendered sanitised. */
  markdown?: boolean
  /** Tokens the run used; a replay from the cache shows `replayed` and none. */
  usage?: { input: number; output: number; costUsd?: number }
  replayed?: boolean
  /** A risky step waiting for the person's OK. */
  confirm?: { runId: string; step: number; reason: string; state: 'pending' | 'allowed' | 'denied' }
}

export type RunStatus = 'planning' | 'running' | 'waiting' | 'done' | 'failed' | 'stopped'

export interface RunView {
  id: string
  status: RunStatus
  /** The assistant message the run writes into. */
  messageId: string
}

/** Live updates from the background to the tab's panel. The stored chat is the truth; events only save a round trip. */
export type RunEvent =
  | { type: 'message'; message: ChatMessage }
  | { type: 'text'; messageId: string; delta: string }
  | { type: 'step'; messageId: string; step: StepView }
  | { type: 'status'; run: RunView }

/** Whitespace-only input is refused (seed 003 property 4). */
export function isSendable(text: string): boolean {
  return text.trim().length > 0
}

export const kMaxRequestChars = 4_000 // a request longer than this is a paste, not an instruction
