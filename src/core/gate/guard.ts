/**
 * The one step guard (docs/security.md, "Every door, one rule"). Whatever sends a step — Ava's own
 * model, a pack, a flow, `/run`, the popup's Run, `ava run`, `ava action run`, the Playwright
 * fixture, `ava mcp`, an MCP client in the person's Chrome — the same parts judge it here:
 *
 * - where it acts: the page judges the element as drawn (src/dom/page/receiver.ts with
 *   core/step-place.ts and core/risk/), and this loop asks about what the page refused
 *   (`askUntilDecided`, core/gate/step.ts), the yes bound to that element;
 * - the navigation rule: a denied site is BLOCKED, another site asks (`judgeNavigation`), for the
 *   model and for every client alike, and a navigation counts as a step;
 * - secrets bound to their origin (`bindSecrets`);
 * - the pack's own risk and its pack-level questions, asked before its first step
 *   (`actionQuestions`, `askBeforeAction`), and what a list of actions shows as its risk
 *   (`actionRisk`);
 * - one counting rule (`countsAsStep` and its siblings from the vocabulary) and one step limit
 *   (`createStepCount`);
 * - one answer for one situation (`refusalOf`): the person said no → DENIED; nobody there to ask
 *   and nothing allowed it → UNATTENDED, naming what would allow it; a list or setting forbids
 *   it → BLOCKED.
 *
 * A door only says who asks and who can answer: it builds a `StepGuard` (its `ask`) and passes
 * it to the channel (core/page/channel.ts) or calls these functions. A meta-test
 * (test/core/gate/guard-meta.test.ts) fails when a file outside the guard judges or counts a step.
 */
import { RISK_CATEGORIES, type ExecFailure, type RiskCategory } from '../exec'
import type { ActionOnTarget, PageAction, PageCommand, PageOutcome, PageTarget, SendCommand } from '../page/command'
import type { DrawnTarget } from './drawn'
import { packPlanSteps } from './pack-plan'
import { approvePlan, isPlanned, planAsk, planQuestion, type PlanApproval, type PlannedStep } from './plan'
import { askUntilDecided, questionOf } from './step'
import type { FailureCode } from '../failure'
import { navigationRefusal, pageUrl, type SitePolicy } from '../offsite'
import { countsAsStep, flowStepCounts, instructionCounts, targetOfAction } from '../vocabulary'
import { packQuestion, type PackCapabilities } from '../registry/capabilities'
import type { Risk } from '../registry/schema'
import type { ActionEngine, ActionResult, RunOptions } from '../registry/engine'
import type { ActionRegistry } from '../registry/registry'
import type { ShowPlans } from '../settings'
import { originOf } from '../agent/secrets'
import { kRiskReasons } from '../agent/risk'
import type { Answer, Confirmation, Decide } from './step'

export {
  askUntilDecided,
  confirmedCommand,
  questionOf,
  kMaxStepQuestions,
  type Answer,
  type Decide,
  type Confirmation,
} from './step'
export { countsAsStep, flowStepCounts, instructionCounts }

/**
 * What a door gives the guard: who answers its questions, its confirm categories and site lists,
 * the step count. The guard's parts (the channel's ports, `judgeNavigation`, `askBeforeAction`)
 * do the judging and the counting with it.
 */
export interface StepGuard {
  /** Risk categories that ask: every `act` command carries them. */
  confirm: RiskCategory[]
  /**
   * Who answers (the door's one say): the person in the panel or the popup, or a standing answer
   * where nobody is there (`{ unattended: '--allow credentials' }`). `refusal`: the page's refusal
   * (its category or host, to ask in the person's language).
   */
  ask(reason: string, refusal?: ExecFailure): Promise<Answer>
  /** Counts one executed step; throws when the step limit is reached. */
  step(): void
  /** The allowed and blocked sites: every navigation and every step's target is held to them. */
  sites?: SitePolicy
  /** The address of the page the steps act on, as the carrier knows it: a `navigate` to another site asks. */
  here?(): Promise<string>
  /** Told of a refusal that got a yes, before the step goes again (a yes to another site opens the background gate for it). */
  allowed?(refusal: ExecFailure): Promise<void>
  /**
   * A plan the person approved as a whole (core/gate/plan.ts): each acting step goes to the page
   * with the element approved for it, acted on unasked only while it is drawn the same way.
   */
  plan?: PlanApproval
}

/**
 * The approved element a page step carries (`StepGate.planned`), taken in order from the guard's
 * plan: one per acting step (`isPlanned`), none for a step the plan does not show. A step the
 * engine retries takes the next one, so a retry asks rather than acting on an element never shown.
 */
export function plannedOf(guard: Pick<StepGuard, 'plan'> | undefined, step: ActionOnTarget): { planned?: DrawnTarget } {
  if (!guard?.plan || !isPlanned(step)) return {}
  const planned = guard.plan.next()
  return planned ? { planned } : {}
}

/** What draws a plan's elements: the page's `draw` command, through whatever carries commands. */
export type DrawPlan = (targets: PageTarget[]) => Promise<(DrawnTarget | null)[]>

/** The page's `draw` command as a `DrawPlan` (nothing drawn when the page cannot answer). */
export function drawThrough(send: SendCommand, signal: AbortSignal, timeoutMs = 0): DrawPlan {
  return async (targets) => {
    const out = await send({ kind: 'draw', targets, timeoutMs }, signal)
    return out.ok ? out.drawn : targets.map(() => null)
  }
}

/**
 * The plan as the page draws it now: each step's element located as the step will locate it, in
 * order, nothing done. A navigation is listed with the address it opens; the elements after it are
 * on a page not open yet, so they are drawn as null and judged when reached.
 */
export async function previewPlan(
  draw: DrawPlan,
  steps: readonly { what: string; step: ActionOnTarget | { opens: string } }[],
): Promise<PlannedStep[]> {
  const shown = steps.filter((s) => 'opens' in s.step || isPlanned(s.step))
  const firstNav = shown.findIndex((s) => 'opens' in s.step)
  const here = (firstNav < 0 ? shown : shown.slice(0, firstNav)).map((s) => targetOfAction(s.step as PageAction)!)
  const drawn = here.length ? await draw(here) : []
  return shown.map((s, i) =>
    'opens' in s.step ? { what: s.what, drawn: null, opens: s.step.opens } : { what: s.what, drawn: drawn[i] ?? null },
  )
}

/**
 * The one question for a whole plan, asked through the door's answerer: a yes is the approval the
 * guard then carries (`plan`), a no or nobody refuses the start, nothing done. Headless doors do
 * not ask it: their standing answer judges each step as it comes.
 */
export async function approvePlanOnce(
  guard: StepGuard,
  name: string,
  steps: readonly PlannedStep[],
): Promise<{ ok: true; guard: StepGuard } | ({ ok: false } & Refusal)> {
  const reason = planQuestion(name, steps)
  const answer = await guard.ask(reason, {
    ok: false,
    code: 'NEEDS_CONFIRMATION',
    message: reason,
    ask: planAsk(name, steps),
  })
  if (answer !== true) return { ok: false, ...refusalOf({ message: reason }, answer, 'start') }
  return { ok: true, guard: { ...guard, plan: approvePlan(steps) } }
}

/** The guard's answer to a page's question, the refusal it allowed told back (a yes to another site opens the gate for it); without a guard nothing is asked and nothing goes. */
export function guardDecide(guard: StepGuard | undefined): Decide {
  return async (question) => {
    if (!guard) return false
    const answer = await guard.ask(question.message, question)
    if (answer === true) await guard.allowed?.(question)
    return answer
  }
}

/** The refusal a no becomes. */
export interface Refusal {
  code: Extract<FailureCode, 'DENIED' | 'UNATTENDED' | 'BLOCKED'>
  message: string
}

/** What the refused thing was, for the sentence: a step, a whole action, a page to open. */
export type Refused = 'step' | 'action' | 'start' | 'navigation'

const kNothingDone: Record<Refused, string> = {
  step: 'nothing was done to it',
  action: 'the action stopped before that step',
  start: 'the action was not started',
  navigation: 'nothing was opened',
}

/**
 * One answer for one situation, at every door: the person said no → DENIED ("you said no");
 * nobody was there to ask and nothing allowed it → UNATTENDED, naming what would. Never "by you"
 * where nobody was asked.
 */
export function refusalOf(
  question: Pick<ExecFailure, 'message' | 'category'>,
  answer: Exclude<Answer, true>,
  what: Refused = 'step',
): Refusal {
  const reason = question.message.replace(/[.\s]+$/, '')
  if (answer === false) return { code: 'DENIED', message: `You said no (${reason}); ${kNothingDone[what]}.` }
  return {
    code: 'UNATTENDED',
    message: `Not done: ${reason}. It needs a person's yes and nobody was there to ask; ${answer.unattended} would allow it. ${cap(kNothingDone[what])}.`,
  }
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1)

/** Whether an outcome's code is one of the guard's refusals (a no, nobody, a list). */
export function isRefusal(code: unknown): code is Refusal['code'] {
  return code === 'DENIED' || code === 'UNATTENDED' || code === 'BLOCKED'
}

/**
 * The standing answer of a door nobody watches (`ava run`, `ava action run`, the fixture, `ava
 * mcp` with its own Chromium): yes to the categories it was started with, else UNATTENDED naming
 * the flag that would allow it. A question with no category (a step the page could not name) is
 * allowed only by `all`.
 */
export function unattendedAnswer(
  allowed: readonly RiskCategory[],
  flag: (category: RiskCategory | undefined) => string,
): (refusal?: Pick<ExecFailure, 'category' | 'offsite'>) => Answer {
  return (refusal) => {
    const category: RiskCategory | undefined = refusal?.offsite ? 'cross_site' : refusal?.category
    if (category ? allowed.includes(category) : RISK_CATEGORIES.every((c) => allowed.includes(c))) return true
    return { unattended: flag(category) }
  }
}

/**
 * The question loop through a guard: sends the command, asks the guard's answerer while the page
 * asks, resends bound to the element on a yes. `refusal`: a no or nobody (nothing was done);
 * without a guard nothing is asked and the page's refusal is the outcome.
 */
export async function askThroughGuard<C extends object, T>(
  command: C,
  send: (command: C | (C & Confirmation)) => Promise<T>,
  guard: StepGuard | undefined,
  what: Refused = 'step',
  question: (out: T) => ExecFailure | null = questionOf as unknown as (out: T) => ExecFailure | null,
): Promise<{ out: T; refusal?: Refusal }> {
  const { out, declined, answer } = await askUntilDecided(
    command,
    send,
    guard ? question : () => null,
    guardDecide(guard),
  )
  return declined ? { out, refusal: refusalOf(declined, answer!, what) } : { out }
}

/**
 * One DOM action of an outside caller through the guard: counted by the one rule, sent with the
 * guard's confirm categories and site lists, asked about while the page asks, the yes bound to
 * the element. `refusal`: a no, nobody, or a list (nothing was done).
 */
export async function guardedAct(
  send: SendCommand,
  command: Omit<PageCommand<'act'>, 'confirm' | 'sites' | 'confirmed' | 'bound'>,
  guard: StepGuard,
  signal: AbortSignal,
): Promise<{ out: PageOutcome<'act'> } | { refusal: Refusal }> {
  if (counts({ dom: command.step.action })) guard.step()
  const sent: PageCommand<'act'> = {
    ...command,
    confirm: guard.confirm,
    ...(guard.sites ? { sites: guard.sites } : {}),
    ...plannedOf(guard, command.step),
  }
  const { out, refusal } = await askThroughGuard(sent, (c) => send(c, signal), guard)
  return refusal ? { refusal } : { out }
}

// ── navigation ───────────────────────────────────────────────────────────────────────────────

/**
 * A navigation, whoever sends it (the model's `navigate`, a pack's or a flow's, `ava_navigate`,
 * the bridge's navigate): BLOCKED by the lists, another site asks, then it counts as a step.
 * Returns why it may not go, or null (counted).
 */
export async function judgeNavigation(guard: StepGuard, url: string): Promise<Refusal | null> {
  const refusal = navigationRefusal(
    url,
    (await guard.here?.()) ?? '',
    guard.sites ?? { allow: [], deny: [] },
    guard.confirm,
  )
  if (refusal?.code === 'BLOCKED') return { code: 'BLOCKED', message: refusal.message }
  if (refusal) {
    const answer = await guard.ask(refusal.message, refusal)
    if (answer !== true) return refusalOf(refusal, answer, 'navigation')
    await guard.allowed?.(refusal)
  }
  guard.step()
  return null
}

/**
 * A tab the run opens, shows or reads (docs/agent.md, "Tabs"): the rule of a step in the run's
 * first tab, for a page that is not there. The lists refuse (BLOCKED), and so does a page Ava may
 * not take text from (`unread`: a site never captured, a browser page); a page on another site
 * than the one the steps act on asks, as a `navigate` there would, unless the person already
 * named it or said yes to it in this run (`approved`). Opening one counts as a navigation does.
 * Returns why it may not, or null.
 */
export async function judgeTab(
  guard: StepGuard,
  url: string,
  opts: { judges: 'open' | 'read'; unread?: (url: string) => boolean; approved?: boolean },
): Promise<Refusal | null> {
  if (!/^https?:\/\//i.test(url) || opts.unread?.(url))
    return {
      code: 'BLOCKED',
      message: `Blocked: Ava may not read ${pageUrl(url, '')?.host ?? 'this page'} (a browser page, or a site kept out of what Ava reads and sends), so it did not.`,
    }
  const refusal = navigationRefusal(
    url,
    (await guard.here?.()) ?? '',
    guard.sites ?? { allow: [], deny: [] },
    guard.confirm,
  )
  if (refusal?.code === 'BLOCKED') return { code: 'BLOCKED', message: refusal.message }
  if (refusal && !opts.approved) {
    const answer = await guard.ask(refusal.message, refusal)
    if (answer !== true) return refusalOf(refusal, answer, opts.judges === 'open' ? 'navigation' : 'step')
    await guard.allowed?.(refusal)
  }
  if (opts.judges === 'open') guard.step()
  return null
}

/** The lists alone, for a page a person (or a client, first thing) names: no question, no count. */
export function siteRefusal(url: string, sites: SitePolicy): Refusal | null {
  const refusal = navigationRefusal(url, '', sites, [])
  return refusal?.code === 'BLOCKED' ? { code: 'BLOCKED', message: refusal.message } : null
}

// ── secrets ──────────────────────────────────────────────────────────────────────────────────

/**
 * Secrets bound to their origin, as a password manager fills a login only on its own site: the
 * secrets `names` may be typed on the page at `url` when each is bound to its origin. `sites`:
 * the origins every one of them is bound to, which the page checks again where the field is
 * (`secretSites`, a field in a frame of another origin is refused).
 */
export function bindSecrets(
  names: readonly string[],
  bound: Readonly<Record<string, readonly string[]>>,
  url: string,
):
  | { ok: true; origin: string; sites: string[] }
  | { ok: false; code: 'SECRET_UNBOUND'; unbound: string[]; origin: string | null; message: string } {
  const origin = originOf(url)
  // An unbound secret is typed nowhere.
  const unbound = [...new Set(names)].filter((n) => !origin || !(bound[n] ?? []).includes(origin))
  if (unbound.length || !origin) {
    const which = unbound.length ? unbound : [...names]
    return {
      ok: false,
      code: 'SECRET_UNBOUND',
      unbound: which,
      origin,
      message: `Refused: the saved secret ${which.join(', ')} is not kept for ${origin ?? 'this page'}, so Ava does not type it here.`,
    }
  }
  const sites = (bound[names[0]] ?? []).filter((o) => names.every((n) => bound[n]?.includes(o)))
  return { ok: true, origin, sites }
}

// ── counting ─────────────────────────────────────────────────────────────────────────────────

/** A step as the counting rule reads it: a DOM action, an instruction of the model, or a flow step. */
export type Counted = { dom: string } | { instruction: string } | { flow: string }

/** The vocabulary's one counting rule, for any kind of step. */
export function counts(step: Counted): boolean {
  if ('dom' in step) return countsAsStep(step.dom)
  if ('instruction' in step) return instructionCounts(step.instruction)
  return flowStepCounts(step.flow)
}

/** The step limit of one run or one call: counts what the rule counts, refuses past the limit (never asks to go on and starts again at one). */
export interface StepCount {
  readonly used: number
  /** Counts `step` if it counts; throws the limit's error when the limit is reached. */
  take(step: Counted): void
  /** Counts one step; throws the limit's error when the limit is reached. */
  one(): void
  /** Counts one step whose limit was checked before it started (a pack action that reached no page step). */
  note(): void
  /** Whether the limit is reached, with `ahead` more steps queued. */
  atLimit(ahead?: number): boolean
}

export function createStepCount(limit: number, limitError: (limit: number) => Error, start = 0): StepCount {
  let used = start
  const c: StepCount = {
    get used() {
      return used
    },
    take(step) {
      if (!counts(step)) return
      c.one()
    },
    one() {
      if (used >= limit) throw limitError(limit)
      used++
    },
    note() {
      used++
    },
    atLimit: (ahead = 0) => used + ahead >= limit,
  }
  return c
}

// ── pack actions ─────────────────────────────────────────────────────────────────────────────

/** A pack action as the guard reads it: its declared risk, its secret parameters, what it can do. */
export interface GuardedAction {
  name: string
  risk: Risk
  params: Record<string, { secret?: boolean }>
  capabilities?: PackCapabilities
}

/** One question a pack action asks before its first step. */
export interface ActionQuestion {
  category: RiskCategory | 'packData'
  reason: string
  /** For the card: the locale key's parameters (`packData` names what the pack reads or sends). */
  params?: Record<string, string>
}

/**
 * The questions a pack action asks before its first step, so that a refusal leaves nothing half
 * done (a login refused after it typed the password is worse than one refused before):
 * - a `high` risk asks (high_risk_action);
 * - a secret it is given or reads from the vault types a password: credentials;
 * - a pack that reads fields or sends page data off its own sites asks (capabilities.ts).
 * Only the categories in `confirm` ask.
 */
export function actionQuestions(
  action: GuardedAction,
  given: { secrets: boolean; url: string },
  confirm: readonly RiskCategory[],
): ActionQuestion[] {
  const out: ActionQuestion[] = []
  const pack = action.capabilities && packQuestion(action.name, action.capabilities, originOf(given.url))
  if (pack) out.push({ category: 'packData', reason: pack.reason, params: pack.params })
  if (action.risk === 'high' && confirm.includes('high_risk_action'))
    out.push({ category: 'high_risk_action', reason: `${kRiskReasons.high_risk_action}: ${action.name}` })
  const takesSecret = given.secrets || Object.values(action.params).some((p) => p.secret)
  if (takesSecret && confirm.includes('credentials'))
    out.push({
      category: 'credentials',
      reason: `${kRiskReasons.credentials}: ${action.name} types a password or code into ${originOf(given.url) ?? 'this page'}`,
    })
  return out
}

/**
 * Asks an action's questions before its first step. A no (or nobody) refuses the whole action,
 * nothing done; a yes to credentials covers the action's typing of them (the page still asks
 * about anything else it touches). Returns the categories its steps still ask about, or the refusal.
 */
export async function askBeforeAction(
  guard: StepGuard,
  questions: readonly ActionQuestion[],
): Promise<{ ok: true; confirm: RiskCategory[] } | ({ ok: false } & Refusal)> {
  let confirm = [...guard.confirm]
  for (const q of questions) {
    const category = q.category === 'packData' ? undefined : q.category
    const answer = await guard.ask(q.reason, {
      ok: false,
      code: 'NEEDS_CONFIRMATION',
      message: q.reason,
      ...(category ? { category } : {}),
      ...(q.category === 'packData' ? { ask: { key: 'risk.ask.packData', params: { ...q.params } } } : {}),
    })
    if (answer !== true) return { ok: false, ...refusalOf({ message: q.reason, category }, answer, 'start') }
    if (category === 'credentials') confirm = confirm.filter((c) => c !== 'credentials')
  }
  return { ok: true, confirm }
}

/**
 * What a list of actions shows as an action's risk (`ava_action_search`, the popup): what the
 * guard will decide, not only what the pack declared: an action the guard asks about before its
 * first step is `high`, with the categories it asks (a login types a password: credentials).
 */
export function actionRisk(action: Pick<GuardedAction, 'risk' | 'params'>): { risk: Risk; asks: RiskCategory[] } {
  const asks: RiskCategory[] = []
  if (action.risk === 'high') asks.push('high_risk_action')
  if (Object.values(action.params).some((p) => p.secret)) asks.push('credentials')
  return { risk: asks.length ? 'high' : action.risk, asks }
}

/**
 * A pack action through the guard, whichever door runs it (`/run`, the popup, `ava run`, `ava
 * action run`, the fixture, `ava mcp`): its questions first, then its steps with the categories
 * still to ask (the engine's port carries `guard`, so each step is judged as any other). A refusal
 * before the first step is the action's result, nothing done. `port`: the engine to run it with,
 * built on a port that carries the returned guard.
 */
export async function guardedRun(
  o: {
    registry: ActionRegistry
    guard: StepGuard
    url: string
    capabilities?: PackCapabilities
    /** The page's `draw`, where the person is asked: the action asks with its plan first. */
    draw?: DrawPlan
    /**
     * Which actions show their plan where `draw` is given (the person's `safety.showPlans`): every
     * one, or only one that asks before it starts (`asking`, also where a door does not say).
     */
    plans?: ShowPlans
    /** The vault: the plan's list hides every value of it (core/gate/pack-plan.ts). */
    secrets?: Readonly<Record<string, string>>
  },
  name: string,
  params: Record<string, unknown>,
  engineFor: (guard: StepGuard) => ActionEngine | Promise<ActionEngine>,
  options?: RunOptions,
): Promise<ActionResult> {
  const found = o.registry.lookup(name)
  if (found.ok) {
    const secrets = Object.keys(params).some((k) => found.action.params[k]?.secret)
    let questions = actionQuestions(
      { name, risk: found.action.risk, params: found.action.params, capabilities: o.capabilities },
      { secrets, url: o.url },
      o.guard.confirm,
    )
    // [trust] Where a person is asked and a page can draw its elements, the action's plan card comes
    // first (every element as drawn, in order), its yes the plan's approval: for every action, or
    // with `plans: 'asking'` for one that asks before it starts, whose question the card then is.
    let guard = o.guard
    const asksFirst = questions.some((q) => q.category === 'high_risk_action')
    const shown =
      o.draw && (asksFirst || o.plans === 'every') ? packPlanSteps(o.registry, name, params, { ...o.secrets }) : null
    // An action with nothing to list (a key on the focus, a wait) has no card unless it asks anyway.
    if (o.draw && shown && (asksFirst || shown.length)) {
      const approved = await approvePlanOnce(o.guard, name, await previewPlan(o.draw, shown))
      if (!approved.ok) return refusedRun(name, approved)
      guard = approved.guard
      questions = questions.filter((q) => q.category !== 'high_risk_action')
    }
    const before = await askBeforeAction(guard, questions)
    if (!before.ok)
      return {
        success: false,
        action: name,
        error: { code: before.code, message: before.message, action: name },
        warnings: [],
        fallbacksUsed: [],
        durationMs: 0,
        trace: [],
      }
    return (await engineFor({ ...guard, confirm: before.confirm })).run(name, params, options)
  }
  return (await engineFor(o.guard)).run(name, params, options)
}

function refusedRun(name: string, refusal: Refusal): ActionResult {
  return {
    success: false,
    action: name,
    error: { code: refusal.code, message: refusal.message, action: name },
    warnings: [],
    fallbacksUsed: [],
    durationMs: 0,
    trace: [],
  }
}
