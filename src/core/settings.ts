import { z } from 'zod'
import { RISK_CATEGORIES, type RiskCategory } from './exec'
import type { SafeParseResult } from './result'
import { kProviders, PROVIDERS, type ProviderKind } from './providers'
import { canonicalHost, urlHost } from './host'

/**
 * Ava's settings: one versioned, validated object (docs/settings.md). API keys live here, so this
 * object is only ever read by the background and (masked) the options page. UI preferences live
 * in their own small object (`UiPrefs`, key `ui`) because every UI — the chat panel included —
 * reads them, and none of those may see a key.
 *
 * Version history (each step has a migration below, tested from every earlier version):
 *   1  one `llm` block; `ui.language` inside settings.
 *   2  provider profiles (`profiles`, `activeProfile`); history retention; `ui` moved to `UiPrefs`.
 *   3  risk categories `permission` and `data_send`, asked about unless switched off.
 *   4  `safety.skipOwnCommands`: the person's own `/run` and popup Run may skip the risk questions (off).
 */
export const SETTINGS_VERSION = 4

export { PROVIDERS, type ProviderKind } from './providers'

export const kDefaultLocalBaseUrl = kProviders.local.baseUrl
export const kDefaultBaseUrls = Object.fromEntries(PROVIDERS.map((k) => [k, kProviders[k].baseUrl])) as Record<
  ProviderKind,
  string
>
export const kDefaultModels = Object.fromEntries(PROVIDERS.map((k) => [k, kProviders[k].model])) as Record<
  ProviderKind,
  string
>

export const LlmSettingsSchema = z.object({
  provider: z.enum(PROVIDERS),
  baseUrl: z.url({ protocol: /^https?$/, error: 'The base URL must be an http:// or https:// URL' }),
  /** Anthropic-compatible endpoints differ: Anthropic itself wants `x-api-key`, many proxies want a bearer token. */
  authStyle: z.enum(['x-api-key', 'bearer']),
  apiKey: z.string().max(4096),
  model: z.string().min(1, 'Choose a model').max(200),
  /** Give up when the model has not started answering within this time. */
  requestTimeoutMs: z.number().int().min(1_000).max(600_000),
  /**
   * Ask for the plan as the provider's structured output (docs/agent.md, "Structured output"):
   * `auto` where it is known to work (the provider's own endpoint, providers.ts), `on` for any
   * server, `off` never. A server that rejects it is remembered and asked no more.
   */
  structuredOutput: z.enum(['auto', 'on', 'off']).optional(),
  /**
   * Whether the model reads images (docs/agent.md, "Screenshots"): `auto` as the provider table
   * says of its usual models (providers.ts `vision`), `on` for a vision model behind any
   * provider (a local llava or qwen2.5-vl), `off` never.
   */
  vision: z.enum(['auto', 'on', 'off']).optional(),
})
export type LlmSettings = z.infer<typeof LlmSettingsSchema>

/** Ids name a profile across saves and imports, so a save without a key finds the stored one. */
export const kProfileIdPattern = /^[A-Za-z0-9_-]{1,40}$/
/** A handful of endpoints is plenty; the cap keeps a pasted settings file from bloating storage. */
export const kMaxProfiles = 20

export const ProfileSchema = LlmSettingsSchema.extend({
  id: z.string().regex(kProfileIdPattern, 'A profile id is 1–40 letters, digits, "-" or "_"'),
  name: z.string().trim().min(1, 'Give the profile a name').max(60),
})
export type Profile = z.infer<typeof ProfileSchema>

export const RETENTION_MODES = ['messages', 'days'] as const
/** History is kept per site; 200 messages was the fixed cap before retention was a setting. */
export const kDefaultHistoryMessages = 200
export const kMaxHistoryMessagesSetting = 2_000
export const kDefaultHistoryDays = 30

const AgentSchema = z.object({
  /** The planning loop stops after this many steps. */
  stepLimit: z.number().int().min(1).max(200),
  /** Replay a request seen before on the same site with no LLM call. */
  useCache: z.boolean(),
})
/** Which plans show their card before they run: every one, or only those with a step that would ask. */
export const SHOW_PLANS = ['every', 'asking'] as const
export type ShowPlans = (typeof SHOW_PLANS)[number]

/** The safety section up to version 3. */
const SafetyV3Schema = z.object({
  /** Steps of these kinds wait for the person's OK. */
  confirm: z.array(z.enum(RISK_CATEGORIES)),
  /** When not empty, Ava acts only on these hosts (a leading `*.` matches subdomains). */
  allowDomains: z.array(z.string().max(253)),
  /** Ava never acts on these hosts. */
  denyDomains: z.array(z.string().max(253)),
})
const SafetySchema = SafetyV3Schema.extend({
  /**
   * Steps of an action the person starts themselves (`/run`, the popup's Run) go without the risk
   * questions (`confirm`); what a step would do elsewhere still asks or is refused: another
   * site's frame or page, an upload to another site, a program download, a blocked site, a saved
   * secret leaving its site, a flow a page could have shaped (docs/settings.md, "Safety"). The
   * model's steps and MCP clients' always ask. Off unless the person turns it on; a file or an
   * object that leaves it out means off.
   */
  skipOwnCommands: z.boolean().default(false),
  /**
   * Where a person is asked (the panel, the popup's Run), which plans show their card before they
   * run (docs/plan-approval.md): `every` pack action, flow replay and cached
   * plan, or only those with a step that would `ask` anyway. Every plan unless the person says
   * otherwise; a file or an object that leaves it out means every plan.
   */
  showPlans: z.enum(SHOW_PLANS).default('every'),
})

export const HistorySchema = z.object({
  /** Which of the two limits applies; both numbers are kept so switching back restores the other. */
  keep: z.enum(RETENTION_MODES),
  messages: z.number().int().min(1).max(kMaxHistoryMessagesSetting),
  days: z.number().int().min(1).max(3650),
})
export type HistoryRetention = z.infer<typeof HistorySchema>

/** Marked screenshots for models that see (docs/agent.md, "Screenshots"); absent is the default. */
const ScreenshotsSchema = z.object({
  /** Off: no screenshot ever leaves the browser, whatever the model. */
  enabled: z.boolean(),
  /** Hosts never captured (a leading `*.` matches subdomains); the blocked sites never are either. */
  offSites: z.array(z.string().max(253)).max(500),
})
export type ScreenshotSettings = z.infer<typeof ScreenshotsSchema>
export const DEFAULT_SCREENSHOTS: ScreenshotSettings = { enabled: true, offSites: [] }

/**
 * Run records kept per site (docs/run-record.md, "Kept records"): the newest `count`, none older
 * than `days`, each at most `maxChars` of JSON (pictures, then model texts, dropped first). The
 * defaults keep a site's records within a few MB of the extension's 10 MB local storage.
 */
const RecordsSchema = z.object({
  count: z.number().int().min(0).max(200),
  days: z.number().int().min(1).max(3650),
  maxChars: z.number().int().min(10_000).max(20_000_000),
})
export type RecordSettings = z.infer<typeof RecordsSchema>
export const DEFAULT_RECORDS: RecordSettings = { count: 10, days: 30, maxChars: 400_000 }

const kSettingsFields = {
  profiles: z.array(ProfileSchema).min(1, 'Keep at least one provider profile').max(kMaxProfiles),
  activeProfile: z.string(),
  agent: AgentSchema,
  safety: SafetySchema,
  history: HistorySchema,
  screenshots: ScreenshotsSchema.optional(),
  records: RecordsSchema.optional(),
}

function checkProfiles(s: { profiles: Profile[]; activeProfile: string }, ctx: z.RefinementCtx): void {
  const ids = s.profiles.map((p) => p.id)
  const dup = ids.find((id, i) => ids.indexOf(id) !== i)
  if (dup !== undefined)
    ctx.addIssue({ code: 'custom', path: ['profiles'], message: `Two profiles have the id "${dup}"` })
  if (!ids.includes(s.activeProfile))
    ctx.addIssue({
      code: 'custom',
      path: ['activeProfile'],
      message: `No profile has the id "${s.activeProfile}" (have: ${ids.join(', ')})`,
    })
}

export const SettingsSchema = z
  .object({ version: z.literal(SETTINGS_VERSION), ...kSettingsFields })
  .superRefine(checkProfiles)
/** Versions 2 and 3 had the same fields but the safety section's switch. */
const kSettingsFieldsV3 = { ...kSettingsFields, safety: SafetyV3Schema }
export type Settings = z.infer<typeof SettingsSchema>
/** A safety section as a file or an older caller may give it: `showPlans` left out means every plan. */
export type SafetyIn = Omit<Settings['safety'], 'showPlans'> & { showPlans?: ShowPlans }

export const kDefaultProfileId = 'default'

export const DEFAULT_SETTINGS: Settings = {
  version: SETTINGS_VERSION,
  profiles: [
    {
      id: kDefaultProfileId,
      name: 'Local',
      provider: 'local',
      baseUrl: kDefaultLocalBaseUrl,
      authStyle: 'bearer',
      apiKey: '',
      model: kDefaultModels.local,
      requestTimeoutMs: 60_000,
    },
  ],
  activeProfile: kDefaultProfileId,
  agent: { stepLimit: 20, useCache: true },
  safety: {
    confirm: [...RISK_CATEGORIES],
    allowDomains: [],
    denyDomains: [],
    skipOwnCommands: false,
    showPlans: 'every',
  },
  history: { keep: 'messages', messages: kDefaultHistoryMessages, days: kDefaultHistoryDays },
}

/** The profile the background talks to. The schema guarantees it exists. */
export function activeProfile(settings: Settings): Profile {
  return settings.profiles.find((p) => p.id === settings.activeProfile) ?? settings.profiles[0]
}

/** What the LLM client needs: the active profile without its id and name. */
export function activeLlm(settings: Settings): LlmSettings {
  const { id: _id, name: _name, ...llm } = activeProfile(settings)
  return llm
}

// -------------------------------------------------------------------------------------------
// UI preferences: read by every UI, so they hold nothing secret.

export const UI_PREFS_VERSION = 1
export const LANGUAGES = ['auto', 'en', 'zh-CN'] as const
export type LanguagePref = (typeof LANGUAGES)[number]
export const UiPrefsSchema = z.object({
  version: z.literal(UI_PREFS_VERSION),
  language: z.enum(LANGUAGES),
})
export type UiPrefs = z.infer<typeof UiPrefsSchema>
export const DEFAULT_UI_PREFS: UiPrefs = { version: UI_PREFS_VERSION, language: 'auto' }

// -------------------------------------------------------------------------------------------
// Migrations. Each takes the stored object of one version and returns the next; together they
// lift any earlier version to the current one. Fields a version did not have take the defaults.

/**
 * Version 1 as it was written over its life: the first releases had no `agent.useCache` and no
 * `safety`, so those are optional here and filled from the defaults.
 */
export const SettingsV1Schema = z.object({
  version: z.literal(1),
  llm: LlmSettingsSchema,
  agent: z.object({ stepLimit: AgentSchema.shape.stepLimit, useCache: z.boolean().optional() }),
  safety: SafetyV3Schema.optional(),
  ui: z.object({ language: z.enum(LANGUAGES) }).optional(),
})
export type SettingsV1 = z.infer<typeof SettingsV1Schema>

/** Version 2: the shape of version 3, before the `permission` and `data_send` categories. */
export const SettingsV2Schema = z.object({ version: z.literal(2), ...kSettingsFieldsV3 }).superRefine(checkProfiles)
export type SettingsV2 = z.infer<typeof SettingsV2Schema>

/** The name a profile gets from its provider until the person names it. */
export const kProviderNames = Object.fromEntries(PROVIDERS.map((k) => [k, kProviders[k].name])) as Record<
  ProviderKind,
  string
>

export function settingsV1toV2(v1: SettingsV1): { settings: SettingsV2; ui: UiPrefs } {
  return {
    settings: {
      version: 2,
      profiles: [{ id: kDefaultProfileId, name: kProviderNames[v1.llm.provider], ...v1.llm }],
      activeProfile: kDefaultProfileId,
      agent: { stepLimit: v1.agent.stepLimit, useCache: v1.agent.useCache ?? DEFAULT_SETTINGS.agent.useCache },
      safety: v1.safety ?? { confirm: [...DEFAULT_SETTINGS.safety.confirm], allowDomains: [], denyDomains: [] },
      history: structuredClone(DEFAULT_SETTINGS.history),
    },
    ui: { version: UI_PREFS_VERSION, language: v1.ui?.language ?? 'auto' },
  }
}

/**
 * Categories that version 2 did not have. The person never chose about them, so they are asked
 * about, as on a new install (a hostile page should not find them off after an update).
 */
const kAddedInV3: readonly RiskCategory[] = ['permission', 'data_send']

/** Version 3: the shape of version 4, before `safety.skipOwnCommands`. */
export const SettingsV3Schema = z.object({ version: z.literal(3), ...kSettingsFieldsV3 }).superRefine(checkProfiles)
export type SettingsV3 = z.infer<typeof SettingsV3Schema>

export function settingsV2toV3(v2: SettingsV2): SettingsV3 {
  const confirm = [...v2.safety.confirm, ...kAddedInV3.filter((c) => !v2.safety.confirm.includes(c))]
  return { ...v2, version: 3, safety: { ...v2.safety, confirm } }
}

/** The person's own commands ask as every step does until they say otherwise. */
export function settingsV3toV4(v3: SettingsV3): Settings {
  return { ...v3, version: 4, safety: { ...v3.safety, skipOwnCommands: false, showPlans: 'every' } }
}

export type Issue = { path: string; message: string }
export type MigrationResult =
  | {
      ok: true
      value: Settings
      from: number
      /** Set when the migration moved the language out of settings. */ ui?: UiPrefs
    }
  | { ok: false; from: number | null; issues: Issue[] }

const toIssues = (e: z.ZodError): Issue[] =>
  e.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }))

/** Any stored or imported settings object, of any version, lifted to the current version. */
export function migrateSettings(value: unknown): MigrationResult {
  const version = typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined
  if (version === SETTINGS_VERSION) {
    const r = SettingsSchema.safeParse(value)
    return r.success
      ? { ok: true, value: r.data, from: SETTINGS_VERSION }
      : { ok: false, from: SETTINGS_VERSION, issues: toIssues(r.error) }
  }
  if (version === 1 || version === 2 || version === 3) {
    let v2: unknown = value
    let ui: UiPrefs | undefined
    if (version === 1) {
      const r = SettingsV1Schema.safeParse(value)
      if (!r.success) return { ok: false, from: 1, issues: toIssues(r.error) }
      ;({ settings: v2, ui } = settingsV1toV2(r.data))
    }
    let v3: unknown = value
    if (version !== 3) {
      const r2 = SettingsV2Schema.safeParse(v2)
      if (!r2.success) return { ok: false, from: version, issues: toIssues(r2.error) }
      v3 = settingsV2toV3(r2.data)
    }
    const r3 = SettingsV3Schema.safeParse(v3)
    if (!r3.success) return { ok: false, from: version, issues: toIssues(r3.error) }
    const checked = SettingsSchema.safeParse(settingsV3toV4(r3.data))
    if (!checked.success) return { ok: false, from: version, issues: toIssues(checked.error) }
    return ui ? { ok: true, value: checked.data, from: version, ui } : { ok: true, value: checked.data, from: version }
  }
  const seen = typeof version === 'number' ? `version ${version}` : 'no version'
  const hint = typeof version === 'number' && version > SETTINGS_VERSION ? ' (written by a newer Ava)' : ''
  return {
    ok: false,
    from: typeof version === 'number' ? version : null,
    issues: [{ path: 'version', message: `Expected settings version 1–${SETTINGS_VERSION}, found ${seen}${hint}` }],
  }
}

/** What the options page may see of a key: whether one is set and its last four characters. */
export function maskKey(key: string): string {
  if (!key) return ''
  return key.length <= 8 ? '•'.repeat(key.length) : `${'•'.repeat(8)}${key.slice(-4)}`
}

/** The error carries the issues as zod's does, flattened to readable paths. */
export function safeParseSettings(value: unknown): SafeParseResult<Settings, { issues: Issue[] }> {
  const r = SettingsSchema.safeParse(value)
  if (r.success) return { success: true, data: r.data }
  return { success: false, error: { issues: toIssues(r.error) } }
}

/**
 * A list entry as the browser writes hosts: lowercase, punycode for IDNs, no trailing dot, the
 * `*.` kept; null when it is no host ("bücher.de" must block xn--bcher-kva.de).
 */
export function hostPattern(pattern: string): string | null {
  const p = pattern.trim().toLowerCase()
  const wild = p.startsWith('*.') ? '*.' : ''
  const rest = p.slice(wild.length)
  // A port, path or user is no host; a colon only in an IPv6 address (`[::1]`, `::ffff:7f00:1`).
  if (!rest || /[/@?#\\\s]/.test(rest) || (rest.includes(':') && rest.split(':').length < 3)) return null
  // One spelling per host (src/core/host.ts): `2130706433`, `[::ffff:7f00:1]` and `127.1.` are 127.0.0.1.
  const host = canonicalHost(rest)
  return host ? wild + host : null
}

/** Whether Ava may act on `url` under the allow and deny lists. */
/** What an import would have loosened and was kept as stored instead. */
export interface SafetyKept {
  /** Kinds of step the file would stop asking about. */
  confirm: RiskCategory[]
  /** Sites the file would add to a non-empty allow list, or `*` when it would drop the list. */
  allow: string[]
  /** Blocked sites the file would unblock. */
  deny: string[]
  /** The file would let the person's own commands skip the risk questions. */
  ownCommands?: boolean
  /** The file would show a plan's card only where a step would ask, where the person sees every plan. */
  plans?: boolean
  /** The file would switch screenshots on, which the person had switched off. */
  screenshotsOn?: boolean
  /** Sites the file would take off the never-capture list (screenshots.offSites). */
  offSites?: string[]
  /** Saved secrets whose value the file would replace: the stored value is kept. */
  vault?: string[]
}

/** Whether an import kept anything as stored. */
export function keptAnything(k: SafetyKept): boolean {
  return !!(
    k.confirm.length ||
    k.allow.length ||
    k.deny.length ||
    k.ownCommands ||
    k.plans ||
    k.screenshotsOn ||
    k.offSites?.length ||
    k.vault?.length
  )
}

/**
 * The screenshot settings an imported file may set: as for safety (mergeSafety), a file may take
 * fewer pictures, never more. It may switch screenshots off and add sites never captured; it may
 * not switch them on nor take a site off the list (docs/settings.md, "Import").
 */
export function mergeScreenshots(
  stored: ScreenshotSettings,
  file: ScreenshotSettings,
): { screenshots: ScreenshotSettings; kept: Pick<SafetyKept, 'screenshotsOn' | 'offSites'> } {
  const offSites = [...new Set([...file.offSites, ...stored.offSites])]
  const dropped = stored.offSites.filter((s) => !file.offSites.includes(s))
  return {
    screenshots: { enabled: stored.enabled && file.enabled, offSites },
    kept: {
      ...(file.enabled && !stored.enabled ? { screenshotsOn: true } : {}),
      ...(dropped.length ? { offSites: dropped } : {}),
    },
  }
}

/** Vault entries an imported file may add: new names only; a stored secret's value is never replaced unasked. */
export function mergeVault(
  stored: Readonly<Record<string, string>>,
  file: Readonly<Record<string, string>>,
): { vault: Record<string, string>; kept: string[] } {
  const kept = Object.keys(file).filter((n) => n in stored && stored[n] !== file[n])
  return { vault: { ...file, ...stored }, kept }
}

/**
 * The safety section an imported file may set ("assume the person is not watching"): a
 * file shared as "my Ava config" may make Ava ask more and act on fewer sites, never less and
 * more. Whatever would loosen it stays as stored and is reported, for the person to change in
 * Options on purpose.
 */
export function mergeSafety(stored: SafetyIn, file: SafetyIn): { safety: Settings['safety']; kept: SafetyKept } {
  const confirm = [...new Set([...file.confirm, ...stored.confirm])]
  const kept: SafetyKept = {
    confirm: stored.confirm.filter((c) => !file.confirm.includes(c)),
    allow: [],
    deny: stored.denyDomains.filter((d) => !file.denyDomains.includes(d)),
  }
  const denyDomains = [...new Set([...file.denyDomains, ...stored.denyDomains])]
  // An empty allow list allows every site: a file's list narrows it; against a stored list, only
  // the sites both name stay (and if none, the stored list: an empty one would allow all).
  let allowDomains = file.allowDomains
  if (stored.allowDomains.length) {
    const both = stored.allowDomains.filter((d) => file.allowDomains.includes(d))
    kept.allow = file.allowDomains.length ? file.allowDomains.filter((d) => !stored.allowDomains.includes(d)) : ['*']
    allowDomains = both.length ? both : stored.allowDomains
  }
  // Skipping questions is the person's choice in Options, never a file's.
  const skipOwnCommands = stored.skipOwnCommands && file.skipOwnCommands
  if (file.skipOwnCommands && !stored.skipOwnCommands) kept.ownCommands = true
  // Seeing fewer plans is the person's choice too: a file can ask for every plan, never for fewer.
  const showPlans = stored.showPlans === 'asking' && file.showPlans === 'asking' ? 'asking' : 'every'
  if (file.showPlans === 'asking' && stored.showPlans !== 'asking') kept.plans = true
  return { safety: { confirm, allowDomains, denyDomains, skipOwnCommands, showPlans }, kept }
}

/**
 * The risk categories whose questions a step asks, by who started it: the model, an MCP client,
 * a saved flow — the person's list; the person's own command (`/run`, the popup's Run) with
 * `skipOwnCommands` on — only `cross_site`, a question about WHERE the step acts. The other checks
 * on where a step acts (a blocked site, an upload to another site, a program download, a saved
 * secret leaving its origin, a pack sending page data off its sites, a page-shaped flow) do not
 * read this list: they ask or refuse whoever started the step.
 */
export function confirmFor(
  safety: Pick<Settings['safety'], 'confirm' | 'skipOwnCommands'>,
  own: boolean,
): RiskCategory[] {
  return own && safety.skipOwnCommands ? safety.confirm.filter((c) => c === 'cross_site') : [...safety.confirm]
}

export function domainAllowed(url: string, safety: Pick<Settings['safety'], 'allowDomains' | 'denyDomains'>): boolean {
  let host: string
  try {
    // "evil.com." is evil.com to DNS, and `[::ffff:7f00:1]` is 127.0.0.1: no spelling slips past a list.
    const canonical = urlHost(url)
    if (!canonical) return false
    host = canonical
  } catch {
    return false
  }
  const matches = (pattern: string) => {
    const p = hostPattern(pattern)
    if (!p) return false
    if (p.startsWith('*.')) return host === p.slice(2) || host.endsWith(p.slice(1))
    return host === p
  }
  if (safety.denyDomains.some(matches)) return false
  return safety.allowDomains.length === 0 || safety.allowDomains.some(matches)
}

/** Which history messages a retention setting keeps: the newest `messages`, or those younger than `days`. */
export function retainHistory<M extends { ts?: number }>(messages: M[], keep: HistoryRetention, now = Date.now()): M[] {
  if (keep.keep === 'messages')
    return messages.length > keep.messages ? messages.slice(messages.length - keep.messages) : messages
  const cutoff = now - keep.days * 86_400_000
  const i = messages.findIndex((m) => (m.ts ?? now) >= cutoff)
  return i === -1 ? [] : i === 0 ? messages : messages.slice(i)
}

/**
 * Whether a screenshot of `url` may leave the browser: screenshots on, the site not switched off
 * for them, and Ava allowed on it at all (a blocked site is never captured).
 */
export function screenshotAllowed(url: string, settings: Pick<Settings, 'safety' | 'screenshots'>): boolean {
  const shots = settings.screenshots ?? DEFAULT_SCREENSHOTS
  if (!shots.enabled || !domainAllowed(url, settings.safety)) return false
  return domainAllowed(url, { allowDomains: [], denyDomains: shots.offSites })
}
