import { z } from 'zod'
import { originOf } from '../core/agent/secrets'
import { typedKey } from './area'

/** Schema version of `vault`. */
export const VAULT_VERSION = 2

/** Names are what `${env.NAME}` and `${secret:NAME}` spell, so they are plain identifiers. */
export const kVaultNamePattern = /^[A-Za-z0-9_.-]+$/
export const kMaxVaultValue = 4096

/**
 * Variables and secrets for `${env.*}`, `${secret:NAME}` and `secret` params (Options,
 * Vault): kept in chrome.storage.local only (never sync), read only by the background
 * when a step is sent to the page; the options page sees names and a fixed mask, never a value.
 */
export const VaultSchema = z.record(z.string().regex(kVaultNamePattern), z.string().max(kMaxVaultValue))
export const DEFAULT_VAULT = (): Record<string, string> => ({})
export const vaultStore = typedKey<Record<string, string>>('local', 'vault', VaultSchema, DEFAULT_VAULT)

/**
 * The sites each secret is bound to: name → origins (`https://bank.com`). Ava types
 * a secret only into fields on these origins, as a password manager fills a login only on the
 * site it was saved for. Kept beside the values rather than inside them so that the values'
 * shape, their export and import stay as they were.
 *
 * Version 2 added this key. Secrets saved before it are bound to no site, so nothing is typed
 * until the person binds them in Options: a password manager never fills a login that carries no
 * site, and guessing one (from history, from where it was last used) would bind it on what a page
 * may have steered.
 */
export const VaultSitesSchema = z.record(z.string().regex(kVaultNamePattern), z.array(z.string().url()).max(50))
export const DEFAULT_VAULT_SITES = (): Record<string, string[]> => ({})
export const vaultSitesStore = typedKey<Record<string, string[]>>(
  'local',
  'vaultSites',
  VaultSitesSchema,
  DEFAULT_VAULT_SITES,
)

/**
 * The vault as a page at `url` may receive it: only the entries bound to its origin.
 * What a flow's `${secret:*}` reads in a tab, so a replay types no secret on a site it was not
 * saved for. (A pack's engine keeps the whole vault as `env`: it needs every value to refuse one
 * in a URL; the agent checks the binding before a pack gets a secret.)
 */
export async function vaultFor(url: string | undefined): Promise<Record<string, string>> {
  const origin = url ? originOf(url) : null
  if (!origin) return {}
  const [all, sites] = await Promise.all([vaultStore.get(), vaultSitesStore.get()])
  return Object.fromEntries(Object.entries(all).filter(([name]) => sites[name]?.includes(origin)))
}
