/**
 * A saved flow as a plan the person approves once (docs/plan-approval.md): the
 * page step each flow step runs, located by the flow's own selectors, so the preview draws the
 * element the replay will act on and the replay's steps carry the element approved for each
 * (core/gate/guard.ts `plannedOf`). A navigation, a tab switch, a going back or a pack action run
 * by a step is listed as where it goes: the elements after it are judged when reached.
 */
import { flowStep } from '../vocabulary'
import { parseSelector } from '../page/selectors'
import type { ActionOnTarget, PageTarget } from '../page/command'
import { alternativesOf, type FlowStep } from './schema'

/** The DOM step a flow step runs on an element, or null for one that acts on none. */
export function flowPageStep(step: FlowStep): ActionOnTarget | null {
  const d = flowStep(step.action)
  if (!d?.runs || !d.element || !step.selectors) return null
  const selectors: NonNullable<PageTarget['selectors']> = []
  for (const s of alternativesOf(step.selectors)) {
    // The n-th-match level lives only in the flow's ladder; the preview cannot locate by it.
    if (s.type === 'index') continue
    try {
      selectors.push(parseSelector(s.value))
    } catch {
      // an unreadable selector locates nothing: the step is judged when reached
    }
  }
  return { action: d.runs as ActionOnTarget['action'], target: { selectors } }
}

/** A step that moves the flow to another page or another tab, in the plan's words; null for one that stays. */
function leaves(step: FlowStep): string | null {
  const d = flowStep(step.action)
  if (d?.replayer === 'load') return String(step.params.url ?? '')
  if (d?.inPage === 'back') return 'the previous page'
  if (d?.replayer === 'switchTab') return String(step.params.url ?? 'another tab')
  if (d?.replayer === 'compose') return `pack action ${String(step.params.action ?? '')}`
  return null
}

/** The flow's steps for `previewPlan`, in order; `start` when the replay first opens the flow's start page. */
export function flowPlanSteps(
  steps: readonly FlowStep[],
  start?: string,
): { what: string; step: ActionOnTarget | { opens: string } }[] {
  const out: { what: string; step: ActionOnTarget | { opens: string } }[] = []
  if (start) out.push({ what: 'navigate', step: { opens: start } })
  for (const s of steps) {
    const what = s.description || s.action
    const away = leaves(s)
    if (away !== null) out.push({ what, step: { opens: away } })
    else {
      const page = flowPageStep(s)
      if (page) out.push({ what, step: page })
    }
  }
  return out
}
