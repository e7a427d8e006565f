import browser from 'webextension-polyfill'
import { retainHistory, SETTINGS_VERSION, UI_PREFS_VERSION, type HistoryRetention } from '../core/settings'
import { writeItems, type TypedKey } from './area'
import { HISTORY_VERSION, HistorySchema, kHistoryPrefix, type History } from './conversation'
import { PACKS_VERSION, packTrashStore, userPacksStore } from './packs'
import { settingsStore, uiPrefsStore } from './settings'
import { VAULT_VERSION, vaultStore } from './vault'

/**
 * The storage domains and their schema versions. `migrateAll` runs on install and on every
 * update (runtime.onInstalled): reading each domain through its typed key lifts an older shape
 * (settings carry their version inside) or sets an unreadable value aside; the versions that now
 * hold are recorded under `storage.versions` so a later release can tell what it upgrades from.
 */
export const kStorageVersions = {
  settings: SETTINGS_VERSION,
  ui: UI_PREFS_VERSION,
  packs: PACKS_VERSION,
  vault: VAULT_VERSION,
  history: HISTORY_VERSION,
} as const
export type StorageDomain = keyof typeof kStorageVersions
export const kVersionsKey = 'storage.versions'

export interface MigrationReport {
  /** The versions recorded before this run (empty on a fresh install or before version tracking). */
  before: Partial<Record<StorageDomain, number>>
  after: Record<StorageDomain, number>
  /** The settings version found in storage, or null when nothing was stored. */
  settingsFrom: number | null
}

const kDomainKeys: Array<TypedKey<unknown>> = [
  settingsStore,
  uiPrefsStore,
  userPacksStore,
  packTrashStore,
  vaultStore,
] as Array<TypedKey<unknown>>

export async function migrateAll(): Promise<MigrationReport> {
  const local = browser.storage.local
  const before = ((await local.get(kVersionsKey))[kVersionsKey] ?? {}) as MigrationReport['before']
  const raw = (await local.get(settingsStore.key))[settingsStore.key] as { version?: unknown } | undefined
  const settingsFrom = raw === undefined ? null : typeof raw?.version === 'number' ? raw.version : -1
  for (const k of kDomainKeys) await k.get()
  const settings = await settingsStore.get()
  await pruneHistories(settings.history)
  await writeItems('local', { [kVersionsKey]: { ...kStorageVersions } })
  return { before, after: { ...kStorageVersions }, settingsFrom }
}

/** Applies a retention setting to every site's history at once (after it changes, and on update). */
export async function pruneHistories(keep: HistoryRetention, now = Date.now()): Promise<number> {
  const all = await browser.storage.local.get(null)
  const writes: Record<string, History> = {}
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith(kHistoryPrefix) || key.endsWith('.invalid')) continue
    // One that fails its schema is left alone: historyStore sets it aside when it is next read.
    const r = HistorySchema.safeParse(value)
    if (!r.success) continue
    const h = r.data
    const kept = retainHistory(h.messages, keep, now)
    if (kept.length !== h.messages.length) writes[key] = { ...h, messages: kept, seq: h.seq + 1 }
  }
  if (Object.keys(writes).length) await writeItems('local', writes)
  return Object.keys(writes).length
}
