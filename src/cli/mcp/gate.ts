// What every MCP tool call passes before it touches a page (docs/mcp.md, "The gate"): the same
// StepGuard the agent gives a pack (src/core/page/channel.ts), the `act` command's StepGate
// (confirm categories, site lists, secretSites), `${secret:…}` resolved only in the message to the
// page and bound to its sites, and every result redacted and page text framed as untrusted.
import {
  bindSecrets,
  createStepCount,
  guardedAct,
  unattendedAnswer,
  type Answer,
  type StepGuard,
} from '../../core/gate/guard'
import { type RiskCategory } from '../../core/exec'
import type { FailureCode } from '../../core/failure'
import { kUntrustedClose, kUntrustedOpen, neutraliseDelimiters } from '../../core/agent/prompt'
import { resolveSecrets, secretNames } from '../../core/agent/secrets'
import type { BoundSecret } from '../../core/page/channel'
import { redactShapes } from '../../core/agent/redact'
import type { PageAction, PageOutcome, SendCommand } from '../../core/page/command'
import type { SitePolicy } from '../../core/offsite'

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
  ask(question: { reason: string; category?: RiskCategory; offsite?: string }, signal: AbortSignal): Promise<Answer>
}

/**
 * An Asker for a place without a person: yes only to the categories the command line allowed;
 * anything else is UNATTENDED, naming the `--allow` that would let it (core/gate/guard.ts). A
 * question with no category (a step with no risk word) is let only by `--allow all`.
 */
export function allowListAsker(allowed: readonly RiskCategory[]): Asker {
  const answer = unattendedAnswer(allowed, (category) => `starting ava mcp with --allow ${category ?? 'all'}`)
  return { ask: async ({ category, offsite }) => answer({ category, offsite }) }
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
export function callGuard(
  o: GateOptions,
  here: () => Promise<string>,
  signal: AbortSignal,
): StepGuard & { steps(): number } {
  // The guard's one count (core/gate/guard.ts); past the limit the call ends, nothing more done.
  const count = createStepCount(
    o.stepLimit,
    (n) =>
      new McpToolError(
        'STEP_LIMIT',
        `This call reached its limit of ${n} steps; nothing more was done. Call again to go on.`,
      ),
  )
  return {
    confirm: [...o.confirm],
    sites: o.sites,
    here,
    steps: () => count.used,
    ask: (reason, refusal) => o.asker.ask({ reason, category: refusal?.category, offsite: refusal?.offsite }, signal),
    step: () => count.one(),
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
export function resolveClientSecrets(
  value: string,
  secrets: readonly McpSecret[],
  url: string,
): { value: string; secretSites?: string[] } {
  const names = [...new Set(secretNames(value))]
  if (!names.length) return { value }
  const vault = Object.fromEntries(secrets.map((s) => [s.name, s.value]))
  const r = resolveSecrets(value, (n) => vault[n])
  if (r.missing.length)
    throw new McpToolError(
      'NO_SECRET',
      `No saved secret named ${r.missing.join(', ')}. Start ava mcp with --secret ${r.missing[0]}=<site> and the value in the environment variable ${r.missing[0]}.`,
    )
  const bound = bindSecrets(names, Object.fromEntries(secrets.map((s) => [s.name, s.sites])), url)
  if (!bound.ok) throw new McpToolError(bound.code, bound.message)
  return { value: r.value, secretSites: bound.sites }
}

/**
 * Every saved secret's value in a text becomes its `${secret:NAME}` placeholder, in any shape a
 * page can echo it (spaced, punctuated, case or width changed, look-alike letters, reversed, in
 * part): the redactor the agent uses (src/core/agent/redact.ts).
 */
export function redactSecrets(text: string, secrets: readonly McpSecret[]): string {
  return redactShapes(
    text,
    secrets.map((s) => s.value),
    (i) => `\${secret:${secrets[i].name}}`,
  )
}

/** Page text, framed as Ava frames it for its own model (src/core/agent/prompt.ts): data, never instructions. */
export function framed(lines: string[]): string {
  return [kUntrustedOpen, ...lines.map((l) => neutraliseDelimiters(l)), kUntrustedClose].join('\n')
}

/**
 * One DOM action through the guard's `act` (core/gate/guard.ts `guardedAct`), as the agent's own
 * steps go: counted, a step the page finds risky asked about, sent again bound to its element only
 * on a yes. A refusal is a tool error with the guard's code (DENIED, UNATTENDED, BLOCKED).
 */
export async function gatedAct(
  send: SendCommand,
  step: PageAction,
  guard: StepGuard,
  opts: { timeoutMs: number; secretSites?: string[]; signal: AbortSignal },
): Promise<Extract<PageOutcome<'act'>, { ok: true }>> {
  const r = await guardedAct(
    send,
    { kind: 'act', step, timeoutMs: opts.timeoutMs, ...(opts.secretSites ? { secretSites: opts.secretSites } : {}) },
    guard,
    opts.signal,
  )
  if ('refusal' in r) throw new McpToolError(r.refusal.code, r.refusal.message)
  const out = r.out
  if (!out.ok)
    throw new McpToolError(
      out.code,
      out.message +
        (out.candidates?.length ? ` Candidates: ${out.candidates.map((c) => `${c.label} (${c.id})`).join('; ')}.` : ''),
    )
  return out
}
