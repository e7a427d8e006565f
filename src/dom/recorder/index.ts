/**
 * Record and replay in the page: selector generation, the recorder's listeners, and
 * one flow step resolved with guarantees and acted on by the executor.
 */
export {
  generateSelectors,
  snapshotOf,
  isGeneratedId,
  isTransientClass,
  isGeneratedClass,
  stableClasses,
  xpathString,
  contextText,
} from './selectors'
export { resolveTarget, kAmbiguitySettleMs, type Resolution, type ResolveOptions } from './resolve'
export { runFlowStep } from './step'
export { startRecording, describe, actionTarget, type RecorderOptions } from './record'
export { describeInstructionTarget } from './locate'
