/**
 * One step of a run: dispatched to what runs it, its secrets resolved for the page only, held by
 * the one guard (core/gate/guard.ts) for the person's OK where it must be, and recorded — in the
 * history, the cache, the run's record, the next prompt — redacted.
 */
import { askThroughGuard, bindSecrets, judgeNavigation, plannedOf, refusalOf, type Refusal } from '../gate/guard'
import type { StepView, Msg } from '../chat'
import type { ExecFailure, ExecOutcome } from '../exec'
import type { Instruction } from '../instruction/schema'
import type { StepGuard } from '../page/channel'
import { actionOf, type UploadFile } from '../page/command'
import { msg, riskAsk, stepFailureMsg } from './outcome'
import { redactInstruction, redactText, resolveSecrets, secretNames, secretQuestion, secretsInRequest } from './secrets'
import { plainSecrets, vaultNamesIn } from './redact'
import { resolveUpload } from './attachments'
import { readFileStep, uploadableFiles } from './files-step'
import { agentWork, instructionKind, instructionLoads, instructionTakesFiles, isTabAction } from '../vocabulary'
import { extractKeywords } from '../verify'
import { drawnLabel } from '../gate/drawn'
import {
  type Run,
  acts,
  save,
  setStatus,
  show,
  usesLimit,
  atLimit,
  limitError,
  hiddenOf,
  moveTab,
  stepName,
} from './context'
import { refused, pageAsk, secretReason, confirm } from './ask'
import { runTabStep } from './tab-step'
import { runCollect } from './collect'
import { runRegistryAction } from './pack-step'

const kReplayElementWaitMs = 3_000 // a replayed step's page is the one it was recorded on: a missing element is a change, not a slow mount

/**
 * Executes one step: secrets resolved only here, risky steps held for the person's OK, and what
 * is recorded (history, cache, the next prompt) redacted.
 */
export async function runOneStep(
  run: Run,
  view: StepView,
  onRecorded?: (recorded: Instruction) => void,
): Promise<ExecOutcome> {
  const { state, ports } = run
  const ins = view.instruction
  // The vocabulary's one counting rule (core/gate/guard.ts `counts`): a verify or a wait does not
  // count; a pack's steps are counted one by one as they reach the page (runRegistryAction).
  if (usesLimit(ins)) {
    if (atLimit(run)) throw limitError(run)
    if (agentWork(ins.action_type) !== 'pack') run.count.one()
  }
  // Not awaited: the step need not wait for the panel to hear it is running.
  void show(run, { ...view, status: 'running' })
  if (state.status !== 'running') void setStatus(run, 'running')
  const t0 = ports.clock.now()
  const asked0 = run.askedMs ?? 0
  const asks0 = run.asks
  const work = agentWork(ins.action_type)
  const { out, secrets } =
    work === 'pack'
      ? await runRegistryAction(run, view, ins)
      : work === 'gather'
        ? await runCollect(run, view, ins)
        : work === 'readFile'
          ? { out: await readFileStep(ports, ins, await hiddenOf(run)), secrets: [] }
          : isTabAction(ins.action_type)
            ? { out: await runTabStep(run, view, ins), secrets: [] }
            : await runPageStep(run, view, ins)
  if (out.ok && secrets.length) {
    run.typed.push(...secrets)
    run.typedAt ??= t0 // from before the step: a page may draw what it got while it is typed
    run.typedNames.push(...vaultNamesIn(secrets.join('\n'), await ports.secrets.vault().catch(() => ({}))))
  }
  const durationMs = Math.round(ports.clock.now() - t0 - ((run.askedMs ?? 0) - asked0))
  const recorded = redactInstruction(ins, { sensitive: !!(out.ok && out.sensitive), secrets })
  onRecorded?.(recorded)
  if (out.ok && out.sensitive && ins.params.value && !secretNames(ins.params.value).length)
    state.typedSecretLiteral = true
  // A collect or read_file step reads and changes nothing a replay could redo: it is not kept among the executed.
  if (out.ok && work !== 'gather' && work !== 'readFile') state.executed.push(recorded)
  // [trust] A step the person was asked about is risky by the run's own account (provenance.ts).
  if (out.ok && run.asks > asks0) (state.askedSteps ??= []).push(state.executed.length - 1)
  // What the step acted on, for "Save last run as flow".
  if (out.ok && out.target) (state.targets ??= {})[state.executed.length - 1] = out.target
  if (out.ok && out.after) (state.after ??= {})[state.executed.length - 1] = out.after
  void save(run)
  const detail = redactText(out.ok ? out.detail : out.message, secrets)
  // A success says its result in the UI language under the step, redacted as its detail is.
  const said = out.ok && out.msg ? { msg: redactMsg(out.msg, secrets) } : {}
  // A file step the run could not do says why under its row, in the person's language (files-step.ts).
  if (!out.ok && out.msg && work === 'readFile') Object.assign(said, { msg: stepFailureMsg(view.index + 1, out) })
  const table = out.ok ? run.tables.get(view.index) : undefined
  void show(run, {
    ...view,
    instruction: recorded,
    status: out.ok ? 'ok' : 'failed',
    detail,
    rung: out.ok ? out.rung : undefined,
    durationMs,
    ...said,
    ...(table ? { table } : {}),
  })
  const element = out.ok ? out.target?.description : out.drawn ? drawnLabel(out.drawn) : out.label
  run.recorder.step({
    at: t0,
    ms: durationMs,
    index: view.index,
    action: recorded.action_type,
    ...(recorded.description ? { description: recorded.description } : {}),
    params: recorded.params,
    status: out.ok ? 'ok' : 'failed',
    detail,
    ...(out.ok ? {} : { code: out.code }),
    ...(element ? { element } : {}),
    ...(out.rung ? { rung: out.rung } : {}),
  })
  // The verdict's facts: a verify that passed since the last step that acted is the run's evidence.
  if (out.ok && instructionKind(ins.action_type)?.checks) run.verified = extractKeywords(ins.params.assertion ?? '')
  else if (out.ok && acts(ins)) {
    run.acted = true
    run.actedInReply = true
    run.verified = undefined
    run.element = element ?? ins.description
  }
  return out.ok ? { ...out, detail, ...said } : { ...out, message: detail }
}

/** A message whose parameters may hold what was typed: a secret in them goes as in the detail. */
function redactMsg(m: Msg, secrets: string[]): Msg {
  if (!m.params) return m
  return {
    ...m,
    params: Object.fromEntries(
      Object.entries(m.params).map(([k, v]) => [k, typeof v === 'string' ? redactText(v, secrets) : v]),
    ),
  }
}

/** A page instruction, with its secrets resolved for the page only; their values come back for redaction. */
async function runPageStep(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<{ out: ExecOutcome; secrets: string[] }> {
  const prepared = await prepare(run, view, ins)
  if ('refused' in prepared) return { out: refused(prepared.refused), secrets: prepared.secrets }
  if ('error' in prepared)
    return {
      out: { ok: false, code: prepared.code ?? 'INVALID', message: prepared.error, msg: prepared.msg } as ExecFailure,
      secrets: prepared.secrets,
    }
  return {
    out: await guardedExec(run, view, prepared.instruction, prepared.secretSites, prepared.files),
    secrets: prepared.secrets,
  }
}

/**
 * Resolves the step's secrets for the page only, as a password manager fills a
 * login: only on a page of a site the secret is bound to, and — unless the person named the
 * secret in their own request — only after they said yes to a question naming the secret and the
 * site. The field's own document is checked again in the page (`secretSites`).
 */
async function prepare(
  run: Run,
  view: StepView,
  ins: Instruction,
): Promise<
  | { instruction: Instruction; secrets: string[]; secretSites?: string[]; files?: UploadFile[] }
  | { error: string; code?: 'SECRET_UNBOUND'; msg?: Msg; secrets: string[] }
  | { refused: Refusal; secrets: string[] }
> {
  if (instructionTakesFiles(ins.action_type)) {
    // The value names a file the person attached, or one a page downloaded during the run; its
    // bytes join the step here, never the model's context.
    const can = await uploadableFiles(
      run.ports,
      run.state.attachments ?? [],
      (await run.ports.attachments?.held()) ?? [],
    )
    const r = resolveUpload(ins.params.value ?? '', can.attached, can.held)
    return 'error' in r
      ? { error: r.error, msg: msg('outcome.step.noFile'), secrets: [] }
      : { instruction: ins, secrets: [], files: r.files }
  }
  // Secrets are typed into pages, never sent in an address: refused before any lookup.
  if (ins.params.url && secretNames(ins.params.url).length) {
    const names = secretNames(ins.params.url).join(', ')
    return {
      error: `Refused: ${names} is a saved secret, and secrets never go into a URL. Type it into the page instead.`,
      msg: msg('outcome.step.secretInUrl', { names }),
      secrets: [],
    }
  }
  const value = ins.params.value
  // [trust] A vault value the model wrote out, in any shape, is that secret: bound and asked about (redact.ts).
  const vault = await run.ports.secrets.vault()
  const plain = plainSecrets(ins, vault)
  if (plain.url.length)
    return {
      error: `Refused: ${plain.url.join(', ')} is a saved secret, and secrets never go into a URL. Type it into the page instead.`,
      msg: msg('outcome.step.secretInUrl', { names: plain.url.join(', ') }),
      secrets: plain.url.map((n) => vault[n]),
    }
  const names = value ? [...new Set([...secretNames(value), ...plain.value])] : []
  if (!value || !names.length) return { instruction: ins, secrets: [] }
  const bound = await run.ports.secrets.sites()
  const r = resolveSecrets(value, (n) => vault[n])
  const secrets = names.map((n) => vault[n]).filter((v): v is string => !!v)
  if (r.missing.length)
    return {
      error: `No saved secret named ${r.missing.join(', ')}. Add it in Ava's options.`,
      msg: msg('outcome.step.noSecret', { names: r.missing.join(', ') }),
      secrets,
    }
  // Bound to their origin by the guard (core/gate/guard.ts `bindSecrets`); the field may be in a
  // frame: the page checks it is on an origin every one of the step's secrets is bound to.
  const binding = bindSecrets(names, bound, await run.ports.page.url(run.state.tabId))
  if (!binding.ok) {
    return {
      code: 'SECRET_UNBOUND',
      error: `${binding.message} If it belongs to this site, add the site to it in Ava's options (Variables and secrets).`,
      msg: msg('outcome.step.secretUnbound', { names: binding.unbound.join(', '), site: binding.origin ?? '' }),
      secrets,
    }
  }
  const origin = binding.origin
  const requested = secretsInRequest(run.state.request, vault)
  const asked = names.filter((n) => !requested.has(n))
  const ask = riskAsk('secret', { step: stepName(view), names: [...new Set(asked)].join(', '), site: origin })
  if (asked.length) {
    const question = secretQuestion(asked, origin)
    const answer = await confirm(run, view, question, ask)
    if (answer !== true) return { refused: refusalOf({ message: question, category: 'credentials' }, answer), secrets }
  }
  return { instruction: { ...ins, params: { ...ins.params, value: r.value } }, secrets, secretSites: binding.sites }
}

/** Asks before risky steps: cross-site navigation here, the rest decided in the page where the element is. */
export async function guardedExec(
  run: Run,
  view: StepView,
  ins: Instruction,
  secretSites?: string[],
  files?: UploadFile[],
): Promise<ExecOutcome> {
  const { state, settings, signal, ports } = run
  if (instructionLoads(ins.action_type)) {
    // The guard's navigation rule (the step was counted already, in runOneStep).
    const refusal = await judgeNavigation(
      {
        confirm: settings.safety.confirm,
        sites: { allow: settings.safety.allowDomains, deny: settings.safety.denyDomains },
        here: () => ports.page.url(state.tabId),
        ask: (reason, r) =>
          confirm(run, view, reason, riskAsk('cross_site', { step: stepName(view), host: r?.offsite ?? '' })),
        step: () => undefined,
      },
      ins.params.url!,
    )
    if (refusal) return refused(refusal)
  }
  // The one gate loop (core/gate/step.ts): a yes binds to the element the question showed (its
  // handle); the page acts on it or refuses, and a changed element asks again, a few times at most.
  // A replayed plan approved as a whole carries the element approved for this step.
  const pageStep = run.plan ? actionOf(ins, state.shot) : null
  const command = {
    signal,
    confirm: settings.safety.confirm,
    confirmed: false,
    ...(secretSites ? { secretSites } : {}),
    ...(files ? { files } : {}),
    elementWaitMs: state.replay ? kReplayElementWaitMs : undefined,
    ...(state.shot ? { shot: state.shot } : {}),
    ...(pageStep ? plannedOf(run, pageStep) : {}),
    onTabChange: (to: number) => moveTab(run, to),
  }
  // The person answers in the panel, the question naming the step as the model described it.
  const guard: StepGuard = {
    confirm: settings.safety.confirm,
    ask: (reason, q) =>
      q
        ? confirm(run, view, secretReason(run, q), pageAsk(view, q, run), q)
        : confirm(run, view, reason, riskAsk('step', { step: stepName(view) })),
    step: () => undefined,
  }
  const { out, refusal } = await askThroughGuard(
    command,
    async (c) => {
      const { tabId, ...out } = await ports.page.exec(state.tabId, ins, c)
      moveTab(run, tabId)
      return out as ExecOutcome
    },
    guard,
    'step',
    (out) => (!out.ok && out.code === 'NEEDS_CONFIRMATION' ? out : null),
  )
  return refusal ? refused(refusal) : out
}
