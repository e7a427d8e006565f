import { z } from 'zod'
import type { SafeParseResult } from '../result'

/**
 * The flow format: seed 004 §3 (version, metadata, variables, steps with action, params,
 * selectors {primary, fallback[]}, element_snapshot, wait_after, retry), as recorded from a
 * person's own actions or saved from an agent run, and replayed with no LLM (docs/flows.md).
 *
 * Parse, then validate, then run (STYLE.md): `parseFlow` turns JSON text or a plain object into a
 * typed Flow or throws a FlowError with the path and the allowed values; `safeParseFlow` returns.
 */

export const kFlowVersion = '1.0'

/**
 * Selector levels in order of resilience (issue 8): what a redesign is least likely to change
 * comes first. A replay reports the level that matched; positional levels (css, xpath, index) are
 * never allowed to pick among elements a semantic level finds equally (see dom/recorder/resolve).
 */
export const kSelectorLevels = ['testid', 'role', 'label', 'placeholder', 'text', 'id', 'css', 'xpath', 'index'] as const
export type SelectorLevel = (typeof kSelectorLevels)[number]
/** Levels that name the element by what it means; the others by where it is. */
export const kSemanticLevels: ReadonlySet<SelectorLevel> = new Set(['testid', 'role', 'label', 'placeholder', 'text', 'id'])

export const kFlowActions = ['navigate', 'click', 'dblclick', 'fill', 'select', 'check', 'uncheck', 'press', 'hover', 'scroll', 'wait'] as const
export type FlowAction = (typeof kFlowActions)[number]
/** Actions that act on an element, and so need `selectors`. */
export const kTargetActions: ReadonlySet<FlowAction> = new Set(['click', 'dblclick', 'fill', 'select', 'check', 'uncheck', 'hover'])

/** §4.4.8.2.2 of seed 000: nothing waits longer than the registry's action ceiling. */
export const kMaxFlowTimeoutMs = 300_000
/** Steps a recording keeps; a flow longer than the registry's action limit cannot become a pack action. */
export const kMaxFlowSteps = 100
/** Seed 004 §4 "retry": more than a few attempts hides a broken flow instead of healing it. */
export const kMaxFlowRetry = 5
/** Default time one step may take to find its element (seed 004 §6.1 `timeout: float = 5.0`). */
export const kDefaultStepTimeoutMs = 5_000

export const kVariableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/

export const FlowSelectorSchema = z.strictObject({
  type: z.enum(kSelectorLevels),
  /** A locator the page's engines read: `testid:…`, `role:button[name="Save"]`, `css:…`, `xpath:…`, `text:…`. */
  value: z.string().min(1).max(2_000),
  /** `index` level: position among the elements `value` matches. */
  index: z.number().int().min(0).optional(),
  /** `index` level: hash of the text around the element when it was recorded (seed 004 §3.2). */
  context_hash: z.string().regex(/^[0-9a-f]{8}$/).optional(),
})
export type FlowSelector = z.infer<typeof FlowSelectorSchema>

export const FlowSelectorsSchema = z.strictObject({
  primary: FlowSelectorSchema,
  fallback: z.array(FlowSelectorSchema).max(12).default([]),
})
export type FlowSelectors = z.infer<typeof FlowSelectorsSchema>

/** What the element looked like when it was recorded (seed 004 §3.1 element_snapshot). */
export const ElementSnapshotSchema = z.strictObject({
  tag: z.string().min(1),
  role: z.string().optional(),
  /** The accessible name, or the visible text, cut to 100 characters. */
  text: z.string().max(200).optional(),
  /** Key attributes only: name, type, placeholder, aria-label, href, data-testid, title, for. */
  attributes: z.record(z.string(), z.string().max(500)).default({}),
})
export type ElementSnapshot = z.infer<typeof ElementSnapshotSchema>

/**
 * A variable: a plain value, or a source `${env:NAME}`, `${secret:KEY}`, `${arg:N}`,
 * `${prompt:message}` (seed 004 §3.3). `secret: true` keeps its value out of every log, trace,
 * history and export; a recorded secret never has a literal `value`.
 */
export const VariableSchema = z.strictObject({
  value: z.string().max(4_096).optional(),
  secret: z.boolean().optional(),
  description: z.string().max(500).optional(),
})
export type FlowVariable = z.infer<typeof VariableSchema>

export const FlowStepSchema = z
  .strictObject({
    step_id: z.number().int().positive(),
    action: z.enum(kFlowActions),
    /**
     * url (navigate), value (fill, select — `${name}` reads a variable), key (press), button and
     * count (click), direction and amount (scroll), ms (wait).
     */
    params: z.record(z.string(), z.union([z.string().max(4_096), z.number(), z.boolean()])).default({}),
    selectors: FlowSelectorsSchema.optional(),
    element_snapshot: ElementSnapshotSchema.optional(),
    /** ms to wait after the step, for pages that answer late. */
    wait_after: z.number().int().min(0).max(kMaxFlowTimeoutMs).optional(),
    /** Extra attempts after a failure. */
    retry: z.number().int().min(0).max(kMaxFlowRetry).optional(),
    /** ms the step may take to find and act on its element. */
    timeout: z.number().int().positive().max(kMaxFlowTimeoutMs).optional(),
    /** What a person would call the element; the repair prompt and the trace use it. */
    description: z.string().max(500).optional(),
  })
  .superRefine((step, ctx) => {
    if (kTargetActions.has(step.action) && !step.selectors) ctx.addIssue({ code: 'custom', path: ['selectors'], message: `a ${step.action} step needs selectors` })
    if (step.action === 'navigate' && typeof step.params.url !== 'string') ctx.addIssue({ code: 'custom', path: ['params', 'url'], message: 'a navigate step needs params.url' })
    if (step.action === 'press' && typeof step.params.key !== 'string') ctx.addIssue({ code: 'custom', path: ['params', 'key'], message: 'a press step needs params.key' })
    if ((step.action === 'fill' || step.action === 'select') && typeof step.params.value !== 'string') ctx.addIssue({ code: 'custom', path: ['params', 'value'], message: `a ${step.action} step needs params.value` })
  })
export type FlowStep = z.infer<typeof FlowStepSchema>

/** Per-step healing record (issue 8 "per-step heal counts"): the last outcomes, newest last. */
export const StepStatsSchema = z.strictObject({
  runs: z.number().int().min(0),
  heals: z.number().int().min(0),
  /** true = this run needed a fallback or a repair for the step; at most kRecentRuns kept. */
  recent: z.array(z.boolean()).max(10),
})
export type StepStats = z.infer<typeof StepStatsSchema>

export const FlowStatsSchema = z.strictObject({
  runs: z.number().int().min(0),
  healed_runs: z.number().int().min(0),
  steps: z.record(z.string(), StepStatsSchema).default({}),
})
export type FlowStats = z.infer<typeof FlowStatsSchema>

export const FlowMetadataSchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().max(2_000).optional(),
  created_at: z.string(),
  /** recording: the person's own actions; agent: a finished agent run. */
  source: z.enum(['recording', 'agent', 'manual']).default('manual'),
  /** The agent request the flow came from (seed 004 `source_task`). */
  source_task: z.string().max(2_000).optional(),
  start_url: z.string().max(4_096).optional(),
  total_steps: z.number().int().min(0).optional(),
})
export type FlowMetadata = z.infer<typeof FlowMetadataSchema>

export const FlowSchema = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(kFlowVersion),
    metadata: FlowMetadataSchema,
    variables: z.record(z.string().regex(kVariableNamePattern), VariableSchema).default({}),
    steps: z.array(FlowStepSchema).min(1).max(kMaxFlowSteps),
    stats: FlowStatsSchema.optional(),
  })
  .superRefine((flow, ctx) => {
    const ids = new Set<number>()
    flow.steps.forEach((s, i) => {
      if (ids.has(s.step_id)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'step_id'], message: `step_id ${s.step_id} is used twice` })
      ids.add(s.step_id)
      for (const [key, v] of Object.entries(s.params)) {
        if (typeof v !== 'string') continue
        for (const m of v.matchAll(/\$\{([^}]*)\}/g)) {
          const ref = m[1]
          if (!ref.includes(':') && !(ref in flow.variables)) {
            ctx.addIssue({ code: 'custom', path: ['steps', i, 'params', key], message: `"\${${ref}}" names no variable; variables: ${Object.keys(flow.variables).join(', ') || '(none)'}` })
          }
        }
      }
    })
  })
export type Flow = z.infer<typeof FlowSchema>
/** What a caller may write: defaults not yet filled in. */
export type FlowInput = z.input<typeof FlowSchema>

export class FlowError extends Error {
  override name = 'FlowError'
  constructor(
    readonly code: 'FLOW_JSON' | 'FLOW_INVALID',
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message)
  }
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(root)'
}

/** JSON text or an object → a typed Flow; throws FlowError listing every problem with its path. */
export function parseFlow(input: string | unknown): Flow {
  let data: unknown = input
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input)
    } catch (e) {
      throw new FlowError('FLOW_JSON', `The flow is not valid JSON: ${(e as Error).message}`)
    }
  }
  const r = FlowSchema.safeParse(data)
  if (r.success) return r.data
  const issues = r.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message }))
  throw new FlowError('FLOW_INVALID', `The flow is invalid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues)
}

export function safeParseFlow(input: string | unknown): SafeParseResult<Flow, FlowError> {
  try {
    return { success: true, data: parseFlow(input) }
  } catch (e) {
    if (e instanceof FlowError) return { success: false, error: e }
    throw e
  }
}

/** The JSON Schema of the flow format (draft 2020-12), for editors and other tools. */
export function flowJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(FlowSchema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>
}

/** Every selector of a step, primary first. */
export function alternativesOf(selectors: FlowSelectors): FlowSelector[] {
  return [selectors.primary, ...selectors.fallback]
}
