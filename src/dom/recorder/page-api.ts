/**
 * What `ava run` injects into every page it drives (bundled as an IIFE on `window.__avaRun`):
 * the page channel's receiver, the same one the extension's content script runs, so a headless
 * run behaves as Ava does in Chrome.
 */
import { createReceiver } from '../page/receiver'

export const receive = createReceiver()
export { generateSelectors, snapshotOf } from './selectors'
