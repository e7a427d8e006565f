/**
 * Listener hints, the isolated-world half: which elements of a document the page's
 * scripts made clickable without semantics, as the main-world script (content/listeners-main.ts)
 * recorded them. Only DOM nodes and events cross between the worlds: the main world *pushes* one
 * event on the document whenever the page added a listener or changed its DOM (and once when the
 * boot script asks, at load, on every page); its target ranges (StaticRanges, which the document
 * does not track) start at the hinted elements. This side keeps the latest push per document, and a
 * read only looks at what it kept: Ava reading a page sends the page nothing, so the page cannot
 * time a read (docs/page-representation.md, "Listener hints"). Nothing is written into the DOM.
 *
 * The page can send the same events. A hint therefore only makes an element a candidate, exactly
 * as an `onclick` attribute the page wrote would; it is never trusted for anything else (names,
 * roles and visibility come from the scan as for any element). Without the main-world script (a
 * page opened before the extension loaded, an injected test bundle) there are simply no hints.
 */

/** The boot script's one request, at load, dispatched on the document (must match listeners-main.ts). */
export const kAskHintsEvent = 'ava-hints?'
/** A push: one InputEvent on the document, a target range per hinted element (must match listeners-main.ts). */
export const kHintEvent = 'ava-hint'

const kNone: ReadonlySet<Element> = new Set()

/**
 * The latest push per document, in this isolated world's global: the boot script and the lazily
 * loaded scanner may be separate module instances, and the page cannot see this world's globals.
 */
const kStore = Symbol.for('ava.listenerHints')
type Store = WeakMap<Document, ReadonlySet<Element>>

function store(): Store {
  const world = globalThis as { [kStore]?: Store }
  return (world[kStore] ??= new WeakMap())
}

/**
 * Keeps every push the main world makes on `doc` from now on. With `ask`, asks once for the
 * hints gathered so far: the boot script does so at load on every page, so the question says
 * nothing about whether or when Ava reads. Idempotent per document.
 */
export function watchListenerHints(doc: Document, ask = false): void {
  const hints = store()
  if (hints.has(doc)) return
  hints.set(doc, kNone)
  doc.addEventListener(
    kHintEvent,
    (e) => {
      const ranges = (e as InputEvent).getTargetRanges?.() ?? []
      const next = new Set<Element>()
      for (let i = 0; i < ranges.length; i++) {
        const node = ranges[i].startContainer
        if (node.nodeType === 1) next.add(node as Element)
      }
      hints.set(doc, next)
    },
    true,
  )
  if (!ask) return
  try {
    doc.dispatchEvent(new (doc.defaultView ?? window).CustomEvent(kAskHintsEvent))
  } catch {
    // A page that breaks the request only costs hints until its next change.
  }
}

/**
 * The elements of `doc` the page's scripts listen on for a click or key, as last pushed. A
 * document first seen here (a same-origin frame read from its parent) is watched from now on; it
 * is not asked, so its hints arrive with its next change.
 */
export function listenerHints(doc: Document): ReadonlySet<Element> {
  if (!doc.defaultView) return kNone
  const hints = store().get(doc)
  if (hints) return hints
  watchListenerHints(doc)
  return kNone
}
