import { z } from 'zod'
import type { SafeParseResult } from '../result'
import type { PackIssue, PackIssueCode } from './errors'
import { loadPacks, type FileReport, type LoadResult, type PackSource } from './loader'
import {
  kSourceKinds,
  type ActionCompatibility,
  type ActionDefinition,
  type ActionParam,
  type ActionSource,
  type ActionStep,
  type NamespaceDefinition,
  type SelectorDefinition,
} from './model'
import { kOnError, kParamTypes, kRisks } from './schema'

// parsing and validating the packs is the slow part of a service worker start (the
// `registry` bench prints it). The validated result is plain data, so it is kept as JSON keyed by
// a hash of every pack text and restored when the texts are the same. The stored form is never
// trusted: it is checked against the model's shape, and anything odd means a full parse.

/** Bumped when the stored shape changes, so an older form fails its schema instead of misleading. */
export const kRegistryCacheFormat = 5

/** What is stored: the hash of the sources it was made from, and the load result as JSON text. */
export const CachedRegistrySchema = z.object({
  format: z.literal(kRegistryCacheFormat),
  hash: z.string(),
  json: z.string(),
})
export type CachedRegistry = z.infer<typeof CachedRegistrySchema>

/** Where the cache lives; `typedKey` of src/storage satisfies it, a Map does in tests. */
export interface RegistryCacheStore {
  get(): Promise<CachedRegistry | null>
  set(value: CachedRegistry): Promise<void>
}

// ---- the model's shape -----------------------------------------------------------------------
// Each shape is `satisfies` a record of the model's own keys, so a field added to the model and
// forgotten here is a type error rather than a field silently dropped by zod on restore.

const SourceSchema = z.object({ source: z.enum(kSourceKinds), file: z.string() } satisfies Record<
  keyof ActionSource,
  z.ZodType
>)

const SelectorSchema = z.object({ primary: z.string(), fallback: z.array(z.string()) } satisfies Record<
  keyof SelectorDefinition,
  z.ZodType
>)

const ParamSchema = z.object({
  type: z.enum(kParamTypes),
  description: z.string(),
  descriptionZh: z.string().optional(),
  required: z.boolean(),
  default: z.unknown().optional(),
  values: z.array(z.string()).optional(),
  secret: z.boolean(),
} satisfies Record<keyof ActionParam, z.ZodType>)

const StepSchema: z.ZodType<ActionStep> = z.object({
  action: z.string(),
  args: z.record(z.string(), z.unknown()),
  when: z.union([z.string(), z.boolean()]).optional(),
  output: z.string().optional(),
  timeout: z.number().optional(),
  retry: z.number(),
  retryDelay: z.number(),
  onError: z.enum(kOnError),
  get fallback() {
    return z.array(StepSchema).optional()
  },
} satisfies Record<keyof ActionStep, z.ZodType>)

const ActionSchema = z.object({
  name: z.string(),
  namespace: z.string(),
  fullName: z.string(),
  description: z.string(),
  descriptionZh: z.string().optional(),
  since: z.string().optional(),
  deprecated: z.boolean(),
  deprecatedMessage: z.string().optional(),
  deprecatedMessageZh: z.string().optional(),
  aliasOf: z.string().optional(),
  risk: z.enum(kRisks),
  timeout: z.number().optional(),
  params: z.record(z.string(), ParamSchema),
  steps: z.array(StepSchema),
  returns: z.record(z.string(), z.string()),
  verify: z.array(
    z.object({ condition: z.union([z.string(), z.boolean()]), message: z.string(), message_zh: z.string().optional() }),
  ),
  source: SourceSchema,
  inheritedFrom: z.string().optional(),
} satisfies Record<keyof ActionDefinition, z.ZodType>)

const CompatibilitySchema = z.object({
  minVersion: z.string().optional(),
  maxVersion: z.string().optional(),
  detect: z.object({
    selector: z.string().optional(),
    attribute: z.string().optional(),
    meta: z.string().optional(),
    global: z.string().optional(),
  }),
  versionOverrides: z.array(
    z.object({ pattern: z.string(), override: z.object({ selectors: z.record(z.string(), SelectorSchema) }) }),
  ),
} satisfies Record<keyof ActionCompatibility, z.ZodType>)

const NamespaceSchema = z.object({
  namespace: z.string(),
  version: z.string(),
  description: z.string(),
  descriptionZh: z.string().optional(),
  sites: z.array(z.string()).optional(),
  compatibility: CompatibilitySchema.optional(),
  selectors: z.record(z.string(), SelectorSchema),
  actions: z.record(z.string(), ActionSchema),
  sources: z.array(SourceSchema),
  extends: z.array(z.string()),
} satisfies Record<keyof NamespaceDefinition, z.ZodType>)

const IssueSchema = z.object({
  // The codes are a type-only union (errors.ts); a stored code is only ever shown, so any string
  // our own loader wrote is taken as one.
  code: z.custom<PackIssueCode>((c) => typeof c === 'string'),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  path: z.array(z.union([z.string(), z.number()])),
  file: z.string(),
  line: z.number(),
  col: z.number(),
} satisfies Record<keyof PackIssue, z.ZodType>)

const FileReportSchema = z.object({
  path: z.string(),
  source: z.enum(kSourceKinds),
  ok: z.boolean(),
  namespace: z.string().optional(),
  issues: z.array(IssueSchema),
} satisfies Record<keyof FileReport, z.ZodType>)

/** `issues` is left out: it is every file's issues in file order, rebuilt on restore. */
const StoredResultSchema = z.object({ namespaces: z.array(NamespaceSchema), files: z.array(FileReportSchema) })

// ---- hash, encode, decode --------------------------------------------------------------------

/**
 * SHA-256 of every source kind, path and text, in order (a change of priority or of a file name
 * matters as much as a change of text). JSON gives the pieces unambiguous boundaries. Web Crypto
 * exists in service workers and in Node 20, and it is native: hashing the bundled packs costs far
 * less than parsing them.
 */
export async function hashSources(sources: readonly PackSource[]): Promise<string> {
  const framed = JSON.stringify(sources.map((s) => [s.source, s.files.map((f) => [f.path, f.text])]))
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(framed))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * The stored form of `result`, or undefined when JSON would change it: YAML can write `.inf`,
 * `.nan` and `-0` in a default or an argument, which JSON turns into null or 0. Such a pack is
 * simply parsed on every start.
 */
export function encodeRegistry(result: LoadResult, hash: string): CachedRegistry | undefined {
  let exact = true
  const json = JSON.stringify({ namespaces: result.namespaces, files: result.files }, (_key, value: unknown) => {
    if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) exact = false
    return value
  })
  return exact ? { format: kRegistryCacheFormat, hash, json } : undefined
}

/** The load result kept in `cached`, checked against the model's shape. */
export function decodeRegistry(cached: CachedRegistry): SafeParseResult<LoadResult, string> {
  let raw: unknown
  try {
    raw = JSON.parse(cached.json)
  } catch (error) {
    return { success: false, error: `cached registry is not JSON: ${(error as Error).message}` }
  }
  const parsed = StoredResultSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    return {
      success: false,
      error: `cached registry does not fit the model at ${first.path.join('.') || '(root)'}: ${first.message}`,
    }
  }
  const { namespaces, files } = parsed.data
  return { success: true, data: { namespaces, files, issues: files.flatMap((f) => f.issues) } }
}

/** `hit`: restored; `miss`: no cache for these texts; `invalid`: there was one, unusable (`problem` says why). */
export type CacheOutcome = 'hit' | 'miss' | 'invalid'

/**
 * `loadPacks(sources)`, restored from `store` when it holds the result for exactly these sources;
 * otherwise parsed and written back. A store that fails to read or write costs a parse, nothing
 * more: the cache only ever saves time.
 */
export async function loadPacksCached(sources: readonly PackSource[], store: RegistryCacheStore): Promise<CachedLoad> {
  const hash = await hashSources(sources)
  let problem: string | undefined
  try {
    const cached = await store.get()
    if (cached?.hash === hash) {
      const decoded = decodeRegistry(cached)
      if (decoded.success) return { result: decoded.data, cache: 'hit', hash }
      problem = decoded.error
    }
  } catch (error) {
    problem = `cache could not be read: ${(error as Error).message ?? error}`
  }
  const result = loadPacks(sources)
  const form = encodeRegistry(result, hash)
  // A full storage area is worth no more than a slower next start.
  if (form) await store.set(form).catch(() => undefined)
  return problem === undefined ? { result, cache: 'miss', hash } : { result, cache: 'invalid', hash, problem }
}

export interface CachedLoad {
  result: LoadResult
  cache: CacheOutcome
  /** The sources' hash, the key the result is (or would be) stored under. */
  hash: string
  problem?: string
}
