/**
 * A pack's action as one step of a run (`run_action`): the pack's own questions before it starts,
 * its secrets bound and kept in the vault, and each of its page steps through the run's guard and
 * step limit (core/gate/guard.ts).
 */
import { actionQuestions, bindSecrets, refusalOf } from '../gate/guard'
import type { StepView } from '../chat'
import { AvaError } from '../errors'
import { isFailureCode } from '../failure'
import type { ExecFailure, ExecOutcome, RiskCategory } from '../exec'
import type { Instruction } from '../instruction/schema'
import type { StepGuard } from '../page/channel'
import { kRiskReasons } from './risk'
import { msg, riskAsk } from './outcome'
import { originOf, resolveSecrets, secretNames, secretsInRequest } from './secrets'
import { plainSecrets } from './redact'
import type { ActionLookup } from './ports'
import { type Run, atLimit, limitError, stepName } from './context'
import { refused, pageAsk, secretReason, confirm } from './ask'

/**
 * A registry action (run_action): its steps pass the agent's own gate. The declared
 * risk is a floor: `high` asks before the action starts, and every page step still goes through
 * the page's risk check and counts against the step limit. Secrets in its args stay in the vault,
 * and their values are returned so that what the action reports is redacted like a typed step.
 */
export async function runRegistryAction(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<{ out: ExecOutcome; secrets: string[] }> {
  const { ports, state } = run
  const name = ins.params.action!
  let steps = 0
  try {
    const found = await ports.actions.lookup(name)
    if (!found.ok)
      return {
        out: {
          ok: false,
          code: 'INVALID',
          message: `${found.message} ${found.suggestion ?? ''}`.trim(),
          msg: msg('outcome.step.actionUnknown', { action: name }),
        } as ExecFailure,
        secrets: [],
      }
    const vault = await ports.secrets.vault()
    const bound = await packSecrets(run, ins, name, found, vault)
    if ('out' in bound) return { out: bound.out, secrets: [] }
    const { named } = bound
    const before = await askBeforePack(run, view, name, found, bound, vault)
    if ('out' in before) return { out: before.out, secrets: [] }
    const { asks } = before
    const params: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(ins.params.args ?? {}))
      params[k] = typeof v === 'string' ? resolveSecrets(v, (n) => vault[n]).value : v
    const secrets = named.map((n) => vault[n]).filter((v): v is string => !!v)
    // A refusal or the limit ends the whole action: its signal aborts, so that no retry,
    // fallback or `onError: continue` of the pack tries the step another way.
    const halt = new AbortController()
    let halted: ExecFailure | AvaError | undefined
    const guard: StepGuard = {
      confirm: asks,
      here: () => run.ports.page.url(run.state.tabId),
      async ask(reason, refusal) {
        const answer = await confirm(
          run,
          view,
          refusal ? secretReason(run, refusal, reason) : reason,
          refusal ? pageAsk(view, refusal, run) : riskAsk('step', { step: stepName(view) }),
        )
        if (answer !== true) halt.abort((halted = refused(refusalOf(refusal ?? { message: reason }, answer, 'action'))))
        return answer
      },
      step() {
        if (atLimit(run)) halt.abort((halted = limitError(run)))
        if (halted) throw halted instanceof AvaError ? halted : new Error(halted.message)
        run.count.one()
        steps++
      },
    }
    const r = await ports.actions.run(state.tabId, name, params, AbortSignal.any([run.signal, halt.signal]), guard)
    if (halted instanceof AvaError) throw halted
    if (halted) return { out: halted, secrets }
    const out: ExecOutcome = r.ok
      ? { ok: true, detail: r.text, rung: 'action' }
      : { ok: false, code: isFailureCode(r.code) ? r.code : 'STEP_FAILED', message: r.text }
    return { out, secrets }
  } finally {
    // An action that reached no page step still counts as one.
    if (!steps) run.count.note()
  }
}

/** The saved secrets the action would type, and the site they would be typed on. */
interface PackSecrets {
  named: string[]
  here: string
  origin: string
}

/**
 * The saved secrets the action types — named in its args, or its own env — bound to their sites as
 * a typed step's secrets are (core/gate/guard.ts `bindSecrets`); else the step's failure.
 */
async function packSecrets(
  run: Run,
  ins: Instruction,
  name: string,
  found: Extract<ActionLookup, { ok: true }>,
  vault: Record<string, string>,
): Promise<PackSecrets | { out: ExecFailure }> {
  const { ports, state } = run
  // A pack's own `${env.X}` types a saved secret as surely as a `${secret:X}` arg does: the same
  // binding and question (red-team finding 4: an installed pack's env reached any site unasked).
  const envNames = (found.env ?? []).filter((n) => vault[n] !== undefined)
  // [trust] An arg that writes a vault value out in any shape is that secret too (redact.ts).
  const plainArgs = Object.values(ins.params.args ?? {}).flatMap((v) =>
    typeof v === 'string' ? plainSecrets({ params: { value: v } }, vault).value : [],
  )
  const named = [
    ...new Set([
      ...Object.values(ins.params.args ?? {}).flatMap((v) => (typeof v === 'string' ? secretNames(v) : [])),
      ...envNames,
      ...plainArgs,
    ]),
  ]
  const here = await ports.page.url(state.tabId)
  let origin = originOf(here) ?? ''
  if (named.length) {
    const binding = bindSecrets(named, await ports.secrets.sites(), here)
    if (!binding.ok)
      return {
        out: {
          ok: false,
          code: 'SECRET_UNBOUND',
          message: `${name}: ${binding.message}`,
          msg: msg('outcome.step.secretUnbound', { names: binding.unbound.join(', '), site: binding.origin ?? '' }),
        } as ExecFailure,
      }
    origin = binding.origin
  }
  return { named, here, origin }
}

/**
 * The action's own questions, before its first step (core/gate/guard.ts `actionQuestions`): a
 * pack reading fields or sending page data off its sites, a `high` risk, a saved secret it
 * types. A secret the person named in their own request is not asked about again unless they
 * confirm credentials. That yes covers the typing of those credentials; the page still asks
 * about anything else the action touches. Says what the page steps still ask about, or the refusal.
 */
async function askBeforePack(
  run: Run,
  view: StepView,
  name: string,
  found: Extract<ActionLookup, { ok: true }>,
  { named, here, origin }: PackSecrets,
  vault: Readonly<Record<string, string>>,
): Promise<{ asks: RiskCategory[] } | { out: ExecFailure }> {
  const { state, settings } = run
  const requested = secretsInRequest(state.request, vault)
  const confirmsCredentials = settings.safety.confirm.includes('credentials') || named.some((n) => !requested.has(n))
  const questions = actionQuestions(
    { name, risk: found.risk === 'high' ? 'high' : 'low', params: {}, capabilities: found.capabilities },
    { secrets: named.length > 0, url: here },
    confirmsCredentials ? [...settings.safety.confirm, 'credentials'] : settings.safety.confirm,
  )
  let asks = settings.safety.confirm
  for (const q of questions) {
    const reason =
      q.category === 'credentials'
        ? `${kRiskReasons.credentials}: ${name} types the saved secret ${named.join(', ')} into a field on ${origin}`
        : q.reason
    const ask =
      q.category === 'packData'
        ? riskAsk('packData', { step: stepName(view), ...q.params })
        : q.category === 'credentials'
          ? riskAsk('actionSecret', { step: stepName(view), action: name, names: named.join(', '), site: origin })
          : riskAsk('high_risk_action', { step: stepName(view), action: name })
    const answer = await confirm(run, view, reason, ask)
    if (answer !== true)
      return {
        out: refused(
          refusalOf({ message: reason, category: q.category === 'packData' ? undefined : q.category }, answer, 'start'),
        ),
      }
    if (q.category === 'credentials') asks = asks.filter((c) => c !== 'credentials')
  }
  return { asks }
}
