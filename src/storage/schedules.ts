import { z } from 'zod'
import { ScheduleSchema, type Schedule } from '../core/schedule/model'
import { kMaxNoteChars, kMaxNotesPerSite, type SiteNotes } from '../core/site-notes'
import { typedKey } from './area'

/**
 * Schedules (core/schedule/model.ts) in chrome.storage.local, by id: they outlive the browser, and
 * the worker sets its alarms again from them at every start (src/background/schedules.ts).
 */
export const kMaxSchedules = 100
export const DEFAULT_SCHEDULES = (): Record<string, Schedule> => ({})
export const schedulesStore = typedKey<Record<string, Schedule>>(
  'local',
  'schedules',
  z.record(z.string(), ScheduleSchema).refine((r) => Object.keys(r).length <= kMaxSchedules),
  DEFAULT_SCHEDULES,
)

/**
 * The last report of each watch as CSV (core/schedule/diff.ts `diffCsv`), for the panel's and the
 * notification's download; session storage, as it is only the latest.
 */
export const watchCsvStore = (id: string) =>
  typedKey<string | null>('session', `schedule.csv:${id}`, z.string().nullable(), () => null)

/** The person's notes per exact origin (core/site-notes.ts). */
export const DEFAULT_SITE_NOTES = (): SiteNotes => ({})
export const siteNotesStore = typedKey<SiteNotes>(
  'local',
  'siteNotes',
  z.record(z.string(), z.array(z.string().max(kMaxNoteChars + 1)).max(kMaxNotesPerSite)),
  DEFAULT_SITE_NOTES,
)
