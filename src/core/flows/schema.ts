import { z } from 'zod'
import type { SafeParseResult } from '../result'
import {
  flowStep,
  flowStepEnds,
  flowStepReturns,
  kFlowActionNames,
  kFlowSteps,
  kVariableNamePattern,
  type FlowActionName,
} from '../vocabulary'
import type { FailureCode } from '../failure'

/**
 * The flow format (version, metadata, variables, steps with action, params,
 * selectors {primary, fallback[]}, element_snapshot, wait_after, retry), as recorded from a
 * person's own actions or saved from an agent run, and replayed with no LLM (docs/flows.md).
 *
 * Parse, then validate, then run (STYLE.md): `parseFlow` turns JSON text or a plain object into a
 * typed Flow or throws a FlowError with the path and the allowed values; `safeParseFlow` returns.
 */

export const kFlowVersion = '1.0'

/**
 * Selector levels in order of resilience: what a redesign is least likely to change
 * comes first. A replay reports the level that matched; positional levels (css, xpath, index) are
 * never allowed to pick among elements a semantic level finds equally (see dom/recorder/resolve).
 */
export const kSelectorLevels = [
  'testid',
  'role',
  'label',
  'placeholder',
  'text',
  'id',
  'css',
  'xpath',
  'index',
] as const
export type SelectorLevel = (typeof kSelectorLevels)[number]
/** Levels that name the element by what it means; the others by where it is. */
export const kSemanticLevels: ReadonlySet<SelectorLevel> = new Set([
  'testid',
  'role',
  'label',
  'placeholder',
  'text',
  'id',
])

/** The step actions, each a descriptor in src/core/vocabulary.ts (`kFlowSteps`). */
export const kFlowActions = kFlowActionNames
export type FlowAction = FlowActionName
/** Actions that act on an element, and so need `selectors`. */
export const kTargetActions: ReadonlySet<FlowAction> = new Set(kFlowSteps.filter((d) => d.element).map((d) => d.name))
/**
 * Steps that check the page instead of acting on it: `expect` is another name for
 * `verify`, for people who write Playwright tests. A replay that cannot check its outcome passes on a
 * wrong page, so `validateFlow` warns about a flow without one.
 */
export const kAssertActions: ReadonlySet<FlowAction> = new Set(kFlowSteps.filter((d) => d.check).map((d) => d.name))
/** What a check looks at: one of these params per verify step. */
export const kCheckKinds = ['text', 'url', 'state', 'value', 'count'] as const
export type CheckKind = (typeof kCheckKinds)[number]
/** The element states a `verify {state}` can require. */
export const kCheckStates = ['visible', 'hidden', 'enabled', 'disabled', 'checked', 'unchecked'] as const
export type CheckState = (typeof kCheckStates)[number]

/** A flow step waits no longer than the registry's action ceiling. */
export const kMaxFlowTimeoutMs = 300_000
/** Steps a recording keeps; a flow longer than the registry's action limit cannot become a pack action. */
export const kMaxFlowSteps = 100
/** Retries: more than a few attempts hides a broken flow instead of healing it. */
export const kMaxFlowRetry = 5
/** Default time one step may take to find its element. */
export const kDefaultStepTimeoutMs = 5_000

export const FlowSelectorSchema = z.strictObject({
  type: z.enum(kSelectorLevels),
  /** A locator the page's engines read: `testid:…`, `role:button[name="Save"]`, `css:…`, `xpath:…`, `text:…`. */
  value: z.string().min(1).max(2_000),
  /** `index` level: position among the elements `value` matches. */
  index: z.number().int().min(0).optional(),
  /** `index` level: hash of the text around the element when it was recorded. */
  context_hash: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
})
export type FlowSelector = z.infer<typeof FlowSelectorSchema>

export const FlowSelectorsSchema = z.strictObject({
  primary: FlowSelectorSchema,
  fallback: z.array(FlowSelectorSchema).max(12).default([]),
})
export type FlowSelectors = z.infer<typeof FlowSelectorsSchema>

/** What the element looked like when it was recorded. */
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
 * `${prompt:message}`. `secret: true` keeps its value out of every log, trace,
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
     * count (click), direction and amount (scroll), ms (wait), action and that action's own params (run);
     * verify/expect: exactly one of text, url, state, value, count (see kCheckKinds); extract: name
     * and optional attribute; tab: index or url, or neither for the tab the previous step opened;
     * done: text and success; upload: file, naming `${file:…}` variables (`${doc}`).
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
    if (kTargetActions.has(step.action) && !step.selectors)
      ctx.addIssue({ code: 'custom', path: ['selectors'], message: `a ${step.action} step needs selectors` })
    for (const issue of flowStep(step.action)?.params?.(step.params, { selectors: !!step.selectors }) ?? [])
      ctx.addIssue({ code: 'custom', ...issue })
    if (kAssertActions.has(step.action)) checkIssues(step, ctx)
  })

/** A verify step names exactly one thing to check, with what that check needs. */
function checkIssues(
  step: { action: string; params: Record<string, string | number | boolean>; selectors?: unknown },
  ctx: z.RefinementCtx,
): void {
  const kinds = kCheckKinds.filter((k) => step.params[k] !== undefined)
  if (kinds.length !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['params'],
      message: `a ${step.action} step checks exactly one of ${kCheckKinds.join(', ')}${kinds.length ? `; it has ${kinds.join(', ')}` : ''}`,
    })
    return
  }
  const kind = kinds[0]
  const v = step.params[kind]
  if ((kind === 'text' || kind === 'url' || kind === 'value') && typeof v !== 'string')
    ctx.addIssue({ code: 'custom', path: ['params', kind], message: `params.${kind} is text` })
  if (kind === 'text' && v === '')
    ctx.addIssue({
      code: 'custom',
      path: ['params', 'text'],
      message: 'params.text is the text the page must show; it is empty',
    })
  if (kind === 'state' && !(kCheckStates as readonly unknown[]).includes(v))
    ctx.addIssue({
      code: 'custom',
      path: ['params', 'state'],
      message: `params.state is one of ${kCheckStates.join(', ')}`,
    })
  if (kind === 'count' && !(Number.isInteger(v) && Number(v) >= 0))
    ctx.addIssue({ code: 'custom', path: ['params', 'count'], message: 'params.count is a whole number from 0' })
  // The page's text and its address need no element; a state, a value or a count is of one.
  if ((kind === 'state' || kind === 'value' || kind === 'count') && !step.selectors)
    ctx.addIssue({
      code: 'custom',
      path: ['selectors'],
      message: `a ${step.action} step that checks ${kind} needs selectors`,
    })
  if (kind === 'url' && step.selectors)
    ctx.addIssue({
      code: 'custom',
      path: ['selectors'],
      message: `a ${step.action} step that checks the url takes no selectors`,
    })
}
export type FlowStep = z.infer<typeof FlowStepSchema>

/** Per-step healing record: the last outcomes, newest last. */
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
  /** The agent request the flow came from. */
  source_task: z.string().max(2_000).optional(),
  start_url: z.string().max(4_096).optional(),
  total_steps: z.number().int().min(0).optional(),
  /**
   * An agent run's steps that act on what a page could have asked for (core/agent/provenance.ts):
   * the model wrote them with the page in front of it. Empty or absent for a person's recording.
   */
  page_shaped: z
    .array(z.strictObject({ step: z.number().int().min(0), why: z.string().max(40), text: z.string().max(500) }))
    .max(1_000)
    .optional(),
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
    const returned = new Set<string>()
    flow.steps.forEach((s, i) => {
      if (ids.has(s.step_id))
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'step_id'], message: `step_id ${s.step_id} is used twice` })
      ids.add(s.step_id)
      if (flowStepReturns(s.action) && typeof s.params.name === 'string') {
        if (returned.has(s.params.name))
          ctx.addIssue({
            code: 'custom',
            path: ['steps', i, 'params', 'name'],
            message: `"${s.params.name}" is returned by an earlier extract step too`,
          })
        returned.add(s.params.name)
      }
      if (flowStep(s.action)?.filesIn === 'file' && typeof s.params.file === 'string') {
        for (const m of s.params.file.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
          const v = flow.variables[m[1]]
          if (v && !/^\$\{file:[^}]+\}$/.test(v.value ?? ''))
            ctx.addIssue({
              code: 'custom',
              path: ['steps', i, 'params', 'file'],
              message: `"\${${m[1]}}" is not a file variable: give it the value "\${file:path}"`,
            })
        }
      }
      for (const [key, v] of Object.entries(s.params)) {
        if (typeof v !== 'string') continue
        for (const m of v.matchAll(/\$\{([^}]*)\}/g)) {
          const ref = m[1]
          if (!ref.includes(':') && !(ref in flow.variables)) {
            ctx.addIssue({
              code: 'custom',
              path: ['steps', i, 'params', key],
              message: `"\${${ref}}" names no variable; variables: ${Object.keys(flow.variables).join(', ') || '(none)'}`,
            })
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
    readonly code: Extract<FailureCode, 'FLOW_JSON' | 'FLOW_INVALID'>,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message)
  }
}

function pathOf(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
      .join('')
      .replace(/^\./, '') || '(root)'
  )
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
  throw new FlowError(
    'FLOW_INVALID',
    `The flow is invalid: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    issues,
  )
}

export function safeParseFlow(input: string | unknown): SafeParseResult<Flow, FlowError> {
  try {
    return { success: true, data: parseFlow(input) }
  } catch (e) {
    if (e instanceof FlowError) return { success: false, error: e }
    throw e
  }
}

export interface FlowValidation {
  valid: boolean
  flow?: Flow
  /** What makes the flow unusable: the replay refuses it. */
  errors: { path: string; message: string }[]
  /** What makes a green replay prove less than it seems; the flow still runs. */
  warnings: { path: string; message: string }[]
}

/** What `validateFlow` warns about, so a test can name it. */
export const kNoAssertionWarning =
  'The flow checks nothing: its replay passes even on a wrong page. Add a verify step (text, url, state, value or count), or pick "Check this" while recording.'

/**
 * The validator behind `ava validate` and the panel's save: the errors of parseFlow,
 * and warnings about a flow that cannot fail where a QA engineer expects it to.
 */
export function validateFlow(input: string | unknown): FlowValidation {
  const parsed = safeParseFlow(input)
  if (!parsed.success)
    return {
      valid: false,
      errors: parsed.error.issues.length ? parsed.error.issues : [{ path: '(root)', message: parsed.error.message }],
      warnings: [],
    }
  const flow = parsed.data
  const warnings: FlowValidation['warnings'] = []
  if (!flow.steps.some((s) => kAssertActions.has(s.action)))
    warnings.push({ path: 'steps', message: kNoAssertionWarning })
  const done = flow.steps.findIndex((s) => flowStepEnds(s.action))
  if (done >= 0 && done < flow.steps.length - 1)
    warnings.push({
      path: `steps[${done + 1}]`,
      message: `Steps after the done step (step_id ${flow.steps[done].step_id}) never run.`,
    })
  return { valid: true, flow, errors: [], warnings }
}

/** The JSON Schema of the flow format (draft 2020-12), for editors and other tools. */
export function flowJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(FlowSchema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<
    string,
    unknown
  >
}

/** Every selector of a step, primary first. */
export function alternativesOf(selectors: FlowSelectors): FlowSelector[] {
  return [selectors.primary, ...selectors.fallback]
}
