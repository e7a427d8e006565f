import { AvaError } from '../../core/errors'
import { maskKey, safeParseSettings, SETTINGS_VERSION, type Settings } from '../../core/settings'
import { handle, type ConnectionReport, type PublicSettings, type SettingsInput } from '../../messaging'
import { settingsStore } from '../../storage/settings'
import { testConnection } from '../llm'

/** The options page sees the key only as a mask; a save without a key keeps the stored one. */
export function toPublic(s: Settings): PublicSettings {
  const { apiKey, ...llm } = s.llm
  return { ...s, llm: { ...llm, apiKeyMask: maskKey(apiKey) } }
}

function merge(input: SettingsInput, stored: Settings): Settings {
  const candidate = { ...input, version: SETTINGS_VERSION, llm: { ...input.llm, apiKey: input.llm.apiKey ?? stored.llm.apiKey } }
  const r = safeParseSettings(candidate)
  if (!r.ok) throw new AvaError('UNKNOWN', `Settings not saved: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`)
  return r.value
}

export function registerSettingsHandlers(): void {
  handle('options→bg:settings.get', ['options'], async () => ({ settings: toPublic(await settingsStore.get()) }))

  handle('options→bg:settings.save', ['options'], async ({ settings }) => {
    const next = merge(settings, await settingsStore.get())
    await settingsStore.set(next)
    return { settings: toPublic(next) }
  })

  handle('options→bg:settings.test', ['options'], async ({ llm }): Promise<ConnectionReport> => {
    const stored = await settingsStore.get()
    const merged = merge({ ...stored, llm }, stored)
    const t0 = performance.now()
    try {
      const r = await testConnection(merged.llm, AbortSignal.timeout(merged.llm.requestTimeoutMs))
      return { ok: true, model: r.model, reply: r.reply.slice(0, 100), latencyMs: Math.round(performance.now() - t0) }
    } catch (e) {
      const err = e as AvaError
      return { ok: false, error: { code: err.code ?? 'UNKNOWN', message: err.message } }
    }
  })

  // Exports leave the key out: a settings file gets shared, a key must not be.
  handle('options→bg:settings.export', ['options'], async () => {
    const s = await settingsStore.get()
    return { json: JSON.stringify({ ...s, llm: { ...s.llm, apiKey: undefined } }, null, 2) }
  })

  handle('options→bg:settings.import', ['options'], async ({ json }) => {
    let value: unknown
    try {
      value = JSON.parse(json)
    } catch (e) {
      throw new AvaError('UNKNOWN', `That file is not JSON: ${(e as Error).message}. Nothing was changed.`)
    }
    const stored = await settingsStore.get()
    const v = value as Settings
    const candidate = { ...v, llm: { ...v?.llm, apiKey: v?.llm?.apiKey ?? stored.llm.apiKey } }
    const r = safeParseSettings(candidate)
    if (!r.ok) throw new AvaError('UNKNOWN', `Settings file rejected, nothing was changed: ${r.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`)
    await settingsStore.set(r.value)
    return { settings: toPublic(r.value) }
  })
}
