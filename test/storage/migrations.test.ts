import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fake } from './fake-browser'

vi.mock('webextension-polyfill', () => ({ default: fake.browser }))

const { DEFAULT_SETTINGS, DEFAULT_UI_PREFS, SETTINGS_VERSION, migrateSettings } =
  await import('../../src/core/settings')
const { settingsStore, uiPrefsStore } = await import('../../src/storage/settings')
const { migrateAll, kStorageVersions, kVersionsKey } = await import('../../src/storage/migrations')
const { listInvalid } = await import('../../src/storage/area')

const local = fake.browser.storage.local

/** Settings version 1 exactly as the foundation and agent issues wrote it. */
const v1 = {
  version: 1,
  llm: {
    provider: 'openai',
    baseUrl: 'https://llm.example/v1',
    authStyle: 'bearer',
    apiKey: 'sk-v1-key-1234',
    model: 'gpt-x',
    requestTimeoutMs: 30_000,
  },
  agent: { stepLimit: 33, useCache: false },
  safety: { confirm: ['payment'], allowDomains: ['shop.example'], denyDomains: ['bank.example'] },
  ui: { language: 'zh-CN' },
}
/** Version 1 as the first releases wrote it: no cache switch, no safety block (docs/settings.md then). */
const v1Early = {
  version: 1,
  llm: {
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    authStyle: 'x-api-key',
    apiKey: 'sk-ant-early',
    model: 'claude-x',
    requestTimeoutMs: 60_000,
  },
  agent: { stepLimit: 20 },
  ui: { language: 'auto' },
}

beforeEach(() => fake.reset())

describe('settings migrations (pure)', () => {
  it('lifts version 1 to version 4: the llm block becomes the one active profile, everything else kept', () => {
    const r = migrateSettings(v1)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.from).toBe(1)
    expect(r.value).toEqual({
      version: 4,
      profiles: [{ id: 'default', name: 'OpenAI', ...v1.llm }],
      activeProfile: 'default',
      agent: { stepLimit: 33, useCache: false },
      safety: {
        ...v1.safety,
        confirm: ['payment', 'permission', 'data_send'],
        skipOwnCommands: false,
        showPlans: 'every',
      },
      history: DEFAULT_SETTINGS.history,
    })
    expect(r.ui).toEqual({ version: 1, language: 'zh-CN' })
  })

  it('lifts the earliest version 1 (no cache switch, no safety) with the defaults for what it lacked', () => {
    const r = migrateSettings(v1Early)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.profiles).toEqual([{ id: 'default', name: 'Anthropic', ...v1Early.llm }])
    expect(r.value.agent).toEqual({ stepLimit: 20, useCache: true })
    expect(r.value.safety).toEqual(DEFAULT_SETTINGS.safety)
  })

  it('lifts version 2 to version 4: the new risk categories are asked about, the person’s choices kept', () => {
    const v2 = {
      ...DEFAULT_SETTINGS,
      version: 2,
      safety: { confirm: ['payment', 'cross_site'], allowDomains: ['a.example'], denyDomains: [] },
    }
    const r = migrateSettings(v2)
    expect(r).toEqual({
      ok: true,
      from: 2,
      value: {
        ...v2,
        version: 4,
        safety: {
          ...v2.safety,
          confirm: ['payment', 'cross_site', 'permission', 'data_send'],
          skipOwnCommands: false,
          showPlans: 'every',
        },
      },
    })
    const none = migrateSettings({ ...v2, safety: { ...v2.safety, confirm: [] } })
    expect(none.ok && none.value.safety.confirm).toEqual(['permission', 'data_send'])
  })

  it('lifts version 3 to version 4: the person’s own commands still ask, every other choice kept', () => {
    const v3 = {
      ...DEFAULT_SETTINGS,
      version: 3,
      safety: { confirm: ['payment'], allowDomains: [], denyDomains: ['evil.example'] },
    }
    expect(migrateSettings(v3)).toEqual({
      ok: true,
      from: 3,
      value: { ...v3, version: 4, safety: { ...v3.safety, skipOwnCommands: false, showPlans: 'every' } },
    })
    // A version 3 object that already carries the switch is read as version 3: the switch is not taken from it.
    const smuggled = migrateSettings({ ...v3, safety: { ...v3.safety, skipOwnCommands: true } })
    expect(smuggled.ok && smuggled.value.safety.skipOwnCommands).toBe(false)
  })

  it('keeps the current version as it is and refuses what no migration can read, naming the field', () => {
    expect(migrateSettings(DEFAULT_SETTINGS)).toEqual({ ok: true, value: DEFAULT_SETTINGS, from: SETTINGS_VERSION })
    const broken = migrateSettings({ ...v1, llm: { ...v1.llm, baseUrl: 'ftp://nope' } })
    expect(broken.ok).toBe(false)
    if (!broken.ok) expect(broken.issues.map((i) => i.path)).toEqual(['llm.baseUrl'])
    const future = migrateSettings({ ...DEFAULT_SETTINGS, version: 7 })
    expect(future).toMatchObject({
      ok: false,
      from: 7,
      issues: [{ path: 'version', message: expect.stringContaining('newer Ava') }],
    })
    expect(migrateSettings('nonsense')).toMatchObject({ ok: false, from: null })
  })

  it('refuses a version 2 whose active profile does not exist', () => {
    const r = migrateSettings({ ...DEFAULT_SETTINGS, activeProfile: 'gone' })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.issues[0]).toMatchObject({ path: 'activeProfile', message: expect.stringContaining('"gone"') })
  })
})

describe('migrations in storage', () => {
  it.each([
    ['version 1', v1, 'zh-CN'],
    ['the earliest version 1', v1Early, 'auto'],
  ])(
    'an update from %s rewrites settings as the current version and moves the language to the ui key',
    async (_name, old, language) => {
      await local.set({ settings: old })
      const report = await migrateAll()
      expect(report.settingsFrom).toBe(1)
      const stored = local.data.get('settings') as { version: number; profiles: { apiKey: string }[] }
      expect(stored.version).toBe(SETTINGS_VERSION)
      expect(stored.profiles[0].apiKey).toBe(old.llm.apiKey)
      expect(local.data.get('ui')).toEqual({ version: 1, language })
      expect(local.data.get(kVersionsKey)).toEqual(kStorageVersions)
      expect(await listInvalid()).toEqual([])
    },
  )

  it('a read that comes before the onInstalled migration already sees the current version', async () => {
    await local.set({ settings: v1 })
    const s = await settingsStore.get()
    expect(s.version).toBe(SETTINGS_VERSION)
    expect(s.profiles[0].model).toBe('gpt-x')
    expect((local.data.get('settings') as { version: number }).version).toBe(SETTINGS_VERSION)
  })

  it('never overwrites a ui key that is already there', async () => {
    await local.set({ settings: v1, ui: { version: 1, language: 'en' } })
    await migrateAll()
    expect(await uiPrefsStore.get()).toEqual({ version: 1, language: 'en' })
  })

  it('a fresh install gets the defaults and sets nothing aside', async () => {
    const report = await migrateAll()
    expect(report).toMatchObject({ before: {}, settingsFrom: null })
    expect(await settingsStore.get()).toEqual(DEFAULT_SETTINGS)
    expect(await uiPrefsStore.get()).toEqual(DEFAULT_UI_PREFS)
    expect(await listInvalid()).toEqual([])
  })

  it('running twice changes nothing the second time', async () => {
    await local.set({ settings: v1 })
    await migrateAll()
    const once = structuredClone(Object.fromEntries(local.data))
    const report = await migrateAll()
    expect(report.before).toEqual(kStorageVersions)
    expect(Object.fromEntries(local.data)).toEqual(once)
  })

  it('sets an unreadable value aside with its problems, reports it, and uses the defaults', async () => {
    const bad = { ...v1, agent: { stepLimit: 'lots' } }
    await local.set({ settings: bad, 'packs.user': { x: { namespace: 'x' } } })
    await migrateAll()
    expect(await settingsStore.get()).toEqual(DEFAULT_SETTINGS)
    const invalid = await listInvalid()
    expect(invalid.map((i) => i.key).sort()).toEqual(['packs.user', 'settings'])
    const settingsAside = invalid.find((i) => i.key === 'settings')!
    expect(settingsAside.value).toEqual(bad)
    expect(settingsAside.issues).toEqual([expect.stringMatching(/^agent.stepLimit: /)])
    // Moved, not copied: the next read does not find it again.
    expect(local.data.has('settings')).toBe(false)
  })
})
