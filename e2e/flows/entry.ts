/**
 * What the flows test bundle exposes on `window.__avaFlows`: the page code `ava run` and the
 * content script use (step runner, selectors, recorder) and the core replay loop, so a whole
 * flow can be recorded and replayed inside one page.
 */
export {
  runFlowStep,
  generateSelectors,
  snapshotOf,
  startRecording,
  resolveTarget,
  isGeneratedId,
} from '../../src/dom/recorder'
export { replayFlow, flowFromEvents, parseFlow } from '../../src/core/flows'
