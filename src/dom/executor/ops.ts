/**
 * The careful-human operations every action is built from: make the element actionable, act
 * with the real event sequence, then check the page answered (a click
 * that changed nothing, or a value that did not stick, is a failure).
 */
import type { ExecChanges, ExecFailure } from '../../core/exec'
import { sleep } from '../../core/sleep'
import { checkedState } from '../locators'
import { ensureActionable, type Checks } from './actionability'
import { displayedValue, editableOf, isTextField, quoteLabel, retarget, viewOf } from './dom'
import { watchEffects, kEffectWindowMs } from './effects'
import {
  click,
  drag,
  fill,
  fillEditable,
  forceClick,
  hover,
  pageToView,
  typeText,
  type ClickOptions,
  type Point,
} from './events'
import { fail } from '../../core/exec'
import { confirmEditable, confirmNative, nativeKindOf, pickerText, setNative } from './native'
import { nextFrame, settle, waitFor } from './wait'
import { revealByHover } from './reveal'
import { settlePicker } from './picker'
import { fieldError, leaveAndReadBack, rememberTyped } from './field-check'

export interface OpContext {
  deadline: number
  signal?: AbortSignal
  relocate?: () => Element | null
  /** Wait for the page's whole answer after a click (RunOptions.settle). */
  settle?: boolean
  /** Re-checks the element during a click, after the pointer events (RunOptions.recheck). */
  recheck?: (el: Element) => string | null
  /** Moves Ava's own UI off a box before acting there (RunOptions.makeRoom). */
  makeRoom?: (box: { x: number; y: number; width: number; height: number }) => Promise<void>
}

export type OpResult = { ok: true; el: Element; forced: boolean; changes: ExecChanges; navigating: boolean }

const kClickChecks: Checks = { visible: true, enabled: true, stable: true, hitTest: true, allowForce: true }

/** Ancestors up to which a click's effect on nearby fields is looked for (a spinner's arrow and its number). */
const kNearbyDepth = 3

/**
 * The state a click may change without touching the DOM: the target's (checkbox, value,
 * expanded) and the values of the fields beside it, which scripts set as properties (a spinner's
 * arrow writes its number into the input next to it).
 */
function stateSignature(el: Element): string {
  let scope: Element = el
  for (let i = 0; i < kNearbyDepth && scope.parentElement && scope.parentElement !== el.ownerDocument.body; i++)
    scope = scope.parentElement
  scope = el.closest('form') ?? scope
  let nearby = ''
  for (const f of scope.querySelectorAll('input, select, textarea')) nearby += `|${(f as HTMLInputElement).value}`
  return `${checkedState(el)}|${(el as HTMLInputElement).value ?? ''}|${el.getAttribute('aria-expanded')}|${el.getAttribute('aria-pressed')}|${el.getAttribute('aria-selected')}${nearby}`
}

/**
 * Click (any button, any count). `expectEffect`: with no DOM, URL, focus or state change within
 * kEffectWindowMs the click is reported as NOT_ACTIONABLE / no-effect.
 */
export async function clickOp(
  target: Element,
  ctx: OpContext,
  options: ClickOptions & { expectEffect?: boolean } = {},
): Promise<OpResult | ExecFailure> {
  // Shown only while its row, card or menu trigger is hovered: the pointer goes there first.
  const hovering = await revealByHover(retarget(target), ctx.signal)
  try {
    return await clickShown(target, ctx, options)
  } finally {
    hovering?.release()
  }
}

async function clickShown(
  target: Element,
  ctx: OpContext,
  options: ClickOptions & { expectEffect?: boolean },
): Promise<OpResult | ExecFailure> {
  const ready = await ensureActionable(retarget(target), kClickChecks, ctx)
  if (!ready.ok) return ready
  const el = ready.el
  const watch = watchEffects(el.ownerDocument)
  const before = stateSignature(el)
  if (ready.forced) {
    // Through the DOM, with no pointer to hit-test: the gate's second look still comes first.
    const why = ctx.recheck?.(el)
    if (why) {
      watch.finish()
      return fail('NOT_ACTIONABLE', why, { reason: 'swapped', suggestion: 'Read the page again before acting on it.' })
    }
    forceClick(el)
  } else {
    // A point named in a screenshot is where the click goes (a canvas is one element); a point
    // in a frame's document has no meaning there, so the frame's element is clicked where it is open.
    const at = options.atPage && el.ownerDocument === document ? pageToView(el, options.atPage) : ready.at
    const stopped = click(el, options, at, ctx.recheck && (() => ctx.recheck!(el)))
    if (stopped) {
      watch.finish()
      const why =
        stopped.stopped === 'hit'
          ? `At the moment of the click, ${quoteLabel(el)} was no longer what lay under the pointer (the page swapped, moved or covered it); nothing was clicked.`
          : stopped.stopped
      return fail('NOT_ACTIONABLE', why, { reason: 'swapped', suggestion: 'Read the page again before acting on it.' })
    }
  }
  const changed = await watch.waitForEffect(
    options.expectEffect === false || ready.forced ? 0 : kEffectWindowMs,
    () => el.isConnected && stateSignature(el) !== before,
    ctx.settle,
  )
  const changes = watch.finish()
  const { navigating, ...rest } = changes
  // A forced click reaches an element nobody can see; its effect may be invisible too.
  if (!changed && options.expectEffect !== false && !ready.forced) {
    return fail(
      'NOT_ACTIONABLE',
      `Clicked ${quoteLabel(el)} but nothing happened: no change to the page, its address or the focus within ${kEffectWindowMs / 1000} s.`,
      {
        reason: 'no-effect',
        suggestion:
          'The element may not be the control that does this, or the page ignores synthetic clicks; pick another candidate.',
      },
    )
  }
  return { ok: true, el, forced: ready.forced, changes: rest, navigating }
}

export async function hoverOp(target: Element, ctx: OpContext): Promise<OpResult | ExecFailure> {
  const ready = await ensureActionable(retarget(target), { visible: true, stable: true, hitTest: true }, ctx)
  if (!ready.ok) return ready
  const watch = watchEffects(ready.el.ownerDocument)
  hover(ready.el, ready.at)
  await watch.waitForEffect(0)
  await settle()
  const { navigating, ...changes } = watch.finish()
  return { ok: true, el: ready.el, forced: false, changes, navigating }
}

/**
 * Drag along a path of top-document points (a signature, a slider): the element must be shown and
 * still, the first point must land on it, and the gate's second look runs before the press.
 */
export async function dragOp(target: Element, path: Point[], ctx: OpContext): Promise<OpResult | ExecFailure> {
  const ready = await ensureActionable(retarget(target), { visible: true, stable: true }, ctx)
  if (!ready.ok) return ready
  const el = ready.el
  const watch = watchEffects(el.ownerDocument)
  const stopped = drag(
    el,
    path.map((p) => pageToView(el, p)),
    ctx.recheck && (() => ctx.recheck!(el)),
  )
  if (stopped) {
    watch.finish()
    const why =
      stopped.stopped === 'hit'
        ? `At the start of the drag, ${quoteLabel(el)} was not what lay under the pointer; nothing was dragged.`
        : stopped.stopped
    return fail('NOT_ACTIONABLE', why, { reason: 'swapped', suggestion: 'Take a new screenshot before acting on it.' })
  }
  await watch.waitForEffect(0)
  const { navigating, ...changes } = watch.finish()
  return { ok: true, el, forced: false, changes, navigating }
}

/** Values the page may legitimately reformat: compare them as a person reads them. */
function sameValue(actual: string, wanted: string, el: Element): boolean {
  if (actual === wanted) return true
  const type = (el as HTMLInputElement).type
  if (type === 'number') return Number(actual) === Number(wanted)
  return actual.replace(/\s+/g, ' ').trim() === wanted.replace(/\s+/g, ' ').trim()
}

/** Letters and digits only: what an input mask keeps of a value it formats ("(555) 123-4567"). */
const masked = (v: string) => v.replace(/[^\p{L}\p{N}]+/gu, '').toLowerCase()

/**
 * A field whose script formatted the value as it went in (an input mask) may clear or change it
 * again when the field is left (an incomplete phone number): leave it as a person moving on
 * does, and read it back once the page has settled.
 */
async function settleMask(
  el: HTMLInputElement | HTMLTextAreaElement,
  value: string,
): Promise<ExecFailure | { note: string }> {
  const V = viewOf(el)
  el.dispatchEvent(new V.Event('change', { bubbles: true }))
  el.blur()
  await settle()
  await nextFrame(V)
  if (el.value && masked(el.value) === masked(value)) return { note: `the field shows it as "${el.value}"` }
  return fail(
    'NOT_ACTIONABLE',
    `${quoteLabel(el)} formats what is typed, and when the field was left it ${el.value ? `changed "${value}" to "${el.value}"` : `cleared "${value}"`}; the value is not set.`,
    {
      reason: 'value-rejected',
      msg: { key: 'outcome.step.maskRejected', params: { value, shown: el.value || '—' } },
      suggestion:
        'Give the whole value the field expects (every digit of a phone number, a card, a date), in its own format.',
    },
  )
}

/** Text entry, `fill` (one edit) or `type` (key by key), then checks the value stuck. */
export async function enterTextOp(
  target: Element,
  value: string,
  ctx: OpContext,
  mode: 'fill' | 'type' = 'fill',
  delayMs = 0,
): Promise<(OpResult & { sensitive: boolean; note?: string }) | ExecFailure> {
  const field = editableOf(target)
  if (!field)
    return fail('NOT_ACTIONABLE', `${quoteLabel(target)} is not a text field.`, {
      reason: 'wrong-kind',
      suggestion: 'Use click, check or select for this element.',
    })
  const ready = await ensureActionable(field, { visible: true, enabled: true, editable: true, allowForce: true }, ctx)
  if (!ready.ok) return ready
  const el = ready.el
  const watch = watchEffects(el.ownerDocument)
  const V = viewOf(el)
  const kind = nativeKindOf(el)
  let note: string | undefined
  // An error the field already showed is not the page's answer to this value.
  const errorBefore = el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement ? fieldError(el) : ''
  if (kind) {
    // A date or colour has no keys to type: `type` sets it as `fill` does.
    const set = setNative(el as HTMLInputElement, kind, value)
    if (!set.ok) {
      watch.finish()
      return set
    }
    await settle()
    await nextFrame(V)
    const rejected = confirmNative(el as HTMLInputElement, kind, set.value, set.previous)
    if (rejected) {
      watch.finish()
      return rejected
    }
    note = set.value === value ? set.note : `as ${set.value}${set.note ? `; ${set.note}` : ''}`
  } else if (isTextField(el)) {
    // A library date picker parses its own format: "Sept 27 2018" goes in as 2018-09-27.
    const picker = pickerText(el, value)
    if (picker) {
      value = picker.value
      note = picker.note
    }
    if (mode === 'fill') fill(el, value)
    else {
      fill(el, '')
      await typeText(el, value, delayMs, (ms) => sleep(ms, ctx.signal).catch(() => undefined))
    }
    // A framework that rejects the value undoes it synchronously (React's controlled inputs) or
    // in its next tick (Vue): after the tick and one animation frame, the value has stuck or not.
    await settle()
    await nextFrame(V)
    const formatted = !sameValue(el.value, value, el) && !!el.value && masked(el.value) === masked(value)
    let left = false
    if (formatted) {
      left = true
      const kept = await settleMask(el, value)
      if ('ok' in kept) {
        watch.finish()
        return kept
      }
      note = note ? `${note}; ${kept.note}` : kept.note
    } else if (!sameValue(el.value, value, el)) {
      watch.finish()
      return fail(
        'NOT_ACTIONABLE',
        `Typed into ${quoteLabel(el)} but the page changed the value to "${el.type === 'password' ? '•••' : el.value}".`,
        {
          reason: 'value-rejected',
          suggestion: 'The field may accept only some characters or a fixed format.',
        },
      )
    }
    // The page took it only if it keeps it once the field is left (a framework validating on blur).
    if (!left && !picker) {
      const kept = el.value
      const rejected = await leaveAndReadBack(
        el,
        value,
        (actual) => actual === kept || sameValue(actual, value, el),
        errorBefore,
      )
      if (rejected) {
        watch.finish()
        return rejected
      }
    }
    // A script date picker reads the field again when it is left, and may keep another date: read
    // back after it settles, choose in its calendar when it did, fail when neither holds (picker.ts).
    if (el instanceof V.HTMLInputElement && !picker) {
      const settled = await settlePicker(el, value)
      if (settled && 'ok' in settled) {
        watch.finish()
        return settled
      }
      if (settled?.note) note = note ? `${note}; ${settled.note}` : settled.note
    }
  } else if (el instanceof V.HTMLElement && el.isContentEditable) {
    if (mode === 'fill' || value === '') fillEditable(el, value)
    else {
      // Select everything and type over it, as a person does: clearing first leaves a rich
      // editor an empty line of its own that the first key would start after.
      el.focus({ preventScroll: true })
      el.ownerDocument.getSelection()?.selectAllChildren(el)
      await typeText(el, value, delayMs, (ms) => sleep(ms, ctx.signal).catch(() => undefined))
    }
    await settle()
    // Rich editors (Quill, ProseMirror) re-render from their model: what shows is what they kept.
    const rejected = confirmEditable(el, value)
    if (rejected) {
      watch.finish()
      return rejected
    }
  } else {
    watch.finish()
    return fail('NOT_ACTIONABLE', `${quoteLabel(el)} is not a text field.`, { reason: 'wrong-kind' })
  }
  if (el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement) rememberTyped(el)
  const { navigating, ...changes } = watch.finish()
  const sensitive = el instanceof V.HTMLInputElement && (el.type === 'password' || /^cc-/.test(el.autocomplete))
  return {
    ok: true,
    el,
    forced: ready.forced,
    changes: { ...changes, value: displayedValue(el) },
    navigating,
    sensitive,
    ...(note ? { note } : {}),
  }
}

/** How long a checkbox or switch gets to show its new state after the click. */
const kCheckSettleMs = 1_000

/** check / uncheck: click the visible control only when the state differs, then verify it. */
export async function checkOp(
  target: Element,
  want: boolean,
  ctx: OpContext,
): Promise<(OpResult & { already: boolean }) | ExecFailure> {
  const state = checkedState(target)
  if (state === null)
    return fail('NOT_ACTIONABLE', `${quoteLabel(target)} is not a checkbox, radio or switch.`, {
      reason: 'wrong-kind',
      suggestion: 'Use click for buttons and select for dropdowns.',
    })
  if (state === want)
    return {
      ok: true,
      el: target,
      forced: false,
      changes: { urlChanged: false, domMutations: 0, newModals: [], focusChanged: false, value: String(want) },
      navigating: false,
      already: true,
    }
  // Element Plus and Ant Design hide the native input; the person clicks its label or switch.
  const V = viewOf(target)
  const clickable = target instanceof V.HTMLInputElement && target.labels?.length ? target.labels[0] : target
  const done = await clickOp(clickable, ctx)
  if (!done.ok) return done
  const now = await waitFor(() => (checkedState(target) === want ? true : null), kCheckSettleMs, ctx.signal)
  if (!now) {
    return fail('NOT_ACTIONABLE', `Clicked ${quoteLabel(target)} but it is still ${want ? 'unchecked' : 'checked'}.`, {
      reason: 'no-effect',
      suggestion: 'The control may be disabled by the page or need another control first.',
    })
  }
  return { ...done, changes: { ...done.changes, value: String(want) }, already: false }
}
