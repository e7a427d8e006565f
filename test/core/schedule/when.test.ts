import { describe, expect, it } from 'vitest'
import {
  kOnTimeMs,
  nextRunAt,
  parseRepeat,
  parseTimeOfDay,
  parseTimeZone,
  ScheduleTimeError,
  wakeAt,
} from '../../../src/core/schedule/when'
import { scheduleOf } from '../../../src/core/schedule/model'

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

describe('the next due time', () => {
  it('daily: later today, else tomorrow, at the wall-clock time of the zone', () => {
    const daily = { every: 'daily' as const, time: '09:00' }
    // 07:00 UTC is 08:00 in Berlin (winter): 09:00 Berlin is 08:00 UTC the same day.
    expect(iso(nextRunAt(daily, 'Europe/Berlin', at('2026-01-15T07:00:00Z')))).toBe('2026-01-15T08:00:00.000Z')
    // At the due instant itself, the next one is the next day's.
    expect(iso(nextRunAt(daily, 'Europe/Berlin', at('2026-01-15T08:00:00Z')))).toBe('2026-01-16T08:00:00.000Z')
    // Shanghai is UTC+8 all year: 09:00 there is 01:00 UTC.
    expect(iso(nextRunAt(daily, 'Asia/Shanghai', at('2026-01-15T07:00:00Z')))).toBe('2026-01-16T01:00:00.000Z')
  })

  it('daily keeps its wall-clock time across the change to summer time and back', () => {
    const daily = { every: 'daily' as const, time: '09:00' }
    // Berlin goes to UTC+2 on 29 March 2026: 09:00 is 07:00 UTC from then on.
    expect(iso(nextRunAt(daily, 'Europe/Berlin', at('2026-03-28T09:00:00Z')))).toBe('2026-03-29T07:00:00.000Z')
    // New York goes back to UTC-5 on 1 November 2026.
    expect(iso(nextRunAt(daily, 'America/New_York', at('2026-10-31T14:00:00Z')))).toBe('2026-11-01T14:00:00.000Z')
  })

  it('weekdays: Friday evening goes to Monday, by the calendar of the zone (not of UTC)', () => {
    const wd = { every: 'weekdays' as const, time: '08:30' }
    // Friday 2026-01-16 10:00 UTC: next is Monday 19th, 08:30 Berlin = 07:30 UTC.
    expect(iso(nextRunAt(wd, 'Europe/Berlin', at('2026-01-16T10:00:00Z')))).toBe('2026-01-19T07:30:00.000Z')
    // Sunday 23:30 UTC is already Monday 07:30 in Shanghai: Monday 08:30 there is still to come today.
    expect(iso(nextRunAt(wd, 'Asia/Shanghai', at('2026-01-18T23:30:00Z')))).toBe('2026-01-19T00:30:00.000Z')
    // Saturday in Shanghai (Friday 17:00 UTC is Saturday 01:00 there): not Saturday, Monday.
    expect(iso(nextRunAt(wd, 'Asia/Shanghai', at('2026-01-16T17:00:00Z')))).toBe('2026-01-19T00:30:00.000Z')
  })

  it('hourly: the minute of the hour in the zone, half-hour offsets included', () => {
    const hourly = { every: 'hourly' as const, minute: 15 }
    expect(iso(nextRunAt(hourly, 'UTC', at('2026-01-15T10:20:00Z')))).toBe('2026-01-15T11:15:00.000Z')
    expect(iso(nextRunAt(hourly, 'UTC', at('2026-01-15T10:14:59Z')))).toBe('2026-01-15T10:15:00.000Z')
    // India is UTC+5:30: minute 15 there is minute 45 of UTC.
    expect(iso(nextRunAt(hourly, 'Asia/Kolkata', at('2026-01-15T10:20:00Z')))).toBe('2026-01-15T10:45:00.000Z')
  })

  it('once: its instant, then none', () => {
    const once = { every: 'once' as const, at: '2026-02-01T09:00' }
    expect(iso(nextRunAt(once, 'Asia/Shanghai', at('2026-01-15T00:00:00Z')))).toBe('2026-02-01T01:00:00.000Z')
    expect(nextRunAt(once, 'Asia/Shanghai', at('2026-02-01T01:00:00Z'))).toBeNull()
  })
})

describe('waking past due times (the browser was closed)', () => {
  const daily = { every: 'daily' as const, time: '09:00' }
  const dueAt = at('2026-01-15T09:00:00Z')

  it('on time (within kOnTimeMs): runs, nothing skipped, next is tomorrow', () => {
    const w = wakeAt({ repeat: daily, timeZone: 'UTC', dueAt, missed: 'skip' }, dueAt + kOnTimeMs - 1)
    expect(w).toEqual({ run: true, late: false, skipped: 0, nextAt: at('2026-01-16T09:00:00Z') })
  })

  it('before its time: nothing (an early alarm)', () => {
    expect(wakeAt({ repeat: daily, timeZone: 'UTC', dueAt, missed: 'run' }, dueAt - 1)).toMatchObject({
      run: false,
      skipped: 0,
      nextAt: dueAt,
    })
  })

  it('three days late, missed: run → runs once, the two earlier times skipped', () => {
    const w = wakeAt({ repeat: daily, timeZone: 'UTC', dueAt, missed: 'run' }, at('2026-01-17T12:00:00Z'))
    expect(w).toEqual({ run: true, late: true, skipped: 2, nextAt: at('2026-01-18T09:00:00Z') })
  })

  it('three days late, missed: skip → no run, all three said skipped', () => {
    const w = wakeAt({ repeat: daily, timeZone: 'UTC', dueAt, missed: 'skip' }, at('2026-01-17T12:00:00Z'))
    expect(w).toEqual({ run: false, late: true, skipped: 3, nextAt: at('2026-01-18T09:00:00Z') })
  })

  it('late, but the latest due time is on time: runs on time', () => {
    const w = wakeAt({ repeat: daily, timeZone: 'UTC', dueAt, missed: 'skip' }, at('2026-01-17T09:01:00Z'))
    expect(w).toEqual({ run: true, late: false, skipped: 2, nextAt: at('2026-01-18T09:00:00Z') })
  })

  it('a once that was missed runs once at the next start, then is done', () => {
    const once = { every: 'once' as const, at: '2026-01-15T09:00' }
    const w = wakeAt({ repeat: once, timeZone: 'UTC', dueAt, missed: 'run' }, at('2026-01-20T00:00:00Z'))
    expect(w).toEqual({ run: true, late: true, skipped: 0, nextAt: null })
  })
})

describe('bad input: one clear error', () => {
  it.each([['25:00'], ['9'], ['09:60'], ['nine']])('"%s" is no time of day', (text) => {
    expect(() => parseTimeOfDay(text)).toThrow(ScheduleTimeError)
    expect(() => parseTimeOfDay(text)).toThrow(`"${text}" is not a time of day: write it as HH:MM, 00:00 to 23:59.`)
  })

  it('a time zone, a repeat, a date the calendar lacks, a minute, a past once', () => {
    expect(() => parseTimeZone('Mars/Olympus')).toThrow('"Mars/Olympus" is not a time zone')
    expect(parseTimeZone('Asia/Shanghai')).toBe('Asia/Shanghai')
    expect(() => parseRepeat('fortnightly', '09:00')).toThrow('"fortnightly" is not a repeat')
    expect(() => parseRepeat('once', '2026-02-30 09:00')).toThrow('is not a date and time')
    expect(() => parseRepeat('hourly', '75')).toThrow('is not a minute of the hour')
    expect(parseRepeat('hourly', ':05')).toEqual({ every: 'hourly', minute: 5 })
    expect(parseRepeat('daily', '9:05')).toEqual({ every: 'daily', time: '09:05' })
    const target = { kind: 'watch' as const, url: 'https://x.example/' }
    expect(() =>
      scheduleOf(
        { target, every: 'once', when: '2020-01-01 09:00', timeZone: 'UTC' },
        's1',
        at('2026-01-01T00:00:00Z'),
      ),
    ).toThrow('has already passed in UTC')
  })

  it('a new schedule runs missed times once by default, and is due at its first time', () => {
    const s = scheduleOf(
      { target: { kind: 'watch', url: 'https://x.example/' }, every: 'daily', when: '07:00', timeZone: 'UTC' },
      's1',
      at('2026-01-15T08:00:00Z'),
    )
    expect(s).toMatchObject({ missed: 'run', dueAt: at('2026-01-16T07:00:00Z'), enabled: true })
  })
})
