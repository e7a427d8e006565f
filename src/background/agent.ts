import type { ModelMessage } from 'ai'
import { isSendable, kMaxRequestChars, type RunView, type StepView } from '../core/chat'
import { createAsyncQueue } from '../core/async-queue'
import { pathPattern, urlInRequest } from '../core/agent/cache-key'
import { isLooping } from '../core/agent/guards'
import { buildFollowUp, buildRepairPrompt, buildSystemPrompt, buildUserPrompt, type PageContext, type StepReport } from '../core/agent/prompt'
import { kRiskReasons, sameSite } from '../core/agent/risk'
import { redactInstruction, redactText, resolveSecrets, secretNames } from '../core/agent/secrets'
import { AvaError } from '../core/errors'
import type { Candidate, ExecOutcome } from '../core/exec'
import { safeParseInstructionText, type Instruction } from '../core/instruction/schema'
import { createInstructionSplitter } from '../core/instruction/stream'
import { costUsd } from '../core/pricing'
import { activeLlm, domainAllowed, type Settings } from '../core/settings'
import browser from 'webextension-polyfill'
import { historyStore, runStore, tabStore, type RunState } from '../storage/conversation'
import { settingsStore } from '../storage/settings'
import { vaultStore } from '../storage/vault'
import * as cache from './agent-cache'
import { describeResult, engineFor, getRegistry, packVersions, relevantActions } from './actions'
import { chatWriter, isActive, newId, originOf, type ChatWriter } from './conversation'
import { streamCompletion } from './llm'
import { emitToPanels } from './panels'
import { execInPage, navigate, pageContext, tabUrl } from './page'
import { trackRequests } from './requests'


/**
 * The agent (issue 6): observe → plan → act → observe again, until the model says `done`.
 * A run belongs to the background and its state lives in chrome.storage.session, so it goes on
 * across page loads and resumes after the worker is stopped. Steps run as soon as each
 * instruction has streamed in; a second request for the same task on the same kind of page
 * replays the cached steps with no LLM call.
 */
interface Live {
  id: string
  controller: AbortController
  /** Resolves the pending risky-step question. */
  answer?: (allow: boolean) => void
}
const live = new Map<number, Live>()

const kHistoryContext = 6 // earlier requests and answers of the site the planner sees
const kReplayElementWaitMs = 3_000 // a replayed step's page is the one it was recorded on: a missing element is a change, not a slow mount

export function isRunning(tabId: number): boolean {
  return live.has(tabId)
}

export async function runView(tabId: number): Promise<RunView | null> {
  const s = await runStore(tabId).get()
  return s ? { id: s.id, status: s.status, messageId: s.messageId } : null
}

export async function startRun(tabId: number, text: string, opts: { noCache?: boolean } = {}): Promise<string> {
  if (!isSendable(text)) throw new AvaError('UNKNOWN', 'Type a request first.')
  if (text.length > kMaxRequestChars) throw new AvaError('UNKNOWN', `The request is longer than ${kMaxRequestChars} characters; shorten it.`)
  if (live.has(tabId)) throw Object.assign(new Error('Ava is already working on a request in this tab. Stop it first.'), { code: 'BUSY' })
  const settings = await settingsStore.get()
  const url = await tabUrl(tabId)
  const origin = originOf(url)
  const chat = chatWriter(origin, () => tabId)
  await chat.add({ role: 'user', text })
  if (!domainAllowed(url, settings.safety)) {
    await chat.add({ role: 'system', kind: 'error', text: `Ava is not allowed to act on ${new URL(url).hostname}. Change the allowed and blocked sites in Ava's options.`, hint: 'UNKNOWN' })
    throw Object.assign(new Error('This site is blocked in Ava’s options.'), { code: 'FORBIDDEN' })
  }
  const assistant = await chat.add({ role: 'assistant', text: '', steps: [], markdown: true })
  const state: RunState = {
    id: newId('run'),
    tabId,
    origin,
    request: text,
    startUrl: url,
    messageId: assistant.id,
    status: 'planning',
    iteration: 0,
    executed: [],
    typedSecretLiteral: false,
    planner: [],
    usage: { input: 0, output: 0 },
    startedAt: Date.now(),
    replay: false,
    noCache: !!opts.noCache,
  }
  await saveState(state)
  void drive(state, false)
  return state.id
}

export function stopRun(tabId: number): boolean {
  const run = live.get(tabId)
  if (!run) return false
  run.controller.abort(new AvaError('UNKNOWN', 'Stopped by you.'))
  run.answer?.(false)
  return true
}

export function answerConfirmation(tabId: number, runId: string, allow: boolean): boolean {
  const run = live.get(tabId)
  if (!run || run.id !== runId || !run.answer) return false
  run.answer(allow)
  return true
}

async function saveState(state: RunState): Promise<void> {
  await runStore(state.tabId).set(state)
  emitToPanels(state.tabId, { type: 'status', run: { id: state.id, status: state.status, messageId: state.messageId } }, 0)
}

/** Runs that were in flight when the worker stopped go on from the page as it is now. */
export async function resumeRuns(): Promise<void> {
  const all = await browser.storage.session.get(null)
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith('run:')) continue
    const state = value as RunState
    if (!state || !isActive(state.status) || live.has(state.tabId)) continue
    const chat = chatWriter(state.origin, () => state.tabId)
    if (state.status === 'waiting') {
      // A question the person had not answered died with the worker: nothing was done.
      await chat.add({ role: 'system', kind: 'error', text: "Ava's background restarted while waiting for your OK; the step was not done. Ask again to continue.", hint: 'UNKNOWN' })
      await saveState({ ...state, status: 'stopped' })
      continue
    }
    await chat.add({ role: 'system', kind: 'info', text: "Ava's background was restarted; continuing from the page as it is now." })
    void drive(state, true)
  }
}

type Failure = { error: AvaError; step?: { index: number; instruction: Instruction; outcome: Extract<ExecOutcome, { ok: false }> } }

interface Batch {
  reply: string
  steps: number
  results: StepReport[]
  answer?: string
  failure?: Failure
}

async function drive(state: RunState, resumed: boolean): Promise<void> {
  const controller = new AbortController()
  const me: Live = { id: state.id, controller }
  const untrack = trackRequests()
  live.set(state.tabId, me)
  const signal = controller.signal
  const chat = chatWriter(state.origin, () => state.tabId)
  const settings = await settingsStore.get()
  let regenerated = false
  // The run moves into a tab its step opened: the new tab's panel opens on the same conversation.
  const onTabChange = (tabId: number) => {
    live.delete(state.tabId)
    void runStore(state.tabId).set(null)
    state.tabId = tabId
    live.set(tabId, me)
    void runStore(tabId).set(state)
    void tabStore(tabId).set({ panelOpen: true })
  }
  const ctx: StepCtx = { state, chat, settings, signal, me, onTabChange }

  try {
    let pendingNav: Promise<unknown> | null = null
    if (!resumed && state.iteration === 0) {
      const startUrl = state.startUrl
      // Parallel navigation (seed 001 §2.4): a page named in the request opens while the model plans.
      const named = urlInRequest(state.request)
      if (named && named !== startUrl && domainAllowed(named, settings.safety)) {
        pendingNav = navigate(state.tabId, named, signal).catch(() => undefined)
      }
      if (settings.agent.useCache && !state.noCache) {
        state.cacheKey = await cache.cacheKey(state.request, startUrl, await packVersions())
        const hit = await cache.lookup(state.cacheKey)
        if (hit) {
          await pendingNav
          return await replay(ctx, hit)
        }
      }
    }

    let results: StepReport[] = []
    let note: string | undefined
    for (;;) {
      if (signal.aborted) throw signal.reason
      if (state.executed.length >= settings.agent.stepLimit) {
        return await finish(ctx, 'failed', new AvaError('STEP_FAILED', `Ava reached the step limit (${settings.agent.stepLimit}) before finishing. Ask again to go on, or raise the limit in options.`))
      }
      await pendingNav
      pendingNav = null
      state.status = state.iteration === 0 ? 'planning' : 'running'
      await saveState(state)
      // After steps acted, the page gets to settle (quiet DOM, few requests) before it is read again.
      const page = await pageContext(state.tabId, state.request, signal, state.iteration > 0 || resumed)
      const userTurn = state.iteration === 0 && !resumed ? buildUserPrompt(state.request, page, await relevantActions(state.request).catch(() => [])) : buildFollowUp(results, page, note ?? (resumed ? 'Ava was restarted; some of your last steps may not have run. Check the page.' : undefined))
      resumed = false
      note = undefined
      const messages: ModelMessage[] = [...(await earlierConversation(state)), ...state.planner, { role: 'user', content: userTurn }]
      const batch = await planAndAct(ctx, messages)
      // Earlier pages are dropped from the planner's memory: only the newest listing is worth its tokens.
      state.planner.push({ role: 'user', content: userTurn.replace(/<untrusted_page_content>[\s\S]*<\/untrusted_page_content>/, '(page listing of that moment omitted)') })
      state.planner.push({ role: 'assistant', content: batch.reply })
      state.iteration++
      results = batch.results

      if (batch.answer !== undefined) {
        if (batch.answer) await chat.text(state.messageId, (await currentText(ctx)) ? `\n\n${batch.answer}` : batch.answer)
        return await finish(ctx, 'done')
      }
      if (batch.failure) {
        const f = batch.failure
        if (f.step && (f.step.outcome.code === 'ELEMENT_NOT_FOUND' || f.step.outcome.code === 'AMBIGUOUS' || f.step.outcome.code === 'ELEMENT_STALE')) {
          // AI fallback (issue 6): ask for that one step with the candidates, then go on.
          const fixed = await repairStep(ctx, f.step, page)
          if (!fixed.ok) return await finish(ctx, 'failed', f.error)
          results = [...results.slice(0, -1), fixed.report]
          continue
        }
        if ((f.error.code === 'SCHEMA' || f.error.code === 'JSON_PARSE') && !regenerated) {
          regenerated = true
          note = `Your last reply had an invalid instruction: ${f.error.message} Reply again with valid instructions.`
          continue
        }
        return await finish(ctx, 'failed', f.error)
      }
      if (batch.steps === 0) return await finish(ctx, 'done') // prose only, or nothing left to do
      if (isLooping(state.executed)) {
        return await finish(ctx, 'stopped', new AvaError('STEP_FAILED', 'Ava did the same step three times in a row and stopped. Tell Ava how to go on.'))
      }
    }
  } catch (e) {
    await finish(ctx, signal.aborted ? 'stopped' : 'failed', signal.aborted ? new AvaError('UNKNOWN', 'Stopped by you.') : toAvaError(e))
  } finally {
    untrack()
    if (live.get(state.tabId) === me) live.delete(state.tabId)
  }
}

interface StepCtx {
  state: RunState
  chat: ChatWriter
  settings: Settings
  signal: AbortSignal
  me: Live
  onTabChange: (tabId: number) => void
}

async function currentText(ctx: StepCtx): Promise<string> {
  await ctx.chat.flush()
  const h = await historyStore(ctx.state.origin).get()
  return h.messages.find((m) => m.id === ctx.state.messageId)?.text ?? ''
}

/** The site's earlier requests and answers, so "do the same for bob" makes sense. */
async function earlierConversation(state: RunState): Promise<ModelMessage[]> {
  const h = await historyStore(state.origin).get()
  const idx = h.messages.findIndex((m) => m.id === state.messageId)
  const before = h.messages.slice(0, Math.max(0, idx - 1)).filter((m) => m.role !== 'system' && m.text.trim())
  return before.slice(-kHistoryContext).map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.text.slice(0, 2_000) }) as ModelMessage)
}

/** One LLM reply, streamed; each instruction runs as soon as it is complete, the rest wait. */
async function planAndAct(ctx: StepCtx, messages: ModelMessage[]): Promise<Batch> {
  const { state, chat, signal } = ctx
  const queue = createAsyncQueue<{ index: number; instruction?: Instruction; error?: string }>()
  const batch: Batch = { reply: '', steps: 0, results: [] }
  // What the model said, as it may be remembered: prose, then each instruction as recorded
  // (values typed into password fields replaced), never the raw text.
  let prose = ''
  const said: Instruction[] = []
  const stream = new AbortController()
  const base = (await currentSteps(ctx)).length
  let splitter = createInstructionSplitter({ prose: () => undefined, element: () => undefined })

  const consumer = (async () => {
    for await (const item of queue) {
      const view: StepView = { index: base + item.index, instruction: item.instruction ?? placeholder(item.index), status: 'pending' }
      if (signal.aborted) return
      if (batch.failure || batch.answer !== undefined) {
        await chat.step(state.messageId, { ...view, status: 'skipped' })
        continue
      }
      if (item.error) {
        await chat.step(state.messageId, { ...view, status: 'failed', detail: item.error })
        batch.failure = { error: new AvaError('SCHEMA', `Step ${view.index + 1} was not a valid instruction, so Ava stopped before it.`) }
        stream.abort()
        continue
      }
      const ins = item.instruction!
      if (ins.action_type === 'done') {
        batch.answer = ins.params.answer ?? ''
        continue
      }
      batch.steps++
      const out = await runOneStep(ctx, view, (recorded) => (said[item.index] = recorded))
      batch.results.push({ index: view.index, action: ins.action_type, description: ins.description, ok: out.ok, detail: out.ok ? out.detail : out.message })
      if (!out.ok) {
        const code = out.code === 'ELEMENT_NOT_FOUND' || out.code === 'ELEMENT_STALE' ? 'ELEMENT_MISSING' : 'STEP_FAILED'
        batch.failure = { error: new AvaError(code, `Step ${view.index + 1} failed: ${out.message}`), step: { index: view.index, instruction: ins, outcome: out } }
        stream.abort()
      }
    }
  })()

  try {
    splitter = createInstructionSplitter({
      prose: (t) => {
        prose += t
        void chat.text(state.messageId, t)
      },
      element: (raw, index) => {
        const parsed = safeParseInstructionText(raw)
        if (parsed.ok) {
          said[index] = redactInstruction(parsed.value, { sensitive: false })
          queue.push({ index, instruction: parsed.value })
          if (parsed.value.action_type !== 'done') void chat.step(state.messageId, { index: base + index, instruction: parsed.value, status: 'pending' })
        } else queue.push({ index, error: parsed.error.message })
      },
    })
    const res = await streamCompletion({
      llm: activeLlm(ctx.settings),
      system: buildSystemPrompt(),
      messages,
      signal: AbortSignal.any([signal, stream.signal]),
      onText: (delta) => splitter.push(delta),
    })
    addUsage(state, res.usage)
    const end = splitter.end()
    if (end.truncated !== null && !batch.failure) batch.failure = { error: cutError(base + (end.sawArray ? countElements(batch) : 0)) }
  } catch (e) {
    if (!(stream.signal.aborted && batch.failure) && !signal.aborted) {
      const cut = splitter.end().truncated !== null
      batch.failure ??= { error: cut ? cutError(base + countElements(batch)) : toAvaError(e) }
    }
  }
  queue.close()
  await consumer
  batch.reply = [prose.trim(), said.length ? JSON.stringify(said.filter(Boolean)) : ''].filter(Boolean).join('\n')
  if (signal.aborted) throw signal.reason
  return batch
}

function countElements(batch: Batch): number {
  return batch.steps + (batch.answer !== undefined ? 1 : 0)
}

function cutError(index: number): AvaError {
  return new AvaError('STREAM_CUT', `The reply stopped in the middle of step ${index + 1}; the steps before it ran. Try again.`)
}

async function currentSteps(ctx: StepCtx): Promise<StepView[]> {
  await ctx.chat.flush()
  const h = await historyStore(ctx.state.origin).get()
  return (h.messages.find((m) => m.id === ctx.state.messageId)?.steps ?? []).filter(Boolean)
}

function placeholder(index: number): Instruction {
  return { step_id: index + 1, action_type: 'verify', params: { assertion: '(invalid)' }, description: '(invalid instruction)' }
}

/**
 * Executes one step in the page: secrets resolved only here, risky steps held for the person's
 * OK, and what is recorded (history, cache, the next prompt) redacted.
 */
async function runOneStep(ctx: StepCtx, view: StepView, onRecorded?: (recorded: Instruction) => void): Promise<ExecOutcome> {
  const { state, chat } = ctx
  const ins = view.instruction
  // Not awaited: writes to one history are queued in order, and the step need not wait for them.
  void chat.step(state.messageId, { ...view, status: 'running' })
  if (state.status !== 'running') {
    state.status = 'running'
    void saveState(state)
  }
  const t0 = performance.now()
  let out: ExecOutcome
  let secrets: string[] = []
  if (ins.action_type === 'run_action') {
    out = await runRegistryAction(ctx, view, ins)
  } else {
    const prepared = await prepare(ins)
    secrets = prepared.secrets
    if ('error' in prepared) out = { ok: false, code: 'INVALID', message: prepared.error }
    else out = await guardedExec(ctx, view, prepared.instruction)
  }
  const durationMs = Math.round(performance.now() - t0)
  const recorded = redactInstruction(ins, { sensitive: !!(out.ok && out.sensitive), secrets })
  onRecorded?.(recorded)
  if (out.ok && out.sensitive && ins.params.value && !secretNames(ins.params.value).length) state.typedSecretLiteral = true
  if (out.ok) state.executed.push(recorded)
  // Storage applies writes in the order they are issued; the run's end awaits its own save.
  void saveState(state)
  const detail = redactText(out.ok ? out.detail : out.message, secrets)
  // Queued in order behind the earlier writes; finish() flushes the queue before it reads.
  void chat.step(state.messageId, { ...view, instruction: recorded, status: out.ok ? 'ok' : 'failed', detail, rung: out.ok ? out.rung : undefined, durationMs })
  return out.ok ? { ...out, detail } : { ...out, message: detail }
}

async function prepare(ins: Instruction): Promise<{ instruction: Instruction; secrets: string[] } | { error: string; secrets: string[] }> {
  const value = ins.params.value
  if (!value || !secretNames(value).length) return { instruction: ins, secrets: [] }
  const vault = await vaultStore.get()
  const r = resolveSecrets(value, (n) => vault[n])
  const secrets = secretNames(value).map((n) => vault[n]).filter((v): v is string => !!v)
  if (r.missing.length) return { error: `No saved secret named ${r.missing.join(', ')}. Add it in Ava's options.`, secrets }
  return { instruction: { ...ins, params: { ...ins.params, value: r.value } }, secrets }
}

/** Asks before risky steps: cross-site navigation here, the rest decided in the page where the element is. */
async function guardedExec(ctx: StepCtx, view: StepView, ins: Instruction): Promise<ExecOutcome> {
  const { state, settings, signal } = ctx
  if (ins.action_type === 'navigate') {
    const here = await tabUrl(state.tabId)
    const target = new URL(ins.params.url!, here || undefined).href
    if (!domainAllowed(target, settings.safety)) return { ok: false, code: 'NOT_ACTIONABLE', message: `Ava is not allowed to act on ${new URL(target).hostname} (options: allowed and blocked sites).` }
    if (settings.safety.confirm.includes('cross_site') && here && !sameSite(target, here)) {
      if (!(await ask(ctx, view, `${kRiskReasons.cross_site}: ${new URL(target).host}`))) return cancelled()
    }
  }
  let confirmed = false
  for (;;) {
    const out = await execInPage(state.tabId, ins, { signal, confirm: settings.safety.confirm, confirmed, onTabChange: ctx.onTabChange, elementWaitMs: state.replay ? kReplayElementWaitMs : undefined })
    if (!out.ok && out.code === 'NEEDS_CONFIRMATION' && !confirmed) {
      if (!(await ask(ctx, view, out.message))) return cancelled()
      confirmed = true
      continue
    }
    return out
  }
}

/** A registry action (run_action): high-risk ones ask first; secrets in its args stay in the vault. */
async function runRegistryAction(ctx: StepCtx, view: StepView, ins: Instruction): Promise<ExecOutcome> {
  const name = ins.params.action!
  const registry = await getRegistry()
  const found = registry.lookup(name)
  if (!found.ok) return { ok: false, code: 'INVALID', message: `${found.message} ${found.suggestion}` }
  const confirm = ctx.settings.safety.confirm
  if (found.action.risk === 'high' && confirm.includes('high_risk_action')) {
    if (!(await ask(ctx, view, `${kRiskReasons.high_risk_action}: ${name}`))) return cancelled()
  }
  // An action fed a saved secret types it into this page: the person says yes to the site first,
  // as they would for a password form the model fills in step by step.
  const named = Object.values(ins.params.args ?? {}).flatMap((v) => (typeof v === 'string' ? secretNames(v) : []))
  if (named.length && confirm.includes('credentials')) {
    const host = new URL((await tabUrl(ctx.state.tabId)) || 'about:blank').host || 'this page'
    if (!(await ask(ctx, view, `${kRiskReasons.credentials}: ${name} types the saved ${named.join(', ')} into ${host}`))) return cancelled()
  }
  const vault = await vaultStore.get()
  const params: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(ins.params.args ?? {})) params[k] = typeof v === 'string' ? resolveSecrets(v, (n) => vault[n]).value : v
  const engine = await engineFor(ctx.state.tabId)
  const r = await engine.run(name, params, { signal: ctx.signal })
  const text = describeResult(r).replace(/\*\*/g, '')
  return r.success ? { ok: true, detail: text, rung: 'action' } : { ok: false, code: r.error?.code === 'ELEMENT_NOT_FOUND' ? 'ELEMENT_NOT_FOUND' : 'NOT_ACTIONABLE', message: text }
}

function cancelled(): ExecOutcome {
  return { ok: false, code: 'NOT_ACTIONABLE', message: 'Cancelled by you; nothing was done.' }
}

/** Shows the question in the panel and waits for the answer (Stop counts as no). */
async function ask(ctx: StepCtx, view: StepView, reason: string): Promise<boolean> {
  const { state, chat, me } = ctx
  const question = await chat.add({ role: 'system', kind: 'confirm', text: `${view.instruction.description ?? view.instruction.action_type}: ${reason}`, confirm: { runId: state.id, step: view.index, reason, state: 'pending' } })
  state.status = 'waiting'
  await saveState(state)
  const allow = await new Promise<boolean>((resolve) => {
    me.answer = resolve
    ctx.signal.addEventListener('abort', () => resolve(false), { once: true })
  })
  me.answer = undefined
  await chat.patch(question.id, { confirm: { ...question.confirm!, state: allow ? 'allowed' : 'denied' } })
  state.status = 'running'
  await saveState(state)
  return allow
}

/** AI fallback for one step: the candidates go to the model, its one instruction runs. */
async function repairStep(ctx: StepCtx, failed: NonNullable<Failure['step']>, page: PageContext): Promise<{ ok: true; report: StepReport; instruction: Instruction } | { ok: false }> {
  const { state, chat } = ctx
  const candidates: Candidate[] = failed.outcome.candidates ?? []
  const fresh = await pageContext(state.tabId, failed.instruction.description ?? state.request, ctx.signal).catch(() => page)
  const prompt = buildRepairPrompt({ instruction: failed.instruction, error: failed.outcome.message, candidates }, fresh)
  let text = ''
  try {
    const res = await streamCompletion({ llm: activeLlm(ctx.settings), system: buildSystemPrompt(), messages: [{ role: 'user', content: prompt }], signal: ctx.signal, onText: (d) => void (text += d) })
    addUsage(state, res.usage)
  } catch {
    return { ok: false }
  }
  const first = extractFirstInstruction(text)
  if (!first) return { ok: false }
  const view: StepView = { index: failed.index, instruction: { ...first, description: first.description ?? failed.instruction.description }, status: 'pending' }
  const out = await runOneStep(ctx, view)
  if (!out.ok) return { ok: false }
  await chat.step(state.messageId, { ...view, status: 'ok', detail: `${out.detail} (repaired)`, rung: 'ai' })
  return { ok: true, instruction: view.instruction, report: { index: view.index, action: first.action_type, description: first.description, ok: true, detail: out.detail } }
}

function extractFirstInstruction(text: string): Instruction | null {
  let found: Instruction | null = null
  const s = createInstructionSplitter({
    prose: () => undefined,
    element: (raw) => {
      if (found) return
      const r = safeParseInstructionText(raw)
      if (r.ok && r.value.action_type !== 'done') found = r.value
    },
  })
  s.push(text)
  s.end()
  return found
}

/** A cached plan, replayed with no LLM call; a step that fails is repaired for that step only. */
async function replay(ctx: StepCtx, entry: cache.CacheEntry): Promise<void> {
  const { state, chat } = ctx
  state.replay = true
  state.status = 'running'
  await saveState(state)
  const repaired: { index: number; instruction: Instruction }[] = []
  for (const [index, ins] of entry.steps.entries()) {
    if (ctx.signal.aborted) throw ctx.signal.reason
    const view: StepView = { index, instruction: ins, status: 'pending' }
    void chat.step(state.messageId, view)
    const out = await runOneStep(ctx, view)
    if (out.ok) continue
    const page = await pageContext(state.tabId, state.request, ctx.signal)
    const fixed = out.code === 'ELEMENT_NOT_FOUND' || out.code === 'AMBIGUOUS' || out.code === 'ELEMENT_STALE' ? await repairStep(ctx, { index, instruction: ins, outcome: out }, page) : { ok: false as const }
    if (!fixed.ok) {
      await cache.remove(entry.key) // the page has moved on; next time plan afresh
      return finish(ctx, 'failed', new AvaError('STEP_FAILED', `Replaying the saved steps failed at step ${index + 1}: ${out.message} The saved steps were dropped; ask again to plan afresh.`))
    }
    repaired.push({ index, instruction: redactInstruction(fixed.instruction, { sensitive: false }) })
  }
  await Promise.all([cache.recordHit(entry.key, repaired), finish(ctx, 'done')])
}

function addUsage(state: RunState, u: { inputTokens?: number; outputTokens?: number }) {
  state.usage.input += u.inputTokens ?? 0
  state.usage.output += u.outputTokens ?? 0
}

async function finish(ctx: StepCtx, status: RunState['status'], error?: AvaError): Promise<void> {
  const { state, chat } = ctx
  if (error) await chat.add({ role: 'system', kind: 'error', text: error.message, hint: error.code })
  const steps = await currentSteps(ctx)
  for (const step of steps) if (step.status === 'pending' || step.status === 'running') await chat.step(state.messageId, { ...step, status: 'skipped' })
  const usage = { ...state.usage, costUsd: costUsd(activeLlm(ctx.settings).model, state.usage) }
  await chat.patch(state.messageId, { usage, replayed: state.replay && usage.input + usage.output === 0 })
  // A plan that worked is kept for next time, unless it typed a password the person wrote out.
  if (status === 'done' && !state.replay && state.cacheKey && !state.typedSecretLiteral && state.executed.length) {
    await cache.save({ key: state.cacheKey, request: state.request, origin: state.origin, path: pathPattern(state.startUrl), steps: state.executed })
  }
  state.status = status
  state.endedAt = Date.now()
  await saveState(state)
}

function toAvaError(e: unknown): AvaError {
  if (e instanceof AvaError) return e
  const code = (e as { code?: string })?.code
  return new AvaError(code === 'NO_PAGE' ? 'NO_PAGE' : 'UNKNOWN', String((e as Error)?.message ?? e))
}

