/**
 * A pack action as a plan the person approves once (docs/plan-approval.md): its
 * steps as the registry's dry run resolves them (params, conditions, selectors; nothing run), each
 * page step with the selectors the engine will try, in order, a nested action's steps in its place.
 * A step whose condition is decided only when it runs ends the list: it and the steps after it are
 * judged as any step, when they are reached.
 */
import { dryRun, type PlanStep } from '../registry/plan'
import type { ActionRegistry } from '../registry/registry'
import { safeParseSelector } from '../page/selectors'
import type { ActionOnTarget } from '../page/command'
import { Redactor } from '../registry/secrets'
import { packStepKind, packStepOpens } from '../vocabulary'

type Shown = { what: string; step: ActionOnTarget | { opens: string } }

/**
 * The action's steps for `previewPlan`, or null when the dry run cannot plan it (the run reports
 * why). `env`: the vault, so `${env.X}` resolves as it will run, and no value of it is listed.
 */
export function packPlanSteps(
  registry: ActionRegistry,
  name: string,
  params: Record<string, unknown>,
  env: Record<string, string> = {},
): Shown[] | null {
  let planned: ReturnType<typeof dryRun>
  try {
    planned = dryRun(registry, name, params, { env })
  } catch {
    // A plan the dry run cannot make is no plan to show: the action asks as it would without one.
    return null
  }
  if (!planned.success || !planned.plan) return null
  // [trust] The list is for a person's eyes and stays in the chat: a saved secret the action was
  // given as a value (not as a declared secret, which the dry run already masks) is hidden in the
  // addresses it lists as every secret is (docs/security.md).
  const redactor = new Redactor()
  for (const v of Object.values(env)) redactor.add(v)
  const hidden = (url: string) => {
    if (!redactor.finds(url)) return url
    let text = url
    try {
      text = decodeURIComponent(url)
    } catch {
      // not encoded: scrubbed as it is
    }
    return redactor.scrubText(text)
  }
  const out: Shown[] = []
  const walk = (steps: readonly PlanStep[]): boolean => {
    for (const s of steps) {
      if (s.decision === 'skip') continue
      if (s.decision === 'runtime') return false
      if (s.run) {
        if (!walk(s.run.steps)) return false
        continue
      }
      const what = s.action
      if (packStepOpens(s.action)) {
        out.push({ what, step: { opens: hidden(String(s.args.url ?? '')) } })
        continue
      }
      const selector = s.selectors?.selector
      // A step with no element (a key on the focus, a wait for text) takes no place in the plan.
      if (!selector) continue
      const selectors = selector.candidates.flatMap((c) => {
        const p = safeParseSelector(c)
        return p.success ? [p.data] : []
      })
      const twice = s.args.count === 2 ? packStepKind(s.action)?.twice : undefined
      const action = (twice ?? s.action) as ActionOnTarget['action']
      out.push({ what, step: { action, target: { selectors } } })
    }
    return true
  }
  walk(planned.plan.steps)
  return out
}
