import { z } from 'zod'
import { typedKey } from './area'

/**
 * Named secrets for `${secret:NAME}` (issue 6 safety, issue 7 options): kept in
 * chrome.storage.local only, read only by the background when a step is sent to the page.
 */
const VaultSchema = z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/), z.string().max(4096))
export const vaultStore = typedKey<Record<string, string>>('local', 'vault', VaultSchema, () => ({}))
