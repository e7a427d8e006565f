/**
 * Merging a frame's own snapshot into its parent's (seed 002 §6.1). Same-origin frames are merged
 * during the scan; a cross-origin frame is scanned by the content script running inside it, and
 * the background hands that snapshot to this function to merge it under the `frame_<id>_` prefix.
 */
import type { ElementRecord, FrameInfo, PageSnapshot } from './types'

/**
 * Returns a new snapshot: `parent` with `child`'s elements, regions, groups and content added under
 * `frameId` (a `frame_<id>` from `parent.frames`), bounds moved into the parent's coordinates and
 * the frame marked `merged`. Neither input is modified.
 */
export function mergeFrameSnapshot(parent: PageSnapshot, frameId: string, child: PageSnapshot): PageSnapshot {
  const frame = parent.frames.find((f) => f.id === frameId)
  if (!frame) {
    throw new RangeError(`mergeFrameSnapshot: no frame "${frameId}" in the parent snapshot; frames are ${parent.frames.map((f) => f.id).join(', ') || 'none'}.`)
  }
  const prefix = `${frameId}_`
  const dx = frame.bounds.x - child.viewport.scrollX
  const dy = frame.bounds.y - child.viewport.scrollY
  const move = <T extends { x: number; y: number; width: number; height: number }>(b: T) => ({ ...b, x: b.x + dx, y: b.y + dy })
  const reId = (id: string) => prefix + id
  const elements: ElementRecord[] = child.elements.map((e) => ({
    ...e,
    id: reId(e.id),
    region: reId(e.region),
    bounds: move(e.bounds),
    relations: e.relations.map((r) => (r.targetId ? { ...r, targetId: reId(r.targetId) } : r)),
    ...(e.group ? { group: reId(e.group) } : {}),
    frame: e.frame ? reId(e.frame) : frameId,
  }))
  const frames: FrameInfo[] = parent.frames.map((f) => (f.id === frameId ? { ...f, status: 'merged' as const } : f))
  for (const f of child.frames) frames.push({ ...f, id: reId(f.id), bounds: move(f.bounds) })
  // The frame's elements go where the frame is in document order: after the parent's elements above it.
  const at = parent.elements.findIndex((e) => e.bounds.y > frame.bounds.y || (e.bounds.y === frame.bounds.y && e.bounds.x > frame.bounds.x))
  const merged = at < 0 ? [...parent.elements, ...elements] : [...parent.elements.slice(0, at), ...elements, ...parent.elements.slice(at)]
  return {
    ...parent,
    elements: merged,
    regions: [...parent.regions, ...child.regions.map((r) => ({ ...r, id: reId(r.id), bounds: move(r.bounds), parent: r.parent ? reId(r.parent) : undefined }))],
    groups: [...parent.groups, ...child.groups.map((g) => ({ ...g, id: reId(g.id), region: reId(g.region) }))],
    content: [...parent.content, ...child.content.map((c) => ({ ...c, region: reId(c.region), bounds: move(c.bounds) }))]
      .sort((a, b) => b.attention - a.attention)
      .slice(0, Math.max(parent.content.length, child.content.length)),
    frames,
    lazyRegions: [...parent.lazyRegions, ...child.lazyRegions.map((l) => ({ ...l, region: reId(l.region), bounds: move(l.bounds) }))],
    stats: {
      elements: parent.stats.elements + child.stats.elements,
      interactive: parent.stats.interactive + child.stats.interactive,
      scanMs: parent.stats.scanMs + child.stats.scanMs,
    },
  }
}
