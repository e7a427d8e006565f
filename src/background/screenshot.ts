import browser from 'webextension-polyfill'
import type { Screenshot, ShotSkipped } from '../core/agent/vision'
import type { PageCommand, PageOutcome } from '../core/page/command'
import { screenshotAllowed, type Settings } from '../core/settings'
import { sendToTab } from '../messaging'
import { frameRoutes } from './frames'
import { sendCommand } from './page'
import { kMinWholeChars } from '../core/agent/redact'
import { originOf } from '../core/agent/secrets'
import { sleep } from '../core/sleep'
import { vaultSitesStore, vaultStore } from '../storage/vault'

/**
 * Marked screenshots without the `debugger` permission (docs/agent.md, "Screenshots"): every
 * frame of the tab draws Ava's marks and blacks out its secret fields (src/dom/marks.ts), the
 * visible tab is captured (`tabs.captureVisibleTab`, which the `<all_urls>` host permission
 * allows), the marks are removed at once, and the picture is scaled to the page's CSS size, at
 * most `kMaxEdgePx` on its long side.
 */

/**
 * The long side of a screenshot, in pixels. Anthropic scales anything past 1568 down and OpenAI
 * past 2048, then to 768 on the short side: 1280 keeps a laptop viewport at one pixel per CSS
 * pixel, its 12-px labels legible, for about 1,100–1,400 tokens (vision.ts `imageTokens`).
 */
export const kMaxEdgePx = 1280
/** Above this many bytes of PNG the picture goes as JPEG (Anthropic takes 5 MB of base64; a photo-heavy page's PNG can pass that). */
const kMaxPngBytes = 1_500_000
const kJpegQuality = 0.8
/** A frame that has not drawn its marks by then is captured as it is (its marks missing). */
const kFrameMarksMs = 1_500

type MarksOut = PageOutcome<'marks'>

/**
 * Chrome takes at most two `captureVisibleTab` calls a second (MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND)
 * and fails the third: captures are spaced this far apart, and one that still meets the quota is
 * taken again once, a second later.
 */
const kCaptureSpacingMs = 550
const kQuotaRetryMs = 1_000
/** A capture that has not come back by then is given up (the run goes on from the listing, never hangs on a picture). */
const kCaptureMs = 10_000
let lastCapture = 0

let queue: Promise<unknown> = Promise.resolve()

/** The window's visible tab as a PNG data URL, one capture at a time, spaced under Chrome's quota. */
export function captureSpaced(windowId: number): Promise<string> {
  const turn = queue.then(() => captureOnce(windowId))
  queue = turn.catch(() => undefined)
  return turn
}

async function captureOnce(windowId: number): Promise<string> {
  const capture = async () => {
    await sleep(lastCapture + kCaptureSpacingMs - Date.now())
    lastCapture = Date.now()
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no picture came in ${kCaptureMs / 1000} s`)), kCaptureMs)
    })
    return Promise.race([browser.tabs.captureVisibleTab(windowId, { format: 'png' }), late]).finally(() =>
      clearTimeout(timer),
    )
  }
  try {
    return await capture()
  } catch (e) {
    if (!/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND|quota/i.test(String((e as Error)?.message ?? e))) throw e
    await sleep(kQuotaRetryMs)
    return capture()
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([
    p.catch(() => fallback),
    new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms))),
  ]).finally(() => clearTimeout(timer))
}

/** The tab's frames other than its top one and Ava's own panel, with the prefix the listing gave each (if any). */
async function subframes(
  tabId: number,
  settings: Pick<Settings, 'safety' | 'screenshots'>,
): Promise<{ frameId: number; url: string; prefix?: string; blackout: boolean }[]> {
  const ours = browser.runtime.getURL('')
  const all = (await browser.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []
  const routes = await frameRoutes(tabId).catch(() => [])
  // [privacy] A frame from a site never captured (blocked, or screenshots off there) blacks itself out.
  const never = (url: string) => /^https?:/i.test(url) && !screenshotAllowed(url, settings)
  return all
    .filter((f) => f.frameId !== 0 && !f.url.startsWith(ours))
    .map((f) => ({
      frameId: f.frameId,
      url: f.url,
      prefix: routes.find((r) => r.frameId === f.frameId)?.prefix,
      blackout: never(f.url),
    }))
}

function toBase64(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf)
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

/**
 * The secrets a document's picture must not show: what the run typed, and the vault values bound
 * to the document's own origin (a page can show only what it was given or what its site holds;
 * no document is sent the others).
 */
async function hiddenFor(typed: readonly string[]): Promise<(url: string) => string[]> {
  const [vault, sites] = await Promise.all([
    vaultStore.get().catch(() => ({}) as Record<string, string>),
    vaultSitesStore.get().catch(() => ({}) as Record<string, string[]>),
  ])
  return (url) => {
    const origin = originOf(url)
    return [
      ...new Set([
        ...typed,
        ...Object.entries(vault)
          .filter(([n]) => !!origin && (sites[n] ?? []).includes(origin))
          .map(([, v]) => v),
      ]),
    ].filter((v) => v.length >= kMinWholeChars)
  }
}

/**
 * `typed`: the secrets the run typed in this tab and when it first did (epoch ms). Each frame
 * blacks out every drawing of a secret it can read; where one could be drawn out of Ava's sight
 * (a canvas, a late picture, a frame with no Ava in it, once a secret was typed) no picture is
 * taken and the model is told why (`secret`).
 */
export async function captureMarked(
  tabId: number,
  settings: Pick<Settings, 'safety' | 'screenshots'>,
  signal?: AbortSignal,
  typed: { values: string[]; at?: number } = { values: [] },
): Promise<Screenshot | ShotSkipped> {
  const tab = await browser.tabs.get(tabId)
  // [privacy] A blocked site, a site switched off, or screenshots off: nothing is captured at all.
  if (!tab.url || !screenshotAllowed(tab.url, settings)) return { skipped: 'off' }
  // captureVisibleTab takes whatever tab its window shows: only the run's own tab, shown.
  if (!tab.active || tab.windowId === undefined) return { skipped: 'hidden' }
  const frames = await subframes(tabId, settings)
  const hide = await hiddenFor(typed.values)
  const since = typed.at !== undefined ? { since: typed.at } : {}
  const on = <T extends PageCommand<'marks'>>(cmd: T) => cmd
  let top: MarksOut | undefined
  try {
    const [first, ...rest] = await Promise.all([
      sendCommand(tabId, on({ kind: 'marks', on: true, hide: hide(tab.url), ...since }), { signal }),
      ...frames.map((f) =>
        withTimeout<MarksOut | null>(
          sendToTab(
            tabId,
            'bg→content:command',
            on({
              kind: 'marks',
              on: true,
              hide: hide(f.url),
              ...since,
              ...(f.prefix ? { prefix: f.prefix } : {}),
              ...(f.blackout ? { blackout: true } : {}),
            }),
            { frameId: f.frameId },
          ) as Promise<MarksOut>,
          kFrameMarksMs,
          null,
        ),
      ),
    ])
    top = first
    if (!top.ok) return { skipped: 'failed', detail: top.message }
    if (signal?.aborted) throw signal.reason
    // [privacy] A secret drawn where no Ava can read it: no picture at all (docs/security.md, "Pictures").
    const typedHere = typed.values.length > 0 || typed.at !== undefined || !!top.unsure?.length
    const unsure = new Set([...(top.unsure ?? []), ...rest.flatMap((r) => (r?.ok ? (r.unsure ?? []) : []))])
    if (typedHere && rest.some((r, i) => !frames[i].blackout && (!r || !r.ok))) unsure.add('frame')
    if (unsure.size) return { skipped: 'secret', detail: [...unsure].join(', ') }
    // Checked again at the moment of capture: the person may have switched tabs meanwhile.
    const now = await browser.tabs.get(tabId)
    if (!now.active) return { skipped: 'hidden' }
    const url = await captureSpaced(tab.windowId)
    const marks = [...top.marks, ...rest.flatMap((r) => (r?.ok ? r.marks : []))].map((m) => m.id)
    const blacked = top.blacked + rest.reduce((n, r) => n + (r?.ok ? r.blacked : 0), 0)
    const { dpr: _dpr, ...view } = top.view
    const image = await scaled(url, view.viewWidth, view.viewHeight)
    return {
      data: image.data,
      mediaType: image.mediaType,
      frame: { ...view, width: image.width, height: image.height },
      marks,
      blacked,
      poor: top.poor,
    }
  } catch (e) {
    if (signal?.aborted) throw signal.reason
    return { skipped: 'failed', detail: String((e as Error)?.message ?? e) }
  } finally {
    // The marks come off at once, in every frame, whatever happened.
    void sendCommand(tabId, { kind: 'marks', on: false }).catch(() => undefined)
    for (const f of frames)
      void sendToTab(tabId, 'bg→content:command', { kind: 'marks', on: false }, { frameId: f.frameId }).catch(
        () => undefined,
      )
  }
}

/** The capture (device pixels) scaled to the viewport's CSS size, the long side at most kMaxEdgePx. */
async function scaled(
  dataUrl: string,
  viewWidth: number,
  viewHeight: number,
): Promise<{ data: string; mediaType: Screenshot['mediaType']; width: number; height: number }> {
  const bitmap = await createImageBitmap(await (await fetch(dataUrl)).blob())
  const s = Math.min(1, kMaxEdgePx / Math.max(viewWidth, viewHeight))
  const width = Math.max(1, Math.round(viewWidth * s))
  const height = Math.max(1, Math.round(viewHeight * s))
  const canvas = new OffscreenCanvas(width, height)
  const ctx = canvas.getContext('2d')!
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(bitmap, 0, 0, width, height)
  bitmap.close()
  let blob = await canvas.convertToBlob({ type: 'image/png' })
  let mediaType: Screenshot['mediaType'] = 'image/png'
  if (blob.size > kMaxPngBytes) {
    blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: kJpegQuality })
    mediaType = 'image/jpeg'
  }
  return { data: toBase64(await blob.arrayBuffer()), mediaType, width, height }
}
