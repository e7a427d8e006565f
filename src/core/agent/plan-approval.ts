/**
 * A remembered plan's one approval (docs/plan-approval.md): before a cached plan
 * that needs the person's review replays, the page draws every element its steps will act on, in
 * order, and the review question lists them; the yes is the approval the run's steps then carry
 * through the one guard (core/gate/guard.ts `plannedOf`), each bound to its element as drawn.
 */
import { instructionLoads } from '../vocabulary'
import type { Instruction } from '../instruction/schema'
import { actionOf, type PageAction } from '../page/command'
import { previewPlan, type DrawPlan } from '../gate/guard'
import type { PlannedStep } from '../gate/plan'
import type { ShowPlans } from '../settings'
export { planAsk } from '../gate/plan'

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

/**
 * Whether a remembered plan shows its card even when nothing in it asks: where a page can draw its
 * elements (the panel's runs) and the person sees every plan (`safety.showPlans`). A door with no
 * page to draw on (`ava run`) and a scheduled run (started with `showPlans: 'asking'`) replay it as
 * before.
 */
export function showsEveryPlan(run: {
  settings: { safety: { showPlans: ShowPlans } }
  ports: { page: { draw?: unknown } }
}): boolean {
  return run.settings.safety.showPlans === 'every' && !!run.ports.page.draw
}
