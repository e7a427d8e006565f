/**
 * What the test bundle exposes on `window.__avaObserve`: the page-side engine and the pure core
 * functions the tests and the bench run on its snapshots in the page (the listing, the frame merge).
 */
export * from '../../src/dom/observe'
export { serialize } from '../../src/core/page/serialize'
export { mergeFrameSnapshot } from '../../src/core/page/frames'
// The one name computation, for the accname cases run in Chromium (e2e/observe/accname.test.ts).
export { accessibleName, roleOf } from '../../src/dom/locators'
export { guessedName } from '../../src/dom/words'
