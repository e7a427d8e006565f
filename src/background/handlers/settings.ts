import browser from 'webextension-polyfill'
import { AvaError } from '../../core/errors'
import { jsonErrorAt } from '../../core/json-error'
import {
  activeLlm,
  DEFAULT_SCREENSHOTS,
  DEFAULT_SETTINGS,
  DEFAULT_UI_PREFS,
  keptAnything,
  maskKey,
  mergeSafety,
  mergeScreenshots,
  mergeVault,
  migrateSettings,
  safeParseSettings,
  SETTINGS_VERSION,
  UI_PREFS_VERSION,
  UiPrefsSchema,
  type LlmSettings,
  type SafetyKept,
  type Settings,
  type UiPrefs,
} from '../../core/settings'
import {
  handle,
  ProtocolError,
  type ConnectionReport,
  type KeyDropped,
  type LlmInput,
  type ModelsReport,
  type PublicSettings,
  type SettingsInput,
  type StorageStatus,
  type VaultEntry,
} from '../../messaging'
import { discardInvalid, kLastStorageErrorKey, listInvalid, type StorageErrorRecord } from '../../storage/area'
import { kVersionsKey, pruneHistories } from '../../storage/migrations'
import { settingsStore, uiPrefsStore } from '../../storage/settings'
import { kMaxVaultValue, kVaultNamePattern, vaultSitesStore, vaultStore, VaultSchema } from '../../storage/vault'
import { siteOrigin } from '../../core/agent/secrets'
import { kProviders } from '../../core/providers'
import { probePlanPath, testConnection } from '../llm'
import { watchMigrations } from '../migrations'
import type { FailureCode } from '../../core/failure'

/** The options page sees keys only as masks; a save without a key keeps the stored one. */
export function toPublic(s: Settings, ui: UiPrefs): PublicSettings {
  return { ...s, profiles: s.profiles.map(({ apiKey, ...p }) => ({ ...p, apiKeyMask: maskKey(apiKey) })), ui }
}

const publicNow = async () => toPublic(await settingsStore.get(), await uiPrefsStore.get())

const describeIssues = (issues: { path: string; message: string }[]) =>
  issues.map((i) => `${i.path}: ${i.message}`).join('; ')
/** The fields the issues are about, for the sentence the UI says in its language (zod's own words go behind Details). */
const fieldsOf = (issues: { path: string }[]) => [...new Set(issues.map((i) => i.path))].join(', ')

/** A profile's key: the one typed now, else the one stored for that id (never another profile's). */
/** Where a profile's requests go, as a file may spell it (any field may be missing or wrong). */
type Endpointish = { provider?: unknown; baseUrl?: unknown }

/** `https://host/path` without a trailing slash, so `…/v1` and `…/v1/` are one endpoint. */
function endpointOf(p: Endpointish | undefined): string {
  const url = typeof p?.baseUrl === 'string' ? p.baseUrl.trim().replace(/\/+$/, '') : ''
  return url || '(none)'
}

function sameEndpoint(a: Endpointish | undefined, b: Endpointish | undefined): boolean {
  return a?.provider === b?.provider && endpointOf(a) === endpointOf(b)
}

/** A refusal the options page says in its language from `code` and `params` (locale `failure.<code>`); `english` is for logs. */
const refuse = (code: FailureCode, params: Record<string, string | number>, english: string) =>
  new ProtocolError(code, english, params)

function keyFor(stored: Settings, id: string | undefined, typed: string | undefined): string {
  if (typed !== undefined) return typed
  return stored.profiles.find((p) => p.id === id)?.apiKey ?? ''
}

function merge(input: SettingsInput, stored: Settings): Settings {
  const candidate = {
    ...input,
    ui: undefined,
    version: SETTINGS_VERSION,
    profiles: input.profiles.map((p) => ({ ...p, apiKey: keyFor(stored, p.id, p.apiKey) })),
  }
  delete candidate.ui
  const r = safeParseSettings(candidate)
  if (!r.success) {
    const issues = describeIssues(r.error.issues)
    throw refuse('SETTINGS_INVALID', { fields: fieldsOf(r.error.issues), issues }, `Settings not saved: ${issues}`)
  }
  return r.data
}

function llmOf(input: LlmInput, stored: Settings): LlmSettings {
  const { id, apiKey, ...rest } = input
  return { ...rest, apiKey: keyFor(stored, id ?? stored.activeProfile, apiKey) }
}

/** `GET {baseUrl}/models` with the profile's own auth: OpenAI-compatible servers and Anthropic both offer it. */
async function listModels(llm: LlmSettings, signal: AbortSignal): Promise<string[]> {
  const headers: Record<string, string> = {}
  if (llm.apiKey) {
    if (llm.provider === 'anthropic' && llm.authStyle === 'x-api-key') headers['x-api-key'] = llm.apiKey
    else headers.authorization = `Bearer ${llm.apiKey}`
  }
  Object.assign(headers, kProviders[llm.provider].headers)
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/models`
  let res: Response
  try {
    res = await fetch(url, { headers, signal })
  } catch (e) {
    throw new AvaError('NETWORK', `Could not reach ${url}: ${(e as Error).message}`)
  }
  if (res.status === 401 || res.status === 403)
    throw new AvaError('TOKEN_INVALID', `The provider refused the API key (HTTP ${res.status}) at ${url}.`)
  if (!res.ok)
    throw new AvaError(
      'PROVIDER_ERROR',
      `${url} answered HTTP ${res.status}: this endpoint may not offer a model list. Type the model id instead.`,
    )
  const body = (await res.json().catch(() => null)) as {
    data?: { id?: unknown }[]
    models?: { name?: unknown; model?: unknown }[]
  } | null
  // OpenAI and Anthropic answer `{ data: [{ id }] }`; Ollama's native API answers `{ models: [{ name }] }`.
  const ids = [...(body?.data ?? []).map((m) => m.id), ...(body?.models ?? []).map((m) => m.model ?? m.name)].filter(
    (x): x is string => typeof x === 'string',
  )
  return [...new Set(ids)].sort()
}

const kVaultMask = '••••••••'
const vaultEntries = async (): Promise<VaultEntry[]> => {
  const sites = await vaultSitesStore.get()
  return Object.keys(await vaultStore.get())
    .sort()
    .map((name) => ({ name, mask: kVaultMask, sites: sites[name] ?? [] }))
}

/** chrome.storage.local's quota without the unlimitedStorage permission (Chrome 114+). */
const kLocalQuotaBytes = 10 * 1024 * 1024

async function storageStatus(): Promise<StorageStatus> {
  const invalid = (await listInvalid('local')).map((x) => ({
    key: x.key,
    issues: x.issues,
    at: x.at,
    json: JSON.stringify(x.value, null, 2),
  }))
  // What was set aside keeps its keys; the options page shows only what the settings object masks.
  for (const x of invalid)
    if (x.key === settingsStore.key) x.json = x.json.replace(/("apiKey"\s*:\s*)"[^"]*"/g, '$1"***"')
  const lastError = (await browser.storage.session.get(kLastStorageErrorKey))[kLastStorageErrorKey] as
    StorageErrorRecord | undefined
  const local = browser.storage.local as unknown as {
    getBytesInUse?: (keys: null) => Promise<number>
    QUOTA_BYTES?: number
  }
  const bytesInUse = (await local.getBytesInUse?.(null).catch(() => 0)) ?? 0
  const versions = ((await browser.storage.local.get(kVersionsKey))[kVersionsKey] ?? {}) as Record<string, number>
  return { invalid, lastError, bytesInUse, quotaBytes: local.QUOTA_BYTES ?? kLocalQuotaBytes, versions }
}

/** The export file: settings without keys unless asked, the UI preferences, and (when asked) the vault. */
export interface SettingsFile {
  format: 'ava-settings'
  settings: Settings | (Omit<Settings, 'profiles'> & { profiles: Omit<Settings['profiles'][number], 'apiKey'>[] })
  ui: UiPrefs
  vault?: Record<string, string>
}

export function registerSettingsHandlers(): void {
  // Storage migrations run on install and update; the listener must exist when the event fires.
  watchMigrations()

  handle('options→bg:settings.get', ['options'], async () => ({ settings: await publicNow() }))

  handle('options→bg:settings.save', ['options'], async ({ settings }) => {
    const stored = await settingsStore.get()
    const next = merge(settings, stored)
    const ui = UiPrefsSchema.parse({ ...settings.ui, version: UI_PREFS_VERSION })
    await settingsStore.set(next)
    await uiPrefsStore.set(ui)
    if (JSON.stringify(next.history) !== JSON.stringify(stored.history)) await pruneHistories(next.history)
    return { settings: toPublic(next, ui) }
  })

  handle('options→bg:settings.test', ['options'], async ({ llm }): Promise<ConnectionReport> => {
    const stored = await settingsStore.get()
    const full = llmOf(llm, stored)
    const t0 = performance.now()
    try {
      const r = await testConnection(full, AbortSignal.timeout(full.requestTimeoutMs))
      const latencyMs = Math.round(performance.now() - t0)
      // An unknown server: which of structured output, tool calls or text it takes (docs/settings.md, "How the plan comes back").
      const plan = await probePlanPath(
        full,
        llm.id ?? stored.activeProfile,
        AbortSignal.timeout(full.requestTimeoutMs),
      ).catch(() => undefined)
      return {
        ok: true,
        endpoint: full.baseUrl,
        model: r.model,
        reply: r.reply.slice(0, 100),
        latencyMs,
        ...(plan ? { plan } : {}),
      }
    } catch (e) {
      const err = e as AvaError
      // A failure with its own sentence (a local server's 403, a model not pulled) says it on the options page too.
      const own = err.details?.msg as { key: string; params?: Record<string, string | number> } | undefined
      return {
        ok: false,
        endpoint: full.baseUrl,
        error: {
          code: err.code ?? 'UNKNOWN',
          message: err.message,
          ...(own ? { params: { msg: own.key, ...own.params } } : {}),
        },
      }
    }
  })

  handle('options→bg:settings.models', ['options'], async ({ llm }): Promise<ModelsReport> => {
    const full = llmOf(llm, await settingsStore.get())
    try {
      return { ok: true, models: await listModels(full, AbortSignal.timeout(Math.min(full.requestTimeoutMs, 15_000))) }
    } catch (e) {
      const err = e as AvaError
      return { ok: false, error: { code: err.code ?? 'UNKNOWN', message: err.message } }
    }
  })

  handle('options→bg:settings.revealKey', ['options'], async ({ profileId }) => {
    const p = (await settingsStore.get()).profiles.find((x) => x.id === profileId)
    if (!p) throw refuse('PROFILE_MISSING', { id: profileId }, `No profile "${profileId}".`)
    return { apiKey: p.apiKey }
  })

  handle('options→bg:settings.reset', ['options'], async () => {
    await settingsStore.set(structuredClone(DEFAULT_SETTINGS))
    await uiPrefsStore.set(structuredClone(DEFAULT_UI_PREFS))
    return { settings: await publicNow() }
  })

  // Exports leave keys and the vault out unless the person ticks the box: a settings file gets
  // shared, a secret must not be.
  handle('options→bg:settings.export', ['options'], async ({ includeSecrets }) => {
    const s = await settingsStore.get()
    const file: SettingsFile = {
      format: 'ava-settings',
      settings: includeSecrets ? s : { ...s, profiles: s.profiles.map(({ apiKey: _k, ...p }) => p) },
      ui: await uiPrefsStore.get(),
      ...(includeSecrets ? { vault: await vaultStore.get() } : {}),
    }
    return { json: JSON.stringify(file, null, 2) }
  })

  handle('options→bg:settings.import', ['options'], async ({ json, accept }) => {
    let value: unknown
    try {
      value = JSON.parse(json)
    } catch (e) {
      const reason = (e as Error).message
      const at = jsonErrorAt(json, reason)
      throw refuse(
        at ? 'SETTINGS_NOT_JSON_AT' : 'SETTINGS_NOT_JSON',
        { reason, ...at },
        `That file is not JSON: ${reason}. Nothing was changed.`,
      )
    }
    // Either an export file, or a bare settings object of any version (older files migrate).
    const file = value as Partial<SettingsFile> | null
    const isFile = file?.format === 'ava-settings'
    const raw = (isFile ? file.settings : value) as {
      profiles?: Array<{ id?: string; apiKey?: string } & Endpointish>
      llm?: { apiKey?: string } & Endpointish
    } | null
    const stored = await settingsStore.get()
    const withKeys = structuredClone(raw) ?? null
    // A file without keys keeps the keys stored for the same profile ids, but only where the
    // endpoint stays the same: a file that re-points a profile must not carry the person's key to
    // a server they never typed it for. Such a profile is imported without a key.
    const keysDropped: KeyDropped[] = []
    const keep = (
      id: string | undefined,
      file: Endpointish | undefined,
      stored: ({ apiKey: string } & Endpointish) | undefined,
    ) => {
      if (!stored?.apiKey) return ''
      if (sameEndpoint(file, stored)) return stored.apiKey
      keysDropped.push({ profile: id ?? '', from: endpointOf(stored), to: endpointOf(file) })
      return ''
    }
    if (withKeys?.profiles)
      for (const p of withKeys.profiles)
        p.apiKey ??= keep(
          p.id,
          p,
          stored.profiles.find((x) => x.id === p.id),
        )
    if (withKeys?.llm) withKeys.llm.apiKey ??= keep(stored.activeProfile, withKeys.llm, activeLlm(stored))
    const r = migrateSettings(withKeys)
    const rejected = (fields: string, issues: string) =>
      refuse('SETTINGS_FILE_REJECTED', { fields, issues }, `Settings file rejected, nothing was changed: ${issues}`)
    if (!r.ok) throw rejected(fieldsOf(r.issues), describeIssues(r.issues))
    const ui = isFile && file.ui ? UiPrefsSchema.safeParse(file.ui) : null
    if (ui && !ui.success) throw rejected('ui', `ui: ${ui.error.issues.map((i) => i.message).join('; ')}`)
    const vault = isFile && file.vault !== undefined ? VaultSchema.safeParse(file.vault) : null
    if (vault && !vault.success)
      throw rejected('vault', `vault: ${vault.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
    // [trust] A file never loosens what the person set: what it would loosen stays as stored and is
    // listed, and is applied only when the person, shown that list, says yes (`accept`).
    const merged = mergeSafety(stored.safety, r.value.safety)
    const shots = mergeScreenshots(
      stored.screenshots ?? DEFAULT_SCREENSHOTS,
      r.value.screenshots ?? DEFAULT_SCREENSHOTS,
    )
    const storedVault = await vaultStore.get()
    const vaults = vault?.success ? mergeVault(storedVault, vault.data) : { vault: storedVault, kept: [] }
    const kept: SafetyKept = { ...merged.kept, ...shots.kept, ...(vaults.kept.length ? { vault: vaults.kept } : {}) }
    const next = accept ? r.value : { ...r.value, safety: merged.safety, screenshots: shots.screenshots }
    await settingsStore.set(next)
    const nextUi = ui?.success ? ui.data : (r.ui ?? (await uiPrefsStore.get()))
    await uiPrefsStore.set(nextUi)
    if (vault?.success) await vaultStore.set(accept ? { ...storedVault, ...vault.data } : vaults.vault)
    const safetyKept = !accept && keptAnything(kept) ? kept : undefined
    return { settings: toPublic(next, nextUi), keysDropped, ...(safetyKept ? { safetyKept } : {}) }
  })

  handle('options→bg:vault.list', ['options'], async () => ({ entries: await vaultEntries() }))

  handle('options→bg:vault.set', ['options'], async ({ name, value }) => {
    if (!kVaultNamePattern.test(name))
      throw refuse(
        'VAULT_NAME_INVALID',
        { name },
        `"${name}" is not a valid name: use letters, digits, ".", "-" or "_".`,
      )
    if (value.length > kMaxVaultValue)
      throw refuse(
        'VAULT_VALUE_TOO_LONG',
        { name, max: kMaxVaultValue },
        `The value of ${name} is longer than ${kMaxVaultValue} characters.`,
      )
    await vaultStore.set({ ...(await vaultStore.get()), [name]: value })
    return { entries: await vaultEntries() }
  })

  handle('options→bg:vault.remove', ['options'], async ({ name }) => {
    const all = await vaultStore.get()
    delete all[name]
    await vaultStore.set(all)
    const sites = await vaultSitesStore.get()
    delete sites[name]
    await vaultSitesStore.set(sites)
    return { entries: await vaultEntries() }
  })

  handle('options→bg:vault.bind', ['options'], async ({ name, sites }) => {
    if (!(name in (await vaultStore.get())))
      throw refuse('VAULT_MISSING', { name }, `There is no saved secret named ${name}.`)
    const origins = sites.map((s) => ({ s, origin: siteOrigin(s) }))
    const bad = origins.find((o) => !o.origin)
    if (bad)
      throw refuse(
        'VAULT_SITE_INVALID',
        { site: bad.s },
        `"${bad.s}" is not a web site: write it as bank.com or https://bank.com.`,
      )
    await vaultSitesStore.set({ ...(await vaultSitesStore.get()), [name]: [...new Set(origins.map((o) => o.origin!))] })
    return { entries: await vaultEntries() }
  })

  handle('options→bg:storage.status', ['options'], storageStatus)

  handle('options→bg:storage.discard', ['options'], async ({ key }) => {
    await discardInvalid(key)
    return storageStatus()
  })

  handle('options→bg:userScripts.status', ['options'], async () => {
    const permission = await browser.permissions.contains({ permissions: ['userScripts'] }).catch(() => false)
    let available = false
    // chrome.userScripts exists only with the permission, and throws until "Allow User Scripts" is on.
    try {
      const us = (globalThis as { chrome?: { userScripts?: { getScripts(): Promise<unknown> } } }).chrome?.userScripts
      if (us) {
        await us.getScripts()
        available = true
      }
    } catch {
      available = false
    }
    const m = /Chrom(?:e|ium)\/(\d+)/.exec(navigator.userAgent)
    return { permission, available, chromeVersion: m ? Number(m[1]) : null }
  })
}
