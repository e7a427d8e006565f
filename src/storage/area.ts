import browser from 'webextension-polyfill'
import type { z } from 'zod'

/**
 * One typed key in one storage area (STYLE.md: "one small module per domain with a typed key and
 * a DEFAULT_* value"). Reading validates: a stored value that fails its schema — and that no
 * migration can lift — is moved aside to `<key>.invalid` with its problems (never silently
 * dropped; the options page lists it) and the default is used instead. Writing reports a full
 * storage area as a `StorageQuotaError` a person can act on.
 */
export interface TypedKey<T> {
  key: string
  get(): Promise<T>
  set(value: T): Promise<void>
  remove(): Promise<void>
  /** Calls `fn` with every new value written by any context (storage.onChanged); returns the unsubscribe. */
  watch(fn: (value: T) => void): () => void
}

export type AreaName = 'local' | 'session'

/** What was set aside, under `<key>.invalid`. */
export interface InvalidValue {
  value: unknown
  issues: string[]
  at: number
}
export const kInvalidSuffix = '.invalid'

/** Where the last failed write is remembered, so the options page can show it after the fact. */
export const kLastStorageErrorKey = 'storage.lastError'
export interface StorageErrorRecord {
  key: string
  code: string
  message: string
  at: number
}

export class StorageQuotaError extends Error {
  override name = 'StorageQuotaError'
  readonly code = 'QUOTA_EXCEEDED'
  constructor(
    readonly key: string,
    cause: string,
  ) {
    super(
      `Ava's storage is full, so "${key}" was not saved (${cause}). Delete packs, cached instructions or chat history you no longer need, then try again.`,
    )
  }
}

const isQuota = (e: unknown) => /quota/i.test(String((e as Error)?.message ?? e))

/** `storage.set` that turns Chrome's quota message into a StorageQuotaError and remembers it. */
export async function writeItems(area: AreaName, items: Record<string, unknown>): Promise<void> {
  try {
    await browser.storage[area].set(items)
  } catch (e) {
    if (!isQuota(e)) throw e
    const key = Object.keys(items)[0] ?? '?'
    const err = new StorageQuotaError(key, String((e as Error).message ?? e))
    const record: StorageErrorRecord = { key, code: err.code, message: err.message, at: Date.now() }
    // session has its own quota, so this note still fits when local is full.
    await browser.storage.session.set({ [kLastStorageErrorKey]: record }).catch(() => undefined)
    throw err
  }
}

/**
 * An older stored shape, lifted to the current one. `extra` are other keys the migration fills
 * (only written where nothing is stored yet). `issues` says why an older shape could not be
 * lifted (more useful than "expected version 2"); null means "not an older shape".
 */
export type Upgrade<T> = (raw: unknown) => { value: T; extra?: Record<string, unknown> } | { issues: string[] } | null

export interface TypedKeyOptions<T> {
  upgrade?: Upgrade<T>
}

export function typedKey<T>(
  area: AreaName,
  key: string,
  schema: z.ZodType<T>,
  fallback: () => T,
  options: TypedKeyOptions<T> = {},
): TypedKey<T> {
  const store = browser.storage[area]
  return {
    key,
    async get() {
      const raw = (await store.get(key))[key]
      if (raw === undefined) return fallback()
      const r = schema.safeParse(raw)
      if (r.success) return r.data
      const lifted = options.upgrade?.(raw)
      let issues = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      if (lifted && 'issues' in lifted) issues = lifted.issues
      else if (lifted) {
        const checked = schema.safeParse(lifted.value)
        if (checked.success) {
          const extra = lifted.extra ?? {}
          const present = Object.keys(extra).length ? await store.get(Object.keys(extra)) : {}
          const fill = Object.fromEntries(Object.entries(extra).filter(([k]) => present[k] === undefined))
          await writeItems(area, { ...fill, [key]: checked.data })
          return checked.data
        }
      }
      const aside: InvalidValue = { value: raw, issues, at: Date.now() }
      // Moved, not copied: the bad value would otherwise be "found" again on every read.
      await writeItems(area, { [`${key}${kInvalidSuffix}`]: aside })
      await store.remove(key)
      console.warn(`[ava] stored ${key} failed validation and was set aside under ${key}${kInvalidSuffix}`)
      return fallback()
    },
    async set(value) {
      await writeItems(area, { [key]: schema.parse(value) })
    },
    async remove() {
      await store.remove(key)
    },
    watch(fn) {
      const listener = (changes: Record<string, browser.Storage.StorageChange>, areaName: string) => {
        if (areaName !== area || !(key in changes)) return
        const next = changes[key].newValue
        if (next === undefined) return fn(fallback())
        const r = schema.safeParse(next)
        if (r.success) fn(r.data)
      }
      browser.storage.onChanged.addListener(listener)
      return () => browser.storage.onChanged.removeListener(listener)
    },
  }
}

/** Every value set aside in `area`, by the key it came from. */
export async function listInvalid(area: AreaName = 'local'): Promise<Array<InvalidValue & { key: string }>> {
  const all = await browser.storage[area].get(null)
  return Object.entries(all)
    .filter(([k]) => k.endsWith(kInvalidSuffix))
    .map(([k, v]) => ({ key: k.slice(0, -kInvalidSuffix.length), ...(v as InvalidValue) }))
    .sort((a, b) => b.at - a.at)
}

export async function discardInvalid(key: string, area: AreaName = 'local'): Promise<void> {
  await browser.storage[area].remove(`${key}${kInvalidSuffix}`)
}
