import { z } from 'zod'
import { RISK_CATEGORIES } from './exec'

/**
 * Ava's settings: one versioned, validated object (docs/settings.md). The API key lives here, so
 * this object is only ever read by the background and the options page.
 */
export const SETTINGS_VERSION = 1

export const PROVIDERS = ['anthropic', 'openai', 'local'] as const
export type ProviderKind = (typeof PROVIDERS)[number]

export const kDefaultLocalBaseUrl = 'http://localhost:11434/v1' // Ollama's OpenAI-compatible API
export const kDefaultBaseUrls: Record<ProviderKind, string> = {
  anthropic: 'https://api.anthropic.com/v1',
  openai: 'https://api.openai.com/v1',
  local: kDefaultLocalBaseUrl,
}
export const kDefaultModels: Record<ProviderKind, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4.1-mini',
  local: 'qwen2.5:7b',
}

export const LlmSettingsSchema = z.object({
  provider: z.enum(PROVIDERS),
  baseUrl: z.url({ protocol: /^https?$/, error: 'The base URL must be an http:// or https:// URL' }),
  /** Anthropic-compatible endpoints differ: Anthropic itself wants `x-api-key`, many proxies want a bearer token. */
  authStyle: z.enum(['x-api-key', 'bearer']),
  apiKey: z.string().max(4096),
  model: z.string().min(1, 'Choose a model').max(200),
  /** Give up when the model has not started answering within this time. */
  requestTimeoutMs: z.number().int().min(1_000).max(600_000),
})
export type LlmSettings = z.infer<typeof LlmSettingsSchema>

export const SettingsSchema = z.object({
  version: z.literal(SETTINGS_VERSION),
  llm: LlmSettingsSchema,
  agent: z.object({
    /** The planning loop stops after this many steps (issue 6 default). */
    stepLimit: z.number().int().min(1).max(200),
    /** Replay a request seen before on the same site with no LLM call (seed 001 §2.4). */
    useCache: z.boolean(),
  }),
  safety: z.object({
    /** Steps of these kinds wait for the person's OK. */
    confirm: z.array(z.enum(RISK_CATEGORIES)),
    /** When not empty, Ava acts only on these hosts (a leading `*.` matches subdomains). */
    allowDomains: z.array(z.string().max(253)),
    /** Ava never acts on these hosts. */
    denyDomains: z.array(z.string().max(253)),
  }),
  ui: z.object({
    language: z.enum(['auto', 'en', 'zh-CN']),
  }),
})
export type Settings = z.infer<typeof SettingsSchema>

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  llm: {
    provider: 'local',
    baseUrl: kDefaultLocalBaseUrl,
    authStyle: 'bearer',
    apiKey: '',
    model: kDefaultModels.local,
    requestTimeoutMs: 60_000,
  },
  agent: { stepLimit: 20, useCache: true },
  safety: { confirm: [...RISK_CATEGORIES], allowDomains: [], denyDomains: [] },
  ui: { language: 'auto' },
}

/** What the options page may see of the key: whether one is set and its last four characters. */
export function maskKey(key: string): string {
  if (!key) return ''
  return key.length <= 8 ? '•'.repeat(key.length) : `${'•'.repeat(8)}${key.slice(-4)}`
}

export type SettingsResult = { ok: true; value: Settings } | { ok: false; issues: { path: string; message: string }[] }

export function safeParseSettings(value: unknown): SettingsResult {
  const r = SettingsSchema.safeParse(value)
  if (r.success) return { ok: true, value: r.data }
  return { ok: false, issues: r.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message })) }
}

/** Whether Ava may act on `url` under the allow and deny lists. */
export function domainAllowed(url: string, safety: Settings['safety']): boolean {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    return false
  }
  const matches = (pattern: string) => {
    const p = pattern.trim().toLowerCase()
    if (!p) return false
    if (p.startsWith('*.')) return host === p.slice(2) || host.endsWith(p.slice(1))
    return host === p
  }
  if (safety.denyDomains.some(matches)) return false
  return safety.allowDomains.length === 0 || safety.allowDomains.some(matches)
}
