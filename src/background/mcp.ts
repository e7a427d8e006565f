import browser from 'webextension-polyfill'
import { scheduleOp } from './schedules'
import { kBridgeCommands, kBridgeHost, type BridgeRequest } from '../core/bridge'
import type { StepView } from '../core/chat'
import { refusalAsk, msg } from '../core/agent/outcome'
import { kRedacted, resolveSecrets, secretNames, secretQuestion } from '../core/agent/secrets'
import { isActive } from '../core/agent/state'
import type { ExecFailure } from '../core/exec'
import type { Instruction } from '../core/instruction/schema'
import type { PageAction, PageCommand, PageOutcome, StepGate } from '../core/page/command'
import { grantCovers, grantSite, grantSites, siteOfHost } from '../core/grant'
import { siteOf } from '../core/host'
import { handle as on, sendToTab } from '../messaging'
import { runStore, tabStore } from '../storage/conversation'
import { mcpClientsStore } from '../storage/mcp'
import { settingsStore } from '../storage/settings'
import { vaultSitesStore, vaultStore } from '../storage/vault'
import { redactDeep } from '../core/agent/redact'
import { isRunning, startRun } from './agent'
import { chatWriter, conversationOf, newId, readHistory, type ChatWriter } from './conversation'
import { askInPanel, questions } from './questions'
import { domAction, instructionKind, PageActionSchema, targetOfAction } from '../core/vocabulary'
import { askThroughGuard, bindSecrets, counts, createStepCount, siteRefusal, type StepGuard } from '../core/gate/guard'
import { allowDomain } from './offsite'
import { navigate, sendCommand, tabUrl } from './page'
import { emitToPanels } from './panels'

/**
 * MCP clients in the person's own Chrome (docs/mcp.md, "In your own Chrome"). `ava mcp --chrome`
 * reaches the worker through the native host (src/cli/mcp/native.ts). Each of the server's
 * sessions gets one tab, the one in front of the person when they allow it in that tab's panel,
 * and a grant that names its sites (core/grant.ts): the site of that tab, the sites the person
 * named for the client in the options, and those they said yes to since. Going to any other site
 * asks in the panel, naming it; a page on a site outside the grant is neither read nor acted on
 * (NOT_GRANTED). Its steps show in the panel under "<client> is driving this tab", with Stop; the
 * person revokes clients in the options; a closed tab ends its session.
 * Every command goes through the gate of the person's settings here, whatever the client sent:
 * their confirm categories and site lists replace the command's, a risky step waits for Allow in
 * the panel, and `${secret:…}` is filled from the vault only on the sites each secret is bound to.
 */
interface Session {
  id: string
  /** The server's session it serves (BridgeRequest.session). */
  key: string
  client: string
  tabId: number
  /** The sites this session was given: its tab's when the person allowed it, and each they said yes to since. */
  sites: string[]
  messageId: string
  chat: ChatWriter
  controller: AbortController
  steps: number
  /** Steps taken, by the guard's one rule: the person's step limit holds here, whatever the server counted. */
  acted: number
}

/** The client's guard: the person answers in the panel; the person's settings and step limit. */
async function guardOf(s: Session, name = ''): Promise<StepGuard> {
  const { safety, agent } = await settingsStore.get()
  const count = createStepCount(
    agent.stepLimit,
    (n) =>
      Object.assign(
        new Error(`${s.client} reached the person's step limit (${n}) in this tab; nothing more was done.`),
        { code: 'STEP_LIMIT' },
      ),
    s.acted,
  )
  return {
    confirm: safety.confirm,
    sites: { allow: safety.allowDomains, deny: safety.denyDomains },
    here: () => tabUrl(s.tabId),
    ask: (reason, refusal) =>
      question(
        s.tabId,
        s.chat,
        `${s.client}: ${name ? `${name}: ` : ''}${reason}`,
        refusal
          ? refusalAsk(`${s.client}${name ? `: ${name}` : ''}`, refusal)
          : msg('mcp.attach.ask', { client: s.client }),
        s.controller.signal,
        s.id,
      ),
    allowed: async (refusal) => void (refusal.offsite && (await allowDomain(s.tabId, refusal.offsite))),
    step() {
      count.one()
      s.acted = count.used
    },
  }
}

const sessions = new Map<number, Session>()
let port: browser.Runtime.Port | undefined

/** How long the worker waits before opening the host again after it exited. */
const kReconnectMs = 5_000

type Reply = Record<string, unknown> & ({ ok: true } | { ok: false; code: string; message: string })

/** The options' list of allowed clients, the sites each may go to, and Revoke. Registered at the worker's top level. */
export function registerMcpHandlers(): void {
  const list = async () => ({
    clients: (await mcpClientsStore.get()).map((c) => ({
      ...c,
      active: [...sessions.values()].some((s) => s.client === c.name),
    })),
  })
  on('options→bg:mcp.clients', ['options'], list)
  on('options→bg:mcp.revoke', ['options'], async ({ name }) => {
    await mcpClientsStore.set((await mcpClientsStore.get()).filter((c) => c.name !== name))
    for (const s of [...sessions.values()])
      if (s.client === name) await end(s, `The person revoked ${s.client} in Ava's options.`)
    return list()
  })
  on('options→bg:mcp.sites', ['options'], async ({ name, sites }) => {
    // What the person typed, as sites; an entry that names none is said back, nothing else changes.
    const rejected = (Array.isArray(sites) ? sites : [])
      .filter((e) => typeof e !== 'string' || !grantSite(e))
      .map(String)
    if (!rejected.length)
      await mcpClientsStore.set(
        (await mcpClientsStore.get()).map((c) => (c.name === name ? { ...c, sites: grantSites(sites) } : c)),
      )
    return { ...(await list()), rejected }
  })
  // A closed tab ends the session it served: its questions are a no, and the server is told.
  browser.tabs.onRemoved.addListener((tabId) => {
    const s = sessions.get(tabId)
    if (s) void end(s, `The tab ${s.client} drove was closed.`)
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
  mine.onMessage.addListener(
    (m: unknown) => void onRequest(m as BridgeRequest | { kind: 'server'; connected?: boolean }),
  )
  mine.onDisconnect.addListener(() => {
    const error = (mine.error as { message?: string } | undefined)?.message ?? ''
    port = undefined
    for (const s of [...sessions.values()]) void end(s, 'The connection to the MCP client closed.')
    // No host registered: the person never ran `ava mcp install`. Otherwise the host went away: try again.
    if (!/not found|forbidden/i.test(error)) setTimeout(startMcpBridge, kReconnectMs)
  })
  // An allowed client the person revoked in the options loses its tab at once.
  mcpClientsStore.watch((clients) => {
    for (const s of [...sessions.values()])
      if (!clients.some((c) => c.name === s.client)) void end(s, `The person revoked ${s.client} in Ava's options.`)
  })
}

/** The sites a session may read and act on now: its own, and those the person named for its client (read afresh: a site removed in the options is out at once). */
async function grantOf(s: Session): Promise<string[]> {
  const named = (await mcpClientsStore.get()).find((c) => c.name === s.client)?.sites ?? []
  return [...new Set([...s.sites, ...named])]
}

/** Why the session's tab may not be read or acted on now, or null when its page is on a site of the grant. */
async function outsideGrant(s: Session): Promise<Reply | null> {
  const url = await tabUrl(s.tabId)
  if (grantCovers(await grantOf(s), url)) return null
  const site = siteOf(url) ?? 'a page with no site'
  return failure(
    'NOT_GRANTED',
    `The tab is now on ${site}, which the person has not given ${s.client}: nothing there is read or done. ava_navigate to a page on ${site} to ask them, or to one of the sites you were given.`,
  )
}

function reply(id: number, body: Reply): void {
  port?.postMessage({ id, ...body })
}

async function onRequest(m: BridgeRequest | { kind: 'server'; connected?: boolean }): Promise<void> {
  // The server went away (the host stays, and dials the next one): its sessions end with it, so
  // a server started later, maybe for another client, is given no tab it did not ask the person for.
  if (m.kind === 'server') {
    // Nobody is left to tell: a message now would be queued by the host for the next server.
    if (m.connected === false) for (const s of [...sessions.values()]) await end(s, 'The MCP server went away.', false)
    return
  }
  if (typeof (m as { id?: unknown }).id !== 'number') return
  try {
    // What goes back to the client is cut as a prompt is: a page's echo of a vault value, in any
    // shape, stays in the tab (src/core/agent/redact.ts).
    reply(m.id, redactDeep(await handle(m), Object.values(await vaultStore.get().catch(() => ({})))))
  } catch (e) {
    reply(m.id, {
      ok: false,
      code: (e as { code?: string }).code ?? 'FAILED',
      message: (e as Error).message ?? String(e),
    })
  }
}

const failure = (code: string, message: string): Reply => ({ ok: false, code, message })

/** The session the server's session `key` was given; each has its own tab. */
function sessionOf(key: string): Session | undefined {
  return [...sessions.values()].find((s) => s.key === key)
}

async function handle(m: BridgeRequest): Promise<Reply> {
  const key = typeof m.session === 'string' ? m.session.slice(0, 100) : ''
  if (m.kind === 'attach') return attach(m.client, key)
  // `ava schedule`, run by the person in their own shell: the same edits as the panel's (src/background/schedules.ts).
  if (m.kind === 'schedule') return { ok: true, ...(await scheduleOp(m)) }
  const s = sessionOf(key)
  if (m.kind === 'detach') {
    if (s) await end(s, `${s.client} closed its session.`)
    return { ok: true }
  }
  if (!s)
    return failure(
      'NO_TAB',
      'No tab is given to this client: the person has not allowed it, stopped it, or revoked it.',
    )
  if (m.kind === 'url') {
    // The gate's own checks need where the tab is; on a site outside the grant, its origin is all
    // they need, and all the client learns (a path may carry a mailbox's search, a document's id).
    const url = await tabUrl(s.tabId)
    if (grantCovers(await grantOf(s), url) || !/^https?:/i.test(url)) return { ok: true, url }
    return { ok: true, url: `${new URL(url).origin}/` }
  }
  if (m.kind === 'navigate') return go(s, m.url)
  // Everything else reads or acts on the page: only on a site of the grant.
  const outside = await outsideGrant(s)
  if (outside) return outside
  if (m.kind === 'ask') return ask(s, m.request, m.shape)
  return { ok: true, outcome: await command(s, m.command) }
}

/**
 * The client opens an address in its tab. The person's lists hold first (BLOCKED); a site outside
 * the grant is asked about in the panel, naming it, as Ava's own model is asked before it leaves
 * the site, and a yes adds it to the session's grant; a no is DENIED and the tab stays.
 */
async function go(s: Session, url: string): Promise<Reply> {
  const guard = await guardOf(s)
  if (!/^https?:/i.test(url)) return failure('BLOCKED', `Ava opens only http(s) pages, not ${url.slice(0, 200)}.`)
  // The person's lists first, by the guard's rule (core/gate/guard.ts `siteRefusal`).
  const listed = siteRefusal(url, guard.sites ?? { allow: [], deny: [] })
  if (listed) return failure(listed.code, listed.message)
  const site = siteOf(url)
  if (!site) return failure('INVALID', `${url.slice(0, 200)} names no site.`)
  if (!(await grantOf(s)).includes(site)) {
    const text = `${s.client} asks to go to ${site} in this tab (${url.slice(0, 200)}), to read it and act there. Allow it?`
    if (
      !(await question(
        s.tabId,
        s.chat,
        text,
        msg('mcp.site.ask', { client: s.client, site }),
        s.controller.signal,
        s.id,
      ))
    ) {
      // The session ended while it asked (Stop, Revoke, a closed tab): nobody said no.
      if (s.controller.signal.aborted)
        return failure('NO_TAB', (s.controller.signal.reason as Error)?.message ?? 'The session ended.')
      return failure('DENIED', `The person did not let ${s.client} go to ${site}; the tab stayed where it was.`)
    }
    if (!s.sites.includes(site)) s.sites.push(site)
  }
  // The navigation counts as a step, by the guard's one rule, as the model's does.
  try {
    guard.step()
  } catch (e) {
    return failure((e as { code?: string }).code ?? 'STEP_LIMIT', (e as Error).message)
  }
  const out = await navigate(s.tabId, url, s.controller.signal)
  await show(
    s,
    { step_id: 0, action_type: 'navigate', params: { url }, description: `Open ${url}`.slice(0, 200) },
    out.ok,
    out.ok ? (out.detail ?? '') : out.message,
  )
  if (!out.ok) return failure(out.code, out.message)
  // A redirect may land on a site the grant lacks (a sign-in elsewhere): said now, not at the next read.
  return (await outsideGrant(s)) ?? { ok: true }
}

/**
 * The person gives the client the tab in front of them, in its panel, for that tab's site; the
 * answer comes back as the reply. One tab serves one session: another session (a second HTTP
 * connection, another client) is given a tab of its own.
 */
async function attach(client: string, key: string): Promise<Reply> {
  const name =
    client
      .replace(/[\r\n\u2028\u2029]+/g, ' ')
      .trim()
      .slice(0, 80) || 'An MCP client'
  const mine = sessionOf(key)
  if (mine) return { ok: true, tabId: mine.tabId }
  const [tab] = await browser.tabs.query({ active: true, lastFocusedWindow: true })
  const site = tab?.url && /^https?:/i.test(tab.url) ? siteOf(tab.url) : null
  if (tab?.id === undefined || !site)
    return failure(
      'NO_TAB',
      'The tab in front of the person is not a web page Ava can act on; they can switch to one and the client can try again.',
    )
  const tabId = tab.id
  if (sessions.has(tabId))
    return failure(
      'BUSY',
      `${sessions.get(tabId)!.client} already drives the tab in front of the person; each session gets a tab of its own: they can switch to another and the client can try again.`,
    )
  if (isRunning(tabId)) return failure('BUSY', 'Ava is already working on a request in this tab.')
  await tabStore(tabId).set({ panelOpen: true })
  await sendToTab(tabId, 'bg→content:panel.open', {}).catch(() => undefined)
  const chat = chatWriter(await conversationOf(tabId), () => tabId)
  const id = newId('mcp')
  const named = (await mcpClientsStore.get()).find((c) => c.name === name)?.sites.filter((x) => x !== site) ?? []
  const also = named.length ? ` and ${named.join(', ')}` : ''
  const allow = await question(
    tabId,
    chat,
    `${name} asks to drive this tab on ${site}${also}: to read it and act in it through Ava. Another site will be asked about first. Allow it?`,
    msg(named.length ? 'mcp.attach.askSites' : 'mcp.attach.ask', { client: name, site, sites: named.join(', ') }),
  )
  if (!allow) return failure('DENIED', `The person did not give ${name} this tab.`)
  // Two sessions asked for the same tab at once, and the other was given it first.
  if (sessions.has(tabId) || sessionOf(key))
    return failure(
      'BUSY',
      'This tab (or this session) was given to a client while the person was asked; the client can try again.',
    )
  const message = await chat.add({
    role: 'assistant',
    text: `${name} is driving this tab.`,
    msg: msg('mcp.driving', { client: name }),
    steps: [],
  })
  const s: Session = {
    id,
    key,
    client: name,
    tabId,
    sites: [site],
    messageId: message.id,
    chat,
    controller: new AbortController(),
    steps: 0,
    acted: 0,
  }
  sessions.set(tabId, s)
  const all = await mcpClientsStore.get()
  const before = all.find((c) => c.name === name)
  await mcpClientsStore.set([
    ...all.filter((c) => c.name !== name),
    { name, since: before?.since ?? Date.now(), sites: before?.sites ?? [] },
  ])
  status(s, 'running')
  return { ok: true, tabId }
}

function status(s: Session, state: 'running' | 'stopped' | 'done'): void {
  emitToPanels(s.tabId, { type: 'status', run: { id: s.id, status: state, messageId: s.messageId } }, 0)
}

/** Asks in the tab's panel with Allow and Deny; false when the session ends first. */
async function question(
  tabId: number,
  chat: ChatWriter,
  text: string,
  ask: ReturnType<typeof msg>,
  signal?: AbortSignal,
  owner = newId('mcp-attach'),
): Promise<boolean> {
  return askInPanel(tabId, chat, { owner, text, reason: text, step: 0, msg: ask }, signal)
}

/** Commands that change the page count against the step limit, by the guard's one rule (reads and waits do not). */
function acts(cmd: PageCommand): boolean {
  if (cmd.kind === 'flow.step') return counts({ flow: cmd.step.action })
  return cmd.kind === 'act' && counts({ dom: cmd.step.action })
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

async function end(s: Session, why: string, tell = true): Promise<void> {
  if (sessions.get(s.tabId) !== s) return
  sessions.delete(s.tabId)
  s.controller.abort(new Error(why))
  questions.end(s.id)
  if (tell) port?.postMessage({ kind: 'stopped', session: s.key, message: why })
  await s.chat
    .add({ role: 'system', kind: 'info', text: why, msg: msg('mcp.stopped', { client: s.client }) })
    .catch(() => undefined)
  status(s, 'stopped')
}

/** The row a step gets in the panel: the model's vocabulary, as the agent's steps show. */
function instructionOf(step: PageAction): Instruction | null {
  const type = domAction(step.action).shownAs as Instruction['action_type'] | undefined
  if (!type) return null
  const t = targetOfAction(step)
  const key = 'key' in step ? step.key : undefined
  const what = (t?.semantic ?? t?.targetId ?? (t?.selectors?.length ? 'an element' : (key ?? step.action))).slice(
    0,
    200,
  )
  // A row the history keeps, so a valid instruction (InstructionSchema): the element as described,
  // and never a typed value — it may be a secret the vault filled in.
  const params: Instruction['params'] = { semantic_locator: what, ...(t?.targetId ? { target_id: t.targetId } : {}) }
  // What the row's instruction needs, filled from the step (a value is never shown).
  const needs = instructionKind(type)
  if (needs?.all?.includes('value')) params.value = kRedacted
  if (needs?.all?.includes('key')) params.key = key ?? 'Enter'
  const direction = 'direction' in step ? step.direction : undefined
  if (needs?.oneOf?.includes('direction') && direction && direction !== 'left' && direction !== 'right')
    params.direction = direction
  return { step_id: 0, action_type: type, params, description: `${step.action} ${what}`.slice(0, 200) }
}

async function show(s: Session, ins: Instruction, ok: boolean, detail: string): Promise<void> {
  const view: StepView = {
    index: s.steps++,
    instruction: { ...ins, step_id: s.steps },
    status: ok ? 'ok' : 'failed',
    detail: detail.slice(0, 2000),
  }
  await s.chat.step(s.messageId, view)
}

/**
 * One page command of the client's, under the person's gate. A risky step is refused by the page
 * (NEEDS_CONFIRMATION), asked in the panel, and sent again confirmed only on Allow; a Deny goes
 * back as that refusal, which the server reports to the client as DENIED.
 */
async function command(s: Session, raw: PageCommand): Promise<PageOutcome> {
  if (!(kBridgeCommands as readonly string[]).includes(raw.kind))
    return { ok: false, code: 'INVALID', message: `${raw.kind} is not a command a client may send.` }
  // A client's step is data from outside: each action takes its own fields only (the vocabulary's
  // strict schema), so nothing the gate does not judge rides along (files on a click, an element handle).
  if (raw.kind === 'act') {
    const checked = PageActionSchema.safeParse(raw.step)
    if (!checked.success)
      return {
        ok: false,
        code: 'INVALID',
        message: `Not a step Ava runs: ${checked.error.issues
          .map((i) => `${i.path.join('.') || 'step'}: ${i.message}`)
          .join('; ')
          .slice(0, 500)}`,
      }
  }
  let cmd = raw
  const name =
    cmd.kind === 'act'
      ? (instructionOf(cmd.step)?.description ?? cmd.step.action)
      : cmd.kind === 'flow.step'
        ? (cmd.step.description ?? cmd.step.action)
        : cmd.kind
  const guard = await guardOf(s, name)
  if (acts(cmd)) {
    // The person's step limit holds in the extension too (a program in the host's place counts
    // nothing), by the guard's one rule: past it the call is refused, as for Ava's own model.
    try {
      guard.step()
    } catch (e) {
      return { ok: false, code: 'STEP_LIMIT', message: (e as Error).message }
    }
  }
  if (cmd.kind === 'act' || cmd.kind === 'flow.step') {
    // The gate is the person's: what the client sent for it is dropped and replaced. A step that
    // leaves the site is always asked about, whatever the person confirms for Ava's own model: the
    // grant names its sites, and the question names the one the step goes to.
    const { confirmed: _c, secretSites: _s, confirm: _f, sites: _l, ...rest } = cmd as PageCommand<'act'> & StepGate
    const gate: StepGate = {
      confirm: [...new Set([...guard.confirm, 'cross_site' as const])],
      ...(guard.sites ? { sites: guard.sites } : {}),
    }
    cmd = { ...rest, ...gate } as PageCommand
    if (cmd.kind === 'act') {
      const filled = await fillSecrets(s, cmd.step)
      if ('error' in filled) return { ok: false, code: filled.code, message: filled.error }
      cmd = { ...cmd, step: filled.step, ...(filled.secretSites ? { secretSites: filled.secretSites } : {}) }
    }
  }
  const signal = s.controller.signal
  const once = async (c: PageCommand) => {
    const { tabId: _t, wentAway: _w, ...out } = await sendCommand(s.tabId, c, { signal })
    return out as PageOutcome
  }
  // The one gate loop (src/core/gate/step.ts): asked in the panel, the yes bound to the element
  // the question showed, a changed element asked about again.
  const gated = cmd.kind === 'act' || cmd.kind === 'flow.step'
  // A link to a site the grant already covers is asked about only when the person confirms every
  // cross-site step (as for Ava's own model); a step outside it, or one that carries a form's
  // fields away, always is. A yes adds the site to the session's grant.
  const granted: StepGuard = {
    ...guard,
    async ask(reason, refusal) {
      const to = refusal?.offsite ? siteOfHost(refusal.offsite) : null
      if (to && !refusal!.carriesData && !guard.confirm.includes('cross_site') && (await grantOf(s)).includes(to))
        return true
      return guard.ask(reason, refusal)
    },
    async allowed(refusal) {
      await guard.allowed?.(refusal)
      const to = refusal.offsite ? siteOfHost(refusal.offsite) : null
      if (to && !s.sites.includes(to)) s.sites.push(to)
    },
  }
  const { out, refusal: r } = await askThroughGuard(cmd, once, gated ? granted : undefined)
  if (r) {
    // The session ended while it asked (Stop, Revoke, a closed tab): nobody said no.
    if (signal.aborted)
      return { ok: false, code: 'NO_TAB', message: (signal.reason as Error)?.message ?? 'The session ended.' }
    const ins = cmd.kind === 'act' ? instructionOf(cmd.step) : null
    if (ins) await show(s, ins, false, r.message)
    return cmd.kind === 'flow.step'
      ? {
          ok: true,
          outcome: { ok: false, code: r.code, message: r.message, candidates: [], resolveMs: 0, acted: false },
        }
      : { ok: false, code: r.code, message: r.message }
  }
  if (cmd.kind === 'act') {
    const ins = instructionOf(cmd.step)
    if (ins)
      await show(s, ins, out.ok, out.ok ? ((out as { detail?: string }).detail ?? '') : (out as ExecFailure).message)
  }
  if (cmd.kind === 'flow.step' && out.ok) {
    const o = (out as PageOutcome<'flow.step'> & { ok: true }).outcome
    const name = (cmd.step.description ?? cmd.step.action).slice(0, 200)
    await show(
      s,
      { step_id: 0, action_type: 'click', params: { semantic_locator: name }, description: name },
      o.ok,
      o.ok ? (o.detail ?? '') : o.message,
    )
  }
  return out
}

/**
 * `${secret:NAME}` in a client's value: filled from the vault only on a site the secret is bound
 * to, after the person says yes (the client, not the person, asked for it), and typed only into a
 * field on those sites (secretSites, checked where the field is).
 */
async function fillSecrets(
  s: Session,
  step: PageAction,
): Promise<
  { step: PageAction; secretSites?: string[] } | { error: string; code: 'INVALID' | 'SECRET_UNBOUND' | 'DENIED' }
> {
  if (!('value' in step) || typeof step.value !== 'string' || !secretNames(step.value).length) return { step }
  const names = [...new Set(secretNames(step.value))]
  const [vault, boundSites] = await Promise.all([vaultStore.get(), vaultSitesStore.get()])
  const r = resolveSecrets(step.value, (n) => vault[n])
  if (r.missing.length) return { code: 'INVALID', error: `No saved secret named ${r.missing.join(', ')}.` }
  const bound = bindSecrets(names, boundSites, await tabUrl(s.tabId))
  if (!bound.ok) return { code: bound.code, error: bound.message }
  const origin = bound.origin
  const text = `${s.client}: ${secretQuestion(names, origin)}`
  if (
    !(await question(
      s.tabId,
      s.chat,
      text,
      msg('mcp.secret.ask', { client: s.client, names: names.join(', '), site: origin }),
      s.controller.signal,
      s.id,
    ))
  )
    return { code: 'DENIED', error: `You said no: ${s.client} does not type ${names.join(', ')}.` }
  return { step: { ...step, value: r.value } as PageAction, secretSites: bound.sites }
}

/** Poll interval while Ava's own agent works on a client's request. */
const kAskPollMs = 250

/** Ask Ava: the agent's own run in the client's tab, with the person's model and panel; its answer and steps back. */
async function ask(s: Session, request: string, shape?: Record<string, unknown>): Promise<Reply> {
  // With a shape (ava_extract), the run ends with its rows, as /extract in the panel does; every
  // step passes the same gate as the person's own run, its questions asked in the panel.
  const runId = await startRun(s.tabId, `${request}`, shape ? { shape } : {})
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
      steps: (answer?.steps ?? []).map((v) => ({
        index: v.index + 1,
        action: v.instruction.action_type,
        description: v.instruction.description,
        status: v.status,
        detail: v.detail,
      })),
      notes: history.messages
        .filter((m) => m.role === 'system' && m.ts >= (state?.startedAt ?? 0))
        .map(
          (m) => `${m.kind === 'confirm' ? `asked (${m.confirm?.state ?? 'pending'})` : (m.kind ?? 'info')}: ${m.text}`,
        ),
      ...(answer?.extraction ? { extraction: answer.extraction } : {}),
    },
  }
}
