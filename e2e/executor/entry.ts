/**
 * What the test bundle exposes on `window.__avaExec`: the executor, the locators, the page port,
 * Observe (for stale-id tests) and the core registry (to run packs through the port in the page).
 */
export {
  executeInstruction,
  runCommand,
  semanticMatch,
  parseQuery,
  tokenize,
  scoreElement,
  locate,
  kDomActionNames,
  actionRegistry,
} from '../../src/dom/executor'
export * as locators from '../../src/dom/locators'
export { createPagePort } from '../../src/dom/page/local'
export { observe, watchListenerHints } from '../../src/dom/observe'
export { createRegistry, createEngine, SelectorCache } from '../../src/core/registry'
export * as words from '../../src/dom/words'
