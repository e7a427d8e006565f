import browser, { type Runtime } from 'webextension-polyfill'
import type { RunEvent } from '../core/chat'
import { kPanelPortName, type PanelPortOut } from '../messaging/protocol'

/**
 * The panel frame's link to the background. The boot script that created this frame hands us a
 * one-time token (by postMessage, checked to come from our parent); we present it on a port,
 * and the background then accepts our messages and streams run events to us. If the worker
 * restarts the port drops, and we ask the parent for a fresh token.
 */
export interface Connection {
  ready: Promise<void>
  close(): void
}

export function connect(handlers: { onEvent(e: RunEvent, seq: number): void; onFocus(): void; onReconnect(): void }): Connection {
  let port: Runtime.Port | null = null
  let closed = false
  let resolveReady!: () => void
  const ready = new Promise<void>((r) => (resolveReady = r))
  let first = true

  const askForToken = () => parent.postMessage({ type: 'ava:panel-ready' }, '*')

  addEventListener('message', (e) => {
    // Only the window that framed us can hand us a token; a token is useless to anyone else.
    if (e.source !== parent) return
    const data = e.data as { type?: string; token?: string }
    if (data?.type === 'ava:token' && typeof data.token === 'string') open(data.token)
    else if (data?.type === 'ava:focus') handlers.onFocus()
  })

  function open(token: string) {
    port?.disconnect()
    const p = browser.runtime.connect({ name: kPanelPortName })
    port = p
    p.onMessage.addListener((raw) => {
      const msg = raw as PanelPortOut
      if (msg.type === 'welcome') {
        resolveReady()
        if (!first) handlers.onReconnect()
        first = false
      } else if (msg.type === 'event') handlers.onEvent(msg.event, msg.seq)
    })
    p.onDisconnect.addListener(() => {
      if (port === p) port = null
      if (!closed) setTimeout(askForToken, 200)
    })
    p.postMessage({ type: 'hello', token })
  }

  askForToken()
  return {
    ready,
    close() {
      closed = true
      port?.disconnect()
    },
  }
}

/** Asks the boot script in the page to hide this frame. */
export function requestClose(): void {
  parent.postMessage({ type: 'ava:close' }, '*')
}
