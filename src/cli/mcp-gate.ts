// What every MCP tool call passes before it touches a page (docs/mcp.md, "The gate"): the same
// StepGuard the agent gives a pack (src/core/page/channel.ts), the `act` command's StepGate
// (confirm categories, site lists, secretSites), `${secret:…}` resolved only in the message to the
// page and bound to its sites, and every result redacted and page text framed as untrusted.
import { askUntilDecided, questionOf } from '../core/gate/step'
import { RISK_CATEGORIES, type ExecFailure, type RiskCategory } from '../core/exec'
import type { FailureCode } from '../core/failure'
import { kUntrustedClose, kUntrustedOpen, neutraliseDelimiters } from '../core/agent/prompt'
import { originOf, resolveSecrets, secretNames, unboundOn } from '../core/agent/secrets'
import { redactShapes } from '../core/agent/redact'
import { countsAsStep, type BoundSecret, type StepGuard } from '../core/page/channel'
import type { PageAction, PageOutcome, SendCommand } from '../core/page/command'
import type { SitePolicy } from '../core/offsite'

/** A saved secret as `ava mcp` holds it: the value from the environment, the origins it may be typed on. */
export interface McpSecret {
  name: string
  value: string
  sites: string[]
}

/**
 * Who answers a risky step's question. Place (a), a headless Chromium, has nobody to ask: the
 * categories given with `--allow` are yes, the rest no. Place (b) asks the person in the panel.
 */
export interface Asker {
  ask(question: { reason: string; category?: RiskCategory; offsite?: string }, signal: AbortSignal): Promise<boolean>
}

/** An Asker for a place without a person: yes only to the categories the command line allowed. */
export function allowListAsker(allowed: readonly RiskCategory[]): Asker {
  return {
    // A question with no category (a secret the page asked for, a step with no risk word) is a no:
    // nobody was there to see it.
    ask: async ({ category, offsite }) => (offsite ? allowed.includes('cross_site') : !!category && allowed.includes(category)),
  }
}

/** `--allow credentials,payment` → the categories, or why not. `all` is every category. */
export function parseAllow(raw: readonly string[]): RiskCategory[] | string {
  const words = raw.flatMap((r) => r.split(',')).map((w) => w.trim()).filter(Boolean)
  if (words.includes('all')) return [...RISK_CATEGORIES]
  const bad = words.filter((w) => !(RISK_CATEGORIES as readonly string[]).includes(w))
  if (bad.length) return `--allow: unknown risk ${bad.length === 1 ? 'category' : 'categories'} ${bad.join(', ')}; use ${RISK_CATEGORIES.join(', ')} or all`
  return words as RiskCategory[]
}

/** A tool call refused or failed, with Ava's code; the server turns it into an MCP tool error. */
/** A tool's failure: its code (src/core/failure.ts) starts the text the model reads. */
export class McpToolError extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message)
    this.name = 'McpToolError'
  }
}

export interface GateOptions {
  asker: Asker
  /** Steps one tool call may take (the agent's step limit, settings.agent.stepLimit). */
  stepLimit: number
  sites: SitePolicy
  secrets: readonly McpSecret[]
  /** Categories every acting command carries: all of them, as Ava's default settings do. */
  confirm: readonly RiskCategory[]
}

/** The guard of one tool call: counts its steps, asks through the place's asker, remembers the refusal it was asked about. */
export function callGuard(o: GateOptions, here: () => Promise<string>, signal: AbortSignal): StepGuard & { steps(): number } {
  let used = 0
  return {
    confirm: [...o.confirm],
    sites: o.sites,
    here,
    steps: () => used,
    ask: (reason, refusal) => o.asker.ask({ reason, category: refusal?.category, offsite: refusal?.offsite }, signal),
    step() {
      if (used >= o.stepLimit) throw new McpToolError('STEP_LIMIT', `This call reached its limit of ${o.stepLimit} steps; nothing more was done. Call again to go on.`)
      used++
    },
  }
}

export function boundSecrets(secrets: readonly McpSecret[]): BoundSecret[] {
  return secrets.map((s) => ({ value: s.value, sites: s.sites }))
}

/**
 * Resolves `${secret:NAME}` in a value a client sent, for the page at `url`: refused when the
 * name is unknown or not bound to that page's origin (a password manager fills a login only on
 * its own site). The value never comes back in a result (redact).
 */
export function resolveClientSecrets(value: string, secrets: readonly McpSecret[], url: string): { value: string; secretSites?: string[] } {
  const names = [...new Set(secretNames(value))]
  if (!names.length) return { value }
  const vault = Object.fromEntries(secrets.map((s) => [s.name, s.value]))
  const r = resolveSecrets(value, (n) => vault[n])
  if (r.missing.length) throw new McpToolError('NO_SECRET', `No saved secret named ${r.missing.join(', ')}. Start ava mcp with --secret ${r.missing[0]}=<site> and the value in the environment variable ${r.missing[0]}.`)
  const origin = originOf(url)
  const sites = Object.fromEntries(secrets.map((s) => [s.name, s.sites]))
  const unbound = unboundOn(names, sites, origin)
  if (unbound.length) throw new McpToolError('SECRET_UNBOUND', `Refused: the saved secret ${unbound.join(', ')} is not kept for ${origin ?? 'this page'}, so Ava does not type it here.`)
  const secretSites = sites[names[0]].filter((o) => names.every((n) => sites[n].includes(o)))
  return { value: r.value, secretSites }
}

/**
 * Every saved secret's value in a text becomes its `${secret:NAME}` placeholder, in any shape a
 * page can echo it (spaced, punctuated, case or width changed, look-alike letters, reversed, in
 * part): the redactor the agent uses (src/core/agent/redact.ts).
 */
export function redactSecrets(text: string, secrets: readonly McpSecret[]): string {
  return redactShapes(text, secrets.map((s) => s.value), (i) => `\${secret:${secrets[i].name}}`)
}

/** Page text, framed as Ava frames it for its own model (src/core/agent/prompt.ts): data, never instructions. */
export function framed(lines: string[]): string {
  return [kUntrustedOpen, ...lines.map((l) => neutraliseDelimiters(l)), kUntrustedClose].join('\n')
}

/**
 * One DOM action through the `act` command with its StepGate, as the agent's own steps go: a step
 * the page finds risky is refused with NEEDS_CONFIRMATION, asked about, and sent again confirmed
 * only on a yes. A no is a tool error the calling agent reads.
 */
export async function gatedAct(send: SendCommand, step: PageAction, guard: StepGuard, opts: { timeoutMs: number; secretSites?: string[]; signal: AbortSignal }): Promise<Extract<PageOutcome<'act'>, { ok: true }>> {
  if (countsAsStep(step.action)) guard.step()
  const command = { kind: 'act' as const, step, timeoutMs: opts.timeoutMs, confirm: guard.confirm, sites: guard.sites, ...(opts.secretSites ? { secretSites: opts.secretSites } : {}) }
  // The one gate loop (src/core/gate/step.ts): the yes binds to the element the question showed,
  // and a changed element asks again, as for the agent's own steps.
  const { out, declined } = await askUntilDecided((yes) => send(yes ? { ...command, confirmed: true, ...(yes.bound ? { bound: yes.bound } : {}) } : command, opts.signal), questionOf, async (q) => {
    if (!(await guard.ask(q.message, q))) return false
    await guard.allowed?.(q)
    return true
  })
  if (declined) throw denied(declined)
  if (!out.ok) throw new McpToolError(out.code, out.message + (out.candidates?.length ? ` Candidates: ${out.candidates.map((c) => `${c.label} (${c.id})`).join('; ')}.` : ''))
  return out
}

/** The error a refused risky step comes back as. */
export function denied(refusal: Pick<ExecFailure, 'message' | 'category'>): McpToolError {
  return new McpToolError('DENIED', `Not done: ${refusal.message}. The step needs the person's OK${refusal.category ? ` (${refusal.category})` : ''}, and it was not given.`)
}
