/**
 * The DOM-native executor: finds the element an instruction means with the locator
 * ladder, acts on it like a careful person, and reports what changed or a typed error — as data,
 * never by throwing.
 *
 *   executeInstruction(ins, opts)  one Unified Instruction, as the planner sends it
 *   runCommand(cmd, opts)          one DomCommand, the richer form the BrowserPort uses
 */
import type { ExecFailure, ExecOutcome } from '../../core/exec'
import type { Instruction } from '../../core/instruction/schema'
import { actionOf } from '../../core/page/command'
import { domAction } from '../../core/vocabulary'
import { actionRegistry, type DomActionName, type DomCommand } from './actions'
import { fail } from '../../core/exec'
import { locate, type Located } from './ladder'
import { noteAction } from './wait'
import { pageDigest } from './digest'
import { riskFactsOf } from '../risk'
import { findRisks } from '../../core/risk/decide'

export {
  actionRegistry,
  kDomActionNames,
  visibleText,
  urlMatches,
  kQuietWindowMs,
  type DomCommand,
  type DomActionName,
  type DomActionRunner,
  type ScrollDirection,
  type WaitState,
} from './actions'
export { locate, type TargetSpec, type Located, type Rung } from './ladder'
export {
  semanticMatch,
  parseQuery,
  tokenize,
  scoreElement,
  kMinScore,
  kAmbiguityMargin,
  kMaxCandidates,
  type SemanticResult,
} from './semantic'
export { ensureActionable, coveringElement, kVisibleGraceMs, type Checks } from './actionability'
export { watchEffects, kEffectWindowMs } from './effects'
export { parseChord, keyInfo } from './events'
export { kWidgets, widgetFor, pickOption } from './widgets'

/** Steps the loop guard may call a loop when repeated: their result carries the page's fingerprint. */
const kRepeatable = new Set<DomActionName>(['click', 'dblclick', 'press'])

/** SPA components get this long to mount before a step gives up. */
export const kDefaultTimeoutMs = 10_000

export interface RunOptions {
  timeoutMs?: number
  signal?: AbortSignal
  /**
   * Called with the located element before anything is done to it; returning a failure stops
   * the action (the safety check that asks the person first).
   */
  beforeAct?: (el: Element, action: DomActionName) => ExecFailure | null | Promise<ExecFailure | null>
  /**
   * After a click's first effect, wait for the page to finish answering (default) so the changes
   * reported describe all of it, for the agent's next look. A flow's replay reads no changes, and
   * its next step waits for exactly what it needs (its element actionable, its check holding).
   */
  settle?: boolean
  /**
   * Called during a click after the pointer events, with the element: a message stops the click
   * before its release (the gate's second look).
   */
  recheck?: (el: Element) => string | null
  /**
   * Ava's own button or panel lies over the element: moves them off this box (in the window's
   * coordinates) and resolves once they have gone (the content script's launcher).
   */
  makeRoom?: (box: { x: number; y: number; width: number; height: number }) => Promise<void>
}

export async function runCommand(cmd: DomCommand, opts: RunOptions = {}): Promise<ExecOutcome> {
  const action = actionRegistry.get(cmd.action)
  if (!action) return fail('INVALID', `Unknown action "${cmd.action}".`)
  const timeoutMs = opts.timeoutMs ?? kDefaultTimeoutMs
  const deadline = Date.now() + timeoutMs
  try {
    let target: Located | undefined
    const { target: needs, onText } = domAction(cmd.action)
    const wantsTarget =
      needs === 'required' ||
      (needs === 'optional' &&
        cmd.target &&
        (cmd.target.element || cmd.target.targetId || cmd.target.selectors?.length || cmd.target.semantic))
    if (wantsTarget) {
      if (!cmd.target) return fail('INVALID', `${cmd.action} needs a target.`)
      const found = await locate(cmd.target, { timeoutMs, signal: opts.signal, allowText: !!onText })
      if (found.ok === false) return found
      // A stand-in for a re-rendered control is for steps that only move through the page: a step
      // that types, picks, submits or may delete, pay, grant or send acts on the element it was
      // listed as, or on nothing (docs/executor.md, "Re-rendered controls").
      if (found.replaced && changesState(found.el, cmd.action)) {
        return fail(
          'ELEMENT_STALE',
          `The element ${found.replaced} was re-rendered; Ava does not act on the control now in its place for a step that changes something.`,
          { rung: 'target_id', suggestion: 'Observe the page again and use the new ids.' },
        )
      }
      target = found
      const refused = await opts.beforeAct?.(found.el, cmd.action)
      if (refused) return refused
    }
    const out = await action.run({
      cmd,
      target,
      ctx: { deadline, signal: opts.signal, settle: opts.settle, recheck: opts.recheck, makeRoom: opts.makeRoom },
      timeoutMs: Math.max(0, deadline - Date.now()),
    })
    // What the page did in answer may bring the next step's target: its miss waits.
    if (out.ok && out.changes && (out.changes.domMutations || out.changes.urlChanged || out.changes.newModals.length))
      noteAction()
    // The explanation of the match travels with the outcome into the run's trace.
    if (out.ok && target?.why) out.why = target.why
    if (out.ok && target?.replaced) {
      out.replaced = target.replaced
      out.detail += ` (the page had re-rendered ${target.replaced}; acted on the control now in its place, same kind, name and place)`
      // The detail says more than the short result can: it is what the step shows (ExecSuccess.msg).
      delete out.msg
    }
    if (out.ok && kRepeatable.has(cmd.action) && !out.navigating) out.after = pageDigest()
    return out
  } catch (e) {
    // The executor reports; it never throws into its caller (errors are data, STYLE.md).
    return fail('NOT_ACTIONABLE', `${cmd.action} failed: ${(e as Error)?.message ?? String(e)}`)
  }
}

/**
 * Whether a step changes the page's state, by its descriptor (core/vocabulary.ts): a look never
 * does; typing, picking or checking always does; a click or key does when it submits a form or
 * the risk reading finds it risky in any category.
 */
function changesState(el: Element, action: DomActionName): boolean {
  const gate = domAction(action).gate
  if (!gate.changes) return false
  if (!gate.risk) return true
  const facts = riskFactsOf(el, gate.risk)
  return !!facts.form || findRisks(facts).length > 0
}

/** Executes one instruction in this page and reports what happened. */
export async function executeInstruction(ins: Instruction, opts: RunOptions = {}): Promise<ExecOutcome> {
  const cmd = actionOf(ins)
  if (!cmd) return fail('INVALID', `${ins.action_type} is not a page action; the background runs it.`)
  return runCommand(cmd, opts)
}
