import semver from 'semver'
import type { PackFile } from './schema'

/**
 * What an update changes ("shows which actions are added, removed or changed, and warns
 * on a downgrade"). Actions compare by their whole definition, so a changed step, param or
 * selector reference counts; the pack's selector table is compared on its own, since every
 * action that uses an alias changes behaviour with it.
 */
export type UpdateKind = 'install' | 'upgrade' | 'downgrade' | 'same-version' | 'reinstall'

export interface PackDiff {
  namespace: string
  from?: string
  to: string
  kind: UpdateKind
  added: string[]
  removed: string[]
  changed: string[]
  selectorsChanged: boolean
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  )

export function diffPacks(before: PackFile | undefined, after: PackFile): PackDiff {
  const to = after.version
  if (!before)
    return {
      namespace: after.namespace,
      to,
      kind: 'install',
      added: Object.keys(after.actions).sort(),
      removed: [],
      changed: [],
      selectorsChanged: false,
    }
  const old = before.actions
  const next = after.actions
  const added = Object.keys(next)
    .filter((k) => !(k in old))
    .sort()
  const removed = Object.keys(old)
    .filter((k) => !(k in next))
    .sort()
  const changed = Object.keys(next)
    .filter((k) => k in old && stable(old[k]) !== stable(next[k]))
    .sort()
  const selectorsChanged = stable(before.selectors ?? {}) !== stable(after.selectors ?? {})
  const cmp = semver.compare(to, before.version)
  const same =
    !added.length && !removed.length && !changed.length && !selectorsChanged && stable(before) === stable(after)
  const kind: UpdateKind = cmp > 0 ? 'upgrade' : cmp < 0 ? 'downgrade' : same ? 'reinstall' : 'same-version'
  return { namespace: after.namespace, from: before.version, to, kind, added, removed, changed, selectorsChanged }
}
