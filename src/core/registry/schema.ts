import semver from 'semver'
import { z } from 'zod'

// The pack file, as written in YAML (snake_case at file level, camelCase inside steps,
// as the typed ActionStep spells it). Objects are strict so that a typo is an error, not a silent no-op.

/** "step_timeout"/"action_timeout": no step or action may ask for more than the action ceiling. */
export const kMaxTimeoutMs = 300_000
/** Retries multiply the time a failing step takes; ten is already a lot of patience. */
export const kMaxRetry = 10
/** A minute between attempts is the longest pause that still looks like a retry, not a hang. */
export const kMaxRetryDelayMs = 60_000

export const kParamTypes = ['string', 'number', 'boolean', 'enum', 'array', 'object'] as const
export type ParamType = (typeof kParamTypes)[number]

export const kOnError = ['continue', 'abort', 'fallback'] as const
export type OnError = (typeof kOnError)[number]

export const kRisks = ['low', 'high'] as const
export type Risk = (typeof kRisks)[number]

// Namespaces and names end up in `namespace:component:action`, so they may not hold a colon.
export const kNamespacePattern = /^[a-z][a-z0-9_-]*$/
export const kActionNamePattern = /^[a-z][a-zA-Z0-9_-]*:[a-z][a-zA-Z0-9_-]*$/
export const kIdentifierPattern = /^[\p{L}_][\p{L}\p{N}_-]*$/u

const SemverString = z.string().refine((v) => semver.valid(v) !== null, {
  params: { code: 'INVALID_VALUE', expected: 'a semantic version such as 1.2.0' },
})

export const SelectorDefinitionSchema = z.union([
  z.string().min(1),
  z.strictObject({
    primary: z.string().min(1),
    fallback: z.array(z.string().min(1)).optional(),
  }),
])
export type RawSelectorDefinition = z.infer<typeof SelectorDefinitionSchema>

export const ParamSchema = z.strictObject({
  type: z.enum(kParamTypes),
  description: z.string().optional(),
  /** Shown instead of `description` in the Chinese UI. */
  description_zh: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
  values: z.array(z.string()).min(1).optional(),
  secret: z.boolean().optional(),
})
export type RawParam = z.infer<typeof ParamSchema>

export interface RawStep {
  action: string
  args?: Record<string, unknown>
  when?: string | boolean
  output?: string
  timeout?: number
  retry?: number
  retryDelay?: number
  onError?: OnError
  fallback?: RawStep[]
}

// The getter keeps the recursion lazy; the cache keeps zod from building a new array schema on
// every access (which made parsing several times slower).
let fallbackSchema: z.ZodType<RawStep[] | undefined> | undefined

export const StepSchema: z.ZodType<RawStep> = z.strictObject({
  action: z.string().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
  when: z.union([z.string(), z.boolean()]).optional(),
  output: z.string().regex(kIdentifierPattern).optional(),
  timeout: z.number().int().positive().max(kMaxTimeoutMs).optional(),
  retry: z.number().int().min(0).max(kMaxRetry).optional(),
  retryDelay: z.number().int().min(0).max(kMaxRetryDelayMs).optional(),
  onError: z.enum(kOnError).optional(),
  get fallback() {
    return (fallbackSchema ??= z.array(StepSchema).min(1).optional())
  },
})

export const VerifySchema = z.strictObject({
  condition: z.union([z.string(), z.boolean()]),
  message: z.string(),
  /** The message in Chinese, for the Chinese UI. */
  message_zh: z.string().min(1).optional(),
})

export const ActionSchema = z.strictObject({
  description: z.string().min(1).optional(),
  /** The description in Chinese, for the Chinese UI and for discovery from Chinese requests. */
  description_zh: z.string().min(1).optional(),
  since: SemverString.optional(),
  deprecated: z.boolean().optional(),
  deprecated_message: z.string().optional(),
  /** The deprecation message in Chinese, shown in the Chinese UI. */
  deprecated_message_zh: z.string().min(1).optional(),
  alias_of: z.string().optional(),
  /** Used by the safety feature: high-risk actions ask the person before they run. */
  risk: z.enum(kRisks).optional(),
  timeout: z.number().int().positive().max(kMaxTimeoutMs).optional(),
  params: z.record(z.string().regex(kIdentifierPattern), ParamSchema).optional(),
  steps: z.array(StepSchema).optional(),
  returns: z.record(z.string().regex(kIdentifierPattern), z.string()).optional(),
  verify: z.array(VerifySchema).optional(),
})
export type RawAction = z.infer<typeof ActionSchema>

export const VersionOverrideSchema = z.strictObject({
  selectors: z.record(z.string(), SelectorDefinitionSchema),
})

export const CompatibilitySchema = z.strictObject({
  min_version: SemverString.optional(),
  max_version: SemverString.optional(),
  /** Element whose text (or `version_attribute`) holds the library version. */
  version_selector: z.string().min(1).optional(),
  version_attribute: z.string().min(1).optional(),
  /** `<meta name="...">` whose content holds the version. */
  version_meta: z.string().min(1).optional(),
  /** Property path on the page's global object, e.g. `ElementPlus.version`; read, never run. */
  version_global: z
    .string()
    .regex(/^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u)
    .optional(),
  version_overrides: z.record(z.string(), VersionOverrideSchema).optional(),
})
export type RawCompatibility = z.infer<typeof CompatibilitySchema>

export const PackSchema = z.strictObject({
  namespace: z.string().regex(kNamespacePattern),
  version: SemverString,
  description: z.string().optional(),
  description_zh: z.string().optional(),
  extends: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  /** The sites the pack is for ("bank.com", "https://shop.example"): its text reaches the model only there (capabilities.ts). */
  sites: z.array(z.string().min(1)).optional(),
  compatibility: CompatibilitySchema.optional(),
  selectors: z.record(z.string().regex(kIdentifierPattern), SelectorDefinitionSchema).optional(),
  actions: z.record(z.string().regex(kActionNamePattern), ActionSchema),
})
export type PackFile = z.infer<typeof PackSchema>

/** What each field of a pack may be, for messages that list the allowed keys. */
export function allowedKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape
  return shape ? Object.keys(shape) : []
}
