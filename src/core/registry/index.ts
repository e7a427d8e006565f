// Public API of the Semantic Action Registry (design 000). Core only: runs on Node and in the
// service worker; the page side implements BrowserPort.

export * from './errors'
export * from './expr'
export { getByPath, parsePath, kForbiddenKeys, kScopes, type Scope } from './paths'
export {
  resolve,
  resolveValue,
  resolveObject,
  parseTemplate,
  hasPlaceholder,
  type Piece,
  type Placeholder,
} from './interpolate'
export { resolveCandidates, SelectorCache, kSelectorCacheSize } from './selectors'
export * from './schema'
export * from './model'
export { readYaml, kMaxPackBytes, kMaxAliasCount, kMaxYamlDepth, type Locate, type Located } from './yaml-source'
export {
  validatePack,
  parsePack,
  safeParsePack,
  validateExpression,
  didYouMean,
  kMaxSteps,
  type ValidationResult,
  type ValidateOptions,
  type SafeParsePackResult,
} from './validator'
export { findCycles, type Cycle, type RunEdge } from './cycles'
export { validateParams, type ParamsResult } from './params'
export {
  loadPacks,
  mergeNamespaces,
  type PackSource,
  type PackFileInput,
  type FileReport,
  type LoadResult,
} from './loader'
export {
  ActionRegistry,
  createRegistry,
  type ActionInfo,
  type ActionDescription,
  type NamespaceInfo,
  type Lookup,
  type SourceProvider,
  type SourceLoader,
} from './registry'
export {
  loadPacksCached,
  hashSources,
  encodeRegistry,
  decodeRegistry,
  kRegistryCacheFormat,
  CachedRegistrySchema,
  type CachedRegistry,
  type CachedLoad,
  type CacheOutcome,
  type RegistryCacheStore,
} from './cache'
export {
  normalizeVersion,
  matchVersion,
  checkCompatibility,
  applyOverrides,
  detectVersion,
  type DetectedVersion,
  type DetectionMethod,
} from './version'
export {
  PortError,
  type BrowserPort,
  type WaitCondition,
  type ElementState,
  type MouseButton,
  type ScrollDirection,
} from './port'
export {
  kStepActions,
  kStepActionNames,
  getStepAction,
  kUserScriptsHint,
  selectorArgsOf,
  waitConditionKind,
  type StepActionDescriptor,
  type StepContext,
  type WaitConditionKind,
} from './step-actions'
export {
  ActionEngine,
  createEngine,
  kDefaultStepTimeoutMs,
  kDefaultActionTimeoutMs,
  kMaxRunDepth,
  kMaxStepsPerAction,
  kWaitFallbackSettleMs,
  kWaitFallbackLoadMs,
  type StepStart,
  type ActionError,
  type ActionResult,
  type StepTrace,
  type ContextDump,
  type EngineOptions,
  type RunOptions,
} from './engine'
export {
  dryRun,
  formatDryRun,
  type DryRunResult,
  type DryRunOptions,
  type PlanAction,
  type PlanStep,
  type PlanSelector,
} from './plan'
export { Redactor, kMask, maskParams, maskEnv, envReferences } from './secrets'
export { formatList, formatSearch, formatDescription } from './format'
export {
  createActionApi,
  type ActionApi,
  type ActionApiDeps,
  type ActionApiMap,
  type ActionCommand,
  type ActionCommandType,
  type ActionRequest,
  type ActionResponse,
  type ValidationResponse,
} from './api'
export {
  parseGlobalConfig,
  GlobalConfigSchema,
  kDefaultGlobalConfig,
  type GlobalConfig,
  type ConfigResult,
} from './config'
export { diffPacks, type PackDiff, type UpdateKind } from './diff'
