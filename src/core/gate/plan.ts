/**
 * One approval for a whole plan (docs/plan-approval.md): before a cached plan, a
 * pack action or a flow runs, the person sees every element it will touch, as drawn and in order,
 * with the site each is on, and says yes once. That yes is the step gate's element-bound yes
 * (core/gate/step.ts) given ahead of time: each acting step goes to the page carrying the element
 * approved for it (`StepGate.planned`), and the page acts without asking only when the element it
 * located now is drawn the same way — same words, same place, same link, form, frame and download.
 * Any other element is a new question (the plan stops there and asks again); a step the preview
 * could not draw (its page is not open yet) is judged as any step is, when it is reached.
 *
 * Pure: the page draws (src/dom/page/receiver.ts `draw`), the guard carries the approval
 * (core/gate/guard.ts `StepGuard.plan`) and the page channel stamps each step with it.
 */
import { drawnLabel, type DrawnTarget } from './drawn'
import { countsAsStep, domAction, isDomAction } from '../vocabulary'
import type { ActionOnTarget, PageTarget } from '../page/command'
import type { Msg } from '../chat'

/** One step of a plan as it was shown: what the step does, and its element as drawn (null: not on the page yet). */
export interface PlannedStep {
  /** The step in words (`click`, a flow step's description, an instruction's description). */
  what: string
  drawn: DrawnTarget | null
  /** A navigation: the address it opens (shown in the list; the navigation rule judges it when it runs). */
  opens?: string
}

/**
 * A plan the person approved once. `next()` gives the approved element for the next acting step,
 * in order, and moves on; past the end (or for a step the preview could not draw) it gives null,
 * and that step is judged as any other.
 */
export interface PlanApproval {
  readonly steps: readonly PlannedStep[]
  next(): DrawnTarget | null
  /** How many acting steps have taken their approved element so far. */
  readonly taken: number
}

export function approvePlan(steps: readonly PlannedStep[]): PlanApproval {
  let taken = 0
  return {
    steps,
    next() {
      const elements = steps.filter((s) => s.opens === undefined)
      const step = elements[taken]
      taken++
      return step?.drawn ?? null
    },
    get taken() {
      return taken
    },
  }
}

/**
 * Whether a page step takes one place in a plan: it counts as a step (it may change the page) and
 * acts on an element it names. A key pressed on whatever has the focus, a scroll of the page, a
 * wait and a read take none; the same rule picks what the preview draws and what the run checks.
 */
export function isPlanned(step: ActionOnTarget): boolean {
  if (!isDomAction(step.action) || !countsAsStep(step.action)) return false
  if (domAction(step.action).target === 'none') return false
  return !!step.target && !step.target.focused
}

/** The targets of the steps a plan shows, in order. */
export function plannedTargets(steps: readonly ActionOnTarget[]): PageTarget[] {
  return steps.filter(isPlanned).map((s) => s.target!)
}

/** Where an element sends a person, for the plan's list: its link, its form, its frame's origin. */
export function drawnSite(d: DrawnTarget): string {
  const to = d.href ?? d.form?.action ?? d.download?.url
  let host = ''
  try {
    if (to) host = new URL(to).host
  } catch {
    // not an address: the frame alone is shown
  }
  let frame = d.frame
  try {
    frame = new URL(d.frame).host
  } catch {
    // an opaque origin is shown as it is
  }
  return host && host !== frame ? `${frame} → ${host}` : frame
}

/** The plan's lines as the question lists them: "3. click: button “Save” on shop.example". */
export function planLines(steps: readonly PlannedStep[]): string[] {
  return steps.map((s, i) =>
    s.opens !== undefined
      ? `${i + 1}. ${s.what}: opens ${s.opens}`
      : s.drawn
        ? `${i + 1}. ${s.what}: ${s.drawn.role} “${drawnLabel(s.drawn)}” on ${drawnSite(s.drawn)}`
        : `${i + 1}. ${s.what}: not on this page yet, asked about when reached`,
  )
}

/**
 * The plan's lines as the card says them, in the person's language (`risk.plan.*` in the locale
 * tables): the framing words, a DOM action's word and an element's role are the table's, each as
 * a `…Key` parameter (a role or an action the table lacks is said as it is); what a flow step's
 * author wrote, the element's words and the sites are the page's and the author's, as drawn.
 */
export function planLineMsgs(steps: readonly PlannedStep[]): Msg[] {
  return steps.map((s, i): Msg => {
    const what: Record<string, string> = /^[a-z_]+$/.test(s.what)
      ? { whatKey: `risk.plan.do.${s.what}` }
      : { what: s.what }
    const n = String(i + 1)
    if (s.opens !== undefined) return { key: 'risk.plan.opens', params: { n, ...what, url: s.opens } }
    if (!s.drawn) return { key: 'risk.plan.later', params: { n, ...what } }
    return {
      key: 'risk.plan.line',
      params: {
        n,
        ...what,
        roleKey: `risk.plan.role.${s.drawn.role}`,
        label: drawnLabel(s.drawn),
        site: drawnSite(s.drawn),
      },
    }
  })
}

/**
 * The plan card's message (`risk.ask.plan`): `steps` the lines in English (logs, a UI that cannot
 * say them), `stepsLines` the same lines as locale messages, which the panel and the popup say in
 * the person's language (a `…Lines` parameter, src/ui/i18n.ts `sayMsg`).
 */
export function planAsk(name: string, steps: readonly PlannedStep[]): Msg {
  return {
    key: 'risk.ask.plan',
    params: { name, steps: planLines(steps).join('; '), stepsLines: JSON.stringify(planLineMsgs(steps)) },
  }
}

/** The one question for a whole plan, in English (the panel renders `risk.ask.plan` in the person's language). */
export function planQuestion(name: string, steps: readonly PlannedStep[]): string {
  return `Run “${name}”? It will act on these elements, in this order: ${planLines(steps).join('; ')}. Any other element stops it and asks again.`
}

/** The page's question when a step's element is not the one approved: what was approved, what is there now. */
export function planChangedReason(approved: DrawnTarget, now: DrawnTarget): string {
  return `Not the element you approved in the plan: you approved ${approved.role} “${drawnLabel(approved)}” on ${drawnSite(approved)}; now it is ${now.role} “${drawnLabel(now)}” on ${drawnSite(now)}.`
}
