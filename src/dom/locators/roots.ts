/**
 * The trees a lookup searches: the document, every open shadow root inside it and the documents
 * of same-origin frames, recursively ("piercing open shadow roots and same-origin
 * frames"; cross-origin frames are out of reach and skipped).
 */
export type SearchRoot = Document | ShadowRoot

/** Nesting deeper than this is a page bug or a trap; real component trees stay far below it. */
const kMaxRootDepth = 16

export function frameDocument(frame: Element): Document | null {
  try {
    return (frame as HTMLIFrameElement).contentDocument ?? null
  } catch {
    // Cross-origin: the browser forbids the read.
    return null
  }
}

/** Every search root under `start`, the start first, in document order. */
export function searchRoots(start: Document | ShadowRoot | Element = document): SearchRoot[] {
  const out: SearchRoot[] = []
  const visit = (root: Document | ShadowRoot | Element, depth: number): void => {
    if (root.nodeType !== 1) out.push(root as SearchRoot)
    if (depth > kMaxRootDepth) return
    const doc = root.nodeType === 9 ? (root as Document) : (root.ownerDocument ?? document)
    const walker = doc.createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */)
    for (let n = walker.nextNode() as Element | null; n; n = walker.nextNode() as Element | null) {
      const shadow = n.shadowRoot
      if (shadow) visit(shadow, depth + 1)
      if (n.localName === 'iframe' || n.localName === 'frame') {
        const inner = frameDocument(n)
        if (inner?.documentElement) visit(inner, depth + 1)
      }
    }
  }
  visit(start, 0)
  return out
}

/** `querySelectorAll` across all search roots, in root order. */
export function deepQuerySelectorAll(
  css: string,
  start: Document | ShadowRoot | Element = document,
  roots = searchRoots(start),
): Element[] {
  const out: Element[] = []
  if (start.nodeType === 1) out.push(...(start as Element).querySelectorAll(css))
  for (const r of roots) out.push(...r.querySelectorAll(css))
  return out
}

/** The element at a point, descending into open shadow roots as a person's pointer would. */
export function deepElementFromPoint(doc: Document, x: number, y: number): Element | null {
  let hit = doc.elementFromPoint(x, y)
  for (let depth = 0; hit?.shadowRoot && depth < kMaxRootDepth; depth++) {
    const inner = hit.shadowRoot.elementFromPoint(x, y)
    if (!inner || inner === hit) break
    hit = inner
  }
  return hit
}

/** `a.contains(b)` that also sees through shadow boundaries (b inside a's shadow tree). */
export function deepContains(a: Element, b: Node): boolean {
  for (let n: Node | null = b; n;) {
    if (n === a) return true
    const parent: Node | null = n.parentNode
    n = parent && parent.nodeType === 11 ? ((parent as ShadowRoot).host ?? null) : parent
  }
  return false
}
