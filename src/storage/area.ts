import browser from 'webextension-polyfill'
import type { z } from 'zod'

/**
 * One typed key in one storage area. Reading validates: a stored value that fails its schema is
 * kept aside under `<key>.invalid` (never silently dropped) and the default is used instead.
 */
export interface TypedKey<T> {
  key: string
  get(): Promise<T>
  set(value: T): Promise<void>
  remove(): Promise<void>
}

export type AreaName = 'local' | 'session'

export function typedKey<T>(area: AreaName, key: string, schema: z.ZodType<T>, fallback: () => T): TypedKey<T> {
  const store = browser.storage[area]
  return {
    key,
    async get() {
      const raw = (await store.get(key))[key]
      if (raw === undefined) return fallback()
      const r = schema.safeParse(raw)
      if (r.success) return r.data
      await store.set({ [`${key}.invalid`]: { value: raw, issues: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), at: Date.now() } })
      console.warn(`[ava] stored ${key} failed validation and was set aside under ${key}.invalid`)
      return fallback()
    },
    async set(value) {
      await store.set({ [key]: schema.parse(value) })
    },
    async remove() {
      await store.remove(key)
    },
  }
}
