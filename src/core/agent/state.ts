import { z } from 'zod'
import { RunStatusSchema, type RunStatus } from '../chat'
import { InstructionSchema } from '../instruction/schema'
import { RecordedTargetSchema } from '../flows/record'
import { AttachmentInfoSchema } from './attachments'
import { RunTabSchema } from './tabs'
import { PageSeenSchema, TakeoverReasonSchema } from './takeover'

/** A planner message as kept between iterations (secrets already redacted). */
export const PlannerMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.string() })
/** `image`: the marked screenshot that goes with this turn only; it is never kept in the run's memory. */
export type PlannerMessage = z.infer<typeof PlannerMessageSchema> & { image?: { data: string; mediaType: string } }

/**
 * Everything a run needs to go on after a navigation or a worker restart. The background keeps
 * it in the extension's session storage (one key per tab); the run (run.ts) is its only writer.
 */
export const RunStateSchema = z.object({
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
  /**
   * By index into `executed`: the element each step acted on, as the page described it just
   * before acting (selectors and snapshot), for "Save last run as flow".
   */
  targets: z.record(z.string(), RecordedTargetSchema).optional(),
  /**
   * By index into `executed`: the page's fingerprint after a click or key (ExecSuccess.after), so
   * the loop guard calls a repeat a loop only when the page did not change between the repeats.
   */
  after: z.record(z.string(), z.string()).optional(),
  /**
   * Steps counted against the step limit: every executed one, a pack action's page steps included,
   *so a run resumed after a worker restart goes on counting from here.
   */
  stepsUsed: z.number().int().nonnegative().optional(),
  /** Indices into `executed` of steps the person was asked about first: risky by their own account (provenance.ts). */
  askedSteps: z.array(z.number().int().nonnegative()).optional(),
  /** Whether any step typed a literal value into a password field: such a run is not cached. */
  typedSecretLiteral: z.boolean(),
  planner: z.array(PlannerMessageSchema),
  usage: z.object({ input: z.number(), output: z.number() }),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  replay: z.boolean(),
  noCache: z.boolean(),
  cacheKey: z.string().optional(),
  /**
   * The question the run waits on (an `ask` step, docs/agent.md "Asking the person"): kept so that
   * a worker restarted meanwhile waits on it again instead of ending the run.
   */
  pendingAsk: z
    .object({
      cardId: z.string(),
      step: z.number().int().nonnegative(),
      question: z.string(),
      choices: z.array(z.string()).optional(),
      /**
       * The person has the wheel (docs/agent.md, "Taking over"): why, and the page as it was when
       * they took it, so Resume can tell the model what changed — after a worker restart too.
       */
      takeover: z
        .object({
          reason: TakeoverReasonSchema,
          before: PageSeenSchema,
          pausedBefore: z
            .object({ index: z.number().int().nonnegative(), description: z.string().optional() })
            .optional(),
          challenge: z.enum(['code', 'captcha']).optional(),
        })
        .optional(),
    })
    .optional(),
  /** The code and CAPTCHA pages already handed to the person once (kind and address): not offered again on their own. */
  handedOver: z.array(z.string()).optional(),
  /** How the last screenshot's pixels map onto the page, for steps that name a point in it (docs/agent.md, "Screenshots"). */
  shot: z
    .object({
      width: z.number(),
      height: z.number(),
      viewWidth: z.number(),
      viewHeight: z.number(),
      scrollX: z.number(),
      scrollY: z.number(),
    })
    .optional(),
  /** The run's tabs (docs/agent.md, "Tabs"): numbered in order, the first where it started (core/agent/tabs.ts). */
  tabs: z.array(RunTabSchema).optional(),
  /** The tab group that keeps the run's tabs together, where the browser has them. */
  tabGroup: z.number().optional(),
  /** The model asked for a screenshot with the next read; the last one found the listing poor. */
  shotAsked: z.boolean().optional(),
  shotPoor: z.boolean().optional(),
  /** Screenshots sent in this run. */
  shots: z.number().int().nonnegative().optional(),
  /** Whether what was asked is done, and its evidence (verdict.ts); set when the run ends. */
  verdict: z
    .object({
      done: z.boolean(),
      kind: z.enum(['verified', 'answered', 'judged', 'unverified', 'completed', 'not-done']),
      evidence: z
        .object({ text: z.array(z.string()).optional(), url: z.string().optional(), element: z.string().optional() })
        .optional(),
      missing: z.array(z.string()).optional(),
    })
    .optional(),
  /** Files the person attached to the request: names, sizes, types; the bytes are the attachments port's. */
  attachments: z.array(AttachmentInfoSchema).optional(),
  /** The JSON Schema of the rows the person asked for (docs/extraction.md); the run then ends with them. */
  shape: z.record(z.string(), z.unknown()).optional(),
})
export type RunState = z.infer<typeof RunStateSchema>

/** A run in one of these states has work left; the others are final. */
export function isActive(status: RunStatus | string): boolean {
  return status === 'planning' || status === 'running' || status === 'waiting'
}
