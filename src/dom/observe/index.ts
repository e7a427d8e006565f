/**
 * Observe: the semantic page engine (seed 002, seed 003 Observe). Page-side only; the content
 * script lazy-loads this module on first use.
 */
export { observe } from './observe'
export { serialize, elementToken, kDefaultBudgetTokens, type SerializeOptions, type SerializedPage } from './serialize'
export { resolveHandle, safeResolveHandle, splitFrameId, kAgentIdAttr } from './ids'
export { waitForReady, openModals, type PendingRequestSource, type ReadyOptions, type ReadyReport, type ModalInfo } from './readiness'
export { scrollAndCollect, type ScrollCollectOptions, type ScrollCollectResult } from './dynamic'
export { mergeFrameSnapshot } from './frames'
export { showOverlay, hideOverlay } from './overlay'
export { estimateTokens } from './tokens-estimate'
export { ObserveError, type ObserveErrorCode, type Result } from './errors'
export * from './types'

import { clearAgentIds as clearIds } from './ids'
import { forgetCardContexts } from './observe'

/** Removes every `data-agent-id` from the document and forgets all ids. */
export function clearAgentIds(doc: Document = document): void {
  clearIds(doc)
  forgetCardContexts()
}
