/**
 * What Ava knows about each kind of model provider, in one table (docs/settings.md, "Providers"):
 * where it listens, how it wants the key, the headers it needs, whether its structured output and
 * image input are known to work, and the published prices of its common models. Settings, the
 * options and welcome pages, set-up status, the background's model calls and the cost shown under
 * a run all read it here.
 */
export const PROVIDERS = ['anthropic', 'openai', 'local'] as const
export type ProviderKind = (typeof PROVIDERS)[number]

export type AuthStyle = 'x-api-key' | 'bearer'
/**
 * How a provider is asked for the plan as JSON (docs/agent.md, "Structured output"):
 * `json_schema` is OpenAI's `response_format`; `tool` is Anthropic's forced tool use, whose input
 * streams as the plan; `format` is Ollama's native `/api/chat` with its `format` schema.
 */
export type StructuredOutput = 'json_schema' | 'tool' | 'format'

/**
 * The three ways a plan can come back (docs/settings.md, "How the plan comes back"): `schema`, the
 * provider's structured output above (the plan as one JSON document); `tools`, native tool calls,
 * one per step (servers that have tools but no JSON-schema output: many OpenAI-compatible servers,
 * Ollama with a tool-capable model); `text`, plain text the reader reads whatever its shape.
 */
export type PlanPath = 'schema' | 'tools' | 'text'

export interface ProviderInfo {
  /** The name a profile gets until the person names it. */
  name: string
  baseUrl: string
  model: string
  authStyle: AuthStyle
  /** Headers every request carries, besides the key. */
  headers: Record<string, string>
  /** Needs a key at its own base URL (a local server does not). */
  needsKey: boolean
  structuredOutput: StructuredOutput
  /** Asked for by default only at the provider's own base URL: a proxy or another server may reject it (then Ava falls back once and remembers). */
  structuredByDefault: boolean
  /** Whether the usual models of this provider read images. */
  vision: boolean
  /**
   * The paths its servers are tried on, best first: at the provider's own address the first is
   * taken; an unknown server (another address) takes what `Test connection` found it accepts.
   */
  paths: readonly PlanPath[]
  /** USD per million tokens, input and output, by model name; checked 2026-11, a hint only. */
  prices: [RegExp, number, number][]
  /**
   * Models of at most this many billion parameters (read from the model's name: `qwen2.5:7b`,
   * `Llama-3.2-3B-Instruct`, `gemma3:270m`) get the compact prompt (docs/settings.md, "Prompt
   * profiles"): a small model follows a short prompt better, and its context is often 4–8 K tokens.
   */
  compactUpToB?: number
}

export const kProviders: Record<ProviderKind, ProviderInfo> = {
  anthropic: {
    name: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    model: 'claude-sonnet-4-5',
    authStyle: 'x-api-key',
    // Anthropic refuses browser-origin requests without the second; an extension worker counts as one.
    headers: { 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' },
    needsKey: true,
    structuredOutput: 'tool',
    structuredByDefault: true,
    vision: true,
    paths: ['schema', 'tools', 'text'],
    prices: [
      [/claude-(?:3-5-)?haiku/i, 0.8, 4],
      [/claude-.*sonnet/i, 3, 15],
      [/claude-.*opus/i, 15, 75],
    ],
  },
  openai: {
    name: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4.1-mini',
    authStyle: 'bearer',
    headers: {},
    needsKey: true,
    structuredOutput: 'json_schema',
    structuredByDefault: true,
    vision: true,
    paths: ['schema', 'tools', 'text'],
    prices: [
      [/gpt-4\.1-mini/i, 0.4, 1.6],
      [/gpt-4\.1-nano/i, 0.1, 0.4],
      [/gpt-4\.1(?!-)/i, 2, 8],
      [/gpt-4o-mini/i, 0.15, 0.6],
      [/gpt-4o(?!-)/i, 2.5, 10],
    ],
  },
  local: {
    name: 'Local',
    // Ollama's OpenAI-compatible API; LM Studio and llama.cpp's server speak the same at their own port.
    baseUrl: 'http://localhost:11434/v1',
    model: 'qwen2.5:7b',
    authStyle: 'bearer',
    headers: {},
    needsKey: false,
    structuredOutput: 'format',
    // Ollama 0.5+ takes a JSON schema as `format`; a server without /api/chat (LM Studio) is asked again in plain text.
    structuredByDefault: true,
    vision: false,
    // Ollama takes a schema as `format` and tools on /api/chat; LM Studio and llama.cpp's server take tools on /v1.
    paths: ['schema', 'tools', 'text'],
    prices: [],
    compactUpToB: 14,
  },
}

const trimmed = (url: string) => url.trim().replace(/\/+$/, '')

/** Whether a profile asks for structured output when nothing was learnt about its server yet. */
export function structuredByDefault(p: { provider: ProviderKind; baseUrl: string }): boolean {
  const info = kProviders[p.provider]
  return info.structuredByDefault && trimmed(p.baseUrl) === trimmed(info.baseUrl)
}

/** Whether the profile talks to its provider's own endpoint (where a key is needed). */
export function isProviderEndpoint(p: { provider: ProviderKind; baseUrl: string }): boolean {
  return trimmed(p.baseUrl) === trimmed(kProviders[p.provider].baseUrl)
}

/** What a run cost, from the table's prices; unknown models show tokens only. */
export function costUsd(model: string, usage: { input: number; output: number }): number | undefined {
  for (const info of Object.values(kProviders)) {
    const hit = info.prices.find(([re]) => re.test(model))
    if (hit) return (usage.input * hit[1] + usage.output * hit[2]) / 1_000_000
  }
  return undefined
}

/**
 * Whether a profile's model is sent images (docs/agent.md, "Screenshots"): its own setting, else
 * the table's, and that only at the provider's own endpoint: an OpenAI-compatible server elsewhere
 * (DeepSeek, a proxy, LM Studio) may serve a model that refuses images, as it may refuse a schema.
 */
export function seesImages(p: { provider: ProviderKind; baseUrl: string; vision?: 'auto' | 'on' | 'off' }): boolean {
  return (
    p.vision === 'on' || ((p.vision ?? 'auto') === 'auto' && kProviders[p.provider].vision && isProviderEndpoint(p))
  )
}

/**
 * Models whose chat template writes `<think>` into the prompt, so that the reply holds only the
 * closing tag (DeepSeek-R1 and its distills, QwQ, Qwen3's *-Thinking-2507 models, as their model
 * cards say). Served without a reasoning parser (vLLM, SGLang, llama.cpp, some LM Studio builds),
 * their reasoning arrives as plain text before `</think>`: the reader treats all of it as reasoning
 * (src/core/instruction/stream.ts `thinksFirst`), so a plan drafted there never runs.
 */
export function thinksFirst(model: string): boolean {
  return /deepseek[-_.]?r1|r1[-_]distill|deepseek-reasoner|\bqwq\b|thinking-2507/i.test(model)
}

/**
 * Which prompt a profile's model is given (docs/settings.md, "Prompt profiles"): `compact` (fewer
 * fields, a shorter listing, no optional prose; src/core/agent/prompt.ts) for a small model of a
 * provider whose table entry says so, `full` for the rest and for a model whose size its name does
 * not say.
 */
export type PromptProfile = 'full' | 'compact'

export function promptProfile(p: { provider: ProviderKind; model: string }): PromptProfile {
  const limit = kProviders[p.provider].compactUpToB
  const size = modelSizeB(p.model)
  return limit !== undefined && size !== undefined && size <= limit ? 'compact' : 'full'
}

/** Billions of parameters a model's name states (`7b`, `3B`, `1.5b`, `270m`; `8x7b` counts all experts), else undefined. */
export function modelSizeB(model: string): number | undefined {
  const m = /(?:^|[^a-z0-9.])(?:(\d+)x)?(\d+(?:\.\d+)?)([bm])(?![a-z0-9])/i.exec(model)
  if (!m) return undefined
  const n = Number(m[2]) * (m[1] ? Number(m[1]) : 1)
  return m[3].toLowerCase() === 'm' ? n / 1000 : n
}
