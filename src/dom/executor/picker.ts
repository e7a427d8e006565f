/**
 * Date fields run by a script picker (bootstrap-datepicker, jQuery UI, Pikaday, flatpickr): the
 * plugin reads what was typed again when the field is left, in its own format, and may keep
 * another date or none ("September 27, 2018" becomes 27/03/2018 under `dd/mm/yyyy`). So, as a
 * person does, the field is left (Tab, a press outside) and read back once the widget has settled;
 * a date it changed is chosen in its own calendar instead (header month, arrows, the day), and
 * when that fails too the step fails and says so, never reporting a date the field does not hold.
 */
import { safeNormalizeValue } from '../../core/page/values'
import type { ExecFailure } from '../../core/exec'
import { dispatchKey, keyInfo, click } from './events'
import { isVisible, quoteLabel, viewOf } from './dom'
import { fail } from '../../core/exec'
import { pageLocale } from './native'
import { nextFrame, settle } from './wait'

/** Calendar popups of the common script pickers, and any element that calls itself one. */
const kPopup =
  '.datepicker, .ui-datepicker, .flatpickr-calendar, .pika-single, .daterangepicker, [class*=datepicker i], [class*=calendar i][role=dialog], [role=dialog] [role=grid]'
const kMonths = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
/** Arrow clicks allowed to reach the wanted month: twenty years either way. */
const kMaxMonthSteps = 240

/** The visible calendar popup a field opened, outside the field itself. */
function popupOf(field: Element): Element | null {
  for (const p of field.ownerDocument.querySelectorAll(kPopup))
    if (!p.contains(field) && isVisible(p) && p.querySelector('td, [role=gridcell]')) return p
  return null
}

/** The ISO date a text means on this page, or null. */
function isoOf(text: string, el: Element): string | null {
  const r = safeNormalizeValue('date', text, { locale: pageLocale(el) })
  return r.success && r.data.value ? r.data.value : null
}

/** The month and year a popup's header shows: "September 2018", "Sep 2018", "2018年9月". */
function shownMonth(popup: Element): { y: number; m: number } | null {
  for (const el of popup.querySelectorAll(
    'th, thead *, [class*=title i], [class*=switch i], [class*=header i] *, [class*=month i], caption',
  )) {
    if (!isVisible(el)) continue
    const t = (el.textContent ?? '').trim().toLowerCase()
    const en = /([a-z]{3,9})\.?\s+(\d{4})/.exec(t)
    if (en) {
      const m = kMonths.findIndex((name) => name.startsWith(en[1].slice(0, 3)))
      if (m >= 0) return { y: Number(en[2]), m }
    }
    const zh = /(\d{4})\s*年\s*(\d{1,2})\s*月/.exec(t)
    if (zh) return { y: Number(zh[1]), m: Number(zh[2]) - 1 }
  }
  return null
}

function arrow(popup: Element, which: 'prev' | 'next'): Element | null {
  const words = which === 'prev' ? /prev|previous|back|上|«|‹|</i : /next|forward|下|»|›|>/i
  for (const el of popup.querySelectorAll('th, button, a, span, [role=button]')) {
    if (!isVisible(el)) continue
    const name = `${typeof el.className === 'string' ? el.className : ''} ${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''} ${el.children.length ? '' : (el.textContent ?? '').trim()}`
    if (words.test(name) && !/month-?switch|datepicker-switch/i.test(name)) return el
  }
  return null
}

/** The day cell of the shown month (not a neighbour month's grey days, not a disabled one). */
function dayCell(popup: Element, day: number): Element | null {
  for (const el of popup.querySelectorAll('td, [role=gridcell]')) {
    if (!isVisible(el) || (el.textContent ?? '').trim() !== String(day)) continue
    const cls = typeof el.className === 'string' ? el.className : ''
    if (
      /\b(old|new|other-month|ui-datepicker-other-month|prevMonthDay|nextMonthDay|disabled|is-outside)\b/i.test(cls) ||
      el.getAttribute('aria-disabled') === 'true'
    )
      continue
    return el.querySelector('a, button') ?? el
  }
  return null
}

/** Chooses `iso` (YYYY-MM-DD) in the field's calendar popup, opening it first. */
async function chooseInCalendar(field: HTMLInputElement, iso: string): Promise<boolean> {
  const V = viewOf(field)
  field.focus({ preventScroll: true })
  click(field)
  await nextFrame(V)
  const popup = popupOf(field)
  if (!popup) return false
  const [y, m, d] = iso.split('-').map(Number)
  for (let i = 0; i < kMaxMonthSteps; i++) {
    const shown = shownMonth(popup)
    if (!shown) return false
    const diff = (y - shown.y) * 12 + (m - 1 - shown.m)
    if (diff === 0) break
    const a = arrow(popup, diff < 0 ? 'prev' : 'next')
    if (!a) return false
    click(a)
    await nextFrame(V)
  }
  const cell = dayCell(popup, d)
  if (!cell) return false
  click(cell)
  await settle()
  await nextFrame(V)
  return true
}

/** Leaves the field as a person moving on does: Tab, then a press outside any popup. */
function leave(field: HTMLInputElement): void {
  dispatchKey(field, keyInfo('Tab'))
  const body = field.ownerDocument.body
  const V = viewOf(field)
  for (const type of ['mousedown', 'mouseup'])
    body.dispatchEvent(new V.MouseEvent(type, { bubbles: true, cancelable: true, clientX: 1, clientY: 1 }))
  field.blur()
}

/**
 * After `typed` went into `field`: when a calendar popup came with it, leave the field and read it
 * back. Null when no picker is involved; a note when the field holds the date (perhaps reformatted,
 * perhaps chosen in the calendar); a failure when it does not.
 */
export async function settlePicker(
  field: HTMLInputElement,
  typed: string,
): Promise<{ note?: string } | ExecFailure | null> {
  const wanted = isoOf(typed, field)
  if (!wanted || !popupOf(field)) return null
  const V = viewOf(field)
  leave(field)
  await settle()
  await nextFrame(V)
  const shown = field.value
  if (isoOf(shown, field) === wanted) return shown === typed ? {} : { note: `the date picker shows it as "${shown}"` }
  // The picker kept another date, or none: its own calendar is what it understands.
  if (await chooseInCalendar(field, wanted)) {
    leave(field)
    await settle()
    await nextFrame(V)
    if (isoOf(field.value, field) === wanted)
      return { note: `chosen in the date picker's calendar as "${field.value}" (typed, the picker made it "${shown}")` }
  }
  const now = field.value
  return fail(
    'NOT_ACTIONABLE',
    `The date picker of ${quoteLabel(field)} changed "${typed}" to "${now || '(empty)'}", and choosing ${wanted} in its calendar did not work either; the date is not set.`,
    {
      reason: 'value-rejected',
      msg: { key: 'outcome.step.pickerRejected', params: { shown: now || '—', date: wanted } },
      suggestion: `Type the date in the format the field shows, or open its calendar and pick the day.`,
    },
  )
}
