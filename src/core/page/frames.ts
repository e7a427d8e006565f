/**
 * Frames across origins. Same-origin frames are merged during the scan; a
 * cross-origin frame is scanned by the content script running inside it, and the background
 * pairs it with the parent's `frame_<id>` entry (`matchFrames`), merges its snapshot under that
 * prefix (`mergeFrameSnapshot`) and sends a step on one of its elements back to it (`routeOf`).
 * Everything here is pure data: the service worker, which has no DOM, runs it (background/frames.ts).
 */
import type { ElementRecord, FrameInfo, PageSnapshot } from './snapshot'

/**
 * Returns a new snapshot: `parent` with `child`'s elements, regions, groups and content added under
 * `frameId` (a `frame_<id>` from `parent.frames`), bounds moved into the parent's coordinates and
 * the frame marked `merged`. Neither input is modified.
 */
export function mergeFrameSnapshot(parent: PageSnapshot, frameId: string, child: PageSnapshot): PageSnapshot {
  const frame = parent.frames.find((f) => f.id === frameId)
  if (!frame) {
    throw new RangeError(
      `mergeFrameSnapshot: no frame "${frameId}" in the parent snapshot; frames are ${parent.frames.map((f) => f.id).join(', ') || 'none'}.`,
    )
  }
  const prefix = `${frameId}_`
  const dx = frame.bounds.x - child.viewport.scrollX
  const dy = frame.bounds.y - child.viewport.scrollY
  const move = <T extends { x: number; y: number; width: number; height: number }>(b: T) => ({
    ...b,
    x: b.x + dx,
    y: b.y + dy,
  })
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
  const at = parent.elements.findIndex(
    (e) => e.bounds.y > frame.bounds.y || (e.bounds.y === frame.bounds.y && e.bounds.x > frame.bounds.x),
  )
  const merged =
    at < 0
      ? [...parent.elements, ...elements]
      : [...parent.elements.slice(0, at), ...elements, ...parent.elements.slice(at)]
  return {
    ...parent,
    elements: merged,
    regions: [
      ...parent.regions,
      ...child.regions.map((r) => ({
        ...r,
        id: reId(r.id),
        bounds: move(r.bounds),
        parent: r.parent ? reId(r.parent) : undefined,
      })),
    ],
    groups: [...parent.groups, ...child.groups.map((g) => ({ ...g, id: reId(g.id), region: reId(g.region) }))],
    content: [
      ...parent.content,
      ...child.content.map((c) => ({ ...c, region: reId(c.region), bounds: move(c.bounds) })),
    ]
      .sort((a, b) => b.attention - a.attention)
      .slice(0, Math.max(parent.content.length, child.content.length)),
    frames,
    lazyRegions: [
      ...parent.lazyRegions,
      ...child.lazyRegions.map((l) => ({ ...l, region: reId(l.region), bounds: move(l.bounds) })),
    ],
    stats: {
      elements: parent.stats.elements + child.stats.elements,
      interactive: parent.stats.interactive + child.stats.interactive,
      scanMs: parent.stats.scanMs + child.stats.scanMs,
    },
  }
}

/** A frame of the tab as `webNavigation.getAllFrames` reports it. */
export interface TabFrame {
  frameId: number
  parentFrameId: number
  /** The frame's current URL (its `src` may have redirected or navigated since). */
  url: string
  documentId?: string
  /** The frame's viewport, once its content script has answered. */
  viewport?: { width: number; height: number }
}

/**
 * How much an iframe's box may exceed its viewport: the default border is 2 px a side, and
 * pages add padding or a thicker border; the box is measured rounded, hence the 1 px below zero.
 */
const kFrameChromePx = 40
const kLastFrameSegment = /_frame_[A-Za-z0-9-]+$/

/**
 * Pairs the frames a snapshot lists (its `frame_<id>` entries, scanned in the tab frame `host`)
 * with the tab's frames. The parent knows an iframe's `src` and box, Chrome knows its frame id and
 * current URL; nothing names both, so per parent frame:
 *  1. one entry and one frame with the same URL (fragment ignored) pair;
 *  2. several with the same URL: an entry whose box fits exactly one frame's viewport takes it,
 *     the rest pair in document order against frame id order (Chrome numbers frames as they are
 *     created, which for markup is document order) when as many of each remain;
 *  3. what is still left — a frame that redirected or navigated since its `src` was set — pairs
 *     when one entry and one frame remain, else by a box that fits one viewport only.
 * Entries inside a same-origin frame that the scan merged are matched among that frame's
 * children. An entry left out stays what the scan said (`cross_origin_restricted`).
 */
export function matchFrames(
  entries: readonly FrameInfo[],
  frames: readonly TabFrame[],
  host: number,
): Map<string, TabFrame> {
  const ids = new Set(entries.map((e) => e.id))
  const parentOf = (id: string): string | null => {
    const up = id.replace(kLastFrameSegment, '')
    return up !== id && ids.has(up) ? up : null
  }
  const out = new Map<string, TabFrame>()
  const visit = (parentEntry: string | null, frameId: number) => {
    const mine = entries.filter((e) => parentOf(e.id) === parentEntry)
    const theirs = frames.filter((f) => f.parentFrameId === frameId).sort((a, b) => a.frameId - b.frameId)
    for (const [entry, frame] of pairSiblings(mine, theirs)) {
      out.set(entry.id, frame)
      if (entry.status === 'merged') visit(entry.id, frame.frameId)
    }
  }
  visit(null, host)
  return out
}

function pairSiblings(entries: FrameInfo[], frames: TabFrame[]): Map<FrameInfo, TabFrame> {
  const pairs = new Map<FrameInfo, TabFrame>()
  const taken = new Set<TabFrame>()
  const urlOf = (u: string) => u.replace(/#.*$/, '')
  for (const url of new Set(entries.map((e) => urlOf(e.url)))) {
    const es = entries.filter((e) => urlOf(e.url) === url)
    const fs = frames.filter((f) => urlOf(f.url) === url)
    if (es.length === 1 && fs.length === 1) pairs.set(es[0], fs[0])
    else if (fs.length) pairByFit(es, fs, pairs, true)
  }
  for (const f of pairs.values()) taken.add(f)
  const restEntries = entries.filter((e) => !pairs.has(e))
  const restFrames = frames.filter((f) => !taken.has(f))
  if (restEntries.length === 1 && restFrames.length === 1) pairs.set(restEntries[0], restFrames[0])
  else pairByFit(restEntries, restFrames, pairs, false)
  return pairs
}

/** Rule 2 (`inOrder`) and the size half of rule 3: boxes that fit one viewport, then order. */
function pairByFit(entries: FrameInfo[], frames: TabFrame[], pairs: Map<FrameInfo, TabFrame>, inOrder: boolean): void {
  const free = new Set(frames)
  const fits = (e: FrameInfo, f: TabFrame) => {
    if (!f.viewport) return false
    const dw = e.bounds.width - f.viewport.width
    const dh = e.bounds.height - f.viewport.height
    return dw >= -1 && dw <= kFrameChromePx && dh >= -1 && dh <= kFrameChromePx
  }
  const left: FrameInfo[] = []
  for (const e of entries) {
    const fitting = [...free].filter((f) => fits(e, f))
    if (fitting.length === 1 && entries.filter((other) => fits(other, fitting[0])).length === 1) {
      pairs.set(e, fitting[0])
      free.delete(fitting[0])
    } else left.push(e)
  }
  if (inOrder && left.length === free.size) [...free].forEach((f, i) => pairs.set(left[i], f))
}

/**
 * The frame route that serves a listed element id, and the element's id inside that frame. The
 * longest routed prefix wins: `frame_a_frame_b_btn_pay` goes to frame b as `btn_pay` when b is
 * routed, to frame a as `frame_b_btn_pay` when only a is (b is then same-origin inside a).
 */
export function routeOf<R extends { prefix: string }>(
  id: string,
  routes: readonly R[],
): { route: R; local: string } | null {
  let best: R | null = null
  for (const r of routes)
    if (
      id.startsWith(r.prefix + '_') &&
      id.length > r.prefix.length + 1 &&
      (!best || r.prefix.length > best.prefix.length)
    )
      best = r
  return best ? { route: best, local: id.slice(best.prefix.length + 1) } : null
}
