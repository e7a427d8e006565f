import browser, { type Runtime } from 'webextension-polyfill'
import { z } from 'zod'
import type { RunEvent } from '../core/chat'
import {
  authorize,
  handle,
  kPanelPortName,
  sendToTab,
  type HandlerContext,
  type PanelPortIn,
  type PanelPortOut,
} from '../messaging'
import { typedKey } from '../storage/area'

/**
 * Panel frames. The panel's authority comes from the extension, never from the page: the boot
 * script asks for a token, puts it in the fragment of the frame it creates inside its closed
 * shadow root (the page cannot read that src, and gets no reference to the frame), and the panel
 * page opens its own port and shows the token there. We accept the port only from our panel page,
 * in a subframe whose parent is the tab's top frame, and bind the token to that one document: a
 * page that frames our panel page itself, or navigates the frame, has no token, and nothing it
 * posts reaches the panel (no window-message path exists), so it can neither flood nor forge.
 * When the bound document goes away we tell the boot script, which rebuilds the frame rather than
 * show whatever now lives in it (docs/security.md, "The panel frame").
 */
const ports = new Map<number, Set<Runtime.Port>>()
const authorised = new Map<number, Set<string>>() // tabId → "frameId/documentId" of authorised panel frames

/** One panel per tab; in session storage so that a restarted worker still knows whose token it is. */
interface PanelBinding {
  token: string
  frameId?: number
  documentId?: string
}
const BindingSchema = z.object({ token: z.string(), frameId: z.number().optional(), documentId: z.string().optional() })
const bindingStore = (tabId: number) =>
  typedKey<PanelBinding | null>('session', `panel:${tabId}`, BindingSchema.nullable(), () => null)
const bindings = new Map<number, PanelBinding | null>() // what this worker has written, ahead of storage
const pendingWrites = new Map<number, Promise<void>>()

const kPanelPage = 'src/panel/index.html'

function setBinding(tabId: number, b: PanelBinding | null): void {
  bindings.set(tabId, b)
  const write = bindingStore(tabId)
    .set(b)
    .catch(() => undefined)
  pendingWrites.set(tabId, write)
}

async function getBinding(tabId: number): Promise<PanelBinding | null> {
  await pendingWrites.get(tabId)
  if (bindings.has(tabId)) return bindings.get(tabId)!
  const b = await bindingStore(tabId).get()
  bindings.set(tabId, b)
  return b
}

/** A token for the next panel frame of this tab; the previous frame, if any, loses its authority. */
export function issuePanelToken(tabId: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  for (const port of ports.get(tabId) ?? []) port.disconnect()
  ports.delete(tabId)
  authorised.delete(tabId)
  setBinding(tabId, { token })
  return token
}

function frameKey(frameId: number | undefined, documentId: string | undefined): string {
  return `${frameId ?? -1}/${documentId ?? ''}`
}

export function isAuthorisedPanel(ctx: HandlerContext): boolean {
  return ctx.tabId !== undefined && !!authorised.get(ctx.tabId)?.has(frameKey(ctx.frameId, ctx.documentId))
}

export function emitToPanels(tabId: number, event: RunEvent, seq: number): void {
  post(tabId, { type: 'event', event, seq })
}

function post(tabId: number, msg: PanelPortOut): void {
  for (const port of ports.get(tabId) ?? []) {
    try {
      port.postMessage(msg)
    } catch {
      // A port of a frame that just went away; onDisconnect cleans it up.
    }
  }
}

function isPanelPage(url: string | undefined): boolean {
  if (!url) return false
  const u = new URL(url)
  return `${u.origin}${u.pathname}` === browser.runtime.getURL(kPanelPage)
}

/**
 * Pairs a panel document with the token its tab's boot script asked for; a token binds one
 * document only. `childOfTop` is the panel's own report that its parent is the top frame, where
 * the boot script lives (webNavigation does not list extension frames, so the background cannot
 * look it up; the panel is our code, and the page cannot speak on its port).
 */
async function admit(
  tabId: number,
  frameId: number,
  documentId: string | undefined,
  hello: Extract<PanelPortIn, { type: 'hello' }>,
): Promise<boolean> {
  const { token } = hello
  if (typeof token !== 'string' || hello.childOfTop !== true) return false
  const b = await getBinding(tabId)
  if (!b || b.token !== token) return false
  if (b.documentId === undefined) {
    setBinding(tabId, { token, frameId, documentId })
    return true
  }
  // The same document again: its port dropped when the worker restarted.
  return b.frameId === frameId && b.documentId === documentId
}

function refuse(port: Runtime.Port): void {
  try {
    port.postMessage({ type: 'refused' } satisfies PanelPortOut)
  } catch {
    // already gone
  }
  port.disconnect()
}

/** Tabs whose page kept removing Ava's host, until their next document. */
const blocked = new Set<number>()
export const isPanelBlocked = (tabId: number): boolean => blocked.has(tabId)
export function clearPanelBlocked(tabId: number): void {
  if (!blocked.delete(tabId)) return
  void browser.action?.setBadgeText({ tabId, text: '' }).catch(() => undefined)
}

/** Each tab's page devicePixelRatio, as its boot script last said (src/panel/scale.ts). */
const pageDpr = new Map<number, number>()

export function watchPanels(): void {
  authorize('panel', isAuthorisedPanel)
  handle('content→bg:panel.focusTaken', ['tab'], async ({ token }, ctx) => {
    if (ctx.tabId === undefined || ctx.frameId !== 0) return { ok: false }
    const b = await getBinding(ctx.tabId)
    const port = [...(ports.get(ctx.tabId) ?? [])].find((p) => p.sender?.documentId === b?.documentId)
    if (!port || b?.token !== token) return { ok: false }
    port.postMessage({ type: 'focusTaken' } satisfies PanelPortOut)
    return { ok: true }
  })
  // The page's devicePixelRatio as the boot script reads it: kept for a panel that connects later.
  handle('content→bg:panel.dpr', ['tab'], async ({ token, dpr }, ctx) => {
    if (ctx.tabId === undefined || ctx.frameId !== 0 || !(dpr > 0)) return { ok: false }
    const b = await getBinding(ctx.tabId)
    if (b?.token !== token) return { ok: false }
    pageDpr.set(ctx.tabId, dpr)
    const port = [...(ports.get(ctx.tabId) ?? [])].find((p) => p.sender?.documentId === b?.documentId)
    port?.postMessage({ type: 'pageDpr', dpr } satisfies PanelPortOut)
    return { ok: true }
  })
  handle('content→bg:panel.blocked', ['tab'], async (_req, ctx) => {
    if (ctx.tabId === undefined || ctx.frameId !== 0) return { ok: false }
    blocked.add(ctx.tabId)
    // The badge draws the person to the popup, whose Stop and note the page cannot touch.
    await browser.action?.setBadgeText({ tabId: ctx.tabId, text: '!' }).catch(() => undefined)
    return { ok: true }
  })
  handle('content→bg:panel.show', ['tab'], async ({ token, focus }, ctx) => {
    if (ctx.tabId === undefined || ctx.frameId !== 0) return { live: false }
    const b = await getBinding(ctx.tabId)
    const port = [...(ports.get(ctx.tabId) ?? [])].find((p) => p.sender?.documentId === b?.documentId)
    const live = !!port && b?.token === token
    if (live && focus) port!.postMessage({ type: 'focus' } satisfies PanelPortOut)
    return { live }
  })
  browser.tabs.onRemoved.addListener((tabId) => {
    bindings.delete(tabId)
    blocked.delete(tabId)
    void bindingStore(tabId)
      .remove()
      .catch(() => undefined)
  })
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== kPanelPortName) return
    const sender = port.sender
    const tabId = sender?.tab?.id
    const frameId = sender?.frameId
    const documentId = (sender as { documentId?: string } | undefined)?.documentId
    if (
      sender?.id !== browser.runtime.id ||
      tabId === undefined ||
      frameId === undefined ||
      frameId === 0 ||
      !isPanelPage(sender.url)
    ) {
      refuse(port)
      return
    }
    const key = frameKey(frameId, documentId)
    let accepted = false
    let token = ''
    port.onMessage.addListener(async (raw) => {
      const msg = raw as PanelPortIn
      if (msg?.type === 'hello' && !accepted) {
        if (!(await admit(tabId, frameId, documentId, msg))) return refuse(port)
        accepted = true
        token = msg.token
        ;(authorised.get(tabId) ?? authorised.set(tabId, new Set()).get(tabId)!).add(key)
        ;(ports.get(tabId) ?? ports.set(tabId, new Set()).get(tabId)!).add(port)
        port.postMessage({ type: 'welcome' } satisfies PanelPortOut)
        const dpr = pageDpr.get(tabId)
        if (dpr) port.postMessage({ type: 'pageDpr', dpr } satisfies PanelPortOut)
        await sendToTab(tabId, 'bg→content:panel.live', { token }).catch(() => undefined)
      } else if (msg?.type === 'close' && accepted) {
        await sendToTab(tabId, 'bg→content:panel.close', {}).catch(() => undefined)
      } else if (msg?.type === 'drawn' && accepted) {
        // How the page drew the frame around the person's click, read in the page (src/content/host-drawn.ts).
        const { at, x, y, id } = msg
        const fault =
          Number.isFinite(at) && Number.isFinite(x) && Number.isFinite(y)
            ? await sendToTab(tabId, 'bg→content:panel.drawn', { token, at, x, y }, { frameId: 0 }).then(
                (r) => r.fault,
                () => 'unanswered',
              )
            : 'unanswered'
        port.postMessage({ type: 'drawn', id, fault } satisfies PanelPortOut)
      }
    })
    port.onDisconnect.addListener(async () => {
      ports.get(tabId)?.delete(port)
      authorised.get(tabId)?.delete(key)
      if (!accepted) return
      // The bound document went away (navigated, removed, reloaded): its token dies with it, and
      // the boot script must not show that frame again.
      const b = await getBinding(tabId)
      if (b?.token !== token || b.documentId !== documentId) return
      setBinding(tabId, null)
      await sendToTab(tabId, 'bg→content:panel.gone', { token }).catch(() => undefined)
    })
  })
}
