/**
 * Where Ava's button and panel go while a step acts on something under them: to
 * another corner of the window where neither covers the target, and never onto the person's
 * pointer, so a page cannot make a step move the panel under a click the person is about to make.
 * When no corner leaves the target clear, the panel folds to its button. Pure geometry: the
 * launcher (src/content/launcher.ts) draws it.
 */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}
export interface Point {
  x: number
  y: number
}
export interface Viewport {
  width: number
  height: number
}

/** Space kept between the panel and the window's edge, and between the panel and its button. */
export const kEdgeGap = 12
/** The button's distance from the window's edges in a corner. */
export const kCornerMargin = 20
/** Air kept between Ava and the target, and around the pointer. */
const kClearance = 8

/** The panel's box for a button at `button` (above it, or below it near the top; clamped to the window). */
export function panelBox(
  button: Point,
  buttonSize: number,
  panel: { width: number; height: number },
  view: Viewport,
): Box {
  const width = Math.min(panel.width, view.width - 2 * kEdgeGap)
  const height = Math.min(panel.height, view.height - 2 * kEdgeGap)
  const left = Math.max(
    kEdgeGap,
    Math.min(Math.max(kEdgeGap, button.x + buttonSize - panel.width), view.width - panel.width - kEdgeGap),
  )
  const above = button.y - panel.height - kEdgeGap
  const top =
    above >= kEdgeGap
      ? above
      : Math.min(button.y + buttonSize + kEdgeGap, Math.max(kEdgeGap, view.height - panel.height - kEdgeGap))
  return { x: left, y: top, width, height }
}

function overlaps(a: Box, b: Box, gap = 0): boolean {
  return (
    a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap
  )
}

function holds(box: Box, p: Point, gap: number): boolean {
  return p.x >= box.x - gap && p.x <= box.x + box.width + gap && p.y >= box.y - gap && p.y <= box.y + box.height + gap
}

export interface UiPlace {
  button: Point
  buttonSize: number
  /** The open panel's size, or null when only the button shows. */
  panel: { width: number; height: number } | null
}

/** What Ava covers now: the button and, when open, the panel. */
export function uiBoxes(ui: UiPlace, view: Viewport, fold = false): Box[] {
  const button = { x: ui.button.x, y: ui.button.y, width: ui.buttonSize, height: ui.buttonSize }
  return ui.panel && !fold ? [button, panelBox(ui.button, ui.buttonSize, ui.panel, view)] : [button]
}

/**
 * Where the button goes so that Ava leaves `target` clear: null when it covers no part of it
 * already; otherwise a corner (the mirror across the window first, then the others), with `fold`
 * when only a folded panel leaves the target clear. Corners that would put Ava on the pointer
 * are not used.
 */
export function keepOutSpot(
  target: Box,
  ui: UiPlace,
  view: Viewport,
  pointer?: Point | null,
): { button: Point; fold: boolean } | null {
  if (!uiBoxes(ui, view).some((b) => overlaps(b, target))) return null
  const s = ui.buttonSize
  const left = kCornerMargin
  const right = Math.max(kCornerMargin, view.width - s - kCornerMargin)
  const top = kCornerMargin
  const bottom = Math.max(kCornerMargin, view.height - s - kCornerMargin)
  const onRight = ui.button.x + s / 2 > view.width / 2
  const onBottom = ui.button.y + s / 2 > view.height / 2
  const x1 = onRight ? left : right
  const y1 = onBottom ? bottom : top
  const x0 = onRight ? right : left
  const y0 = onBottom ? top : bottom
  // The mirror keeps the panel at the height the person is used to; the rest follow.
  const corners: Point[] = [
    { x: x1, y: y1 },
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x0, y: y1 },
  ]
  const clear = (boxes: Box[]) =>
    boxes.every((b) => !overlaps(b, target, kClearance) && !(pointer && holds(b, pointer, kClearance)))
  for (const fold of ui.panel ? [false, true] : [false]) {
    for (const c of corners) if (clear(uiBoxes({ ...ui, button: c }, view, fold))) return { button: c, fold }
  }
  return null
}
