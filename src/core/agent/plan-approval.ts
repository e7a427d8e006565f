/**
 * A remembered plan's one approval (docs/agent.md, "Approving a whole plan"): before a cached plan
 * that needs the person's review replays, the page draws every element its steps will act on, in
 * order, and the review question lists them; the yes is the approval the run's steps then carry
 * through the one guard (core/gate/guard.ts `plannedOf`), each bound to its element as drawn.
 */
import { instructionLoads } from '../vocabulary'
import type { Instruction } from '../instruction/schema'
import { actionOf, type PageAction } from '../page/command'
import { previewPlan, type DrawPlan } from '../gate/guard'
import { planLines, type PlannedStep } from '../gate/plan'
import type { Msg } from '../chat'

/** A cached plan's steps as drawn on the page now (a navigation lists its address). */
export function previewCachedPlan(draw: DrawPlan, steps: readonly Instruction[]): Promise<PlannedStep[]> {
  return previewPlan(
    draw,
    steps.flatMap((ins): { what: string; step: PageAction | { opens: string } }[] => {
      const what = ins.description || ins.action_type
      if (instructionLoads(ins.action_type)) return ins.params.url ? [{ what, step: { opens: ins.params.url } }] : []
      const step = actionOf(ins)
      return step ? [{ what, step }] : []
    }),
  )
}

/** The plan card in the person's language. */
export function planAsk(name: string, steps: readonly PlannedStep[]): Msg {
  return { key: 'risk.ask.plan', params: { name, steps: planLines(steps).join('; ') } }
}
