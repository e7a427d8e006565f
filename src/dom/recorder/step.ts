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
import { domAction, flowStep, isDomAction } from '../../core/vocabulary'

/** Time the action itself gets after the element was found (the executor's actionability waits). */
const kMinActMs = 2_000

/** Executor failures that happen after the page was touched: not retried, since acting twice is worse. */
// A click stopped by the hit test, or a yes whose element is gone: never tried again on another element.
const kAfterActing = new Set(['no-effect', 'value-rejected', 'swapped', 'unbound'])

/** How a replay reads a flow param into a DOM action's field; undefined leaves the field out. */
const kReplayField: Record<string, (v: unknown) => unknown> = {
  value: (v) => String(v ?? ''),
  key: (v) => String(v),
  button: (v) => (v === 'right' || v === 'middle' ? v : 'left'),
  direction: (v) => (v === 'up' ? 'up' : 'down'),
  amount: (v) => (typeof v === 'number' ? v : undefined),
}

/**
 * The DOM action a flow step runs on its element, built from its descriptor (src/core/vocabulary.ts):
 * the action it `runs` and the fields its `replay` fills. A step with no DOM action is the
 * replayer's own and never reaches the page: one that does is refused, never run as another.
 */
function command(
  step: FlowStep,
  el: Element | undefined,
  files: RunStepOptions['files'],
): DomCommand | { refused: string } {
  const d = flowStep(step.action)
  if (!d?.runs || !isDomAction(d.runs))
    return { refused: `A ${step.action} step has no action to run in the page; the replayer runs it itself.` }
  const target = el ? { element: el } : undefined
  // A `${file:…}` variable goes into a file input whichever step names it: upload, or fill.
  if (files?.length && d.filesIn) return { action: 'upload', target, files, value: files.map((f) => f.name).join(', ') }
  const out: Record<string, unknown> = { action: d.runs, target }
  for (const [field, param] of Object.entries(d.replay ?? {})) {
    const v = (kReplayField[field] ?? ((x: unknown) => x))(step.params[param!])
    if (v !== undefined) out[field] = v
  }
  // No file reached the page: the executor says so (INVALID) instead of doing nothing.
  if ('files' in domAction(d.runs).fields) out.files = []
  return out as DomCommand
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
  const inPage = flowStep(step.action)?.inPage
  if (inPage === 'read') return runExtract(step, opts)
  if (inPage === 'back') return runGoBack(opts.signal)
  const t0 = performance.now()
  let el: Element | undefined
  let found: Extract<Awaited<ReturnType<typeof resolveTarget>>, { ok: true }> | undefined
  if (opts.element) el = opts.element
  else if (step.selectors) {
    const needsEnabled = !flowStep(step.action)?.anyState
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
  if (inPage === 'found') {
    return {
      ok: true,
      ...base,
      resolveMs,
      actMs: 0,
      detail: 'The element is there',
      ...(fresh ? { fresh, snapshot } : {}),
    }
  }
  const cmd = command(step, el, opts.files)
  if ('refused' in cmd)
    return { ok: false, code: 'INVALID', message: cmd.refused, candidates: [], resolveMs, acted: false }
  const t1 = performance.now()
  const out = await runCommand(cmd, {
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
