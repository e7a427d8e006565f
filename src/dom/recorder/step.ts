/**
 * One flow step in the page: resolve its element with guarantees (resolve.ts), then act with the
 * same executor the agent uses (src/dom/executor), on exactly that element. The extension's
 * content script and `ava run`'s injected bundle both call this.
 */
import type { FlowStep } from '../../core/flows/schema'
import type { RunStepOptions, StepOutcome } from '../../core/flows/replay'
import type { ExecFailure } from '../../core/exec'
import { runCommand, type DomCommand, type RunOptions } from '../executor'
import { resolveTarget } from './resolve'
import { generateSelectors, snapshotOf } from './selectors'
import { runCheck, runExtract, runGoBack } from './check'
import { kAssertActions } from '../../core/flows/schema'

/** Time the action itself gets after the element was found (the executor's actionability waits). */
const kMinActMs = 2_000

/** Executor failures that happen after the page was touched: not retried, since acting twice is worse. */
// A click stopped by the hit test, or a yes whose element is gone: never tried again on another element.
const kAfterActing = new Set(['no-effect', 'value-rejected', 'swapped', 'unbound'])

function command(step: FlowStep, el: Element | undefined, files: RunStepOptions['files']): DomCommand {
  const p = step.params
  const target = el ? { element: el } : undefined
  // A `${file:…}` variable goes into a file input whichever step names it: upload, or fill.
  if (files?.length && (step.action === 'upload' || step.action === 'fill'))
    return { action: 'upload', target, files, value: files.map((f) => f.name).join(', ') }
  switch (step.action) {
    case 'click':
      return {
        action: 'click',
        target,
        button: p.button === 'right' || p.button === 'middle' ? p.button : 'left',
        count: 1,
      }
    case 'dblclick':
      return { action: 'dblclick', target }
    case 'fill':
      return { action: 'fill', target, value: String(p.value ?? '') }
    case 'select':
      return { action: 'select', target, value: String(p.value ?? '') }
    case 'check':
      return { action: 'check', target }
    case 'uncheck':
      return { action: 'uncheck', target }
    case 'hover':
      return { action: 'hover', target }
    case 'press':
      return { action: 'press', key: String(p.key), target }
    case 'scroll':
      return {
        action: 'scroll',
        target,
        direction: p.direction === 'up' ? 'up' : 'down',
        ...(typeof p.amount === 'number' ? { amount: p.amount } : {}),
      }
    case 'upload':
      // No file reached the page: the executor says so (INVALID) instead of doing nothing.
      return { action: 'upload', target, files: [], value: String(p.file ?? '') }
    default:
      return { action: 'wait', target, state: 'visible' }
  }
}

/** The gate's page half (src/dom/page/receiver.ts): a refusal stops the step before it acts. */
type BeforeAct = (el: Element, action: DomCommand['action']) => ExecFailure | null

/**
 * `element`: the element the person's yes was bound to; it is acted on without being located
 * again. `recheck`: the gate's second look during a click (RunOptions.recheck).
 */
export async function runFlowStep(
  step: FlowStep,
  opts: RunStepOptions & {
    signal?: AbortSignal
    beforeAct?: BeforeAct
    recheck?: (el: Element) => string | null
    element?: Element
  } & Pick<RunOptions, 'makeRoom'>,
): Promise<StepOutcome> {
  // Checks and reads act on nothing: no gate, no executor (check.ts).
  if (kAssertActions.has(step.action)) return runCheck(step, opts)
  if (step.action === 'extract') return runExtract(step, opts)
  if (step.action === 'go_back') return runGoBack(opts.signal)
  const t0 = performance.now()
  let el: Element | undefined
  let found: Extract<Awaited<ReturnType<typeof resolveTarget>>, { ok: true }> | undefined
  if (opts.element) el = opts.element
  else if (step.selectors) {
    const needsEnabled = step.action !== 'hover' && step.action !== 'wait' && step.action !== 'scroll'
    const r = await resolveTarget(step.selectors, step.element_snapshot, {
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      trusted: opts.trusted,
      needsEnabled,
      description: step.description,
    })
    if (!r.ok)
      return { ok: false, code: r.code, message: r.message, candidates: r.candidates, resolveMs: r.ms, acted: false }
    el = r.el
    found = r
  }
  const resolveMs = Math.round(performance.now() - t0)
  // A fallback or a repair matched: describe the element now, before the action may remove it.
  const healing = found && (found.alternative > 0 || opts.trusted)
  const fresh = healing && el ? (generateSelectors(el) ?? undefined) : undefined
  const snapshot = healing && el ? snapshotOf(el) : undefined
  const base = {
    level: found?.level ?? null,
    alternative: found?.alternative ?? 0,
    ...(found ? { selector: found.selector } : {}),
    ...(found?.similarity !== undefined ? { similarity: found.similarity } : {}),
  }
  if (step.action === 'wait') {
    return {
      ok: true,
      ...base,
      resolveMs,
      actMs: 0,
      detail: 'The element is there',
      ...(fresh ? { fresh, snapshot } : {}),
    }
  }
  const t1 = performance.now()
  const out = await runCommand(command(step, el, opts.files), {
    timeoutMs: Math.max(kMinActMs, opts.timeoutMs - resolveMs),
    signal: opts.signal,
    beforeAct: opts.beforeAct,
    recheck: opts.recheck,
    makeRoom: opts.makeRoom,
    settle: false,
  })
  const actMs = Math.round(performance.now() - t1)
  if (!out.ok) {
    // The refusal keeps its risk category, so whoever asks can say which risk it is (and a client's
    // --allow can match it), `ask`: where the step acts named a site or a file (src/core/step-place.ts),
    // and `question`: the element as drawn and the handle a yes binds to.
    const gate = {
      ...(out.offsite ? { offsite: out.offsite } : {}),
      ...(out.category ? { category: out.category } : {}),
      ...(out.ask ? { ask: out.ask } : {}),
    }
    const question = out.handle
      ? {
          question: {
            category: out.category,
            label: out.label,
            drawn: out.drawn,
            handle: out.handle,
            changed: out.changed,
            carriesData: out.carriesData,
          },
        }
      : {}
    return {
      ok: false,
      code: out.code,
      message: out.message,
      candidates: [],
      resolveMs,
      acted: kAfterActing.has(out.reason ?? ''),
      ...gate,
      ...question,
    }
  }
  // `navigating`: the next step belongs to the next document (the sender waits for it).
  return {
    ok: true,
    ...base,
    resolveMs,
    actMs,
    detail: out.detail ?? '',
    ...(fresh ? { fresh, snapshot } : {}),
    ...(out.navigating ? { navigating: true } : {}),
  }
}
