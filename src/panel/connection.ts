import browser, { type Runtime } from 'webextension-polyfill'
import type { RunEvent } from '../core/chat'
import { kPanelPortName, type PanelPortIn, type PanelPortOut } from '../messaging/protocol'

/**
 * The panel frame's link to the background: a port the panel opens itself, carrying the token the
 * boot script put in this frame's URL fragment. The page never hears from us and nothing it posts
 * is listened to, so it learns neither this window nor the extension's origin, and no message it
 * can forge or flood changes what the panel may do. Focus and close travel on the same port. If
 * the worker restarts the port drops and we present the same token again (the background has bound
 * it to this document).
 */
export interface Connection {
  ready: Promise<void>
  close(): void
}

const kReconnectMs = 200 // the worker restarts within this; sooner would only spin

let port: Runtime.Port | null = null
/** Clicks waiting for the page's word on how it drew the frame (`askDrawn`), by id. */
const drawnAsks = new Map<number, (fault: string | null) => void>()
let drawnSeq = 0
/** An answer slower than this is no answer: the page's thread may be kept busy on purpose. */
const kDrawnAnswerMs = 1_500

export function connect(handlers: {
  onEvent(e: RunEvent, seq: number): void
  onFocus(): void
  onFocusTaken?(): void
  onPageDpr?(dpr: number): void
  onReconnect(): void
}): Connection {
  let closed = false
  let refused = false
  let resolveReady!: () => void
  const ready = new Promise<void>((r) => (resolveReady = r))
  let first = true
  // Read once, then out of the address bar and of every later sender URL.
  const token = location.hash.slice(1)
  history.replaceState(null, '', location.pathname)

  function open() {
    const p = browser.runtime.connect({ name: kPanelPortName })
    port = p
    p.onMessage.addListener((raw) => {
      const msg = raw as PanelPortOut
      if (msg.type === 'welcome') {
        resolveReady()
        if (!first) handlers.onReconnect()
        first = false
      } else if (msg.type === 'refused') refused = true
      else if (msg.type === 'focus') handlers.onFocus()
      else if (msg.type === 'focusTaken') handlers.onFocusTaken?.()
      else if (msg.type === 'pageDpr') handlers.onPageDpr?.(msg.dpr)
      else if (msg.type === 'drawn') drawnAsks.get(msg.id)?.(msg.fault)
      else if (msg.type === 'event') handlers.onEvent(msg.event, msg.seq)
    })
    p.onDisconnect.addListener(() => {
      if (port === p) port = null
      // A refused frame (not the boot script's, or its token spent) stays "Connecting…" for good.
      if (!closed && !refused) setTimeout(open, kReconnectMs)
    })
    p.postMessage({ type: 'hello', token, childOfTop: parent !== window && parent === top } satisfies PanelPortIn)
  }

  if (token) open()
  return {
    ready,
    close() {
      closed = true
      port?.disconnect()
    },
  }
}

/**
 * How the page drew this frame from 500 ms before a click until now, read in the page by the boot
 * script (src/content/host-drawn.ts): null when plainly; else why not. No port, or no answer in
 * time, is `unanswered`: a click nobody can vouch for is not taken.
 */
export function askDrawn(at: number, x: number, y: number): Promise<string | null> {
  const p = port
  if (!p) return Promise.resolve('unanswered')
  const id = ++drawnSeq
  return new Promise((resolve) => {
    const done = (fault: string | null) => {
      clearTimeout(timer)
      drawnAsks.delete(id)
      resolve(fault)
    }
    const timer = setTimeout(() => done('unanswered'), kDrawnAnswerMs)
    drawnAsks.set(id, done)
    p.postMessage({ type: 'drawn', id, at, x, y } satisfies PanelPortIn)
  })
}

/** Asks the boot script, through the background, to hide this frame. */
export function requestClose(): void {
  port?.postMessage({ type: 'close' } satisfies PanelPortIn)
}
