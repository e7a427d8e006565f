import browser from 'webextension-polyfill'
import { CacheEntrySchema, type CacheEntry } from '../../core/instruction/cache-entry'
import { jsonErrorAt } from '../../core/json-error'
import { diffPacks, kMaxPackBytes, qualify, validatePack, type PackFile } from '../../core/registry'
import {
  addedCapabilities,
  capabilityConsent,
  capabilityLines,
  packCapabilities,
} from '../../core/registry/capabilities'
import { handle, ProtocolError, type ManagedPack, type TabTargets } from '../../messaging'
import { packTrashStore, trimTrash, userPacksStore, type UserPack } from '../../storage/packs'
import { actionApi, getRegistry, packSources, reloadRegistry } from '../actions'
import { replayGuard } from '../recorder'
import { settingsStore } from '../../storage/settings'
import { nextPopupQuestion, openPopupRun } from '../questions'
import * as cache from '../agent-cache'
import { readTextLimited } from '../read-limited'
import type { FailureCode } from '../../core/failure'

/**
 * The popup's pack manager: install, update, enable, delete with undo, export; the
 * instruction cache; and running an action in a tab the person picks. Every pack change is
 * validated here again (the popup's live check is a courtesy, not a guarantee) and ends with a
 * registry reload so the next run sees it.
 */

const kSenders = ['popup', 'options'] as const
const userFile = (namespace: string) => `user:${namespace}`
/**
 * The question an install must pass, or null when the pack only clicks and types on its own sites
 * (or an update adds nothing past that): it installs on the one Install click, as before.
 */
function consentFor(next: PackFile, before: PackFile | undefined) {
  const lines = capabilityLines(packCapabilities(next))
  const added = before ? addedCapabilities(capabilityLines(packCapabilities(before)), lines) : lines
  if (!added.some((l) => l.sensitive)) return null
  return { lines, added: before ? added : [], consent: capabilityConsent(lines) }
}

/** A URL import gives up after this long; a pack is a small text file. */
const kFetchTimeoutMs = 15_000

async function managedPacks(): Promise<ManagedPack[]> {
  const registry = await getRegistry()
  const user = await userPacksStore.get()
  const issues = registry.issues
  const out: ManagedPack[] = registry.list().map((n) => {
    const own = user[n.namespace]
    const sources = [...new Set(n.sources.map((x) => x.source))]
    return {
      namespace: n.namespace,
      version: n.version,
      description: n.description,
      descriptionZh: n.descriptionZh,
      actions: n.actions.length,
      source: sources.join(', '),
      user: !!own,
      enabled: own?.enabled ?? true,
      origin: own?.origin,
      installedAt: own?.installedAt,
      deprecated: n.actions
        .filter((a) => a.deprecated)
        .map((a) => ({
          action: a.name,
          message: a.deprecatedMessage,
          messageZh: a.deprecatedMessageZh,
          use: a.aliasOf,
        })),
      issues: issues.filter((i) => i.file === userFile(n.namespace)),
    }
  })
  // Disabled packs, and user packs the registry refused to load, are not in the registry's list.
  for (const p of Object.values(user)) {
    if (out.some((m) => m.namespace === p.namespace)) continue
    const parsed = validatePack(p.text, { file: userFile(p.namespace) })
    out.push({
      namespace: p.namespace,
      version: p.version,
      description: parsed.pack?.description ?? '',
      descriptionZh: parsed.pack?.description_zh,
      actions: Object.keys(parsed.pack?.actions ?? {}).length,
      source: 'user',
      user: true,
      enabled: p.enabled,
      origin: p.origin,
      installedAt: p.installedAt,
      deprecated: Object.entries(parsed.pack?.actions ?? {})
        .filter(([, a]) => a.deprecated)
        .map(([name, a]) => ({
          action: `${p.namespace}:${name}`,
          message: a.deprecated_message,
          messageZh: a.deprecated_message_zh,
          use: a.alias_of === undefined ? undefined : qualify(a.alias_of, p.namespace),
        })),
      issues: p.enabled ? issues.filter((i) => i.file === userFile(p.namespace)) : [],
    })
  }
  return out.sort((a, b) => a.namespace.localeCompare(b.namespace))
}

/** Serialises read-modify-write of the user packs, so two quick clicks cannot lose one. */
let writes: Promise<unknown> = Promise.resolve()
function changePacks<T>(fn: (packs: Record<string, UserPack>) => Promise<T> | T): Promise<T> {
  const next = writes.then(async () => {
    const packs = await userPacksStore.get()
    const out = await fn(packs)
    await userPacksStore.set(packs)
    await reloadRegistry()
    return out
  })
  writes = next.catch(() => undefined)
  return next
}

/** The schema a hand-edited cache entry must still meet: the same key, and steps the agent can replay. */
function checkCacheEntry(
  key: string,
  json: string,
): { ok: true; entry: CacheEntry } | { ok: false; code: string; message: string; params: Record<string, string> } {
  const fail = (code: string, params: Record<string, string>, message: string) => ({
    ok: false as const,
    code,
    message,
    params,
  })
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (e) {
    const reason = (e as Error).message
    const at = jsonErrorAt(json, reason)
    return fail(
      at ? 'CACHE_NOT_JSON_AT' : 'CACHE_NOT_JSON',
      { reason, ...(at ? { line: String(at.line), column: String(at.column) } : {}) },
      `Not JSON: ${reason}`,
    )
  }
  const r = CacheEntrySchema.safeParse(value)
  if (!r.success) {
    const issues = r.error.issues.map((x) => `${x.path.join('.') || '(entry)'}: ${x.message}`).join('; ')
    return fail('CACHE_INVALID', { issues }, issues)
  }
  if (r.data.key !== key)
    return fail('CACHE_KEY_CHANGED', { key }, `"key" must stay "${key}": it is derived from the request and the page.`)
  return { ok: true as const, entry: r.data }
}

/** The text of the built-in pack that defines `namespace`, if Ava ships one. */
async function builtinText(namespace: string): Promise<string | undefined> {
  const file = (await getRegistry()).getNamespace(namespace)?.sources.find((s) => s.source === 'builtin')?.file
  if (!file) return undefined
  return (await packSources()).find((s) => s.source === 'builtin')?.files.find((f) => f.path === file)?.text
}

/** What is installed under a namespace now: the person's own pack (enabled or not) wins over a built-in. */
async function installedPack(
  namespace: string,
): Promise<{ source: 'user' | 'builtin'; text: string; version: string } | undefined> {
  const user = (await userPacksStore.get())[namespace]
  if (user) return { source: 'user', text: user.text, version: user.version }
  const text = await builtinText(namespace)
  const version = text === undefined ? undefined : validatePack(text).pack?.version
  return text === undefined || version === undefined ? undefined : { source: 'builtin', text, version }
}

const isWeb = (url: string | undefined) => !!url && /^https?:/.test(url)

/** A refusal the popup says in its language from `code` and `params` (locale `failure.<code>`); `english` is for logs. */
const refuse = (code: FailureCode, params: Record<string, string | number>, english: string) =>
  new ProtocolError(code, english, params)

export function registerPackHandlers(): void {
  handle('popup→bg:packs.manage', kSenders, async () => ({ packs: await managedPacks() }))

  handle('popup→bg:packs.get', kSenders, async ({ namespace }) => {
    const installed = await installedPack(namespace)
    if (!installed) throw refuse('PACK_MISSING', { namespace }, `No pack "${namespace}".`)
    return { namespace, text: installed.text, source: installed.source }
  })

  handle('popup→bg:packs.fetch', kSenders, async ({ url }) => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw refuse('PACK_URL_INVALID', { url }, `"${url}" is not a URL.`)
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw refuse(
        'PACK_URL_PROTOCOL',
        { protocol: parsed.protocol },
        `Only http(s) URLs can be imported, not ${parsed.protocol}`,
      )
    let res: Response
    try {
      res = await fetch(parsed, { signal: AbortSignal.timeout(kFetchTimeoutMs), credentials: 'omit' })
    } catch (e) {
      throw refuse(
        'PACK_FETCH_FAILED',
        { url: parsed.href, origin: parsed.origin },
        `Could not fetch ${parsed.href}: ${(e as Error).message}. If you declined the permission for ${parsed.origin}, allow it and try again.`,
      )
    }
    if (!res.ok)
      throw refuse('PACK_HTTP', { url: parsed.href, status: res.status }, `${parsed.href} answered HTTP ${res.status}.`)
    const text = await readTextLimited(res, kMaxPackBytes, parsed.href)
    return { text, url: res.url || parsed.href }
  })

  handle('popup→bg:packs.install', kSenders, async ({ text, origin, confirmed, consent }) => {
    const result = validatePack(text, { file: origin })
    if (!result.ok || !result.pack)
      return { ok: false as const, issues: result.issues.filter((i) => i.severity === 'error') }
    const next = result.pack
    const { namespace, version } = next
    // Taking an installed namespace is an update, never silent: the first answer is
    // the diff, and only an install confirmed for exactly what is installed now goes ahead.
    const installed = await installedPack(namespace)
    const matches = (p: { source: string; version: string } | undefined) =>
      !!p && confirmed?.namespace === namespace && confirmed.source === p.source && confirmed.from === p.version
    if (installed && !matches(installed)) {
      const before = validatePack(installed.text, { file: installed.source }).pack
      const overridesBuiltin = installed.source === 'builtin' || (await builtinText(namespace)) !== undefined
      return {
        ok: false as const,
        update: { namespace, source: installed.source, overridesBuiltin, diff: diffPacks(before, next) },
      }
    }
    // What the pack can do is said before it is installed; past clicking and typing on its own
    // sites, only a yes to exactly these capabilities installs it (an update: to what it adds).
    const asked = consentFor(
      next,
      installed ? validatePack(installed.text, { file: installed.source }).pack : undefined,
    )
    if (asked && consent !== asked.consent) return { ok: false as const, consent: { namespace, ...asked } }
    return changePacks((packs) => {
      // Another install of this namespace landed between the prompt and the yes: ask again.
      if (installed && packs[namespace] && packs[namespace].version !== installed.version)
        throw refuse(
          'PACK_CHANGED',
          { namespace },
          `"${namespace}" changed while you were deciding; import it again to see the new difference.`,
        )
      const previous = packs[namespace]?.version ?? installed?.version
      packs[namespace] = {
        namespace,
        version,
        text,
        enabled: packs[namespace]?.enabled ?? true,
        origin,
        installedAt: Date.now(),
      }
      return { ok: true as const, namespace, version, previous }
    })
  })

  handle('popup→bg:packs.setEnabled', kSenders, async ({ namespace, enabled }) =>
    changePacks((packs) => {
      if (!packs[namespace])
        throw refuse(
          'PACK_BUILTIN_ALWAYS_ON',
          { namespace },
          `"${namespace}" is not a user pack; built-in packs are always on.`,
        )
      packs[namespace].enabled = enabled
      return { ok: true as const }
    }),
  )

  handle('popup→bg:packs.delete', kSenders, async ({ namespace }) =>
    changePacks(async (packs) => {
      const gone = packs[namespace]
      if (!gone)
        throw refuse(
          'PACK_BUILTIN_UNDELETABLE',
          { namespace },
          `"${namespace}" is not a user pack; built-in packs cannot be deleted.`,
        )
      delete packs[namespace]
      await packTrashStore.set(
        trimTrash({ ...(await packTrashStore.get()), [namespace]: { ...gone, deletedAt: Date.now() } }),
      )
      return { ok: true as const }
    }),
  )

  handle('popup→bg:packs.undoDelete', kSenders, async ({ namespace }) =>
    changePacks(async (packs) => {
      const trash = await packTrashStore.get()
      const back = trash[namespace]
      // A pack installed under the same name since the delete wins: undo never overwrites.
      if (!back || packs[namespace]) return { ok: false }
      const { deletedAt: _d, ...pack } = back
      packs[namespace] = pack
      delete trash[namespace]
      await packTrashStore.set(trash)
      return { ok: true }
    }),
  )

  handle('popup→bg:cache.list', kSenders, async () => ({ entries: await cache.list() }))

  handle('popup→bg:cache.replace', kSenders, async ({ key, json }) => {
    const checked = checkCacheEntry(key, json)
    if (!checked.ok) return checked
    if (!(await cache.lookup(key)))
      return {
        ok: false as const,
        code: 'CACHE_MISSING',
        params: { key },
        message: `No cache entry "${key}" (it may have been deleted).`,
      }
    await cache.replace(checked.entry)
    return { ok: true as const }
  })

  handle('popup→bg:cache.approve', kSenders, async ({ key }) => {
    await cache.markReviewed(key)
    return { ok: true as const }
  })

  handle('popup→bg:cache.remove', kSenders, async ({ key }) => {
    await cache.remove(key)
    return { ok: true as const }
  })

  handle('popup→bg:tabs.targets', kSenders, async (): Promise<TabTargets> => {
    const all = await browser.tabs.query({})
    const web = all.filter((t) => t.id !== undefined && isWeb(t.url))
    const [active] = await browser.tabs.query({ active: true, lastFocusedWindow: true })
    const activeIsWeb = isWeb(active?.url)
    // When the popup is itself a tab (the active one), the page the person means is the web tab
    // they looked at last: Chrome records when each tab was last active.
    const recent = [...web].sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0]
    const suggested = activeIsWeb ? active!.id! : (recent?.id ?? null)
    return { tabs: web.map((t) => ({ id: t.id!, title: t.title ?? '', url: t.url! })), suggested, activeIsWeb }
  })

  handle('popup→bg:action.runIn', kSenders, async ({ tabId, action, params, runId }) => {
    // The person's own Run passes the gate every step passes: a risky step, or a pack that reads
    // this site's fields off its own sites, asks in the popup (the one registry of questions, questions.ts).
    const questions = openPopupRun(runId)
    try {
      const [active] = tabId === null ? await browser.tabs.query({ active: true, lastFocusedWindow: true }) : []
      const id = tabId ?? active?.id
      const tab = id === undefined ? undefined : await browser.tabs.get(id).catch(() => undefined)
      if (id === undefined || !tab || !isWeb(tab.url))
        throw refuse('TAB_NOT_WEB', {}, 'That tab is closed or is not a web page. Pick another tab.')
      return await (
        await actionApi(
          id,
          await replayGuard(id, () => id, action, { popupRun: runId, own: true }),
          (await settingsStore.get()).safety.showPlans,
        )
      ).run({ action, params })
    } finally {
      questions.end()
    }
  })

  handle('popup→bg:question.next', kSenders, async ({ runId }) => ({ question: await nextPopupQuestion(runId) }))
}
