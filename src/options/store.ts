import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import browser from 'webextension-polyfill'
import { kProviders } from '../core/providers'
import {
  DEFAULT_SCREENSHOTS,
  kDefaultBaseUrls,
  kDefaultModels,
  type SafetyKept,
  type HistoryRetention,
  type LanguagePref,
  type ProviderKind,
  type Settings,
  type ShowPlans,
} from '../core/settings'
import type { RiskCategory } from '../core/exec'
import {
  send,
  type ConnectionReport,
  type KeyDropped,
  type LlmInput,
  type ModelsReport,
  type ProfileInput,
  type PublicSettings,
  type SettingsInput,
  type StorageStatus,
  type UserScriptsStatus,
  type VaultEntry,
} from '../messaging'
import { settingsStore, uiPrefsStore } from '../storage/settings'
import { vaultStore } from '../storage/vault'
import { failure, failureText, type Failure } from '../ui/failure'

/** A profile as the form edits it: `apiKey` empty means "keep the stored key". */
export type ProfileDraft = ProfileInput & { apiKey: string; apiKeyMask: string }

export interface Draft {
  profiles: ProfileDraft[]
  activeProfile: string
  agent: Settings['agent']
  confirm: RiskCategory[]
  /** One host per line (commas and spaces also separate). */
  allowDomains: string
  denyDomains: string
  /** Safety: the person's own commands (`/run`, the popup's Run) skip the risk questions. */
  skipOwnCommands: boolean
  /** Safety: which plans show their card before they run (every one, or only those that would ask). */
  showPlans: ShowPlans
  history: HistoryRetention
  language: LanguagePref
  /** Screenshots for models that see (docs/agent.md, "Screenshots"): on or off, and the sites never captured, one per line. */
  screenshots: boolean
  screenshotsOff: string
}

const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean)
const message = failure

function toDraft(s: PublicSettings): Draft {
  return {
    profiles: s.profiles.map((p) => ({ ...p, apiKey: '' })),
    activeProfile: s.activeProfile,
    agent: { ...s.agent },
    confirm: [...s.safety.confirm],
    allowDomains: s.safety.allowDomains.join('\n'),
    denyDomains: s.safety.denyDomains.join('\n'),
    skipOwnCommands: s.safety.skipOwnCommands,
    showPlans: s.safety.showPlans,
    history: { ...s.history },
    language: s.ui.language,
    screenshots: (s.screenshots ?? DEFAULT_SCREENSHOTS).enabled,
    screenshotsOff: (s.screenshots ?? DEFAULT_SCREENSHOTS).offSites.join('\n'),
  }
}

export function toInput(d: Draft): SettingsInput {
  return {
    profiles: d.profiles.map(({ apiKeyMask: _m, apiKey, ...p }) => ({
      ...p,
      baseUrl: p.baseUrl.trim(),
      model: p.model.trim(),
      requestTimeoutMs: Number(p.requestTimeoutMs),
      ...(apiKey ? { apiKey } : {}),
    })),
    activeProfile: d.activeProfile,
    agent: { stepLimit: Number(d.agent.stepLimit), useCache: d.agent.useCache },
    safety: {
      confirm: [...d.confirm],
      allowDomains: lines(d.allowDomains),
      denyDomains: lines(d.denyDomains),
      skipOwnCommands: d.skipOwnCommands,
      showPlans: d.showPlans,
    },
    history: { keep: d.history.keep, messages: Number(d.history.messages), days: Number(d.history.days) },
    ui: { language: d.language },
    screenshots: { enabled: d.screenshots, offSites: lines(d.screenshotsOff) },
  }
}

export function llmInput(p: ProfileDraft): LlmInput {
  const { apiKeyMask: _m, name: _n, apiKey, ...rest } = p
  return {
    ...rest,
    baseUrl: rest.baseUrl.trim(),
    model: rest.model.trim(),
    requestTimeoutMs: Number(rest.requestTimeoutMs),
    ...(apiKey ? { apiKey } : {}),
  }
}

/** A new profile for a provider, with that provider's usual endpoint and model. */
export function newProfile(provider: ProviderKind, taken: string[]): ProfileDraft {
  let n = 1
  while (taken.includes(`${provider}-${n}`)) n++
  return {
    id: `${provider}-${n}`,
    name: `${kProviders[provider].name} ${n}`,
    provider,
    baseUrl: kDefaultBaseUrls[provider],
    authStyle: kProviders[provider].authStyle,
    apiKey: '',
    apiKeyMask: '',
    model: kDefaultModels[provider],
    requestTimeoutMs: 60_000,
  }
}

export type Notice =
  | { kind: 'saved' | 'imported' | 'importedAll' | 'reset' | 'changedElsewhere' }
  | { kind: 'permission'; origins: string[] }
  | { kind: 'importedWithNotes'; dropped: KeyDropped[]; safetyKept?: SafetyKept }

/** The options page's view of Ava's settings; keys come here only as masks, or on "Show". */
export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<PublicSettings | null>(null)
  const draft = ref<Draft | null>(null)
  const baseline = ref('')
  const loading = ref(false)
  const saving = ref(false)
  const error = ref<string | Failure | null>(null)
  /** Saving's own outcome is shown beside Save; every other one where the page shows notices. */
  const errorFromSave = ref(false)
  const notice = ref<Notice | null>(null)
  const test = ref<ConnectionReport | null>(null)
  const testing = ref(false)
  const models = ref<Record<string, ModelsReport>>({})
  const fetchingModels = ref(false)
  const vault = ref<VaultEntry[]>([])
  const storage = ref<StorageStatus | null>(null)
  const userScripts = ref<UserScriptsStatus | null>(null)
  /** Whether Ava may see downloads (the optional `downloads` permission); null until read. */
  const downloads = ref<boolean | null>(null)

  // An error belongs to the action that set it: Save's own is shown beside Save.
  watch(error, (e) => void (e !== null && (errorFromSave.value = saving.value)), { flush: 'sync' })

  const dirty = computed(() => !!draft.value && JSON.stringify(draft.value) !== baseline.value)

  function adopt(s: PublicSettings) {
    settings.value = s
    draft.value = toDraft(s)
    baseline.value = JSON.stringify(draft.value)
  }

  async function load() {
    loading.value = true
    try {
      // Settings first: reading them is what sets an unreadable value aside, which the status then reports.
      const s = await send('options→bg:settings.get', {})
      const [v, st, us] = await Promise.all([
        send('options→bg:vault.list', {}),
        send('options→bg:storage.status', {}),
        send('options→bg:userScripts.status', {}),
      ])
      adopt(s.settings)
      vault.value = v.entries
      storage.value = st
      userScripts.value = us
      downloads.value = await browser.permissions.contains({ permissions: ['downloads'] })
    } catch (e) {
      error.value = message(e)
    } finally {
      loading.value = false
    }
  }

  /**
   * Live updates from other contexts (storage.onChanged). The new value itself is not used —
   * it holds keys — only the signal; the masked view is asked for again. Unsaved edits are
   * never overwritten: the page says the settings changed elsewhere instead.
   */
  function watchChanges(): () => void {
    const refresh = async () => {
      if (dirty.value) {
        notice.value = { kind: 'changedElsewhere' }
        return
      }
      try {
        adopt((await send('options→bg:settings.get', {})).settings)
        storage.value = await send('options→bg:storage.status', {})
      } catch (e) {
        error.value = message(e)
      }
    }
    const offs = [
      settingsStore.watch(refresh),
      uiPrefsStore.watch(refresh),
      vaultStore.watch(async () => void (vault.value = (await send('options→bg:vault.list', {})).entries)),
    ]
    return () => offs.forEach((off) => off())
  }

  /** Asks for the endpoints' host permissions (must run inside the click's user gesture). */
  async function requestHosts(urls: string[]): Promise<string[]> {
    const origins = [...new Set(urls.map((u) => new URL(u).origin))]
    const patterns = origins.map((o) => `${o}/*`)
    try {
      if (await browser.permissions.contains({ origins: patterns })) return []
      return (await browser.permissions.request({ origins: patterns })) ? [] : origins
    } catch {
      return origins
    }
  }

  async function save(): Promise<boolean> {
    if (!draft.value) return false
    saving.value = true
    error.value = null
    notice.value = null
    try {
      const input = toInput(draft.value)
      let denied: string[] = []
      try {
        denied = await requestHosts(input.profiles.map((p) => p.baseUrl))
      } catch {
        denied = [] // an unparsable URL: the background names the field
      }
      adopt((await send('options→bg:settings.save', { settings: input })).settings)
      notice.value = denied.length ? { kind: 'permission', origins: denied } : { kind: 'saved' }
      storage.value = await send('options→bg:storage.status', {})
      return true
    } catch (e) {
      error.value = message(e)
      return false
    } finally {
      saving.value = false
    }
  }

  /** `save`: the welcome page saves what was typed first, so a passing test is the setting in use. */
  async function testConnection(p: ProfileDraft, opts: { save?: boolean } = {}) {
    testing.value = true
    test.value = null
    try {
      if (opts.save && !(await save())) return
      test.value = await send('options→bg:settings.test', { llm: llmInput(p) })
    } catch (e) {
      test.value = { ok: false, endpoint: p.baseUrl, error: { code: 'UNKNOWN', message: failureText(e) } }
    } finally {
      testing.value = false
    }
  }

  async function fetchModels(p: ProfileDraft) {
    fetchingModels.value = true
    try {
      models.value = { ...models.value, [p.id]: await send('options→bg:settings.models', { llm: llmInput(p) }) }
    } catch (e) {
      models.value = { ...models.value, [p.id]: { ok: false, error: { code: 'UNKNOWN', message: failureText(e) } } }
    } finally {
      fetchingModels.value = false
    }
  }

  /** The stored key, fetched only now, for the profile the person asked to see. */
  async function revealKey(profileId: string): Promise<string | null> {
    try {
      return (await send('options→bg:settings.revealKey', { profileId })).apiKey
    } catch (e) {
      error.value = message(e)
      return null
    }
  }

  async function exportJson(includeSecrets: boolean): Promise<string | null> {
    try {
      return (await send('options→bg:settings.export', { includeSecrets })).json
    } catch (e) {
      error.value = message(e)
      return null
    }
  }

  /** The file last imported with something kept as stored: what "Apply these too" sends again. */
  const keptImport = ref<string | null>(null)

  /** `accept`: the person saw what the file would loosen (the notice's list) and said yes to it. */
  async function importJson(json: string, accept = false): Promise<boolean> {
    error.value = null
    notice.value = null
    keptImport.value = null
    try {
      const r = await send('options→bg:settings.import', { json, ...(accept ? { accept } : {}) })
      adopt(r.settings)
      vault.value = (await send('options→bg:vault.list', {})).entries
      notice.value =
        r.keysDropped.length || r.safetyKept
          ? { kind: 'importedWithNotes', dropped: r.keysDropped, safetyKept: r.safetyKept }
          : { kind: accept ? 'importedAll' : 'imported' }
      if (r.safetyKept) keptImport.value = json
      return true
    } catch (e) {
      error.value = message(e)
      return false
    }
  }

  async function reset() {
    error.value = null
    try {
      adopt((await send('options→bg:settings.reset', {})).settings)
      notice.value = { kind: 'reset' }
    } catch (e) {
      error.value = message(e)
    }
  }

  async function setSecret(name: string, value: string): Promise<boolean> {
    error.value = null
    try {
      vault.value = (await send('options→bg:vault.set', { name, value })).entries
      return true
    } catch (e) {
      error.value = message(e)
      return false
    }
  }

  /** Binds a secret to the sites it may be typed on. */
  async function bindSecret(name: string, sites: string[]): Promise<boolean> {
    error.value = null
    try {
      vault.value = (await send('options→bg:vault.bind', { name, sites })).entries
      return true
    } catch (e) {
      error.value = message(e)
      return false
    }
  }

  async function removeSecret(name: string) {
    try {
      vault.value = (await send('options→bg:vault.remove', { name })).entries
    } catch (e) {
      error.value = message(e)
    }
  }

  async function discardInvalid(key: string) {
    try {
      storage.value = await send('options→bg:storage.discard', { key })
    } catch (e) {
      error.value = message(e)
    }
  }

  async function checkUserScripts() {
    try {
      userScripts.value = await send('options→bg:userScripts.status', {})
    } catch (e) {
      error.value = message(e)
    }
  }

  /** The optional `userScripts` permission (inside the click's gesture), then a fresh status. */
  async function requestUserScripts() {
    try {
      await browser.permissions.request({ permissions: ['userScripts'] })
    } catch (e) {
      error.value = message(e)
    }
    await checkUserScripts()
  }

  /**
   * The optional `downloads` permission, asked for here, inside the click's gesture, when the
   * person first wants Ava to see a downloaded file (docs/agent.md, "Files the page hands over").
   */
  async function requestDownloads() {
    try {
      downloads.value = await browser.permissions.request({ permissions: ['downloads'] })
    } catch (e) {
      error.value = message(e)
    }
  }

  function openExtensionDetails() {
    void browser.tabs.create({ url: `chrome://extensions/?id=${browser.runtime.id}` })
  }

  return {
    settings,
    draft,
    loading,
    saving,
    error,
    errorFromSave,
    notice,
    keptImport,
    test,
    testing,
    models,
    fetchingModels,
    vault,
    storage,
    userScripts,
    downloads,
    dirty,
    load,
    watchChanges,
    save,
    testConnection,
    fetchModels,
    revealKey,
    exportJson,
    importJson,
    reset,
    setSecret,
    bindSecret,
    removeSecret,
    discardInvalid,
    checkUserScripts,
    requestUserScripts,
    requestDownloads,
    openExtensionDetails,
  }
})
