/**
 * An in-memory stand-in for the parts of `webextension-polyfill` the storage modules use:
 * two areas with Chrome's get/set/remove semantics (values are structured-cloned, as Chrome
 * serialises them), one onChanged event for both, and an optional byte quota on `local`.
 */
type Listener = (changes: Record<string, { oldValue?: unknown; newValue?: unknown }>, area: string) => void

export function createFakeBrowser() {
  const listeners = new Set<Listener>()
  const quota = { local: Infinity }
  function area(name: 'local' | 'session') {
    const data = new Map<string, unknown>()
    const size = () => JSON.stringify(Object.fromEntries(data)).length
    return {
      data,
      async get(keys: string | string[] | null) {
        const list = keys === null ? [...data.keys()] : Array.isArray(keys) ? keys : [keys]
        return Object.fromEntries(list.filter((k) => data.has(k)).map((k) => [k, structuredClone(data.get(k))]))
      },
      async set(items: Record<string, unknown>) {
        const before = new Map(data)
        const changes: Record<string, { oldValue?: unknown; newValue?: unknown }> = {}
        for (const [k, v] of Object.entries(items)) {
          changes[k] = { oldValue: data.get(k), newValue: structuredClone(v) }
          data.set(k, structuredClone(v))
        }
        if (name === 'local' && size() > quota.local) {
          data.clear()
          for (const [k, v] of before) data.set(k, v)
          throw new Error('QUOTA_BYTES quota exceeded')
        }
        for (const l of listeners) l(changes, name)
      },
      async remove(keys: string | string[]) {
        const changes: Record<string, { oldValue?: unknown }> = {}
        for (const k of Array.isArray(keys) ? keys : [keys]) {
          if (data.has(k)) changes[k] = { oldValue: data.get(k) }
          data.delete(k)
        }
        if (Object.keys(changes).length) for (const l of listeners) l(changes, name)
      },
      async clear() {
        data.clear()
      },
      async getBytesInUse() {
        return size()
      },
    }
  }
  const storage = {
    local: area('local'),
    session: area('session'),
    onChanged: { addListener: (l: Listener) => listeners.add(l), removeListener: (l: Listener) => listeners.delete(l) },
  }
  return {
    browser: { storage },
    quota,
    listeners,
    reset() {
      storage.local.data.clear()
      storage.session.data.clear()
      quota.local = Infinity
    },
  }
}

export const fake = createFakeBrowser()
