import type { OnError, PackFile, ParamType, RawAction, RawSelectorDefinition, RawStep, Risk } from './schema'

// The typed model, what the registry and the engine work with once a file has passed
// validation. Field names are camelCase here; the YAML keeps the snake_case.

/** Where definitions come from, lowest priority first (加载优先级). */
export const kSourceKinds = [
  'builtin',
  'user',
  'cli-package',
  'cli-home',
  'cli-config',
  'cli-project',
  'env-path',
] as const
export type SourceKind = (typeof kSourceKinds)[number]

/** 来源追踪: every action knows the file it was defined in. */
export interface ActionSource {
  source: SourceKind
  file: string
}

export interface SelectorDefinition {
  primary: string
  fallback: string[]
}

export interface VersionOverride {
  selectors: Record<string, SelectorDefinition>
}

export interface VersionDetection {
  selector?: string
  attribute?: string
  meta?: string
  global?: string
}

export interface ActionCompatibility {
  minVersion?: string
  maxVersion?: string
  detect: VersionDetection
  /** In declaration order: when several patterns match, later ones win. */
  versionOverrides: Array<{ pattern: string; override: VersionOverride }>
}

export interface ActionParam {
  type: ParamType
  description: string
  descriptionZh?: string
  required: boolean
  default?: unknown
  values?: string[]
  secret: boolean
}

export interface ActionStep {
  action: string
  args: Record<string, unknown>
  when?: string | boolean
  output?: string
  timeout?: number
  retry: number
  retryDelay: number
  onError: OnError
  fallback?: ActionStep[]
}

export interface VerifyCondition {
  condition: string | boolean
  message: string
  /** `message_zh`: the same in Chinese, for the Chinese UI. */
  message_zh?: string
}

export interface ActionDefinition {
  /** `component:action`, e.g. `dialog:open`. */
  name: string
  namespace: string
  /** `namespace:component:action`, the key of the index. */
  fullName: string
  description: string
  /** `description_zh`: shown in the Chinese UI and matched by discovery as well as `description`. */
  descriptionZh?: string
  since?: string
  deprecated: boolean
  deprecatedMessage?: string
  /** `deprecated_message_zh`: the same in Chinese, for the Chinese UI. */
  deprecatedMessageZh?: string
  /** The action this one is an old name of, as written; two-part names are read in `namespace`. */
  aliasOf?: string
  risk: Risk
  timeout?: number
  params: Record<string, ActionParam>
  steps: ActionStep[]
  returns: Record<string, string>
  verify: VerifyCondition[]
  source: ActionSource
  /** Set when the action came into this namespace through `extends`. */
  inheritedFrom?: string
}

export interface NamespaceDefinition {
  namespace: string
  version: string
  description: string
  descriptionZh?: string
  /** `sites`: the origins the pack says it is for; none means any site (capabilities.ts). */
  sites?: string[]
  compatibility?: ActionCompatibility
  selectors: Record<string, SelectorDefinition>
  actions: Record<string, ActionDefinition>
  /** The files this namespace was assembled from, in merge order. */
  sources: ActionSource[]
  /** Namespaces this one extends, resolved by the loader. */
  extends: string[]
}

/** ActionStep default: "retryDelay 默认 1000". */
export const kDefaultRetryDelayMs = 1000

export function toSelectorDefinition(raw: RawSelectorDefinition): SelectorDefinition {
  return typeof raw === 'string'
    ? { primary: raw, fallback: [] }
    : { primary: raw.primary, fallback: raw.fallback ?? [] }
}

export function toStep(raw: RawStep): ActionStep {
  return {
    action: raw.action,
    args: raw.args ?? {},
    when: raw.when,
    output: raw.output,
    timeout: raw.timeout,
    retry: raw.retry ?? 0,
    retryDelay: raw.retryDelay ?? kDefaultRetryDelayMs,
    onError: raw.onError ?? 'abort',
    fallback: raw.fallback?.map(toStep),
  }
}

/** `dialog:open` inside namespace `eresh` is `eresh:dialog:open`; three-part names stay. */
export function qualify(name: string, namespace: string): string {
  return name.split(':').length >= 3 ? name : `${namespace}:${name}`
}

export function toAction(namespace: string, name: string, raw: RawAction, source: ActionSource): ActionDefinition {
  const params: Record<string, ActionParam> = {}
  for (const [key, p] of Object.entries(raw.params ?? {})) {
    params[key] = {
      type: p.type,
      description: p.description ?? '',
      ...(p.description_zh ? { descriptionZh: p.description_zh } : {}),
      required: p.required ?? false,
      default: p.default,
      values: p.values,
      secret: p.secret ?? false,
    }
  }
  return {
    name,
    namespace,
    fullName: `${namespace}:${name}`,
    description: raw.description ?? '',
    descriptionZh: raw.description_zh,
    since: raw.since,
    deprecated: raw.deprecated ?? false,
    deprecatedMessage: raw.deprecated_message,
    deprecatedMessageZh: raw.deprecated_message_zh,
    aliasOf: raw.alias_of,
    risk: raw.risk ?? 'low',
    timeout: raw.timeout,
    params,
    steps: (raw.steps ?? []).map(toStep),
    returns: raw.returns ?? {},
    verify: raw.verify ?? [],
    source,
  }
}

export function toNamespace(pack: PackFile, source: ActionSource): NamespaceDefinition {
  const selectors: Record<string, SelectorDefinition> = {}
  for (const [alias, def] of Object.entries(pack.selectors ?? {})) selectors[alias] = toSelectorDefinition(def)
  const actions: Record<string, ActionDefinition> = {}
  for (const [name, raw] of Object.entries(pack.actions)) actions[name] = toAction(pack.namespace, name, raw, source)
  const c = pack.compatibility
  const compatibility: ActionCompatibility | undefined = c && {
    minVersion: c.min_version,
    maxVersion: c.max_version,
    detect: {
      selector: c.version_selector,
      attribute: c.version_attribute,
      meta: c.version_meta,
      global: c.version_global,
    },
    versionOverrides: Object.entries(c.version_overrides ?? {}).map(([pattern, o]) => ({
      pattern,
      override: {
        selectors: Object.fromEntries(Object.entries(o.selectors).map(([k, v]) => [k, toSelectorDefinition(v)])),
      },
    })),
  }
  const parents = pack.extends === undefined ? [] : Array.isArray(pack.extends) ? pack.extends : [pack.extends]
  return {
    namespace: pack.namespace,
    version: pack.version,
    description: pack.description ?? '',
    descriptionZh: pack.description_zh,
    ...(pack.sites?.length ? { sites: pack.sites } : {}),
    compatibility,
    selectors,
    actions,
    sources: [source],
    extends: parents,
  }
}
