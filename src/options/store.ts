import { defineStore } from 'pinia'
import { ref } from 'vue'
import browser from 'webextension-polyfill'
import { send, type ConnectionReport, type PublicSettings, type SettingsInput } from '../messaging'

/** The options page's view of the settings; the key itself never comes here, only its mask. */
export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<PublicSettings | null>(null)
  const loading = ref(false)
  const saving = ref(false)
  const error = ref<string | null>(null)
  const notice = ref<string | null>(null)
  const test = ref<ConnectionReport | null>(null)
  const testing = ref(false)

  async function load() {
    loading.value = true
    try {
      settings.value = (await send('options→bg:settings.get', {})).settings
    } catch (e) {
      error.value = (e as Error).message
    } finally {
      loading.value = false
    }
  }

  /** Asks for the endpoint's host permission (must run inside the click's user gesture). */
  async function requestHost(baseUrl: string): Promise<boolean> {
    const origin = `${new URL(baseUrl).origin}/*`
    try {
      if (await browser.permissions.contains({ origins: [origin] })) return true
      return await browser.permissions.request({ origins: [origin] })
    } catch {
      return false
    }
  }

  async function save(input: SettingsInput): Promise<boolean> {
    saving.value = true
    error.value = null
    notice.value = null
    try {
      const granted = await requestHost(input.llm.baseUrl)
      settings.value = (await send('options→bg:settings.save', { settings: input })).settings
      notice.value = granted ? 'saved' : `permission:${new URL(input.llm.baseUrl).origin}`
      return true
    } catch (e) {
      error.value = (e as Error).message
      return false
    } finally {
      saving.value = false
    }
  }

  async function testConnection(llm: SettingsInput['llm']) {
    testing.value = true
    test.value = null
    try {
      test.value = await send('options→bg:settings.test', { llm })
    } catch (e) {
      test.value = { ok: false, error: { code: 'UNKNOWN', message: (e as Error).message } }
    } finally {
      testing.value = false
    }
  }

  async function exportJson(): Promise<string> {
    return (await send('options→bg:settings.export', {})).json
  }

  async function importJson(json: string): Promise<boolean> {
    error.value = null
    try {
      settings.value = (await send('options→bg:settings.import', { json })).settings
      notice.value = 'imported'
      return true
    } catch (e) {
      error.value = (e as Error).message
      return false
    }
  }

  return { settings, loading, saving, error, notice, test, testing, load, save, testConnection, exportJson, importJson }
})
