import { z } from 'zod'
import { InstructionSchema } from './instruction/schema'

/**
 * What the panel shows and the background keeps per site (storage/conversation.ts). The schemas
 * are what a stored history is checked against on every read, so the types come from them.
 */
export const StepStatusSchema = z.enum(['pending', 'running', 'ok', 'failed', 'skipped'])
export type StepStatus = z.infer<typeof StepStatusSchema>

export const StepViewSchema = z.object({
  index: z.number(),
  instruction: InstructionSchema,
  status: StepStatusSchema,
  /** One line for the person: what happened, or what went wrong and what to do. */
  detail: z.string().optional(),
  durationMs: z.number().optional(),
  /** Which locator rung found the element (target_id, selector, semantic, ...). */
  rung: z.string().optional(),
})
export type StepView = z.infer<typeof StepViewSchema>

export const MessageRoleSchema = z.enum(['user', 'assistant', 'system'])
export type MessageRole = z.infer<typeof MessageRoleSchema>

export const ChatMessageSchema = z.object({
  id: z.string(),
  role: MessageRoleSchema,
  text: z.string(),
  ts: z.number(),
  /** Steps of the run this assistant message belongs to. */
  steps: z.array(StepViewSchema).optional(),
  /** `error` messages are shown in the error style with a hint. */
  kind: z.enum(['info', 'error', 'confirm']).optional(),
  hint: z.string().optional(),
  /** Assistant answers are markdown, rendered sanitised. */
  markdown: z.boolean().optional(),
  /** Tokens the run used; a replay from the cache shows `replayed` and none. */
  usage: z.object({ input: z.number(), output: z.number(), costUsd: z.number().optional() }).optional(),
  replayed: z.boolean().optional(),
  /** A risky step waiting for the person's OK. */
  confirm: z.object({ runId: z.string(), step: z.number(), reason: z.string(), state: z.enum(['pending', 'allowed', 'denied']) }).optional(),
})
export type ChatMessage = z.infer<typeof ChatMessageSchema>

export const RunStatusSchema = z.enum(['planning', 'running', 'waiting', 'done', 'failed', 'stopped'])
export type RunStatus = z.infer<typeof RunStatusSchema>

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
/**
 * The longest answer a message keeps (issue 16): the rest of a longer one is dropped and the
 * message says so (hint `ANSWER_CUT`). Some 25,000 tokens, beyond any answer a person reads in a
 * side panel, and a bound on what one streamed answer costs to store and draw (docs/agent.md).
 */
export const kMaxAnswerChars = 100_000
