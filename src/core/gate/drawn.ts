/**
 * The element a step will act on, described as a person sees it. The page locates
 * once and answers with this; the risk check judges it, the question shows it, and the person's
 * yes binds to that element by `handle`: on the confirmed dispatch the page takes the element
 * from the handle (never locating again), draws it again and compares, and after the pointer
 * events hit-tests the click point. Site and download checks judge the same description
 * (`frame`, `href`, `form`, `download`).
 */
export interface DrawnTarget {
  /** The element's role as a person meets it: button, link, textbox, checkbox, … */
  role: string
  /**
   * The name a person reads: rendered text including ::before/::after content, images' alt,
   * SVG titles and text (also of <use> and SVG images), in visual order (bidi overrides resolved).
   */
  name: string
  /**
   * The name assistive technology is given apart from the drawing (aria-label, aria-labelledby):
   * a page can change only this and leave the drawing alone. Part of "the same element", never
   * shown on its own.
   */
  said?: string
  /** The text of a layer drawn over the element's click point (an overlay shows this, not `name`). */
  covered?: string
  /**
   * A drag's: what a person reads along its path and where it ends — the slider's label, its
   * track's words and those beside it, what is drawn under the path (src/dom/drawn.ts `drawnAlong`).
   */
  along?: string
  /**
   * For a control that draws no words of its own, or only bare ones ("Go", "OK", "→"): the words a
   * person sees next to it, found where they are drawn (flex `order`, reversed rows and absolute
   * placement move them away from their place in the DOM; src/dom/drawn.ts `besideOf`).
   */
  beside?: string
  /**
   * A picture Ava cannot read (a canvas, a raster or remote image, a counter style of the page's
   * own it cannot see) is drawn on or over an element that names itself in words: the screen may
   * say something else than `name`.
   */
  painted?: boolean
  /** The origin of the element's own document (a frame's, not the top page's). */
  frame: string
  /** Where a link goes (absolute). */
  href?: string
  /** Where a form this element submits goes, and how. */
  form?: { action: string; method: string }
  /** What a click would download: the file name and the address it comes from. */
  download?: { name: string; url: string }
  /**
   * A plan's drawing only: the page's key for the very element drawn, in the document that drew it.
   * While that document lasts the approval is bound to that element, not to a look-alike; in the
   * next document (after a navigation) the drawing is all there is to compare. Never shown.
   */
  element?: string
}

/** Two descriptions of "the same element, drawn the same way". */
export function sameDrawn(a: DrawnTarget, b: DrawnTarget): boolean {
  return drawnKey(a) === drawnKey(b)
}

function drawnKey(d: DrawnTarget): string {
  return JSON.stringify([
    d.role,
    d.name,
    d.said ?? '',
    d.covered ?? '',
    d.along ?? '',
    d.beside ?? '',
    d.painted ?? false,
    d.frame,
    d.href ?? '',
    d.form?.action ?? '',
    d.form?.method ?? '',
    d.download?.name ?? '',
    d.download?.url ?? '',
  ])
}

/** The words a risk check reads off a drawn element: what it says, what is drawn over it, and a drag's path. */
export function drawnWords(d: DrawnTarget): string {
  return [d.name, d.covered, d.along, d.beside].filter(Boolean).join(' ')
}

/** How the question names the element: what the person reads, then what covers it. */
export function drawnLabel(d: DrawnTarget, max = 80): string {
  const name = d.name.length > max ? `${d.name.slice(0, max - 1)}…` : d.name
  const covered = d.covered ? (d.covered.length > max ? `${d.covered.slice(0, max - 1)}…` : d.covered) : ''
  let shown = covered && covered !== name ? `${name || d.role} (drawn over by “${covered}”)` : name || d.role
  if (d.beside) shown += ` (beside “${d.beside.length > max ? `${d.beside.slice(0, max - 1)}…` : d.beside}”)`
  if (!d.along) return shown
  const along = d.along.length > max ? `${d.along.slice(0, max - 1)}…` : d.along
  return `${shown} (dragged along “${along}”)`
}

/** Bidi format characters: embeddings, overrides, isolates and marks. */
const kBidiControls = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/

/**
 * `text` in the order it is drawn, for the explicit controls a page can use to disguise Latin
 * words (UAX #9 X1–X8 and L2, for text without right-to-left letters of its own): under a
 * right-to-left override characters take its odd level; elsewhere a Latin character sits at the
 * even level of its embedding; then every run at a level or above is reversed, highest first.
 * The controls themselves are dropped. Pure, so Node tests reach it.
 */
export function visualOrder(text: string): string {
  if (!kBidiControls.test(text)) return text
  type Frame = { level: number; override: 'rtl' | 'ltr' | null }
  const stack: Frame[] = [{ level: 0, override: null }]
  const chars: { ch: string; level: number }[] = []
  const push = (odd: boolean, override: Frame['override']) => {
    const top = stack[stack.length - 1].level
    const level = odd ? (top % 2 ? top + 2 : top + 1) : top % 2 ? top + 1 : top + 2
    if (level <= 125 && stack.length < 64) stack.push({ level, override })
  }
  for (const ch of text) {
    if (ch === '\u202e') push(true, 'rtl')
    else if (ch === '\u202d') push(false, 'ltr')
    else if (ch === '\u202b' || ch === '\u2067') push(true, null)
    else if (ch === '\u202a' || ch === '\u2066' || ch === '\u2068') push(false, null)
    else if (ch === '\u202c' || ch === '\u2069') {
      if (stack.length > 1) stack.pop()
    } else if (!kBidiControls.test(ch)) {
      const { level, override } = stack[stack.length - 1]
      // A Latin letter under an override takes its direction; otherwise it is drawn left to right.
      chars.push({ ch, level: override === 'rtl' ? level : level % 2 ? level + 1 : level })
    }
  }
  const max = Math.max(0, ...chars.map((c) => c.level))
  for (let level = max; level >= 1; level--) {
    for (let i = 0; i < chars.length;) {
      if (chars[i].level < level) {
        i++
        continue
      }
      let j = i
      while (j < chars.length && chars[j].level >= level) j++
      chars.splice(i, j - i, ...chars.slice(i, j).reverse())
      i = j
    }
  }
  return chars.map((c) => c.ch).join('')
}
