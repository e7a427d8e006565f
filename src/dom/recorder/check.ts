/**
 * A flow's checks in the page: `verify` / `expect` steps (text present, address,
 * element state, value, count) and `extract`. A check that holds returns on the first look; only
 * a failing one keeps looking, until the page has settled (the executor's rule for a
 * miss) or the step's timeout, and then fails with what was expected and what is there.
 */
import type { CheckState, FlowStep } from '../../core/flows/schema'
import type { RunStepOptions, StepOutcome } from '../../core/flows/replay'
import { urlMatches } from '../../core/glob'
import { normaliseText } from '../../core/verify'
import { sleep } from '../../core/sleep'
import { checkedState, isDisabled, queryAll } from '../locators'
import { displayedValue, isVisible, kAvaUiAttr, labelOf, visibleTextOf } from '../executor/dom'
import { visibleText } from '../executor/actions'
import { expectingChange, kSettledMissMs } from '../executor/wait'
import { holdsSecret } from '../secret-fields'
import { resolveTarget, type Resolution } from './resolve'

/** Between two looks of a failing check: as often as the step resolver looks. */
const kCheckPollMs = 30
/** Characters of the page or element text quoted in a failure: enough to see what is there instead. */
const kActualChars = 120

interface Look {
  held: boolean
  /** What the step wants, in words ("the page to show "Saved""). */
  expected: string
  /** What is there instead ("it shows "Error: …""); only read when the check fails. */
  actual: () => string
  found?: Extract<Resolution, { ok: true }>
}

const quote = (s: string, max = kActualChars): string => `"${s.length > max ? `${s.slice(0, max)}…` : s}"`

function element(step: FlowStep): Promise<Resolution> {
  // A text or value check expects the element's words may differ from the recording: comparing
  // them to the snapshot would call the right element "not similar". Uniqueness still holds.
  const trusted = step.params.text !== undefined || step.params.value !== undefined
  return resolveTarget(step.selectors!, step.element_snapshot, {
    timeoutMs: 0,
    quick: true,
    trusted,
    description: step.description,
  })
}

/** Why no element could be checked, as the actual half of the message. */
function missing(r: Extract<Resolution, { ok: false }>): string {
  if (r.code === 'AMBIGUOUS') return `several elements match (${r.message})`
  if (r.code === 'NOT_SIMILAR') return 'the element there does not look like the recorded one'
  return 'no element matches the selectors'
}

/**
 * The element, as the message names it: its label, unless its label is the very text being
 * checked (a status line), where the selector says which element is meant.
 */
function named(step: FlowStep, r: Resolution | null): string {
  const checked = typeof step.params.text === 'string' ? normaliseText(step.params.text) : null
  const label = r?.ok ? labelOf(r.el) : step.description
  if (label && (checked === null || !normaliseText(label).includes(checked)) && !(r?.ok && checked !== null))
    return quote(label, 50)
  if (r?.ok) return r.selector
  if (step.selectors) return step.selectors.primary.value
  return 'the element'
}

function stateOf(el: Element, want: CheckState): { held: boolean; is: string } {
  switch (want) {
    case 'visible':
    case 'hidden': {
      const shown = isVisible(el)
      return { held: shown === (want === 'visible'), is: shown ? 'visible' : 'hidden' }
    }
    case 'enabled':
    case 'disabled': {
      const off = isDisabled(el)
      return { held: off === (want === 'disabled'), is: off ? 'disabled' : 'enabled' }
    }
    default: {
      const c = checkedState(el)
      if (c === null) return { held: false, is: 'not something that can be checked' }
      const is = c === 'mixed' ? 'partly checked' : c ? 'checked' : 'unchecked'
      return { held: is === want, is }
    }
  }
}

/** The value a check compares: a secret field's value is compared but never quoted. */
function valueOf(el: Element): { value: string; shown: string } {
  const V = el.ownerDocument.defaultView ?? window
  const raw = el instanceof V.HTMLInputElement || el instanceof V.HTMLTextAreaElement ? el.value : displayedValue(el)
  return { value: raw, shown: holdsSecret(el) ? '(a secret field; its value is not shown)' : quote(raw) }
}

async function look(step: FlowStep): Promise<Look> {
  const p = step.params
  if (typeof p.url === 'string') {
    const pattern = p.url
    return {
      held: urlMatches(location.href, pattern),
      expected: `the address to match ${quote(pattern)}`,
      actual: () => `it is ${quote(location.href, 300)}`,
    }
  }
  if (typeof p.text === 'string' && !step.selectors) {
    const want = p.text
    const text = visibleText()
    return {
      held: normaliseText(text).includes(normaliseText(want)),
      expected: `the page to show ${quote(want)}`,
      actual: () => `it shows ${quote(text.replace(/\s+/g, ' ').trim())}`,
    }
  }
  if (typeof p.count === 'number') {
    const want = p.count
    const sel = step.selectors!.primary
    let all: Element[] = []
    try {
      all = queryAll(sel.value).filter((el) => !el.closest(`[${kAvaUiAttr}]`) && isVisible(el))
    } catch {
      all = []
    }
    return {
      held: all.length === want,
      expected: `${want} visible element(s) matching ${sel.value}`,
      actual: () => `there are ${all.length}`,
    }
  }
  const r = await element(step)
  if (p.state === 'hidden' && !r.ok && r.code === 'ELEMENT_NOT_FOUND')
    return { held: true, expected: `${named(step, r)} to be hidden`, actual: () => '' }
  if (!r.ok) {
    const what =
      typeof p.state === 'string'
        ? `to be ${p.state}`
        : typeof p.value === 'string'
          ? `to have the value ${quote(p.value)}`
          : `to show ${quote(String(p.text))}`
    return { held: false, expected: `${named(step, r)} ${what}`, actual: () => missing(r) }
  }
  if (typeof p.state === 'string') {
    const s = stateOf(r.el, p.state as CheckState)
    return { held: s.held, expected: `${named(step, r)} to be ${p.state}`, actual: () => `it is ${s.is}`, found: r }
  }
  if (typeof p.value === 'string') {
    const want = p.value
    const v = valueOf(r.el)
    const V = r.el.ownerDocument.defaultView ?? window
    // A select holds its option's value; people and recordings name the option's text as often.
    const held =
      v.value === want ||
      (r.el instanceof V.HTMLSelectElement && [...r.el.selectedOptions].some((o) => o.value === want))
    return {
      held,
      expected: `${named(step, r)} to have the value ${holdsSecret(r.el) ? '(secret)' : quote(want)}`,
      actual: () => `it is ${v.shown}`,
      found: r,
    }
  }
  const want = String(p.text)
  const text = visibleTextOf(r.el) || normaliseText(r.el.textContent ?? '')
  return {
    held: normaliseText(text).includes(normaliseText(want)),
    expected: `${named(step, r)} to show ${quote(want)}`,
    actual: () => `it shows ${quote(text)}`,
    found: r,
  }
}

/** "the page to show X" → "the page shows X": the expectation, as a fact once it held. */
function passed(expected: string): string {
  return expected
    .replace(/ to be /, ' is ')
    .replace(/ to show /, ' shows ')
    .replace(/ to have /, ' has ')
    .replace(/ to match /, ' matches ')
}

/** A verify / expect step: see the header for when it returns. */
export async function runCheck(step: FlowStep, opts: RunStepOptions & { signal?: AbortSignal }): Promise<StepOutcome> {
  const t0 = performance.now()
  const deadline = t0 + opts.timeoutMs
  let lastChange = t0
  const observer = new MutationObserver(() => void (lastChange = performance.now()))
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
  try {
    for (;;) {
      if (opts.signal?.aborted)
        return {
          ok: false,
          code: 'CANCELLED',
          message: 'The replay was stopped.',
          candidates: [],
          resolveMs: Math.round(performance.now() - t0),
          acted: false,
        }
      const l = await look(step)
      const ms = Math.round(performance.now() - t0)
      if (l.held) {
        const f = l.found
        return {
          ok: true,
          level: f?.level ?? null,
          alternative: f?.alternative ?? 0,
          ...(f ? { selector: f.selector } : {}),
          resolveMs: ms,
          actMs: 0,
          detail: `Checked: ${passed(l.expected)}`,
        }
      }
      const now = performance.now()
      // A miss on a settled page is final; one on a page still changing may yet come true.
      const settled = now - lastChange >= kSettledMissMs && !expectingChange()
      if (now >= deadline || settled) {
        const after = settled ? '' : ` (after ${Math.round(opts.timeoutMs)} ms)`
        return {
          ok: false,
          code: 'VERIFY_FAILED',
          message: `Check failed: expected ${l.expected}, but ${l.actual()}${after}.`,
          candidates: [],
          resolveMs: ms,
          acted: false,
        }
      }
      await sleep(kCheckPollMs, opts.signal).catch(() => undefined)
    }
  } finally {
    observer.disconnect()
  }
}

/** An extract step: the element's text (a field's value), or one of its attributes. */
export async function runExtract(
  step: FlowStep,
  opts: RunStepOptions & { signal?: AbortSignal },
): Promise<StepOutcome> {
  const r = await resolveTarget(step.selectors!, step.element_snapshot, {
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    trusted: opts.trusted,
    description: step.description,
  })
  if (!r.ok)
    return { ok: false, code: r.code, message: r.message, candidates: r.candidates, resolveMs: r.ms, acted: false }
  const base = {
    ok: true as const,
    level: r.level,
    alternative: r.alternative,
    selector: r.selector,
    resolveMs: r.ms,
    actMs: 0,
  }
  const name = String(step.params.name)
  if (typeof step.params.attribute === 'string') {
    const value = r.el.getAttribute(step.params.attribute) ?? ''
    return { ...base, value, detail: `Read ${step.params.attribute} of ${quote(labelOf(r.el), 50)} as ${name}` }
  }
  // A secret field's value never leaves the page: the flow gets nothing to leak.
  if (holdsSecret(r.el))
    return {
      ok: false,
      code: 'INVALID',
      message: `${quote(labelOf(r.el), 50)} holds a secret; an extract step does not read it.`,
      candidates: [],
      resolveMs: r.ms,
      acted: false,
    }
  const V = r.el.ownerDocument.defaultView ?? window
  const value =
    r.el instanceof V.HTMLInputElement || r.el instanceof V.HTMLTextAreaElement || r.el instanceof V.HTMLSelectElement
      ? displayedValue(r.el)
      : visibleTextOf(r.el)
  return { ...base, value, detail: `Read ${quote(labelOf(r.el), 50)} as ${name}` }
}

/** How long a go_back waits for the history to move before it says there was nowhere to go. */
const kBackWaitMs = 1_000

/**
 * A go_back step: the browser's Back. When the document unloads, this answer is lost and the
 * sender reports the step done (mayNavigate); a single-page app's Back answers here.
 */
export async function runGoBack(signal?: AbortSignal): Promise<StepOutcome> {
  const t0 = performance.now()
  const before = location.href
  const moved = new Promise<boolean>((resolve) => {
    const done = () => resolve(true)
    for (const type of ['popstate', 'hashchange', 'pagehide']) addEventListener(type, done, { once: true })
    setTimeout(() => resolve(false), kBackWaitMs)
    signal?.addEventListener('abort', () => resolve(false), { once: true })
  })
  history.back()
  const ok = (await moved) || location.href !== before
  const ms = Math.round(performance.now() - t0)
  if (!ok)
    return {
      ok: false,
      code: 'STEP_FAILED',
      message: 'There is no earlier page in this tab to go back to.',
      candidates: [],
      resolveMs: 0,
      acted: false,
    }
  return { ok: true, level: null, alternative: 0, resolveMs: 0, actMs: ms, detail: `Went back to ${location.href}` }
}
