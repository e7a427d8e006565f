import { z } from 'zod'
import {
  ElementSnapshotSchema,
  FlowSelectorsSchema,
  kCheckStates,
  kFlowVersion,
  type Flow,
  type FlowStep,
  type FlowVariable,
} from './schema'
import { looksSecret, variableName } from './variables'

/**
 * From what the page recorder saw (one RawEvent per click, keystroke, change, scroll or load) to
 * the steps of a flow, with the noise a person makes dropped: clicks that only focus a
 * field, keystrokes merged into one fill, scrolls that loaded nothing, navigations that were only
 * the consequence of a click, and Tab between fields.
 */

/** The element an event happened on, described when it happened (it may be gone a moment later). */
export const RecordedTargetSchema = z.object({
  selectors: FlowSelectorsSchema,
  snapshot: ElementSnapshotSchema,
  /** Identity of the element within one page load, to merge events on the same field. */
  key: z.string(),
  /** What a person would call it ("User name field"); also the hint for a variable name. */
  description: z.string(),
  /** The field's label, name, type and autocomplete, for naming variables and spotting secrets. */
  field: z
    .object({
      type: z.string().optional(),
      name: z.string().optional(),
      autocomplete: z.string().optional(),
      label: z.string().optional(),
    })
    .optional(),
})
export type RecordedTarget = z.infer<typeof RecordedTargetSchema>

/** What the page's recorder sends, one per action; checked again where a recording is stored. */
export const RawEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('click'),
    t: z.number(),
    url: z.string(),
    target: RecordedTargetSchema,
    button: z.enum(['left', 'right', 'middle']).optional(),
    count: z.number().optional(),
    role: z.enum(['field', 'toggle', 'select', 'other']).optional(),
  }),
  z.object({
    kind: z.literal('input'),
    t: z.number(),
    url: z.string(),
    target: RecordedTargetSchema,
    value: z.string().optional(),
    secret: z.boolean(),
  }),
  z.object({
    kind: z.literal('change'),
    t: z.number(),
    url: z.string(),
    target: RecordedTargetSchema,
    control: z.enum(['select', 'checkbox', 'radio', 'text']),
    value: z.string().optional(),
    checked: z.boolean().optional(),
    secret: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('key'),
    t: z.number(),
    url: z.string(),
    key: z.string(),
    target: RecordedTargetSchema.optional(),
    inField: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('scroll'),
    t: z.number(),
    url: z.string(),
    direction: z.enum(['up', 'down']),
    grew: z.boolean(),
  }),
  z.object({ kind: z.literal('load'), t: z.number(), url: z.string() }),
  // The pointer rested on an element whose hover showed what the next click lands on (a menu).
  z.object({ kind: z.literal('hover'), t: z.number(), url: z.string(), target: RecordedTargetSchema }),
  // "Check this": the element's text, value or state as it is now, to assert at replay.
  z.object({
    kind: z.literal('check'),
    t: z.number(),
    url: z.string(),
    target: RecordedTargetSchema,
    check: z.union([
      z.strictObject({ text: z.string().min(1).max(200) }),
      z.strictObject({ value: z.string().max(4_096) }),
      z.strictObject({ state: z.enum(kCheckStates) }),
    ]),
  }),
  z.object({
    kind: z.literal('navigate'),
    t: z.number(),
    url: z.string(),
    cause: z.enum(['typed', 'link', 'reload', 'back_forward', 'other']),
  }),
])
export type RawEvent = z.infer<typeof RawEventSchema>

/** A navigation this soon after a click or a key press was that action's doing, not a step. */
export const kCausedNavigationMs = 3_000
/** Keys a person presses to move between fields: the replay addresses each field directly. */
const kNavigationKeys = new Set(['Tab', 'Shift+Tab'])
/** Keys that edit text inside a field; the field's final value says all of it. */
const kEditingKey =
  /^(Backspace|Delete|ArrowLeft|ArrowRight|ArrowUp|ArrowDown|Home|End|Shift\+\w+|(Control|Meta)\+[acvxzy])$/i

type Draft = {
  step: Omit<FlowStep, 'step_id'>
  /**
   * The run of events this step was made from: one kind of event on one control (`text <key>`).
   * The next event of the same run updates this step instead of adding one.
   */
  series?: string
  secret?: boolean
  hint?: string
  fieldInfo?: RecordedTarget['field']
  typed?: string
}

/** The noise-reduced steps, without ids or variables yet. */
export function reduceEvents(events: readonly RawEvent[]): Draft[] {
  const out: Draft[] = []
  const last = () => out[out.length - 1]
  /** A run of one kind of event on one element (`key` is the element's identity within its page load). */
  const seriesOf = (kind: string, t: RecordedTarget) => `${kind} ${t.key}`
  /** The last step, when it was made from `series`. */
  const lastOf = (series: string): Draft | undefined => (last()?.series === series ? last() : undefined)
  let lastActionAt = -Infinity
  const target = (t: RecordedTarget) => ({
    selectors: t.selectors,
    element_snapshot: t.snapshot,
    description: t.description,
  })
  for (const e of events) {
    if (e.kind === 'load') continue
    if (e.kind === 'hover') {
      // A hover the next click needs: kept once, however long the pointer stays in the menu.
      const series = seriesOf('hover', e.target)
      if (!lastOf(series)) out.push({ step: { action: 'hover', params: {}, ...target(e.target) }, series })
      continue
    }
    if (e.kind === 'check') {
      out.push({ step: { action: 'verify', params: { ...e.check }, ...target(e.target) } })
      continue
    }
    if (e.kind === 'navigate') {
      // A link followed or a form submitted: replaying the click does the navigation again.
      if (e.cause === 'link' || e.t - lastActionAt < kCausedNavigationMs) continue
      if (e.cause === 'reload') continue
      out.push({ step: { action: 'navigate', params: { url: e.url } } })
      continue
    }
    if (e.kind === 'scroll') {
      // The replay scrolls every target into view; only a scroll that made the page load more matters.
      if (e.grew) out.push({ step: { action: 'scroll', params: { direction: e.direction } } })
      continue
    }
    if (e.kind === 'click') {
      lastActionAt = e.t
      // Focus-only: a text field clicked before typing; a toggle or select whose change makes the step.
      if (e.role === 'field' || e.role === 'toggle' || e.role === 'select') continue
      const series = seriesOf('click', e.target)
      // A double click arrives as click, click, dblclick: keep one step.
      if ((e.count ?? 1) === 2 && lastOf(series)) {
        out.pop()
        if (lastOf(series)) out.pop()
        out.push({
          step: { action: 'dblclick', params: {}, ...target(e.target) },
          series: seriesOf('dblclick', e.target),
        })
        continue
      }
      const params: FlowStep['params'] = {}
      if (e.button && e.button !== 'left') params.button = e.button
      out.push({ step: { action: 'click', params, ...target(e.target) }, series })
      continue
    }
    if (e.kind === 'input' || (e.kind === 'change' && e.control === 'text')) {
      const series = seriesOf('text', e.target)
      const prev = lastOf(series)
      const value = e.value ?? ''
      const secret = e.secret === true || looksSecret(value, e.target.field)
      if (prev) {
        // Intermediate keystrokes: the last value is the one that counts.
        prev.typed = value
        prev.secret = prev.secret || secret
        continue
      }
      out.push({
        step: { action: 'fill', params: {}, ...target(e.target) },
        series,
        typed: value,
        secret,
        hint: e.target.field?.label || e.target.field?.name || e.target.description,
        fieldInfo: e.target.field,
      })
      continue
    }
    if (e.kind === 'change') {
      lastActionAt = e.t
      if (e.control === 'select') {
        const series = seriesOf('select', e.target)
        const prev = lastOf(series)
        if (prev) prev.step.params.value = e.value ?? ''
        else out.push({ step: { action: 'select', params: { value: e.value ?? '' }, ...target(e.target) }, series })
        continue
      }
      // Checkbox or radio: the final state is the step; a box ticked twice cancels out.
      const series = seriesOf('toggle', e.target)
      const prev = lastOf(series)
      const action = e.checked === false ? 'uncheck' : 'check'
      if (prev) {
        out.pop()
        if (e.control === 'checkbox' && prev.step.action !== action) continue
      }
      out.push({ step: { action, params: {}, ...target(e.target) }, series })
      continue
    }
    if (e.kind === 'key') {
      if (kNavigationKeys.has(e.key)) continue
      if (e.inField && kEditingKey.test(e.key)) continue
      lastActionAt = e.t
      const step: Draft['step'] = { action: 'press', params: { key: e.key } }
      if (e.target) Object.assign(step, target(e.target))
      out.push({ step })
    }
  }
  return out
}

export interface BuildOptions {
  name: string
  source: 'recording' | 'agent'
  startUrl?: string
  sourceTask?: string
  now?: Date
}

/**
 * Numbers the steps and turns every typed value into a named variable: plain values
 * keep what was typed as the default; secrets keep nothing and are asked for at replay.
 */
export function buildFlow(drafts: readonly Draft[], opts: BuildOptions): Flow {
  const variables: Record<string, FlowVariable> = {}
  const taken = new Set<string>()
  const steps: FlowStep[] = drafts.map((d, i) => {
    const step = { ...d.step, params: { ...d.step.params }, step_id: i + 1 } as FlowStep
    // What a person typed (only a fill carries it) becomes a variable.
    if (d.typed !== undefined && !('value' in d.step.params)) {
      const name = variableName(d.hint ?? 'value', taken)
      taken.add(name)
      const label = d.hint ?? name
      variables[name] = d.secret
        ? { secret: true, value: `\${prompt:${label}}`, description: label }
        : { value: d.typed, description: label }
      step.params.value = `\${${name}}`
    }
    return step
  })
  return {
    version: kFlowVersion,
    metadata: {
      name: opts.name,
      created_at: (opts.now ?? new Date()).toISOString(),
      source: opts.source,
      ...(opts.sourceTask ? { source_task: opts.sourceTask } : {}),
      ...(opts.startUrl ? { start_url: opts.startUrl } : {}),
      total_steps: steps.length,
    },
    variables,
    steps,
  }
}

/** The whole pipeline: events → noise dropped → steps and variables. */
export function flowFromEvents(
  events: readonly RawEvent[],
  opts: Omit<BuildOptions, 'startUrl'> & { startUrl?: string },
): Flow {
  const startUrl = opts.startUrl ?? events.find((e) => e.kind === 'load' || e.kind === 'navigate')?.url
  return buildFlow(reduceEvents(events), { ...opts, startUrl })
}
