import {
  DEFAULT_SETTINGS,
  DEFAULT_UI_PREFS,
  migrateSettings,
  SETTINGS_VERSION,
  SettingsSchema,
  UI_PREFS_VERSION,
  UiPrefsSchema,
  type Settings,
  type UiPrefs,
} from '../core/settings'
import { typedKey, type Upgrade } from './area'

export { SETTINGS_VERSION, DEFAULT_SETTINGS, UI_PREFS_VERSION, DEFAULT_UI_PREFS }

/**
 * A settings object of an earlier version is lifted on read (so a read that races the
 * onInstalled migration still sees the new shape); version 1 also seeds the `ui` key with the
 * language it held.
 */
const upgradeSettings: Upgrade<Settings> = (raw) => {
  const r = migrateSettings(raw)
  if (r.from === SETTINGS_VERSION) return null
  if (!r.ok) return { issues: r.issues.map((i) => `${i.path}: ${i.message}`) }
  return { value: r.value, extra: r.ui ? { [kUiKey]: r.ui } : undefined }
}

/** Settings, API keys included, live in chrome.storage.local only: never sync, never a page. */
export const settingsStore = typedKey<Settings>(
  'local',
  'settings',
  SettingsSchema,
  () => structuredClone(DEFAULT_SETTINGS),
  { upgrade: upgradeSettings },
)

const kUiKey = 'ui'
/** UI preferences (language): every UI reads these, the chat panel included, so nothing secret goes here. */
export const uiPrefsStore = typedKey<UiPrefs>('local', kUiKey, UiPrefsSchema, () => structuredClone(DEFAULT_UI_PREFS))
