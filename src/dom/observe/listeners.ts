/**
 * Listener hints, the isolated-world half (issue 20 §1): which elements of a document the page's
 * scripts made clickable without semantics, as the main-world script (content/listeners-main.ts)
 * recorded them. Only DOM nodes and events cross between the worlds: asking is one event on the
 * document, and the answer is one event back on it whose target ranges (StaticRanges, which the
 * document does not track) start at the hinted elements, caught here in the capture phase, all
 * synchronously within `dispatchEvent`. Nothing is written into the page's DOM.
 *
 * The page can send the same events. A hint therefore only makes an element a candidate, exactly
 * as an `onclick` attribute the page wrote would; it is never trusted for anything else (names,
 * roles and visibility come from the scan as for any element). Without the main-world script (a
 * page opened before the extension loaded, an injected test bundle) there are simply no hints.
 */

/** The request event, dispatched on the document (must match listeners-main.ts). */
export const kAskHintsEvent = 'ava-hints?'
/** The answer: one InputEvent on the document, a target range per hinted element (must match listeners-main.ts). */
export const kHintEvent = 'ava-hint'

const kNone: ReadonlySet<Element> = new Set()

/** The elements of `doc` (shadow roots included) the page's scripts listen on for a click or key. */
export function listenerHints(doc: Document): ReadonlySet<Element> {
  const view = doc.defaultView
  if (!view) return kNone
  let hints: Set<Element> | null = null
  const collect = (e: Event) => {
    e.stopImmediatePropagation()
    const ranges = (e as InputEvent).getTargetRanges?.() ?? []
    for (let i = 0; i < ranges.length; i++) {
      const node = ranges[i].startContainer
      if (node.nodeType === 1) (hints ??= new Set()).add(node as Element)
    }
  }
  doc.addEventListener(kHintEvent, collect, true)
  try {
    doc.dispatchEvent(new view.CustomEvent(kAskHintsEvent))
  } catch {
    // A page that breaks the request only costs hints.
  } finally {
    doc.removeEventListener(kHintEvent, collect, true)
  }
  return hints ?? kNone
}
