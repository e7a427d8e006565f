/**
 * Click or drag? A press that travels, or lasts past a short hold while moving, is a drag and
 * must not toggle the panel (a drag over 100 ms never toggles).
 */
export const kDragDistancePx = 4 // hand tremor on a click stays under this
export const kDragMinMs = 100

export interface Gesture {
  durationMs: number
  distancePx: number
}

export function isDrag(g: Gesture): boolean {
  return g.distancePx > kDragDistancePx || (g.durationMs > kDragMinMs && g.distancePx > 0)
}

/** Keeps the button fully on screen after a drag or a window resize. */
export function clampPosition(
  x: number,
  y: number,
  size: number,
  viewport: { width: number; height: number },
): { x: number; y: number } {
  const max = (v: number) => Math.max(0, v - size)
  return { x: Math.min(Math.max(0, x), max(viewport.width)), y: Math.min(Math.max(0, y), max(viewport.height)) }
}
