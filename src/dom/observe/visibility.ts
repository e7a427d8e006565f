/**
 * Visibility of one element, asked only for candidates (interactables and content blocks), with
 * the engine's native helper first: `Element.checkVisibility()` answers display, visibility,
 * opacity and content-visibility for the element and all its ancestors in one call.
 * Geometry (size, clipping by `overflow: hidden` ancestors, off-screen tricks) is checked on the
 * one `getBoundingClientRect()` read each candidate gets.
 */

/** Smaller boxes are the "visually hidden" pattern (1×1 px, clipped), not something to click. */
export const kMinSide = 2

const kVisibleOpts = {
  opacityProperty: true,
  visibilityProperty: true,
  contentVisibilityAuto: true,
  // Names Chromium used before 121; harmless where unknown.
  checkOpacity: true,
  checkVisibilityCSS: true,
}
const kVisibleNoAutoOpts = {
  opacityProperty: true,
  visibilityProperty: true,
  checkOpacity: true,
  checkVisibilityCSS: true,
}

export interface ClipBox {
  left: number
  top: number
  right: number
  bottom: number
}

export type Visibility = 'visible' | 'hidden' | 'skipped'

/**
 * CSS visibility of `el`: 'skipped' means it is inside a `content-visibility: auto` subtree the
 * browser has not rendered yet (content that appears when scrolled near).
 */
export function cssVisibility(el: Element, style: CSSStyleDeclaration | null): Visibility {
  if (typeof el.checkVisibility === 'function') {
    if (el.checkVisibility(kVisibleOpts as CheckVisibilityOptions)) return 'visible'
    return el.checkVisibility(kVisibleNoAutoOpts as CheckVisibilityOptions) ? 'skipped' : 'hidden'
  }
  // Engines without checkVisibility: the element's own computed style (visibility is inherited,
  // so it already reflects the ancestors; opacity is not and is checked on the element only).
  if (!style) return 'visible'
  if (style.visibility === 'hidden' || style.visibility === 'collapse') return 'hidden'
  if (style.opacity === '0') return 'hidden'
  return 'visible'
}

/** True when a viewport-space box is too small, fully clipped away, or parked off the page. */
export function geometryHidden(r: DOMRect, clip: ClipBox | null, scrollX: number, scrollY: number): boolean {
  if (r.width < kMinSide || r.height < kMinSide) return true
  if (clip && (r.right <= clip.left || r.left >= clip.right || r.bottom <= clip.top || r.top >= clip.bottom))
    return true
  // `left: -9999px` and friends: entirely before the document's origin, never scrollable to.
  if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return true
  return false
}

export function intersectClip(r: DOMRect, outer: ClipBox | null): ClipBox {
  const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom }
  if (!outer) return box
  return {
    left: Math.max(box.left, outer.left),
    top: Math.max(box.top, outer.top),
    right: Math.min(box.right, outer.right),
    bottom: Math.min(box.bottom, outer.bottom),
  }
}
