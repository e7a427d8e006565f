import { z } from 'zod'
import { InstructionSchema } from './instruction/schema'
import { kLegacyKeys, kRecoveries } from './failure'

/**
 * What the panel shows and the background keeps per site (storage/conversation.ts). The schemas
 * are what a stored history is checked against on every read, so the types come from them.
 */
/**
 * A sentence for a person as a locale key and its parameters: core says what
 * happened, the panel says it in the UI language (src/core/locales). The English beside it (a
 * message's `text`, a step's `detail`) stays for logs, Details and the planner (a model).
 */
export const MsgSchema = z.preprocess(
  // A history written before a failure code was renamed names the old key (src/core/failure.ts).
  (v) => {
    const key = (v as { key?: unknown } | null)?.key
    return typeof key === 'string' && Object.hasOwn(kLegacyKeys, key) ? { ...(v as object), key: kLegacyKeys[key] } : v
  },
  z.object({ key: z.string(), params: z.record(z.string(), z.union([z.string(), z.number()])).optional() }),
)
export type Msg = z.infer<typeof MsgSchema>

/** A message's hint under an answer cut at kMaxAnswerChars (said by `error.ANSWER_CUT`); any other hint is a failure code. */
export const kAnswerCutHint = 'ANSWER_CUT'

/** What the panel offers on a failed outcome (the failure list's `recovery`). */
export const RecoverySchema = z.enum(kRecoveries)

export const StepStatusSchema = z.enum(['pending', 'running', 'ok', 'failed', 'skipped'])
export type StepStatus = z.infer<typeof StepStatusSchema>

export const StepViewSchema = z.object({
  index: z.number(),
  instruction: InstructionSchema,
  status: StepStatusSchema,
  /** What happened, as the page reported it (English): shown behind the step's "details" toggle. */
  detail: z.string().optional(),
  /** What went wrong, in the person's language; when absent the step's row says nothing more. */
  msg: MsgSchema.optional(),
  durationMs: z.number().optional(),
  /** Which locator rung found the element (target_id, selector, semantic, ...). */
  rung: z.string().optional(),
  /** The row's name in the person's language, when the model gave none Ava can show (an invalid instruction). */
  title: MsgSchema.optional(),
  /** What a `collect` step gathered, as a table the person can save (CSV, JSON). */
  table: z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.string())) }).optional(),
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
  kind: z.enum(['info', 'error', 'confirm', 'ask']).optional(),
  hint: z.string().optional(),
  /** The text in the person's language; `text` is then the English fallback (CLI, logs, the planner's memory). */
  msg: MsgSchema.optional(),
  /** Raw text behind a "details" toggle: the model's reply, zod issues, the provider's or page's own words. */
  details: z.string().optional(),
  /** Buttons under a failed outcome. */
  recovery: z.array(RecoverySchema).optional(),
  /** The model's reasoning before its answer, shown collapsed as "thinking", never as the answer. */
  thinking: z.string().optional(),
  /** A passing note while the model has not answered yet (a local model loading). */
  notice: MsgSchema.optional(),
  /** Assistant answers are markdown, rendered sanitised. */
  markdown: z.boolean().optional(),
  /** Tokens the run used; a replay from the cache shows `replayed` and none. */
  usage: z.object({ input: z.number(), output: z.number(), costUsd: z.number().optional() }).optional(),
  replayed: z.boolean().optional(),
  /**
   * The answer checked against what the run read (src/core/answer/grounding.ts): its claims with
   * their sources, and the numbers and names in it that were read nowhere.
   */
  /** The rows of the shape the person asked for, with where each value was read and what did not fit (docs/extraction.md). */
  extraction: z
    .object({
      fields: z.array(z.string()),
      rows: z.array(z.record(z.string(), z.unknown())),
      sources: z.array(z.record(z.string(), z.object({ item: z.string(), part: z.number(), text: z.string() }))),
      problems: z.array(
        z.object({
          row: z.number(),
          field: z.string(),
          issue: z.enum(['missing', 'type', 'schema']),
          text: z.string().optional(),
          message: z.string(),
        }),
      ),
      absent: z.array(z.string()),
    })
    .optional(),
  grounding: z
    .object({
      claims: z.array(
        z.object({
          text: z.string(),
          sources: z.array(z.object({ ref: z.string(), kind: z.enum(['element', 'item']), read: z.boolean() })),
          status: z.enum(['sourced', 'unsourced', 'unknown']),
        }),
      ),
      unread: z.array(z.object({ kind: z.enum(['number', 'name']), text: z.string() })),
    })
    .optional(),
  /** A risky step waiting for the person's OK. */
  confirm: z
    .object({
      runId: z.string(),
      step: z.number(),
      reason: z.string(),
      /** `closed`: it no longer waited when answered (its worker had restarted); nothing was done. */
      state: z.enum(['pending', 'allowed', 'denied', 'closed']),
      /** The reason in the person's language (`reason` is its English). */
      msg: MsgSchema.optional(),
      /** The run's message: the card is drawn under its step there, where it was asked, not after the answer. */
      messageId: z.string().optional(),
      /** A proposal to review (a repaired cached plan): Accept / Reject, not Allow / Cancel. */
      review: z.boolean().optional(),
    })
    .optional(),
  /**
   * The model's question to the person (an `ask` step): open until they answer in their own words,
   * pick a choice or press Continue; closed when the run ended first.
   */
  ask: z
    .object({
      runId: z.string(),
      step: z.number(),
      question: z.string(),
      choices: z.array(z.string()).optional(),
      state: z.enum(['pending', 'answered', 'closed']),
      /** What the person answered; absent for Continue. */
      answer: z.string().optional(),
      /** The run's message: the card is drawn under its step there. */
      messageId: z.string().optional(),
      /** The person has the wheel: the card offers Resume and Stop (docs/agent.md, "Taking over"). */
      takeover: z.enum(['paused', 'asked', 'challenge']).optional(),
      /** With `takeover: challenge`: what the page asks for. */
      challenge: z.enum(['code', 'captcha']).optional(),
    })
    .optional(),
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

/** Whitespace-only input is refused. */
export function isSendable(text: string): boolean {
  return text.trim().length > 0
}

export const kMaxRequestChars = 4_000 // a request longer than this is a paste, not an instruction
/**
 * The longest answer a message keeps: the rest of a longer one is dropped and the
 * message says so (hint `ANSWER_CUT`). Some 25,000 tokens, beyond any answer a person reads in a
 * side panel, and a bound on what one streamed answer costs to store and draw (docs/agent.md).
 */
export const kMaxAnswerChars = 100_000
