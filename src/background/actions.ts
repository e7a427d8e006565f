import browser from 'webextension-polyfill'
import {
  createActionApi,
  createEngine,
  createRegistry,
  loadPacksCached,
  PortError,
  SelectorCache,
  type ActionApi,
  type ActionEngine,
  type ActionResult,
  type BrowserPort,
  type PackSource,
  type RunOptions,
} from '../core/registry'
import { createChannelPort, type BoundSecret, type StepGuard } from '../core/page/channel'
import { discoverActions } from '../core/registry/discover'
import type { Msg } from '../core/chat'
import { envReferencesDeep } from '../core/registry/secrets'
import { packCapabilities, packShownOn, type PackCapabilities } from '../core/registry/capabilities'
import { createStepCount, drawThrough, guardedRun } from '../core/gate/guard'
import { settingsStore } from '../storage/settings'
import type { ShowPlans } from '../core/settings'
import type { ActionDefinition } from '../core/registry/model'
import { originOf } from '../core/agent/secrets'
import { failureOf } from '../core/failure'
import { packStepComposes } from '../core/vocabulary'
import { userPacksStore } from '../storage/packs'
import { registryCacheStore } from '../storage/registry-cache'
import { vaultSitesStore, vaultStore } from '../storage/vault'
import { navigate, tabSender } from './page'
import { currentDoc } from './tabs'

/**
 * The action registry in the background: built-in packs bundled at build time
 * (MV3 loads no code or data from elsewhere at run time), then the person's own packs from
 * chrome.storage.local, later sources overriding earlier. Actions run through a BrowserPort whose
 * every call is one message to the page, so an action that navigates goes on in the next page.
 */
const builtin = import.meta.glob('/actions/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>

export async function packSources(): Promise<PackSource[]> {
  const user = await userPacksStore.get()
  return [
    {
      source: 'builtin',
      files: Object.entries(builtin).map(([path, text]) => ({
        path: `actions${path.slice(path.lastIndexOf('/'))}`,
        text,
      })),
    },
    {
      source: 'user',
      files: Object.values(user)
        .filter((p) => p.enabled)
        .map((p) => ({ path: `user:${p.namespace}`, text: p.text })),
    },
  ]
}

// A worker start restores the validated registry from session storage when no pack text changed;
//any change of text, or a cache that fails its checks, costs one full parse.
const registry = createRegistry(
  packSources,
  async (sources) => (await loadPacksCached(sources, registryCacheStore)).result,
)
let loaded: Promise<unknown> | null = null

export async function getRegistry() {
  loaded ??= registry.reload()
  await loaded
  return registry
}

export function reloadRegistry() {
  loaded = registry.reload()
  return loaded
}

/** Versions of every loaded pack: part of the instruction cache key, so a pack update re-plans. */
export async function packVersions(): Promise<Record<string, string>> {
  const r = await getRegistry()
  return Object.fromEntries(r.list().map((n) => [n.namespace, n.version]))
}

/**
 * The registry's BrowserPort for a tab: every step one command on the page channel
 * (src/background/page.ts); with the agent's `guard`, counted and risk-checked.
 */
export function createRemotePort(tabId: number, guard?: StepGuard, secrets?: readonly BoundSecret[]): BrowserPort {
  const send = tabSender(tabId)
  return createChannelPort(send, {
    guard,
    secrets,
    async navigate(url, signal) {
      const out = await navigate(send.tabId(), url, signal)
      if (!out.ok) throw new PortError('STEP_FAILED', out.message)
    },
    // version_global: a fixed function reads a property path in the page's main world.
    async readGlobal(path) {
      const [res] = await browser.scripting.executeScript({
        target: { tabId: send.tabId(), frameIds: [0] },
        world: 'MAIN',
        func: (keys: string[]) => {
          let o: unknown = globalThis
          for (const k of keys) o = o == null ? undefined : (o as Record<string, unknown>)[k]
          return typeof o === 'string' || typeof o === 'number' ? o : undefined
        },
        args: [path],
      })
      return res?.result
    },
    // `eval` steps: MV3 forbids eval in the extension itself; the user-scripts API
    // runs the person's own pack code in its isolated USER_SCRIPT world, only once they have allowed
    // it for Ava. Without that the port has no runUserScript and the step fails with the steps to allow it.
    runUserScript: userScriptsAllowed()
      ? async (script, args) => {
          const code = `(async (args) => {\n${script}\n})(${JSON.stringify(args)})`
          const api = (
            chrome as unknown as {
              userScripts: { execute(i: unknown): Promise<{ result?: unknown; error?: string }[]> }
            }
          ).userScripts
          const [res] = await api.execute({
            target: { tabId: send.tabId(), frameIds: [0] },
            js: [{ code }],
            world: 'USER_SCRIPT',
          })
          if (res?.error) throw new PortError('STEP_FAILED', `The eval step's script failed: ${res.error}`)
          return res?.result
        }
      : undefined,
  })
}

/** chrome.userScripts exists only with the permission granted and "Allow user scripts" switched on. */
export function userScriptsAllowed(): boolean {
  try {
    const api = (chrome as unknown as { userScripts?: { getScripts?: unknown; execute?: unknown } }).userScripts
    return typeof api?.execute === 'function'
  } catch {
    return false
  }
}

const selectorCaches = new Map<number, SelectorCache>()

export async function engineFor(tabId: number, guard?: StepGuard): Promise<ActionEngine> {
  const cache = selectorCaches.get(tabId) ?? new SelectorCache()
  selectorCaches.set(tabId, cache)
  const env = await vaultStore.get()
  return createEngine({
    registry: await getRegistry(),
    port: createRemotePort(tabId, guard, await boundSecrets(env)),
    env,
    selectorCache: cache,
  })
}

/**
 * Every vault value with the origins it is bound to. The engine keeps the whole vault
 * as `env` (it must know every value to refuse one in a URL), so the binding is enforced where a
 * value meets the page: the port sends `secretSites` with any step that carries one.
 */
export async function boundSecrets(vault?: Record<string, string>): Promise<BoundSecret[]> {
  const [values, sites] = await Promise.all([vault ?? vaultStore.get(), vaultSitesStore.get()])
  return Object.entries(values).map(([name, value]) => ({ value, sites: sites[name] ?? [] }))
}

/** The env names a registry action reads, its nested runs included, for the agent's question. */
export async function actionEnvNames(name: string): Promise<{ names: string[]; dynamic: boolean }> {
  const r = await getRegistry()
  const found = r.lookup(name)
  if (!found.ok) return { names: [], dynamic: false }
  return envReferencesDeep(found.action, (target) => {
    const next = r.lookup(target)
    return next.ok ? next.action : undefined
  })
}

/** Selector caches are per page: a navigation or reload clears the tab's. */
export function watchSelectorCaches(): void {
  browser.webNavigation.onCommitted.addListener((d) => {
    if (d.frameId === 0) selectorCaches.get(d.tabId)?.clear()
  })
  browser.webNavigation.onHistoryStateUpdated.addListener((d) => {
    if (d.frameId === 0) selectorCaches.get(d.tabId)?.clear()
  })
  browser.tabs.onRemoved.addListener((tabId) => selectorCaches.delete(tabId))
}

/**
 * The pack API on a tab. `guard`: the gate the person's own commands pass too (`/run`): their steps are counted and risk-checked, and a risky one asks in the panel.
 */
export async function actionApi(
  tabId: number | undefined,
  guard?: StepGuard,
  /** Where the person is asked (`/run`, the popup's Run): which actions show their plan first (`safety.showPlans`). */
  plans?: ShowPlans,
): Promise<ActionApi> {
  return createActionApi({
    registry: await getRegistry(),
    getEngine: tabId === undefined ? undefined : () => siteCheckedEngine(tabId, guard, plans),
    env: await vaultStore.get(),
  })
}

/**
 * The engine for `/run` and the popup's Run: an action that reads the page's fields or sends its
 * data off its pack's sites asks first where the person can be asked (`/run`, in the panel, as the
 * chat's run_action does: capabilities.ts `packQuestion`), and is refused where nobody can be
 * (the popup's Run), with the way to run it where Ava can ask.
 */
async function siteCheckedEngine(tabId: number, guard?: StepGuard, plans?: ShowPlans): Promise<ActionEngine> {
  const engine = await engineFor(tabId, guard)
  const registry = await getRegistry()
  const env = await vaultStore.get()
  const secrets = await boundSecrets(env)
  const cache = selectorCaches.get(tabId)
  // Without a guard of its own (a run asked for by a message with nobody to ask), the guard of a
  // door nobody watches: every question is UNATTENDED, naming where Ava can ask.
  const { safety, agent } = await settingsStore.get()
  const gate: StepGuard = guard ?? {
    confirm: [...safety.confirm],
    sites: { allow: safety.allowDomains, deny: safety.denyDomains },
    here: async () => currentTabUrl(tabId) ?? '',
    ask: async () => ({ unattended: 'running it with /run in the panel, where Ava can ask you' }),
    step: stepCounter(agent.stepLimit),
  }
  // The action through the one guard (core/gate/guard.ts `guardedRun`): its own questions asked
  // before its first step, each step judged by the page.
  const guarded =
    (debug: boolean) =>
    async (name: string, params: Record<string, unknown> = {}, options: RunOptions = {}) => {
      const url = currentTabUrl(tabId) ?? ''
      return guardedRun(
        {
          registry,
          guard: gate,
          url,
          capabilities: await actionCapabilities(name),
          // `/run` and the popup's Run, where the person is asked: the page draws the plan. A door
          // that does not say which plans it shows (a schedule) shows only those that ask anyway.
          ...(guard ? { draw: drawThrough(tabSender(tabId), options.signal ?? new AbortController().signal) } : {}),
          plans: plans ?? 'asking',
          secrets: env,
        },
        name,
        params,
        (g) =>
          createEngine({
            registry,
            port: createRemotePort(tabId, g, secrets),
            env,
            ...(cache ? { selectorCache: cache } : {}),
          }),
        debug ? { ...options, debug: true } : options,
      )
    }
  const checked = Object.create(engine) as ActionEngine
  checked.run = guarded(false)
  checked.debug = guarded(true)
  return checked
}

/** The step limit of one run, by the guard's one count. */
function stepCounter(limit: number): () => void {
  const count = createStepCount(
    limit,
    (n) => new PortError('STEP_FAILED', `The run reached the step limit (${n}) and stopped; raise it in options.`),
  )
  return () => count.one()
}

export function currentTabUrl(tabId: number): string | undefined {
  return currentDoc(tabId)?.url
}

/**
 * What a registry action can do (capabilities.ts), with the actions it `run`s, and the sites of its
 * pack: for the question a pack step that reads fields or sends page data asks off those sites.
 * Undefined for Ava's built-in packs (Element Plus's select reads its own input to say what it chose).
 */
export async function actionCapabilities(name: string): Promise<PackCapabilities | undefined> {
  const r = await getRegistry()
  const found = r.lookup(name)
  if (!found.ok) return undefined
  const actions: Record<string, ActionDefinition> = {}
  const visit = (a: ActionDefinition) => {
    if (actions[a.fullName]) return
    actions[a.fullName] = a
    const runs = (steps: typeof a.steps): void => {
      for (const s of steps) {
        if (packStepComposes(s.action) && typeof s.args.action === 'string') {
          const next = r.lookup(s.args.action)
          if (next.ok) visit(next.action)
        }
        runs(s.fallback ?? [])
      }
    }
    runs(a.steps)
  }
  visit(found.action)
  // Ava's own packs ship with it (reviewed in this repository): a person's or a URL's are someone else's.
  if (Object.values(actions).every((a) => a.source.source === 'builtin')) return undefined
  const ns = r.getNamespace(found.action.namespace)
  return packCapabilities({ sites: ns?.sites, selectors: ns?.selectors, actions })
}

/**
 * The registry actions most relevant to a request, described for the planner: only
 * those of packs made for the page's site (or for any site), as their text is their author's.
 */
export async function relevantActions(
  request: string,
  limit = 5,
  url?: string,
): Promise<import('../core/agent/prompt').ActionSummary[]> {
  const r = await getRegistry()
  const origin = url ? originOf(url) : null
  return discoverActions(r, request, limit * 2)
    .flatMap((name) => {
      const d = r.describe(name)
      if (!d) return []
      if (url !== undefined && !packShownOn(r.getNamespace(d.namespace)?.sites, origin)) return []
      const params = Object.entries(d.paramDetails).map(([pname, p]) => ({
        name: pname,
        type: p.type,
        required: !!p.required,
        description: p.description,
      }))
      return [{ name: d.name, description: d.description, params }]
    })
    .slice(0, limit)
}

/**
 * The same outcome as a message the panel says in the person's language (`describeResult` stays
 * the text for logs and the model); `reasonKey` names the locale's clause for the failure code,
 * `messageZh` is `message` in the Chinese UI.
 */
export function resultMsg(r: ActionResult): Msg {
  if (r.success)
    return {
      key: 'outcome.packRun.ok',
      params: { action: r.action, s: (Math.max(r.durationMs, 100) / 1000).toFixed(1) },
    }
  const e = r.error
  if (e?.code === 'VERIFY_FAILED') {
    const zh = e.details?.messageZh
    // Without a Chinese message the Chinese UI would say English: the clause for the code is said
    // instead, in either language, and the pack's message is in the details.
    if (typeof zh === 'string' && zh)
      return { key: 'outcome.packRun.verifyFailed', params: { action: r.action, message: e.message, messageZh: zh } }
  }
  const reasonKey = failureOf(e?.code).say.reason ?? failureOf('STEP_FAILED').say.reason!
  if (e?.step !== undefined && e.stepAction)
    return {
      key: 'outcome.packRun.failedAt',
      params: { action: e.action, step: e.step, stepAction: e.stepAction, reasonKey },
    }
  return { key: 'outcome.packRun.failed', params: { action: r.action, reasonKey } }
}

/** One line (and the returned data) for the person, in markdown. */
export function describeResult(r: ActionResult): string {
  if (r.success) {
    const data =
      r.data && Object.keys(r.data).length ? `\n\n\`\`\`json\n${JSON.stringify(r.data, null, 2)}\n\`\`\`` : ''
    const fallbacks = r.fallbacksUsed.length ? ` (fallbacks used: ${r.fallbacksUsed.join(', ')})` : ''
    return `✓ **${r.action}** finished in ${Math.round(r.durationMs)} ms${fallbacks}.${data}`
  }
  return `✗ **${r.action}** failed: ${r.error?.code} — ${r.error?.message}${r.error?.suggestion ? `\n\n${r.error.suggestion}` : ''}`
}
