import browser, { type Runtime } from 'webextension-polyfill'
import type { RunEvent } from '../core/chat'
import { authorize, kPanelPortName, type HandlerContext, type PanelPortIn, type PanelPortOut } from '../messaging'

/**
 * Panel frames. The boot script asks for a token and hands it to the frame it created, through
 * postMessage to the extension origin; the frame presents it on its port. A page that frames our
 * panel page itself never gets a token, so its frame can neither read the chat nor start a run.
 * Tokens are single-use and kept in memory: after a worker restart the panel asks again.
 */
const pending = new Map<string, number>() // token → tabId
const ports = new Map<number, Set<Runtime.Port>>()
const authorised = new Map<number, Set<string>>() // tabId → "frameId/documentId" of authorised panel frames

const kTokenTtlMs = 30_000 // the frame loads in milliseconds; an unused token should not linger

export function issuePanelToken(tabId: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  pending.set(token, tabId)
  setTimeout(() => pending.delete(token), kTokenTtlMs)
  return token
}

function frameKey(frameId: number | undefined, documentId: string | undefined): string {
  return `${frameId ?? -1}/${documentId ?? ''}`
}

export function isAuthorisedPanel(ctx: HandlerContext): boolean {
  return ctx.tabId !== undefined && !!authorised.get(ctx.tabId)?.has(frameKey(ctx.frameId, ctx.documentId))
}

export function emitToPanels(tabId: number, event: RunEvent, seq: number): void {
  for (const port of ports.get(tabId) ?? []) {
    try {
      port.postMessage({ type: 'event', event, seq } satisfies PanelPortOut)
    } catch {
      // A port of a frame that just went away; onDisconnect cleans it up.
    }
  }
}

export function watchPanels(): void {
  authorize('panel', isAuthorisedPanel)
  browser.runtime.onConnect.addListener((port) => {
    if (port.name !== kPanelPortName) return
    const sender = port.sender
    const tabId = sender?.tab?.id
    if (sender?.id !== browser.runtime.id || tabId === undefined || !sender.url?.startsWith(browser.runtime.getURL('src/panel/'))) {
      port.disconnect()
      return
    }
    const key = frameKey(sender.frameId, (sender as { documentId?: string }).documentId)
    port.onMessage.addListener((raw) => {
      const msg = raw as PanelPortIn
      if (msg?.type !== 'hello') return
      if (pending.get(msg.token) !== tabId) {
        port.disconnect()
        return
      }
      pending.delete(msg.token)
      ;(authorised.get(tabId) ?? authorised.set(tabId, new Set()).get(tabId)!).add(key)
      ;(ports.get(tabId) ?? ports.set(tabId, new Set()).get(tabId)!).add(port)
      port.postMessage({ type: 'welcome' } satisfies PanelPortOut)
    })
    port.onDisconnect.addListener(() => {
      ports.get(tabId)?.delete(port)
      authorised.get(tabId)?.delete(key)
    })
  })
}
