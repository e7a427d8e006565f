import type { Msg } from '../chat'
import type { Recovery } from '../failure'
import { AvaError, type ErrorCode } from '../errors'
import { kScrollWords, kStepResults, type ExecFailure, type NotActionableReason, type RiskCategory } from '../exec'
import { failureKeys, failureMsg, failureOf } from '../failure'

/**
 * What a run tells the person, as locale keys (one message per outcome, in the UI
 * language). Core decides what happened and which recovery fits (a user
 * message and a recovery action, by the failure list's entry for the code, src/core/failure.ts);
 * the panel words it from src/core/locales. Every key made here is listed in `kOutcomeKeys`,
 * which a unit test checks against both locales.
 */

export function msg(key: string, params?: Msg['params']): Msg {
  return params ? { key, params } : { key }
}

/** An error that carries its sentence for the panel; `english` is for logs and the planner (a model). */
export function avaError(code: ErrorCode, english: string, m: Msg): AvaError {
  return new AvaError(code, english, { msg: m })
}

/**
 * The sentence of an error: its own when it was made with one, else the one for its code. An
 * unreachable provider names the URL it tried when the error knows it.
 */
export function errorMsg(e: AvaError): Msg {
  const own = e.details?.msg as Msg | undefined
  if (own && typeof own.key === 'string') return own
  const url = e.details?.url
  if (e.code === 'NETWORK' && typeof url === 'string') return msg('outcome.error.NETWORK_AT', { url })
  return failureMsg(e.code)
}

/**
 * The buttons a failed outcome offers (NETWORK → RETRY, JSON_PARSE → REGENERATE; a key or
 * provider problem is fixed in the options). Retry runs the request again as it was (a saved plan
 * may replay); Regenerate asks the model afresh, past the instruction cache.
 */
export function recoveryOf(e: AvaError): Recovery[] {
  const own = e.details?.recovery as Recovery[] | undefined
  return own ?? [...(failureOf(e.code).recovery ?? ['retry'])]
}

/** Why a step could not be done, for a failure whose own words are the page's (English). */
const kNotActionable: readonly (NotActionableReason | 'cancelled')[] = [
  'not-visible',
  'disabled',
  'read-only',
  'not-stable',
  'obscured',
  'no-effect',
  'value-rejected',
  'wrong-kind',
  'swapped',
  'unbound',
  'cancelled',
]

/**
 * The sentence for step `n` (1-based) that failed. "The page may have changed" is said only of
 * ELEMENT_STALE, an element that was there and left; one never found is not said to have changed.
 */
export function stepFailureMsg(n: number, out: Pick<ExecFailure, 'code' | 'reason'> & { msg?: Msg }): Msg {
  if (out.msg) return msg(out.msg.key, { ...out.msg.params, n })
  if (out.code === 'NOT_ACTIONABLE' && out.reason && kNotActionable.includes(out.reason))
    return msg(`outcome.step.notActionable.${out.reason}`, { n })
  return failureMsg(out.code, { n })
}

/** The question before a risky step: `step` is what the step does, in the model's words. */
export function riskAsk(
  category:
    | RiskCategory
    | 'cross_site_form'
    | 'cross_site_secret'
    | 'packData'
    | 'cachedPlan'
    | 'shapedFlow'
    | 'secret'
    | 'actionSecret'
    | 'step',
  params: Record<string, string>,
): Msg {
  return msg(`risk.ask.${category}`, params)
}

/**
 * The page's question about a step it refused to do unasked: its category when the page said it,
 * else a general one. It names the element as well as `step` (the model's description, or a flow's
 * name), which may not match it (a model obeying a hostile page calls a click on "Delete account"
 * "Open the settings"). The agent and a flow replayed from the panel ask the same way.
 */
export function refusalAsk(
  step: string,
  out: Pick<ExecFailure, 'offsite' | 'carriesData' | 'category' | 'label' | 'ask'>,
): Msg {
  // Where the step acts (src/core/step-place.ts): the page wrote the question, naming the site or file.
  if (out.ask) return msg(out.ask.key, { ...out.ask.params, step })
  if (out.offsite) return riskAsk(out.carriesData ? 'cross_site_form' : 'cross_site', { step, host: out.offsite })
  if (out.category && out.category !== 'cross_site' && out.category !== 'high_risk_action')
    return riskAsk(out.category, { step, target: out.label || step })
  return riskAsk('step', { step })
}

const kRiskAsks = [
  'credentials',
  'payment',
  'destructive',
  'cross_site',
  'cross_site_form',
  'cross_site_secret',
  'high_risk_action',
  'permission',
  'data_send',
  'secret',
  'actionSecret',
  'packData',
  'cachedPlan',
  'step',
  'frameSite',
  'uploadSite',
  'download',
  'painted',
] as const

/** Every key this module and the run produce; both locales must have each (test/ui/outcome-messages.test.ts). */
export const kOutcomeKeys: readonly string[] = [
  ...failureKeys(['run', 'step']),
  'outcome.error.NETWORK_AT',
  'outcome.error.LOCAL_DOWN',
  'outcome.error.LOCAL_ORIGIN',
  'outcome.error.LOCAL_NOT_PULLED',
  'outcome.emptyReply',
  'panel.loadingModel',
  'outcome.screenshotSent',
  ...kNotActionable.map((r) => `outcome.step.notActionable.${r}`),
  'outcome.step.noSecret',
  'outcome.step.secretUnbound',
  'outcome.step.secretInUrl',
  'outcome.step.actionUnknown',
  'outcome.step.noFile',
  'outcome.step.frameBlocked',
  'outcome.step.nothingToCollect',
  'outcome.askNobody',
  'outcome.codeNobody',
  'outcome.askNoQuestion',
  'step.askNoQuestion',
  ...kRiskAsks.map((c) => `risk.ask.${c}`),
  'outcome.siteBlocked',
  'outcome.restarted',
  'outcome.restartedWaiting',
  'outcome.stepLimit',
  'outcome.loop',
  'outcome.stopped',
  'outcome.invalidStep',
  'outcome.streamCut',
  'outcome.cutAtLimit',
  'outcome.replayFailed',
  'outcome.offsite',
  'outcome.blockedResponse',
  'outcome.blockedAfterRun',
  'outcome.tooLong',
  'outcome.emptyRequest',
  'step.repaired',
  'step.invalid',
  // What a successful step did, as the page or the background says it (ExecSuccess.msg).
  ...kStepResults.map((r) => `step.result.${r}`),
  ...kScrollWords.map((w) => `step.scroll.${w}`),
]
