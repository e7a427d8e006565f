import { PROVIDERS, kDefaultBaseUrls, kDefaultModels, type LlmSettings, type ProviderKind } from './settings'

/**
 * Every environment variable Ava reads outside the extension, in one table: `npm run demo`,
 * `ava run`, `ava action …`, `ava mcp`, `ava doctor` and the Playwright Test fixture all read them
 * through `readEnvironment`, so one name means one thing wherever it is set. docs/environment.md
 * lists the same table for people (test/core/environment.test.ts keeps the two in step).
 *
 * Core reads no `process.env` itself (it runs in the service worker too): the caller passes it.
 */
export interface EnvVar {
  /** What it sets, for docs/environment.md and `ava doctor`. */
  means: string
  /** What holds when it is unset. */
  default: string
  /** Who reads it. */
  readers: readonly string[]
  /** Names it had before, still read (with a warning) when the new name is unset. */
  formerly?: readonly string[]
}

export const kEnvironment = {
  AVA_PROVIDER: {
    means:
      "The model's provider: `openai` (any OpenAI-compatible server), `anthropic` (or an Anthropic-compatible proxy) or `local` (Ollama and other local servers).",
    default: 'no model (the demo uses its stand-in; `ava_ask` answers NO_MODEL)',
    readers: ['demo', 'ava mcp', 'ava doctor', 'fixture'],
    formerly: ['AVA_MODEL_PROVIDER'],
  },
  AVA_BASE_URL: {
    means: "The model's base URL, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`.",
    default: "the provider's own (`src/core/providers.ts`)",
    readers: ['demo', 'ava mcp', 'ava doctor', 'fixture'],
    formerly: ['AVA_MODEL_BASE_URL'],
  },
  AVA_API_KEY: {
    means: 'The API key sent to the model (stays in the process that calls it).',
    default: 'none (local servers need none)',
    readers: ['demo', 'ava mcp', 'ava doctor', 'fixture'],
  },
  AVA_MODEL: {
    means: 'The model name, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `qwen2.5:7b`.',
    default: "the provider's default model",
    readers: ['demo', 'ava mcp', 'ava doctor', 'fixture'],
  },
  AVA_CHROMIUM: {
    means: 'The Chromium (or Chrome) executable to start.',
    default: '`/usr/bin/chromium` (Debian/Ubuntu: `sudo apt-get install chromium`)',
    readers: ['ava run', 'ava action run', 'ava mcp', 'ava doctor', 'fixture'],
  },
  AVA_DIST: {
    means: 'The built, unpacked extension to load (a folder with `manifest.json`).',
    default: "the package's `dist/` (in the repository, after `npm run build`)",
    readers: ['fixture', 'ava doctor', 'bench'],
  },
  AVA_CONFIG: {
    means: 'The global config file (packs, timeouts).',
    default: '`~/.ava/config.yaml`',
    readers: ['ava run', 'ava action …', 'ava mcp'],
  },
  AVA_ACTIONS_PATH: {
    means:
      "More pack folders or files, separated by the platform's path delimiter (`:` or `;`); they override the others.",
    default: 'none',
    readers: ['ava run', 'ava action …', 'ava mcp'],
  },
  AVA_HOME: {
    means: "The folder where `ava mcp` keeps each client's last page and `ava mcp install` the native host.",
    default: '`~/.ava`',
    readers: ['ava mcp', 'ava doctor'],
  },
  AVA_HEADLESS: {
    means: '`1` runs the demo headless even with a display.',
    default: 'headed when `DISPLAY` is set',
    readers: ['demo'],
  },
  AVA_DEBUG: {
    means: "`1` adds Playwright's own messages and stack traces to stderr.",
    default: 'off',
    readers: ['ava run', 'ava action …', 'ava mcp'],
  },
} as const satisfies Record<string, EnvVar>

export type EnvName = keyof typeof kEnvironment

export interface Environment {
  /** Each variable's value, under its current name (a former name's value when only it is set). */
  values: Partial<Record<EnvName, string>>
  /** One line per former name in use, to print once on stderr. */
  warnings: string[]
}

/** Reads the table's variables from `env`; a former name counts when the new one is unset, with a warning. */
export function readEnvironment(env: Readonly<Record<string, string | undefined>>): Environment {
  const values: Partial<Record<EnvName, string>> = {}
  const warnings: string[] = []
  for (const [name, spec] of Object.entries(kEnvironment) as [EnvName, EnvVar][]) {
    const now = env[name]
    if (now !== undefined && now !== '') {
      values[name] = now
      continue
    }
    for (const old of spec.formerly ?? []) {
      const then = env[old]
      if (then === undefined || then === '') continue
      values[name] = then
      warnings.push(`${old} is read as ${name}, its new name; set ${name} instead (docs/environment.md)`)
      break
    }
  }
  return { values, warnings }
}

/**
 * The model named by AVA_PROVIDER, AVA_BASE_URL, AVA_API_KEY and AVA_MODEL: undefined when no
 * provider is named, a sentence when the provider is not one Ava knows.
 */
export function modelFromEnvironment(values: Environment['values']): LlmSettings | string | undefined {
  const provider = values.AVA_PROVIDER
  if (!provider) return undefined
  if (!(PROVIDERS as readonly string[]).includes(provider))
    return `AVA_PROVIDER must be one of ${PROVIDERS.join(', ')}, not "${provider}"`
  const kind = provider as ProviderKind
  return {
    provider: kind,
    baseUrl: values.AVA_BASE_URL || kDefaultBaseUrls[kind],
    authStyle: kind === 'anthropic' ? 'x-api-key' : 'bearer',
    apiKey: values.AVA_API_KEY ?? '',
    model: values.AVA_MODEL || kDefaultModels[kind],
    requestTimeoutMs: 60_000,
  }
}
