/**
 * When a schedule runs (docs/agent.md, "Schedules"): the next time after a moment, in the time
 * zone the person set it in, and what to do on waking past one or more due times (the browser was
 * closed). Pure data → data, so the worker (src/background/schedules.ts), `ava schedule` and the
 * unit tests share it. Wall-clock times are turned into instants by date-fns-tz, which reads the
 * zone's rules from the platform's Intl data: a daily 09:00 in Europe/Berlin stays 09:00 across
 * the change to and from summer time.
 */
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'

/** How often a schedule comes back. `once` is a date and time; the others a time of day or a minute of the hour. */
export type Repeat =
  | { every: 'once'; at: string }
  | { every: 'daily'; time: string }
  | { every: 'weekdays'; time: string }
  | { every: 'hourly'; minute: number }

/** What a schedule does when it wakes past its time: run once for all it missed, or say they were skipped. */
export type MissedPolicy = 'run' | 'skip'

/**
 * A run this late after its time still counts as on time: Chrome may fire an alarm up to a minute
 * late, and a worker that was asleep a little longer (the machine busy) has not missed anything.
 */
export const kOnTimeMs = 5 * 60_000
/** Due times counted at most when waking: a week of hourly runs, whatever the absence. */
const kMaxCounted = 24 * 7
const kHourMs = 3_600_000

/** Why a schedule's time cannot be kept (the code the person is told, src/core/failure.ts). */
export class ScheduleTimeError extends Error {
  override name = 'ScheduleTimeError'
  readonly code = 'SCHEDULE_TIME'
  constructor(
    message: string,
    readonly input: string,
  ) {
    super(message)
  }
}

const kTimeOfDay = /^([01]?\d|2[0-3]):([0-5]\d)$/
const kDateTime = /^(\d{4})-(\d{2})-(\d{2})[T ]([01]?\d|2[0-3]):([0-5]\d)$/

/** "9:05" → "09:05"; throws ScheduleTimeError for anything else than a time of day. */
export function parseTimeOfDay(text: string): string {
  const m = kTimeOfDay.exec(text.trim())
  if (!m) throw new ScheduleTimeError(`"${text}" is not a time of day: write it as HH:MM, 00:00 to 23:59.`, text)
  return `${m[1].padStart(2, '0')}:${m[2]}`
}

/** "2026-12-01 09:00" → "2026-12-01T09:00"; throws for anything else, or a day the calendar lacks. */
export function parseDateTime(text: string): string {
  const m = kDateTime.exec(text.trim())
  const bad = () =>
    new ScheduleTimeError(
      `"${text}" is not a date and time: write it as YYYY-MM-DD HH:MM, e.g. 2026-12-01 09:00.`,
      text,
    )
  if (!m) throw bad()
  const [, y, mo, d, h, mi] = m
  const day = new Date(Date.UTC(+y, +mo - 1, +d))
  if (day.getUTCFullYear() !== +y || day.getUTCMonth() !== +mo - 1 || day.getUTCDate() !== +d) throw bad()
  return `${y}-${mo}-${d}T${h.padStart(2, '0')}:${mi}`
}

/** A time zone the platform knows ("Europe/Berlin", "Asia/Shanghai", "UTC"); throws for another name. */
export function parseTimeZone(name: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name.trim() }).resolvedOptions().timeZone
  } catch {
    throw new ScheduleTimeError(
      `"${name}" is not a time zone: write its name, such as Europe/Berlin or Asia/Shanghai.`,
      name,
    )
  }
}

/** The date (YYYY-MM-DD) `days` after `date`, by the calendar alone. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** Monday to Friday, by the calendar date. */
function isWeekday(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number)
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay()
  return day >= 1 && day <= 5
}

/**
 * The first due time strictly after `after` (ms since the epoch), or null when there is none (a
 * `once` already past). A time of day the clock skips that day (02:30 on the night summer time
 * begins) runs at the instant that wall-clock reading means an hour on, as date-fns-tz reads it.
 */
export function nextRunAt(repeat: Repeat, timeZone: string, after: number): number | null {
  if (repeat.every === 'once') {
    const at = fromZonedTime(repeat.at, timeZone).getTime()
    return at > after ? at : null
  }
  if (repeat.every === 'hourly') {
    const hour = formatInTimeZone(after, timeZone, "yyyy-MM-dd'T'HH")
    const minute = String(repeat.minute).padStart(2, '0')
    let at = fromZonedTime(`${hour}:${minute}`, timeZone).getTime()
    while (at <= after) at += kHourMs
    return at
  }
  const today = formatInTimeZone(after, timeZone, 'yyyy-MM-dd')
  // Eight days always hold the next weekday, whatever the offset between the zone and UTC.
  for (let d = 0; d <= 8; d++) {
    const date = addDays(today, d)
    if (repeat.every === 'weekdays' && !isWeekday(date)) continue
    const at = fromZonedTime(`${date}T${repeat.time}`, timeZone).getTime()
    if (at > after) return at
  }
  return null
}

/** What waking at `now` means for a schedule whose next due time was `dueAt`. */
export interface Wake {
  /** Run now. */
  run: boolean
  /** The run is for a time already past by more than kOnTimeMs (said so in the report). */
  late: boolean
  /** Due times that pass without a run of their own. */
  skipped: number
  /** The next due time after now, or null (a `once` done). */
  nextAt: number | null
}

/**
 * Due times from `dueAt` up to `now`: on time (the last within kOnTimeMs), the schedule runs;
 * late, it runs once for them all (`missed: 'run'`) or runs none (`'skip'`), and the due times
 * without a run are counted as skipped. Before `dueAt`, nothing is due.
 */
export function wakeAt(
  s: { repeat: Repeat; timeZone: string; dueAt: number; missed: MissedPolicy },
  now: number,
): Wake {
  if (now < s.dueAt) return { run: false, late: false, skipped: 0, nextAt: s.dueAt }
  let due = 1
  let last = s.dueAt
  for (let t = nextRunAt(s.repeat, s.timeZone, s.dueAt); t !== null && t <= now && due < kMaxCounted;) {
    due++
    last = t
    t = nextRunAt(s.repeat, s.timeZone, t)
  }
  const nextAt = nextRunAt(s.repeat, s.timeZone, now)
  const late = now - last > kOnTimeMs
  if (late && s.missed === 'skip') return { run: false, late, skipped: due, nextAt }
  return { run: true, late, skipped: due - 1, nextAt }
}

/** The repeat as the person wrote it, parsed: `{ every, time | minute | at }`; throws ScheduleTimeError. */
export function parseRepeat(every: string, when: string): Repeat {
  switch (every) {
    case 'once':
      return { every, at: parseDateTime(when) }
    case 'daily':
    case 'weekdays':
      return { every, time: parseTimeOfDay(when) }
    case 'hourly': {
      const m = /^:?([0-5]?\d)$/.exec(when.trim())
      if (!m)
        throw new ScheduleTimeError(`"${when}" is not a minute of the hour: write 0 to 59 (e.g. 15 or :15).`, when)
      return { every, minute: Number(m[1]) }
    }
    default:
      throw new ScheduleTimeError(`"${every}" is not a repeat: write once, daily, weekdays or hourly.`, every)
  }
}
