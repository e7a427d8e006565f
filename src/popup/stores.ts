import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import browser from 'webextension-polyfill'
import {
  diffPacks,
  kMaxPackBytes,
  validatePack,
  type ActionDescription,
  type ActionInfo,
  type ActionResult,
  type DryRunResult,
  type PackDiff,
  type PackFile,
  type PackIssue,
} from '../core/registry'
import {
  send,
  type CacheEntry,
  type ManagedPack,
  type PackConsent,
  type PackUpdate,
  type TabTargets,
} from '../messaging'
import {
  addedCapabilities,
  capabilityConsent,
  capabilityLines,
  packCapabilities,
  type CapabilityLine,
} from '../core/registry/capabilities'
import { userPacksStore } from '../storage/packs'
import { failure, type Failure } from '../ui/failure'
import { failureLine } from './run-text'
import { t, type MessageKey } from '../ui/i18n'
import { failureOf } from '../core/failure'
import type { Msg } from '../core/chat'

const message = failure

/** Installed packs, search, and the pack-level actions of the manager. */
export const usePacksStore = defineStore('packs', () => {
  const packs = ref<ManagedPack[]>([])
  const loading = ref(false)
  const error = ref<string | Failure | null>(null)
  /** The last deleted pack, while its "Undo" is offered. */
  const deleted = ref<string | null>(null)
  const query = ref('')
  const results = ref<ActionInfo[]>([])
  const searching = ref(false)

  async function load() {
    loading.value = true
    try {
      packs.value = (await send('popup→bg:packs.manage', {})).packs
      error.value = null
    } catch (e) {
      error.value = message(e)
    } finally {
      loading.value = false
    }
  }

  /** Another context (options, a second popup, a recorder) changed the user packs: show it. */
  function watch(): () => void {
    return userPacksStore.watch(() => void load())
  }

  async function act(fn: () => Promise<unknown>): Promise<boolean> {
    error.value = null
    try {
      await fn()
      await load()
      return true
    } catch (e) {
      error.value = message(e)
      return false
    }
  }

  const setEnabled = (namespace: string, enabled: boolean) =>
    act(() => send('popup→bg:packs.setEnabled', { namespace, enabled }))
  async function remove(namespace: string) {
    if (await act(() => send('popup→bg:packs.delete', { namespace }))) deleted.value = namespace
  }
  async function undo() {
    const ns = deleted.value
    if (!ns) return
    deleted.value = null
    await act(async () => {
      const r = await send('popup→bg:packs.undoDelete', { namespace: ns })
      if (!r.ok) throw new Error(`"${ns}" could not be restored: a pack with that name was installed since.`)
    })
  }

  async function exportYaml(namespace: string): Promise<{ name: string; text: string } | null> {
    try {
      const { text } = await send('popup→bg:packs.get', { namespace })
      return { name: `${namespace}.yaml`, text }
    } catch (e) {
      error.value = message(e)
      return null
    }
  }

  async function search(q: string) {
    query.value = q
    if (!q.trim()) {
      results.value = []
      return
    }
    searching.value = true
    try {
      results.value = (await send('ui→bg:action', { type: 'action.search', query: q })) as ActionInfo[]
    } catch (e) {
      error.value = message(e)
    } finally {
      searching.value = false
    }
  }

  return {
    packs,
    loading,
    error,
    deleted,
    query,
    results,
    searching,
    load,
    watch,
    setEnabled,
    remove,
    undo,
    exportYaml,
    search,
  }
})

/** The import and update flow: text from a paste, a file or a URL, validated as it changes. */
export const useImportStore = defineStore('import', () => {
  const text = ref('')
  const origin = ref('pasted')
  const issues = ref<PackIssue[]>([])
  const pack = ref<PackFile | null>(null)
  const diff = ref<PackDiff | null>(null)
  const fetching = ref(false)
  const installing = ref(false)
  const error = ref<string | Failure | null>(null)
  const installed = ref<{ namespace: string; version: string; previous?: string } | null>(null)
  /** The background's answer when the pack takes an installed namespace: installs only after a yes. */
  const update = ref<PackUpdate | null>(null)
  /** The background's answer when the pack does more than click and type on its own sites: installs only after a yes. */
  const consent = ref<PackConsent | null>(null)
  /** The installed version of the pack being previewed, to say what an update adds. */
  const before = ref<PackFile | undefined>(undefined)
  /** What the previewed pack can do, as a browser lists an extension's permissions; `added` marks what an update adds. */
  const capabilities = computed(() => {
    if (!pack.value) return []
    const lines = capabilityLines(packCapabilities(pack.value))
    const added = before.value
      ? new Set(addedCapabilities(capabilityLines(packCapabilities(before.value)), lines))
      : new Set<CapabilityLine>()
    return lines.map((line) => ({ line, added: added.has(line) }))
  })
  let checkSeq = 0

  const errors = computed(() => issues.value.filter((i) => i.severity === 'error'))
  const warnings = computed(() => issues.value.filter((i) => i.severity === 'warning'))
  const canInstall = computed(() => !!pack.value && errors.value.length === 0 && !installing.value)

  function reset() {
    text.value = ''
    origin.value = 'pasted'
    issues.value = []
    pack.value = null
    diff.value = null
    error.value = null
    installed.value = null
    update.value = null
    consent.value = null
    before.value = undefined
  }

  /** The registry's own validator, run here for live feedback; the background checks again on install. */
  async function check() {
    const seq = ++checkSeq
    installed.value = null
    update.value = null
    consent.value = null
    if (!text.value.trim()) {
      issues.value = []
      pack.value = null
      diff.value = null
      return
    }
    const r = validatePack(text.value, { file: origin.value })
    issues.value = r.issues
    pack.value = r.ok && r.pack ? r.pack : null
    diff.value = null
    if (!pack.value) return
    const next = pack.value
    let old: PackFile | undefined
    try {
      old = validatePack((await send('popup→bg:packs.get', { namespace: next.namespace })).text).pack
    } catch {
      old = undefined // not installed yet
    }
    if (seq !== checkSeq) return
    diff.value = diffPacks(old, next)
    before.value = old
  }

  function setText(value: string, from = 'pasted') {
    text.value = value
    origin.value = from
    return check()
  }

  /** Asks for the URL's origin (inside the click's gesture), then has the background fetch it. */
  async function fetchUrl(url: string) {
    error.value = null
    let parsed: URL
    try {
      parsed = new URL(url.trim())
    } catch {
      error.value = t('import.notUrl', { url })
      return
    }
    fetching.value = true
    try {
      const pattern = `${parsed.origin}/*`
      const granted =
        (await browser.permissions.contains({ origins: [pattern] })) ||
        (await browser.permissions.request({ origins: [pattern] }).catch(() => false))
      if (!granted) throw new Error(t('import.needsPermission', { origin: parsed.origin }))
      const r = await send('popup→bg:packs.fetch', { url: parsed.href })
      await setText(r.text, r.url)
    } catch (e) {
      // The background stopped reading past the pack size limit: said in the person's language.
      error.value =
        (e as { code?: string }).code === 'PACK_TOO_LARGE'
          ? t(failureOf('PACK_TOO_LARGE').say.plain as MessageKey, {
              url: parsed.href,
              max: kMaxPackBytes.toLocaleString(),
            })
          : message(e)
    } finally {
      fetching.value = false
    }
  }

  /**
   * Installs; `confirm` is the person's yes to the question the background asked last: the update
   * it described (whose card lists the capabilities, new ones marked), or the capabilities.
   */
  async function install(confirm = false): Promise<boolean> {
    if (!canInstall.value) return false
    const asked = update.value
    const agreed = consent.value
    installing.value = true
    error.value = null
    update.value = null
    consent.value = null
    try {
      const confirmed =
        confirm && asked ? { namespace: asked.namespace, source: asked.source, from: asked.diff.from ?? '' } : undefined
      // The update card showed what the pack can do: its yes covers those capabilities too.
      const yes = confirm
        ? (agreed?.consent ??
          (asked && pack.value ? capabilityConsent(capabilities.value.map((c) => c.line)) : undefined))
        : undefined
      const r = await send('popup→bg:packs.install', {
        text: text.value,
        origin: origin.value,
        confirmed,
        ...(yes !== undefined ? { consent: yes } : {}),
      })
      if (!r.ok) {
        if ('update' in r) update.value = r.update
        else if ('consent' in r) consent.value = r.consent
        else issues.value = r.issues
        return false
      }
      installed.value = { namespace: r.namespace, version: r.version, previous: r.previous }
      return true
    } catch (e) {
      error.value = message(e)
      return false
    } finally {
      installing.value = false
    }
  }

  return {
    text,
    origin,
    issues,
    pack,
    diff,
    fetching,
    installing,
    error,
    installed,
    update,
    consent,
    capabilities,
    errors,
    warnings,
    canInstall,
    reset,
    check,
    setText,
    fetchUrl,
    install,
  }
})

export type RunOutcome = { kind: 'run'; result: ActionResult } | { kind: 'dry'; result: DryRunResult }

/** One action's page: its description, the tabs it can run in, and the last outcome. */
/** A question of a running action, as the popup shows it. */
export interface PopupQuestion {
  id: string
  reason: string
  msg: Msg
}

export const useActionStore = defineStore('action', () => {
  const description = ref<ActionDescription | null>(null)
  const loading = ref(false)
  const running = ref(false)
  const error = ref<string | Failure | null>(null)
  const outcome = ref<RunOutcome | null>(null)
  /** The question the running action waits on (a risky step, a pack reading this site's fields), answered here. */
  const question = ref<PopupQuestion | null>(null)
  let runId: string | null = null
  let answered: (() => void) | null = null
  const targets = ref<TabTargets | null>(null)

  async function open(action: string) {
    loading.value = true
    description.value = null
    outcome.value = null
    error.value = null
    try {
      const [d, t] = await Promise.all([
        send('ui→bg:action', { type: 'action.describe', action }),
        send('popup→bg:tabs.targets', {}),
      ])
      const r = d as
        | { ok: true; action: ActionDescription }
        | { ok: false; error: { code: string; action: string; message: string } }
      if (r.ok) description.value = r.action
      else error.value = failureLine(r.error)
      targets.value = t
    } catch (e) {
      error.value = message(e)
    } finally {
      loading.value = false
    }
  }

  /** `tabId` null: the active tab, as the background picks it; otherwise the tab the person chose. */
  async function run(params: Record<string, unknown>, tabId: number | null) {
    const action = description.value?.name
    if (!action) return
    running.value = true
    error.value = null
    outcome.value = null
    const id = (runId = crypto.randomUUID())
    const result = send('popup→bg:action.runIn', { tabId, action, params, runId: id })
    void waitForQuestions(id)
    try {
      outcome.value = { kind: 'run', result: await result }
    } catch (e) {
      error.value = message(e)
    } finally {
      running.value = false
      runId = null
      question.value = null
      answered?.()
    }
  }

  /** Shows each question of run `id` as it comes, until the run ends (the background answers null). */
  async function waitForQuestions(id: string) {
    while (runId === id) {
      const next = await send('popup→bg:question.next', { runId: id }).catch(() => ({ question: null }))
      if (!next.question || runId !== id) return
      question.value = next.question
      await new Promise<void>((resolve) => (answered = resolve))
    }
  }

  async function answer(allow: boolean) {
    const q = question.value
    const id = runId
    if (!q || !id) return
    question.value = null
    await send('ui→bg:question.answer', { runId: id, id: q.id, allow }).catch(() => undefined)
    answered?.()
  }

  async function dryRun(params: Record<string, unknown>) {
    const action = description.value?.name
    if (!action) return
    running.value = true
    error.value = null
    outcome.value = null
    try {
      outcome.value = {
        kind: 'dry',
        result: (await send('ui→bg:action', { type: 'action.dryRun', action, params })) as DryRunResult,
      }
    } catch (e) {
      error.value = message(e)
    } finally {
      running.value = false
    }
  }

  return { description, loading, running, error, outcome, question, targets, open, run, dryRun, answer }
})

/** The instruction cache: list, inspect, edit as JSON, delete. */
export const useCacheStore = defineStore('cache', () => {
  const entries = ref<CacheEntry[]>([])
  const loading = ref(false)
  const error = ref<string | Failure | null>(null)

  async function load() {
    loading.value = true
    try {
      entries.value = (await send('popup→bg:cache.list', {})).entries
      error.value = null
    } catch (e) {
      error.value = message(e)
    } finally {
      loading.value = false
    }
  }

  /** Saves an edited entry; returns the reason it was refused, or null. */
  async function replace(key: string, json: string): Promise<Failure | null> {
    try {
      const r = await send('popup→bg:cache.replace', { key, json })
      if (!r.ok) return failure(r)
      await load()
      return null
    } catch (e) {
      return message(e)
    }
  }

  async function remove(key: string) {
    try {
      await send('popup→bg:cache.remove', { key })
      await load()
    } catch (e) {
      error.value = message(e)
    }
  }

  /** The person's one review of a plan a page could have shaped, given here instead of in the chat. */
  async function approve(key: string) {
    try {
      await send('popup→bg:cache.approve', { key })
      await load()
    } catch (e) {
      error.value = message(e)
    }
  }

  return { entries, loading, error, load, replace, remove, approve }
})
