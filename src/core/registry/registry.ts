import type { PackIssue, RunNotice } from './errors'
import { loadPacks, type FileReport, type LoadResult, type PackSource } from './loader'
import { qualify, type ActionDefinition, type ActionParam, type ActionSource, type NamespaceDefinition } from './model'
import type { Risk } from './schema'
import type { RiskCategory } from '../exec'
import { actionRisk } from '../gate/guard'
import { didYouMean } from './validator'

// ActionRegistry: the in-memory index of every loaded action, by `namespace:component:action`.

/** A short view of an action, for lists and search results. */
export interface ActionInfo {
  name: string
  namespace: string
  description: string
  descriptionZh?: string
  deprecated: boolean
  deprecatedMessage?: string
  deprecatedMessageZh?: string
  aliasOf?: string
  /** The risk as the step guard will decide it (core/gate/guard.ts `actionRisk`), not only as the pack declared it. */
  risk: Risk
  /** The categories the guard asks about before the action's first step (a login: credentials). */
  asks: RiskCategory[]
  params: string[]
  source: ActionSource
  inheritedFrom?: string
}

export interface NamespaceInfo {
  namespace: string
  version: string
  description: string
  descriptionZh?: string
  sources: ActionSource[]
  actions: ActionInfo[]
}

/** Everything a caller needs to call an action; secret defaults are never shown. */
export interface ActionDescription extends ActionInfo {
  since?: string
  paramDetails: Record<string, ActionParam>
  returns: Record<string, string>
  verify: ActionDefinition['verify']
  steps: ActionDefinition['steps']
  timeout?: number
}

export type Lookup =
  | {
      ok: true
      action: ActionDefinition
      namespace: NamespaceDefinition
      requested: string
      warnings: string[]
      notices: RunNotice[]
    }
  | { ok: false; message: string; suggestion?: string }

/** Alias chains longer than this are treated as loops; the validator already refuses real loops. */
const kMaxAliasHops = 10

function info(action: ActionDefinition): ActionInfo {
  return {
    name: action.fullName,
    namespace: action.namespace,
    description: action.description,
    descriptionZh: action.descriptionZh,
    deprecated: action.deprecated,
    deprecatedMessage: action.deprecatedMessage,
    deprecatedMessageZh: action.deprecatedMessageZh,
    aliasOf: action.aliasOf === undefined ? undefined : qualify(action.aliasOf, action.namespace),
    ...actionRisk(action),
    params: Object.keys(action.params),
    source: action.source,
    inheritedFrom: action.inheritedFrom,
  }
}

export type SourceProvider = () => readonly PackSource[] | Promise<readonly PackSource[]>
/** How `reload` turns sources into a result; the extension's restores a cached one (cache.ts). */
export type SourceLoader = (sources: readonly PackSource[]) => LoadResult | Promise<LoadResult>

export class ActionRegistry {
  private namespaces = new Map<string, NamespaceDefinition>()
  private index = new Map<string, ActionDefinition>()
  private last: LoadResult = { namespaces: [], files: [], issues: [] }
  private readonly reloadListeners = new Set<() => void>()

  constructor(
    private readonly provider?: SourceProvider,
    private readonly loader: SourceLoader = loadPacks,
  ) {}

  /** Replaces the contents with what `sources` hold. Invalid files are skipped and reported. */
  load(sources: readonly PackSource[]): LoadResult {
    return this.adopt(loadPacks(sources))
  }

  /** Replaces the contents with an already loaded result (one restored from a cache). */
  adopt(result: LoadResult): LoadResult {
    this.namespaces = new Map(result.namespaces.map((ns) => [ns.namespace, ns]))
    this.index = new Map()
    for (const ns of result.namespaces)
      for (const action of Object.values(ns.actions)) this.index.set(action.fullName, action)
    this.last = result
    return result
  }

  /** `action reload`: reads the sources again and tells listeners (selector cache) to forget. */
  async reload(): Promise<LoadResult> {
    const sources = this.provider ? await this.provider() : []
    const result = this.adopt(await this.loader(sources))
    for (const listener of this.reloadListeners) listener()
    return result
  }

  onReload(listener: () => void): () => void {
    this.reloadListeners.add(listener)
    return () => this.reloadListeners.delete(listener)
  }

  get issues(): PackIssue[] {
    return this.last.issues
  }

  get files(): FileReport[] {
    return this.last.files
  }

  get size(): number {
    return this.index.size
  }

  getNamespace(name: string): NamespaceDefinition | undefined {
    return this.namespaces.get(name)
  }

  /**
   * The action by fully qualified name, or by `component:action` when exactly one namespace has
   * it, so people can type the short form.
   */
  get(name: string): ActionDefinition | undefined {
    const exact = this.index.get(name)
    if (exact || name.split(':').length >= 3) return exact
    const matches = [...this.index.values()].filter((a) => a.name === name)
    return matches.length === 1 ? matches[0] : undefined
  }

  /** `get`, then follows `alias_of` and collects deprecation warnings. */
  lookup(requested: string): Lookup {
    let action = this.get(requested)
    if (!action) {
      const all = [...this.index.keys()]
      const short = [...this.index.values()].filter((a) => a.name === requested).map((a) => a.fullName)
      const hint = short.length > 1 ? ` Several namespaces have it: ${short.join(', ')}.` : didYouMean(requested, all)
      return {
        ok: false,
        // What to do about ACTION_NOT_FOUND in general is the code's hint (src/core/failure.ts).
        message: `No action "${requested}".${hint}`,
      }
    }
    const notices: RunNotice[] = []
    for (let hops = 0; ; hops++) {
      if (action.deprecated) {
        const params: RunNotice['params'] = { action: action.fullName }
        if (action.deprecatedMessage) params.message = action.deprecatedMessage
        if (action.deprecatedMessageZh) params.messageZh = action.deprecatedMessageZh
        notices.push({
          code: 'DEPRECATED',
          params,
          text: `${action.fullName} is deprecated${action.deprecatedMessage ? `: ${action.deprecatedMessage}` : '.'}`,
        })
      }
      if (action.aliasOf === undefined) break
      const target = qualify(action.aliasOf, action.namespace)
      const next = this.index.get(target)
      if (!next || hops >= kMaxAliasHops) {
        return {
          ok: false,
          message: `${action.fullName} is an alias of "${target}", which is not loaded.`,
          suggestion: 'Load the pack that defines it, or call the new name directly.',
        }
      }
      if (!action.deprecated)
        notices.push({
          code: 'ALIAS',
          params: { action: action.fullName, target },
          text: `${action.fullName} is an alias of ${target}.`,
        })
      action = next
    }
    const namespace = this.namespaces.get(action.namespace) as NamespaceDefinition
    return { ok: true, action, namespace, requested, warnings: notices.map((n) => n.text), notices }
  }

  /** action.list: namespaces with their actions, optionally one namespace only. */
  list(namespace?: string): NamespaceInfo[] {
    const out: NamespaceInfo[] = []
    for (const ns of [...this.namespaces.values()].sort((a, b) => a.namespace.localeCompare(b.namespace))) {
      if (namespace !== undefined && ns.namespace !== namespace) continue
      out.push({
        namespace: ns.namespace,
        version: ns.version,
        description: ns.description,
        descriptionZh: ns.descriptionZh,
        sources: ns.sources,
        actions: Object.values(ns.actions)
          .map(info)
          .sort((a, b) => a.name.localeCompare(b.name)),
      })
    }
    return out
  }

  /** action.describe. */
  describe(name: string): ActionDescription | undefined {
    const action = this.get(name)
    if (!action) return undefined
    const paramDetails: Record<string, ActionParam> = {}
    for (const [key, p] of Object.entries(action.params))
      paramDetails[key] = p.secret && p.default !== undefined ? { ...p, default: '***' } : p
    return {
      ...info(action),
      since: action.since,
      paramDetails,
      returns: action.returns,
      verify: action.verify,
      steps: action.steps,
      timeout: action.timeout,
    }
  }

  /**
   * action.search: every word must appear in the name, a param name or the description;
   * name hits rank above param hits above description hits.
   */
  search(query: string): ActionInfo[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean)
    if (words.length === 0) return []
    const scored: Array<{ score: number; action: ActionDefinition }> = []
    for (const action of this.index.values()) {
      const name = action.fullName.toLowerCase()
      const params = Object.keys(action.params).join(' ').toLowerCase()
      // Either language: a Chinese request finds an action by its `description_zh`.
      const description = `${action.description}\n${action.descriptionZh ?? ''}`.toLowerCase()
      let score = 0
      let all = true
      for (const word of words) {
        const s = (name.includes(word) ? 4 : 0) + (params.includes(word) ? 2 : 0) + (description.includes(word) ? 1 : 0)
        if (s === 0) all = false
        score += s
      }
      if (all) scored.push({ score: action.deprecated ? score - 0.5 : score, action })
    }
    return scored
      .sort((a, b) => b.score - a.score || a.action.fullName.localeCompare(b.action.fullName))
      .map((s) => info(s.action))
  }

  /** Every action, for callers that build their own views (the planner's catalogue). */
  all(): ActionDefinition[] {
    return [...this.index.values()]
  }
}

export function createRegistry(provider?: SourceProvider, loader?: SourceLoader): ActionRegistry {
  return new ActionRegistry(provider, loader)
}
