/**
 * A schedule as Ava keeps it (docs/agent.md, "Schedules"): what runs (a request to the model, a
 * pack action, a saved flow, or a watch over a feed or table), when, in which time zone, what a
 * missed time does, and what its last run found. One schema for storage, the panel, the popup and
 * `ava schedule`; the worker's alarms are only a wake-up, never the record.
 */
import { z } from 'zod'
import { nextRunAt, parseRepeat, parseTimeZone, ScheduleTimeError, type Repeat, type MissedPolicy } from './when'
import type { RowDiff, WatchSnapshot } from './diff'

export const RepeatSchema: z.ZodType<Repeat> = z.discriminatedUnion('every', [
  z.object({ every: z.literal('once'), at: z.string() }),
  z.object({ every: z.literal('daily'), time: z.string() }),
  z.object({ every: z.literal('weekdays'), time: z.string() }),
  z.object({ every: z.literal('hourly'), minute: z.number().int().min(0).max(59) }),
])

const Params = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))

/**
 * What runs. Every kind opens its own tab at `url` (a flow at its start page) and passes the one
 * guard there; only `request` calls the model.
 */
export const ScheduleTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('request'), text: z.string().min(1), url: z.string() }),
  z.object({ kind: z.literal('action'), action: z.string().min(1), params: Params, url: z.string() }),
  z.object({ kind: z.literal('flow'), flow: z.string().min(1), params: z.record(z.string(), z.string()) }),
  /** A collect with no model: `target` names the list as the model's collect would (its ref or a selector), else the page's main one. */
  z.object({
    kind: z.literal('watch'),
    url: z.string(),
    target: z.string().optional(),
    limit: z.number().int().positive().optional(),
  }),
])
export type ScheduleTarget = z.infer<typeof ScheduleTargetSchema>

const SnapshotSchema: z.ZodType<WatchSnapshot> = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.object({ key: z.string(), cells: z.array(z.string()) })),
})

/** The last run, as the panel and `ava schedule list` show it. */
const LastRunSchema = z.object({
  at: z.number(),
  outcome: z.enum(['done', 'failed', 'waiting', 'skipped']),
  /** For a watch: how many rows were added, removed, changed. */
  counts: z.object({ added: z.number(), removed: z.number(), changed: z.number() }).optional(),
  /** Due times that passed without a run (the browser was closed, `missed: 'skip'`). */
  skipped: z.number().optional(),
  /** English, for Details and the CLI; the person's sentence comes from the outcome and the counts. */
  detail: z.string().optional(),
})

export const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  target: ScheduleTargetSchema,
  repeat: RepeatSchema,
  timeZone: z.string(),
  missed: z.enum(['run', 'skip']),
  enabled: z.boolean(),
  createdAt: z.number(),
  /** The next due time; null once a `once` has run. */
  dueAt: z.number().nullable(),
  last: LastRunSchema.optional(),
  /** A watch's rows at its last run, to compare the next with. */
  snapshot: SnapshotSchema.optional(),
})
export type Schedule = z.infer<typeof ScheduleSchema>
export type ScheduleRun = z.infer<typeof LastRunSchema>

/** What the panel, the popup and `ava schedule add` send: the person's words, parsed here once. */
export interface ScheduleDraft {
  name?: string
  target: ScheduleTarget
  every: string
  when: string
  timeZone: string
  missed?: MissedPolicy
}

/**
 * Missed times run once at the next start by default: a watch that skipped a day still says what
 * changed since it last looked, and a daily errand still gets done that day.
 */
export const kDefaultMissed: MissedPolicy = 'run'

/**
 * The draft as a schedule, its due time the first after `now`; throws ScheduleTimeError for a bad
 * time, date, zone, or a `once` already past. Whether the action or flow exists is the worker's
 * check (it holds the registry).
 */
export function scheduleOf(draft: ScheduleDraft, id: string, now: number): Schedule {
  const timeZone = parseTimeZone(draft.timeZone)
  const repeat = parseRepeat(draft.every, draft.when)
  const dueAt = nextRunAt(repeat, timeZone, now)
  if (dueAt === null) throw new ScheduleTimeError(`"${draft.when}" has already passed in ${timeZone}.`, draft.when)
  return {
    id,
    name: draft.name?.trim() || nameOf(draft.target),
    target: draft.target,
    repeat,
    timeZone,
    missed: draft.missed ?? kDefaultMissed,
    enabled: true,
    createdAt: now,
    dueAt,
  }
}

function nameOf(t: ScheduleTarget): string {
  if (t.kind === 'request') return t.text.slice(0, 60)
  if (t.kind === 'action') return t.action
  if (t.kind === 'flow') return t.flow
  return `watch ${t.url}`
}

/** The counts the last run keeps of a diff. */
export const countsOf = (d: RowDiff) => ({
  added: d.added.length,
  removed: d.removed.length,
  changed: d.changed.length,
})
