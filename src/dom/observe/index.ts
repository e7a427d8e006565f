/**
 * Observe: the semantic page engine. Page-side only; the content
 * script lazy-loads this module on first use. What it produces (the snapshot types), the listing
 * serializer and the frame merge are pure and live in core/page.
 */
export { observe, observeYielding, yieldToPage, kReadSliceMs, type ObserveOptions } from './observe'
export { resolveHandle, safeResolveHandle, replacementOf, splitFrameId, idOfElement, listedElements } from './ids'
export {
  waitForReady,
  openModals,
  type PendingRequestSource,
  type ReadyOptions,
  type ReadyReport,
  type ModalInfo,
} from './readiness'
export { scrollAndCollect, type ScrollCollectOptions, type ScrollCollectResult } from './dynamic'
export { showOverlay, hideOverlay } from './overlay'
export { watchListenerHints } from './listeners'
export { ObserveError, type ObserveErrorCode, type Result } from './errors'

import { clearAgentIds as clearIds } from './ids'
import { forgetCardContexts } from './observe'

/** Forgets all ids. */
export function clearAgentIds(): void {
  clearIds()
  forgetCardContexts()
}
