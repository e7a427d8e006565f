import browser from 'webextension-polyfill'
import { z } from 'zod'
import type { ExecOutcome } from '../core/exec'
import { sendToTab, type PageInfo } from '../messaging'
import { typedKey } from '../storage/area'
// Merging here, not in the top frame, lets one place fill frames nested at any depth.
import { matchFrames, mergeFrameSnapshot, routeOf, type TabFrame } from '../core/page/frames'
import { listedIntents, serialize } from '../core/page/serialize'
import type { PageSnapshot } from '../core/page/snapshot'
import { domainAllowed } from '../core/settings'
import type { SitePolicy } from '../core/offsite'
import { settingsStore } from '../storage/settings'

/**
 * Cross-origin frames. The top frame's scan can only list such a frame with its URL
 * and box (`cross_origin_restricted`); our content script inside the frame can read it. So the
 * background pairs each listed frame with a frame of the tab, asks that frame for its snapshot,
 * merges it under the listed `frame_<id>` prefix and remembers where the prefix leads, so that a
 * step on `frame_<id>_btn_pay` goes to that frame as `btn_pay`.
 */

const kFrameAnswerMs = 3_000 // a frame scans in milliseconds; one silent this long stays restricted
const kFramesBudgetMs = 6_000 // for all frames of one page read, nested ones included
const kMaxFrameDepth = 3 // cross-origin frames inside cross-origin frames, and so on
const kMaxFramesAsked = 12 // per document: each one asked loads the scanner, and ad-heavy pages have dozens

/** Where the elements listed under `prefix` live: a frame of the tab, one document of it. */
export interface FrameRoute {
  prefix: string
  frameId: number
  /** The frame's document when it was read: a step never reaches the document that replaced it. */
  documentId?: string
  url: string
}
interface FrameRoutes {
  routes: FrameRoute[]
}
const FrameRoutesSchema = z.object({
  routes: z.array(
    z.object({ prefix: z.string(), frameId: z.number().int(), documentId: z.string().optional(), url: z.string() }),
  ),
})
const DEFAULT_FRAME_ROUTES = (): FrameRoutes => ({ routes: [] })
/** The routes of a tab's last page read; in session storage, as the worker may stop between steps. */
const routesStore = (tabId: number) =>
  typedKey<FrameRoutes>('session', `frames:${tabId}`, FrameRoutesSchema, DEFAULT_FRAME_ROUTES)

/**
 * The page as the top frame described it, with its cross-origin frames filled in where their
 * content scripts answered. Frames that do not answer (no content script can run there, or it
 * stays silent) keep their `cross_origin_restricted` line.
 */
export async function withFrames(
  tabId: number,
  info: PageInfo,
  request: string,
  signal?: AbortSignal,
): Promise<Pick<PageInfo, 'url' | 'title' | 'listing' | 'intents'>> {
  const { url, title, listing, intents, snapshot, note = '' } = info
  let routes: FrameRoute[] = []
  let page = { url, title, listing, intents }
  if (snapshot) {
    const { safety } = await settingsStore.get()
    const sites = { allow: safety.allowDomains, deny: safety.denyDomains }
    const left: string[] = []
    const filled = await fill(tabId, snapshot, 0, await tabFrames(tabId), request, {
      depth: 0,
      deadline: Date.now() + kFramesBudgetMs,
      signal,
      sites,
      left,
    })
    routes = filled.routes
    if (routes.length || left.length) {
      const merged = serialize(filled.snapshot, { request })
      page = {
        url,
        title,
        listing: note + leftOutNote(left) + merged.text,
        intents: listedIntents(filled.snapshot.intents, merged.ids),
      }
    }
  }
  await routesStore(tabId).set({ routes })
  return page
}

interface FillCtx {
  depth: number
  deadline: number
  signal?: AbortSignal
  /** The person's allowed and blocked sites: a frame of a site Ava may not act on is not read. */
  sites: SitePolicy
  /** The hosts of the frames left out so far, for the listing's note. */
  left: string[]
}

/**
 * What Ava may not act on, it does not read (docs/security.md, "Frames"): a frame of a blocked
 * site, or of one outside a non-empty allow list, is left out of the listing (and so of the
 * prompt); the screenshot blacks it out the same way (src/background/screenshot.ts).
 */
export function mayRead(url: string, sites: SitePolicy): boolean {
  if (!/^https?:/i.test(url)) return true
  return domainAllowed(url, { allowDomains: sites.allow, denyDomains: sites.deny })
}

/** One line that says a frame was left out, and of which sites; '' when none was. */
function leftOutNote(hosts: string[]): string {
  if (!hosts.length) return ''
  const unique = [...new Set(hosts)]
  return `(${hosts.length === 1 ? 'A frame' : `${hosts.length} frames`} of ${unique.join(', ')} left out: Ava may not act on ${unique.length === 1 ? 'that site' : 'those sites'} (allowed and blocked sites).)\n`
}

const hostOfUrl = (url: string) => {
  try {
    return new URL(url).host || url.slice(0, 60)
  } catch {
    return url.slice(0, 60)
  }
}

/** `snapshot`, read in frame `host`, with the frames it could not see into merged in. */
async function fill(
  tabId: number,
  whole: PageSnapshot,
  host: number,
  frames: TabFrame[],
  request: string,
  ctx: FillCtx,
): Promise<{ snapshot: PageSnapshot; routes: FrameRoute[] }> {
  // Frames of a site Ava may not act on are neither asked nor listed: only the note says they were there.
  const barred = whole.frames.filter((f) => f.status === 'cross_origin_restricted' && !mayRead(f.url, ctx.sites))
  for (const f of barred) ctx.left.push(hostOfUrl(f.url))
  const snapshot = barred.length ? { ...whole, frames: whole.frames.filter((f) => !barred.includes(f)) } : whole
  const restricted = new Set(snapshot.frames.filter((f) => f.status === 'cross_origin_restricted').map((f) => f.id))
  if (!restricted.size || ctx.depth >= kMaxFrameDepth || ctx.signal?.aborted) return { snapshot, routes: [] }
  // Ask the frames paired with the restricted entries by URL and order, and those nothing was
  // paired with (a frame that navigated since its src was set). Frames the scan saw as hidden keep
  // their pairing and are not asked; same-origin frames it merged hold entries of their own.
  const first = matchFrames(snapshot.frames, frames, host)
  const paired = new Set(first.values())
  const parents = new Set([
    host,
    ...snapshot.frames.flatMap((f) => (f.status === 'merged' && first.has(f.id) ? [first.get(f.id)!.frameId] : [])),
  ])
  const wanted = [...restricted].flatMap((id) => first.get(id) ?? [])
  const unpaired = frames.filter((f) => parents.has(f.parentFrameId) && !paired.has(f))
  const asked = [...wanted, ...unpaired].slice(0, kMaxFramesAsked)
  const answers = new Map<number, PageSnapshot>()
  await Promise.all(
    asked.map(async (f) => {
      const s = await askFrame(tabId, f, request, ctx)
      if (s) answers.set(f.frameId, s)
    }),
  )
  // With the viewports the answers carry, same-URL frames pair by size before order.
  const sized = frames.map((f) => (answers.has(f.frameId) ? { ...f, viewport: answers.get(f.frameId)!.viewport } : f))
  const pairs = [...matchFrames(snapshot.frames, sized, host)].flatMap(([id, frame]) => {
    const child = answers.get(frame.frameId)
    return restricted.has(id) && child ? [{ id, frame, child }] : []
  })
  const children = await Promise.all(
    pairs.map((p) => fill(tabId, p.child, p.frame.frameId, frames, request, { ...ctx, depth: ctx.depth + 1 })),
  )
  let merged = snapshot
  const routes: FrameRoute[] = []
  pairs.forEach(({ id, frame }, i) => {
    merged = mergeFrameSnapshot(merged, id, children[i].snapshot)
    routes.push({ prefix: id, frameId: frame.frameId, documentId: frame.documentId, url: frame.url })
    for (const r of children[i].routes) routes.push({ ...r, prefix: `${id}_${r.prefix}` })
  })
  return { snapshot: merged, routes }
}

/** One frame's snapshot, or null when it cannot or does not answer in time. */
async function askFrame(tabId: number, frame: TabFrame, request: string, ctx: FillCtx): Promise<PageSnapshot | null> {
  const wait = Math.min(kFrameAnswerMs, ctx.deadline - Date.now())
  if (wait <= 0) return null
  let timer: ReturnType<typeof setTimeout> | undefined
  const silent = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), wait)))
  const target = frame.documentId ? { documentId: frame.documentId } : { frameId: frame.frameId }
  const answer = sendToTab(tabId, 'bg→content:command', { kind: 'frame.read', request }, target).then(
    (r) => (r.ok && 'snapshot' in r ? r.snapshot : null),
    () => null, // no content script there (an error page, a sandboxed frame) or it went away
  )
  try {
    return await Promise.race([answer, silent])
  } finally {
    clearTimeout(timer)
  }
}

/** The tab's frames, without Ava's own panel (an extension page, never page content). */
async function tabFrames(tabId: number): Promise<TabFrame[]> {
  const ours = browser.runtime.getURL('')
  const all = (await browser.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []
  return all
    .filter((f) => f.frameId !== 0 && !f.url.startsWith(ours))
    .map((f) => ({
      frameId: f.frameId,
      parentFrameId: f.parentFrameId,
      url: f.url,
      documentId: (f as { documentId?: string }).documentId,
    }))
}

/**
 * Where a step on `targetId` goes: the merged frame that holds the element and the element's id
 * there, or null when the element is in the top document (or in a frame the top reads itself).
 */
export async function frameTarget(
  tabId: number,
  targetId: string | undefined,
): Promise<{ route: FrameRoute; local: string } | null> {
  if (!targetId?.startsWith('frame_')) return null
  return routeOf(targetId, (await routesStore(tabId).get()).routes)
}

/**
 * A frame's answer in the listing's ids: its candidates' agent ids get the frame's prefix back.
 * Selector candidates (`css:…`) are dropped: run from the top document they would name another
 * element.
 */
export function outcomeFromFrame(out: ExecOutcome, prefix: string): ExecOutcome {
  if (!out.candidates) return out
  const candidates = out.candidates
    .filter((c) => !/^[a-z]+:/.test(c.id))
    .map((c) => ({ ...c, id: `${prefix}_${c.id}` }))
  return { ...out, candidates }
}

/** The routes of the tab's last page read: which frame the listing merged under which prefix. */
export async function frameRoutes(tabId: number): Promise<FrameRoute[]> {
  return (await routesStore(tabId).get()).routes
}

export async function forgetFrameRoutes(tabId: number): Promise<void> {
  await routesStore(tabId).remove()
  await actedStore(tabId).remove()
}

const kMaxActedFrames = 8 // the frames of one tab a check may look into, besides the ones nested below them

interface ActedFrames {
  frameIds: number[]
}
const ActedFramesSchema = z.object({ frameIds: z.array(z.number().int()) })
/** In session storage, as the worker may stop between a step and the check after it. */
const actedStore = (tabId: number) =>
  typedKey<ActedFrames>('session', `frames-acted:${tabId}`, ActedFramesSchema, () => ({ frameIds: [] }))

/** Notes that a step ran in a frame of the tab (src/background/page.ts `sendToFrame`). */
export async function noteActedFrame(tabId: number, frameId: number): Promise<void> {
  const store = actedStore(tabId)
  const { frameIds } = await store.get()
  if (frameIds.includes(frameId)) return
  await store.set({ frameIds: [...frameIds, frameId].slice(-kMaxActedFrames) })
}

/** The frames of the tab a step acted in (a check looks there: frame-check.ts). */
export async function actedFrameIds(tabId: number): Promise<number[]> {
  return (await actedStore(tabId).get()).frameIds
}
