/**
 * What `ava run` injects into every page it drives (bundled with esbuild as an IIFE on
 * `window.__avaRun`): the same page-side code the extension's content script runs — the flow step
 * runner and the registry's page BrowserPort — so a headless run behaves as Ava does in Chrome.
 */
export { runFlowStep } from './step'
export { generateSelectors, snapshotOf } from './selectors'
export { createPagePort } from '../port'
