// Public API of recorded flows: the format, recording to steps, replay with
// guarantees, healing, and conversion to a registry pack action or a DevTools recording. Core
// only: runs on Node, in the service worker and in the page.

export * from './schema'
export * from './variables'
export {
  reduceEvents,
  buildFlow,
  flowFromEvents,
  kCausedNavigationMs,
  RawEventSchema,
  RecordedTargetSchema,
  type RawEvent,
  type RecordedTarget,
  type BuildOptions,
} from './record'
export { flowFromRun, levelOfLocator, type RunToFlowOptions } from './from-run'
export {
  similarity,
  textSimilarity,
  normalizeText,
  contextHash,
  kMinSimilarity,
  kKeyAttributes,
  type Similarity,
} from './similarity'
export {
  replayFlow,
  type FlowPort,
  type FlowRunResult,
  type RepairFn,
  type RepairRequest,
  type ReplayOptions,
  type RunStepOptions,
  type StepCandidate,
  type StepFailureCode,
  type StepOutcome,
  type StepReport,
} from './replay'
export {
  healDiff,
  applyHeal,
  recordRun,
  flaggedSteps,
  needsHealingEveryTime,
  kRecentRuns,
  kFlagAfterRuns,
  HealProposalSchema,
  type HealProposal,
} from './heal'
export {
  addFlowToPack,
  flowToAction,
  actionSlug,
  kDefaultFlowNamespace,
  kFlowComponent,
  FlowPackError,
  type FlowActionOptions,
} from './to-pack'
export { toDevTools, toDevToolsSelector, type DevToolsRecording, type DevToolsStep } from './devtools'
export { formatReport, formatStepReport } from './format'
