import { z } from 'zod'
import { typedKey } from './area'

/** Schema version of `vault`. */
export const VAULT_VERSION = 1

/** Names are what `${env.NAME}` and `${secret:NAME}` spell, so they are plain identifiers. */
export const kVaultNamePattern = /^[A-Za-z0-9_.-]+$/
export const kMaxVaultValue = 4096

/**
 * Variables and secrets for `${env.*}`, `${secret:NAME}` and `secret` params (issue 6 safety,
 * issue 7 options): kept in chrome.storage.local only (never sync), read only by the background
 * when a step is sent to the page; the options page sees names and a fixed mask, never a value.
 */
export const VaultSchema = z.record(z.string().regex(kVaultNamePattern), z.string().max(kMaxVaultValue))
export const DEFAULT_VAULT = (): Record<string, string> => ({})
export const vaultStore = typedKey<Record<string, string>>('local', 'vault', VaultSchema, DEFAULT_VAULT)
