import browser from 'webextension-polyfill'
import { kBridgeCommands, kBridgeHost, type BridgeRequest } from '../core/bridge'
import type { StepView } from '../core/chat'
import { refusalAsk, msg } from '../core/agent/outcome'
import { kRedacted, originOf as secretOrigin, resolveSecrets, secretNames, secretQuestion, unboundOn } from '../core/agent/secrets'
import { isActive } from '../core/agent/state'
import type { ExecFailure } from '../core/exec'
import type { Instruction } from '../core/instruction/schema'
import type { PageAction, PageCommand, PageOutcome, StepGate } from '../core/page/command'
import { domainAllowed } from '../core/settings'
import { handle as on, sendToTab } from '../messaging'
import { runStore, tabStore } from '../storage/conversation'
import { mcpClientsStore } from '../storage/mcp'
import { settingsStore } from '../storage/settings'
import { vaultSitesStore, vaultStore } from '../storage/vault'
import { redactDeep } from '../core/agent/redact'
import { isRunning, startRun } from './agent'
import { chatWriter, conversationOf, newId, readHistory, type ChatWriter } from './conversation'
import { askInPanel, questions } from './questions'
import { countsAsStep } from '../core/page/channel'
import { domAction, flowStepCounts, PageActionSchema } from '../core/vocabulary'
import { askUntilDecided, questionOf } from '../core/gate/step'
import { allowDomain } from './offsite'
import { navigate, sendCommand, tabUrl } from './page'
import { emitToPanels } from './panels'

/**
 * MCP clients in the person's own Chrome (docs/mcp.md, "In your own Chrome"). `ava mcp --chrome`
 * reaches the worker through the native host (src/cli/mcp-native.ts). A client gets one tab, the
 * one in front of the person when they allow it in that tab's panel; its steps show in the panel
 * under "<client> is driving this tab", with Stop; the person revokes clients in the options.
 * Every command goes through the gate of the person's settings here, whatever the client sent:
 * their confirm categories and site lists replace the command's, a risky step waits for Allow in
 * the panel, and `${secret:…}` is filled from the vault only on the sites each secret is bound to.
 */
interface Session {
  id: string
  client: string
  tabId: number
  messageId: string
  chat: ChatWriter
  controller: AbortController
  steps: number
  /** Acting steps since the person last let the client go on: the step limit holds here, whatever the server counted. */
  acted: number
}

const sessions = new Map<number, Session>()
let port: browser.Runtime.Port | undefined

/** How long the worker waits before opening the host again after it exited. */
const kReconnectMs = 5_000

type Reply = Record<string, unknown> & ({ ok: true } | { ok: false; code: string; message: string })

/** The options' list of allowed clients, and Revoke. */
export function registerMcpHandlers(): void {
  const list = async () => ({ clients: (await mcpClientsStore.get()).map((c) => ({ ...c, active: [...sessions.values()].some((s) => s.client === c.name) })) })
  on('options→bg:mcp.clients', ['options'], list)
  on('options→bg:mcp.revoke', ['options'], async ({ name }) => {
    await mcpClientsStore.set((await mcpClientsStore.get()).filter((c) => c.name !== name))
    for (const s of [...sessions.values()]) if (s.client === name) await end(s, `The person revoked ${s.client} in Ava's options.`)
    return list()
  })
}

/** Opens the port to the native host; without `ava mcp install` Chrome has none, and nothing more happens. */
export function startMcpBridge(): void {
  if (!browser.runtime.connectNative) return
  try {
    port = browser.runtime.connectNative(kBridgeHost)
  } catch {
    return
  }
  const mine = port
  mine.onMessage.addListener((m: unknown) => void onRequest(m as BridgeRequest | { kind: 'server' }))
  mine.onDisconnect.addListener(() => {
    const error = (mine.error as { message?: string } | undefined)?.message ?? ''
    port = undefined
    for (const s of [...sessions.values()]) void end(s, 'The connection to the MCP client closed.')
    // No host registered: the person never ran `ava mcp install`. Otherwise the host went away: try again.
    if (!/not found|forbidden/i.test(error)) setTimeout(startMcpBridge, kReconnectMs)
  })
  // An allowed client the person revoked in the options loses its tab at once.
  mcpClientsStore.watch((clients) => {
    for (const s of [...sessions.values()]) if (!clients.some((c) => c.name === s.client)) void end(s, `The person revoked ${s.client} in Ava's options.`)
  })
}

function reply(id: number, body: Reply): void {
  port?.postMessage({ id, ...body })
}

async function onRequest(m: BridgeRequest | { kind: 'server' }): Promise<void> {
  if (!('id' in m)) return
  try {
    // What goes back to the client is cut as a prompt is: a page's echo of a vault value, in any
    // shape, stays in the tab (src/core/agent/redact.ts).
    reply(m.id, redactDeep(await handle(m), Object.values(await vaultStore.get().catch(() => ({})))))
  } catch (e) {
    reply(m.id, { ok: false, code: (e as { code?: string }).code ?? 'FAILED', message: (e as Error).message ?? String(e) })
  }
}

const failure = (code: string, message: string): Reply => ({ ok: false, code, message })

/** The session of the client's tab; with a client per server, the one session there is. */
function session(): Session | undefined {
  return [...sessions.values()].at(-1)
}

async function handle(m: BridgeRequest): Promise<Reply> {
  if (m.kind === 'attach') return attach(m.client)
  const s = session()
  if (!s) return failure('NO_TAB', 'No tab is given to this client: the person has not allowed it, stopped it, or revoked it.')
  if (m.kind === 'url') return { ok: true, url: await tabUrl(s.tabId) }
  if (m.kind === 'navigate') {
    const { safety } = await settingsStore.get()
    if (!/^https?:/i.test(m.url) || !domainAllowed(m.url, { allowDomains: safety.allowDomains, denyDomains: safety.denyDomains })) return failure('BLOCKED', `Ava is not allowed to open ${m.url.slice(0, 200)}.`)
    const out = await navigate(s.tabId, m.url, s.controller.signal)
    await show(s, { step_id: 0, action_type: 'navigate', params: { url: m.url }, description: `Open ${m.url}`.slice(0, 200) }, out.ok, out.ok ? (out.detail ?? '') : out.message)
    return out.ok ? { ok: true } : failure(out.code, out.message)
  }
  if (m.kind === 'ask') return ask(s, m.request)
  return { ok: true, outcome: await command(s, m.command) }
}

/** The person gives the client the tab in front of them, in its panel; the answer comes back as the reply. */
async function attach(client: string): Promise<Reply> {
  const name = client.replace(/[\r\n\u2028\u2029]+/g, ' ').trim().slice(0, 80) || 'An MCP client'
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true })
  if (tab?.id === undefined || !/^https?:/i.test(tab.url ?? '')) return failure('NO_TAB', 'The tab in front of the person is not a web page Ava can act on; they can switch to one and the client can try again.')
  const tabId = tab.id
  if (sessions.has(tabId)) return { ok: true, tabId }
  if (isRunning(tabId)) return failure('BUSY', 'Ava is already working on a request in this tab.')
  await tabStore(tabId).set({ panelOpen: true })
  await sendToTab(tabId, 'bg→content:panel.open', {}).catch(() => undefined)
  const chat = chatWriter(await conversationOf(tabId), () => tabId)
  const id = newId('mcp')
  const allow = await question(tabId, chat, `${name} asks to drive this tab: to read it and act in it through Ava.`, msg('mcp.attach.ask', { client: name }))
  if (!allow) return failure('DENIED', `The person did not give ${name} this tab.`)
  const message = await chat.add({ role: 'assistant', text: `${name} is driving this tab.`, msg: msg('mcp.driving', { client: name }), steps: [] })
  const s: Session = { id, client: name, tabId, messageId: message.id, chat, controller: new AbortController(), steps: 0, acted: 0 }
  sessions.set(tabId, s)
  const clients = (await mcpClientsStore.get()).filter((c) => c.name !== name)
  await mcpClientsStore.set([...clients, { name, since: Date.now() }])
  status(s, 'running')
  return { ok: true, tabId }
}

function status(s: Session, state: 'running' | 'stopped' | 'done'): void {
  emitToPanels(s.tabId, { type: 'status', run: { id: s.id, status: state, messageId: s.messageId } }, 0)
}

/** Asks in the tab's panel with Allow and Deny; false when the session ends first. */
async function question(tabId: number, chat: ChatWriter, text: string, ask: ReturnType<typeof msg>, signal?: AbortSignal, owner = newId('mcp-attach')): Promise<boolean> {
  return askInPanel(tabId, chat, { owner, text, reason: text, step: 0, msg: ask }, signal)
}

/** Commands that change the page count against the step limit; reads and waits do not (as for the agent's steps). */
function acts(cmd: PageCommand): boolean {
  if (cmd.kind === 'flow.step') return flowStepCounts(cmd.step.action)
  return cmd.kind === 'act' && countsAsStep(cmd.step.action)
}

/** Stop in the panel or the popup: the client loses the tab; false when no client drives it. */
export function stopMcp(tabId: number): boolean {
  const s = sessions.get(tabId)
  if (!s) return false
  void end(s, `The person stopped ${s.client} in this tab.`)
  return true
}

/** For the panel's Stop button: the session shows as a run while a client drives the tab. */
export function mcpRunView(tabId: number): { id: string; status: 'running'; messageId: string } | null {
  const s = sessions.get(tabId)
  return s ? { id: s.id, status: 'running', messageId: s.messageId } : null
}

async function end(s: Session, why: string): Promise<void> {
  if (sessions.get(s.tabId) !== s) return
  sessions.delete(s.tabId)
  s.controller.abort(new Error(why))
  questions.end(s.id)
  port?.postMessage({ kind: 'stopped', message: why })
  await s.chat.add({ role: 'system', kind: 'info', text: why, msg: msg('mcp.stopped', { client: s.client }) }).catch(() => undefined)
  status(s, 'stopped')
}

/** The row a step gets in the panel: the model's vocabulary, as the agent's steps show. */
function instructionOf(step: PageAction): Instruction | null {
  const type = domAction(step.action).shownAs as Instruction['action_type'] | undefined
  if (!type) return null
  const t = step.target
  const what = (t?.semantic ?? t?.targetId ?? (t?.selectors?.length ? 'an element' : (step.key ?? step.action))).slice(0, 200)
  // A row the history keeps, so a valid instruction (InstructionSchema): the element as described,
  // and never a typed value — it may be a secret the vault filled in.
  const params: Instruction['params'] = { semantic_locator: what, ...(t?.targetId ? { target_id: t.targetId } : {}) }
  if (type === 'input' || type === 'select' || type === 'upload') params.value = kRedacted
  if (type === 'press') params.key = step.key ?? 'Enter'
  if (type === 'scroll' && step.direction && step.direction !== 'left' && step.direction !== 'right') params.direction = step.direction
  return { step_id: 0, action_type: type, params, description: `${step.action} ${what}`.slice(0, 200) }
}

async function show(s: Session, ins: Instruction, ok: boolean, detail: string): Promise<void> {
  const view: StepView = { index: s.steps++, instruction: { ...ins, step_id: s.steps }, status: ok ? 'ok' : 'failed', detail: detail.slice(0, 2000) }
  await s.chat.step(s.messageId, view)
}

/**
 * One page command of the client's, under the person's gate. A risky step is refused by the page
 * (NEEDS_CONFIRMATION), asked in the panel, and sent again confirmed only on Allow; a Deny goes
 * back as that refusal, which the server reports to the client as DENIED.
 */
async function command(s: Session, raw: PageCommand): Promise<PageOutcome> {
  if (!(kBridgeCommands as readonly string[]).includes(raw.kind)) return { ok: false, code: 'INVALID', message: `${raw.kind} is not a command a client may send.` }
  // A client's step is data from outside: each action takes its own fields only (the vocabulary's
  // strict schema), so nothing the gate does not judge rides along (files on a click, an element handle).
  if (raw.kind === 'act') {
    const checked = PageActionSchema.safeParse(raw.step)
    if (!checked.success) return { ok: false, code: 'INVALID', message: `Not a step Ava runs: ${checked.error.issues.map((i) => `${i.path.join('.') || 'step'}: ${i.message}`).join('; ').slice(0, 500)}` }
  }
  const { safety, agent } = await settingsStore.get()
  let cmd = raw
  if (acts(cmd) && ++s.acted > agent.stepLimit) {
    // The person's step limit holds in the extension too (a program in the host's place counts
    // nothing): past it, the person decides whether the client may go on for as many again.
    const text = `${s.client} has taken ${agent.stepLimit} steps in this tab, your step limit. Let it go on?`
    if (!(await question(s.tabId, s.chat, text, msg('mcp.stepLimit', { client: s.client, n: agent.stepLimit }), s.controller.signal, s.id))) {
      s.acted--
      return { ok: false, code: 'INVALID', message: `The person's step limit (${agent.stepLimit}) was reached and they did not let ${s.client} go on.` }
    }
    s.acted = 1
  }
  if (cmd.kind === 'act' || cmd.kind === 'flow.step') {
    // The gate is the person's: what the client sent for it is dropped and replaced.
    const { confirmed: _c, secretSites: _s, confirm: _f, sites: _l, ...rest } = cmd as PageCommand<'act'> & StepGate
    const gate: StepGate = { confirm: safety.confirm, sites: { allow: safety.allowDomains, deny: safety.denyDomains } }
    cmd = { ...rest, ...gate } as PageCommand
    if (cmd.kind === 'act') {
      const filled = await fillSecrets(s, cmd.step)
      if ('error' in filled) return { ok: false, code: 'INVALID', message: filled.error }
      cmd = { ...cmd, step: filled.step, ...(filled.secretSites ? { secretSites: filled.secretSites } : {}) }
    }
  }
  const signal = s.controller.signal
  const once = async (c: PageCommand) => {
    const { tabId: _t, wentAway: _w, ...out } = await sendCommand(s.tabId, c, { signal })
    return out as PageOutcome
  }
  const name = cmd.kind === 'act' ? (instructionOf(cmd.step)?.description ?? cmd.step.action) : cmd.kind === 'flow.step' ? (cmd.step.description ?? cmd.step.action) : cmd.kind
  // The one gate loop (src/core/gate/step.ts): asked in the panel, the yes bound to the element
  // the question showed, a changed element asked about again.
  const gated = cmd.kind === 'act' || cmd.kind === 'flow.step'
  const sent = cmd
  const { out, declined } = await askUntilDecided(
    (yes) => once(yes ? ({ ...sent, confirmed: true, ...(yes.bound ? { bound: yes.bound } : {}) } as PageCommand) : sent),
    (o) => (gated ? questionOf(o as PageOutcome<'act'>) : null),
    async (refusal) => {
      if (!(await question(s.tabId, s.chat, `${s.client}: ${name}: ${refusal.message}`, refusalAsk(`${s.client}: ${name}`, refusal), signal, s.id))) return false
      if (refusal.offsite) await allowDomain(s.tabId, refusal.offsite)
      return true
    },
  )
  if (declined) {
    const denied = `The person said no: ${declined.message}`
    const ins = cmd.kind === 'act' ? instructionOf(cmd.step) : null
    if (ins) await show(s, ins, false, denied)
    return cmd.kind === 'flow.step' ? { ok: true, outcome: { ok: false, code: 'NEEDS_CONFIRMATION', message: denied, candidates: [], resolveMs: 0, acted: false } } : { ...declined, message: denied }
  }
  if (cmd.kind === 'act') {
    const ins = instructionOf(cmd.step)
    if (ins) await show(s, ins, out.ok, out.ok ? ((out as { detail?: string }).detail ?? '') : (out as ExecFailure).message)
  }
  if (cmd.kind === 'flow.step' && out.ok) {
    const o = (out as PageOutcome<'flow.step'> & { ok: true }).outcome
    const name = (cmd.step.description ?? cmd.step.action).slice(0, 200)
    await show(s, { step_id: 0, action_type: 'click', params: { semantic_locator: name }, description: name }, o.ok, o.ok ? (o.detail ?? '') : o.message)
  }
  return out
}


/**
 * `${secret:NAME}` in a client's value: filled from the vault only on a site the secret is bound
 * to, after the person says yes (the client, not the person, asked for it), and typed only into a
 * field on those sites (secretSites, checked where the field is).
 */
async function fillSecrets(s: Session, step: PageAction): Promise<{ step: PageAction; secretSites?: string[] } | { error: string }> {
  if (typeof step.value !== 'string' || !secretNames(step.value).length) return { step }
  const names = [...new Set(secretNames(step.value))]
  const [vault, bound] = await Promise.all([vaultStore.get(), vaultSitesStore.get()])
  const r = resolveSecrets(step.value, (n) => vault[n])
  if (r.missing.length) return { error: `No saved secret named ${r.missing.join(', ')}.` }
  const origin = secretOrigin(await tabUrl(s.tabId))
  const unbound = unboundOn(names, bound, origin)
  if (unbound.length) return { error: `Refused: the saved secret ${unbound.join(', ')} is not kept for ${origin ?? 'this page'}.` }
  const text = `${s.client}: ${secretQuestion(names, origin!)}`
  if (!(await question(s.tabId, s.chat, text, msg('mcp.secret.ask', { client: s.client, names: names.join(', '), site: origin! }), s.controller.signal, s.id))) return { error: `The person did not let ${s.client} type ${names.join(', ')}.` }
  return { step: { ...step, value: r.value }, secretSites: (bound[names[0]] ?? []).filter((o) => names.every((n) => bound[n]?.includes(o))) }
}

/** Poll interval while Ava's own agent works on a client's request. */
const kAskPollMs = 250

/** Ask Ava: the agent's own run in the client's tab, with the person's model and panel; its answer and steps back. */
async function ask(s: Session, request: string): Promise<Reply> {
  const runId = await startRun(s.tabId, `${request}`)
  const signal = s.controller.signal
  for (;;) {
    const state = await runStore(s.tabId).get()
    if (!state || state.id !== runId || !isActive(state.status)) break
    if (signal.aborted) break
    await new Promise((r) => setTimeout(r, kAskPollMs))
  }
  const state = await runStore(s.tabId).get()
  const history = await readHistory(await conversationOf(s.tabId))
  const answer = history.messages.find((m) => m.id === state?.messageId)
  // The client's session shows again once the agent's run is over.
  if (sessions.get(s.tabId) === s) status(s, 'running')
  return {
    ok: true,
    report: {
      status: state?.status ?? 'failed',
      answer: answer?.text ?? '',
      steps: (answer?.steps ?? []).map((v) => ({ index: v.index + 1, action: v.instruction.action_type, description: v.instruction.description, status: v.status, detail: v.detail })),
      notes: history.messages.filter((m) => m.role === 'system' && m.ts >= (state?.startedAt ?? 0)).map((m) => `${m.kind === 'confirm' ? `asked (${m.confirm?.state ?? 'pending'})` : (m.kind ?? 'info')}: ${m.text}`),
    },
  }
}
