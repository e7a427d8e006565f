import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../core/settings'
import { typedKey } from './area'

/** Settings, API key included, live in chrome.storage.local only: never sync, never a page. */
export const settingsStore = typedKey<Settings>('local', 'settings', SettingsSchema, () => structuredClone(DEFAULT_SETTINGS))
