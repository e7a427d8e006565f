// "Ask Ava" for `ava mcp`: the agent's own run (src/core/agent/run.ts) with ports built on Node —
// the model through the AI SDK, the page through the client's tab, risky steps through the place's
// asker. The run's gate (step limit, risk questions, secrets bound to sites, cross-site navigation)
// is the run's own; nothing here sends a page command the run did not decide.
import { instructionLoads } from '../../core/vocabulary'
import { streamText, type LanguageModel } from 'ai'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { ChatMessage, StepView } from '../../core/chat'
import type { AgentPorts } from '../../core/agent/ports'
import { beginRun, runAgent } from '../../core/agent/run'
import type { RunState } from '../../core/agent/state'
import { AvaError } from '../../core/errors'
import type { ExecFailure, RiskCategory } from '../../core/exec'
import type { Extraction } from '../../core/extract/rows'
import { actionOf } from '../../core/page/command'
import { discoverActions } from '../../core/registry/discover'
import type { ActionRegistry } from '../../core/registry'
import { modelFromEnvironment, readEnvironment } from '../../core/environment'
import { DEFAULT_SETTINGS, type LlmSettings, type Settings } from '../../core/settings'
import { boundSecrets, type Asker, type McpSecret } from './gate'
import type { McpTab } from './place'

/** How long a page step may wait for its element, as the extension's agent waits (kElementWaitMs). */
const kElementWaitMs = 5_000
/** How long a `collect` waits for the list it names, as the extension's agent waits (kCollectLocateMs). */
const kCollectLocateMs = 5_000

/**
 * The model `ava_ask` talks to, from the environment's one table (src/core/environment.ts,
 * docs/environment.md; the key stays in this process, as in the extension's background):
 * AVA_PROVIDER, AVA_BASE_URL, AVA_MODEL and AVA_API_KEY. Undefined when no provider is named:
 * ava_ask then says how to set one.
 */
export function modelFromEnv(env: NodeJS.ProcessEnv = process.env): LlmSettings | string | undefined {
  return modelFromEnvironment(readEnvironment(env).values)
}

function modelOf(llm: LlmSettings): LanguageModel {
  const baseURL = llm.baseUrl.replace(/\/+$/, '')
  if (llm.provider === 'anthropic') return createAnthropic({ baseURL, apiKey: llm.apiKey || 'none' })(llm.model)
  return createOpenAICompatible({
    name: llm.provider === 'local' ? 'local' : 'openai-compatible',
    baseURL,
    apiKey: llm.apiKey || undefined,
    includeUsage: true,
  }).chatModel(llm.model)
}

export interface AskReport {
  status: string
  answer: string
  steps: { index: number; action: string; description?: string; status: string; detail?: string }[]
  /** System lines of the run: questions asked and their answers, errors. */
  notes: string[]
  /** The code of the error the run ended on (a `kFailures` code), if it ended on one. */
  code?: string
  /** Whether what was asked is done, with its evidence (docs/run-record.md, "The verdict"). */
  verdict?: RunState['verdict']
  /** Tokens the model reported, requests made to it, and page steps counted against the limit. */
  usage: { input: number; output: number }
  modelCalls: number
  stepsUsed: number
  /** For a run asked for a shape: the rows that fit, where each value was read, what did not fit (docs/extraction.md). */
  extraction?: Extraction & { fields: string[] }
}

export interface AskOptions {
  tab: McpTab
  llm: LlmSettings
  registry: ActionRegistry
  asker: Asker
  secrets: readonly McpSecret[]
  stepLimit: number
  signal: AbortSignal
  /** A JSON Schema of the rows to extract (docs/extraction.md); refused before anything runs if Ava cannot read it. */
  shape?: Record<string, unknown>
}

/** Runs one request with Ava's agent on the client's tab; resolves with what the panel would show. */
export async function askAva(request: string, o: AskOptions): Promise<AskReport> {
  const settings: Settings = {
    ...structuredClone(DEFAULT_SETTINGS),
    profiles: [{ ...o.llm, id: 'mcp', name: 'ava mcp' }],
    activeProfile: 'mcp',
    agent: { stepLimit: o.stepLimit, useCache: false },
  }
  const messages: ChatMessage[] = []
  let n = 0
  // The refusal the page gave last: a question the run asks about it carries its category.
  let refusal: ExecFailure | undefined
  const { tab } = o
  const vault = Object.fromEntries(o.secrets.map((s) => [s.name, s.value]))
  let modelCalls = 0
  const sites = Object.fromEntries(o.secrets.map((s) => [s.name, s.sites]))
  const ports: AgentPorts = {
    llm: {
      async stream({ system, messages: m, signal, onText }) {
        modelCalls++
        const r = streamText({
          model: modelOf(o.llm),
          system,
          messages: m,
          abortSignal: signal,
          temperature: 0,
          maxRetries: 0,
        })
        for await (const part of r.fullStream) {
          if (part.type === 'text-delta') onText(part.text)
          else if (part.type === 'error')
            throw new AvaError(
              'PROVIDER_ERROR',
              `The model failed: ${String((part.error as Error)?.message ?? part.error)}`,
            )
        }
        const usage = await r.usage
        return {
          usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
          ...((await r.finishReason) === 'length' ? { cutAtLimit: true } : {}),
        }
      },
    },
    page: {
      async read(_tab, req, { signal, settle }) {
        const out = await tab.send({ kind: 'read', request: req, settle }, signal)
        if (out.ok)
          return { url: out.info.url, title: out.info.title, listing: out.info.listing, intents: out.info.intents }
        return { url: await tab.url(), title: '', listing: '' }
      },
      async exec(tabId, ins, opts) {
        if (instructionLoads(ins.action_type)) {
          await tab.navigate(ins.params.url!, opts.signal)
          return { ok: true, detail: `Opened ${ins.params.url}`, tabId }
        }
        const step = actionOf(ins)
        if (!step) return { ok: false, code: 'INVALID', message: `${ins.action_type} is not a page action`, tabId }
        const out = await tab.send(
          {
            kind: 'act',
            step,
            timeoutMs: opts.elementWaitMs ?? kElementWaitMs,
            confirm: opts.confirm,
            confirmed: opts.confirmed,
            ...(opts.bound ? { bound: opts.bound } : {}),
            sites: { allow: [], deny: [] },
            secretSites: opts.secretSites,
          },
          opts.signal,
        )
        refusal = !out.ok && out.code === 'NEEDS_CONFIRMATION' ? out : undefined
        return { ...out, tabId }
      },
      navigate: (_tab, url, signal) => tab.navigate(url, signal),
      // One round of a `collect` step, as the extension's background sends it: read-only, on the client's tab.
      async collectRound(_tab, { session, first, target }, signal) {
        const out = await tab.send(
          { kind: 'collect', session, first, ...(target ? { target } : {}), timeoutMs: kCollectLocateMs },
          signal,
        )
        return out.ok ? out.round : out
      },
      url: () => tab.url(),
    },
    actions: {
      async relevant(req) {
        return discoverActions(o.registry, req, 5).flatMap((name) => {
          const d = o.registry.describe(name)
          return d
            ? [
                {
                  name: d.name,
                  description: d.description,
                  params: Object.entries(d.paramDetails).map(([p, x]) => ({
                    name: p,
                    type: x.type,
                    required: !!x.required,
                    description: x.description,
                  })),
                },
              ]
            : []
        })
      },
      async lookup(name) {
        const found = o.registry.lookup(name)
        return found.ok
          ? { ok: true, risk: found.action.risk }
          : { ok: false, message: found.message, suggestion: found.suggestion }
      },
      async run(_tab, name, params, signal, guard) {
        const { createEngine } = await import('../../core/registry')
        const engine = createEngine({
          registry: o.registry,
          port: tab.browserPort({ guard, secrets: boundSecrets(o.secrets) }),
        })
        const r = await engine.run(name, params, { signal })
        return {
          ok: r.success,
          text: r.success
            ? `${r.action} finished${r.data && Object.keys(r.data).length ? `: ${JSON.stringify(r.data)}` : ''}`
            : `${r.action} failed: ${r.error?.code} ${r.error?.message}`,
          code: r.error?.code,
        }
      },
    },
    // Every ask runs afresh: a client's requests are not the person's cache.
    cache: {
      key: async () => '',
      lookup: async () => undefined,
      save: async () => undefined,
      recordHit: async () => undefined,
      remove: async () => undefined,
    },
    store: { save: async () => undefined, moveTab: () => undefined },
    chat: {
      async add(m) {
        const full = { ...m, id: `m${++n}`, ts: Date.now() } as ChatMessage
        messages.push(full)
        return full
      },
      async text(id, delta) {
        const m = messages.find((x) => x.id === id)
        if (m) m.text += delta
      },
      async step(id, step: StepView) {
        const m = messages.find((x) => x.id === id)
        if (!m) return
        const steps = (m.steps ??= [])
        const at = steps.findIndex((s) => s.index === step.index)
        if (at >= 0) steps[at] = step
        else steps.push(step)
      },
      async patch(id, patch) {
        const m = messages.find((x) => x.id === id)
        if (m) Object.assign(m, patch)
      },
      messages: async () => messages,
    },
    ask: {
      confirm: ({ reason }, signal) => {
        const category: RiskCategory | undefined =
          refusal?.category ?? (/secret/i.test(reason) ? 'credentials' : undefined)
        return o.asker.ask({ reason, category, offsite: refusal?.offsite }, signal)
      },
    },
    secrets: { vault: async () => vault, sites: async () => sites },
    clock: { now: () => Date.now() },
  }
  const url = await tab.url()
  const state = await beginRun(ports, settings, {
    id: `mcp-${Date.now()}`,
    tabId: 1,
    request,
    url,
    origin: new URL(url).origin,
    ...(o.shape ? { shape: o.shape } : {}),
  })
  const end = await runAgent(state, ports, { settings, signal: o.signal })
  const answer = messages.find((m) => m.id === state.messageId)
  return {
    status: end.status,
    answer: answer?.text ?? '',
    steps: (answer?.steps ?? []).map((s) => ({
      index: s.index + 1,
      action: s.instruction.action_type,
      description: s.instruction.description,
      status: s.status,
      detail: s.detail,
    })),
    notes: messages
      .filter((m) => m.role === 'system')
      .map(
        (m) => `${m.kind === 'confirm' ? `asked (${m.confirm?.state ?? 'pending'})` : (m.kind ?? 'info')}: ${m.text}`,
      ),
    ...(() => {
      const code = [...messages].reverse().find((m) => m.kind === 'error')?.hint
      return code ? { code } : {}
    })(),
    ...(end.verdict ? { verdict: end.verdict } : {}),
    ...(answer?.extraction ? { extraction: answer.extraction } : {}),
    usage: end.usage,
    modelCalls,
    stepsUsed: end.stepsUsed ?? end.executed.length,
  }
}
