// Place (b) on the server's side: the person's Chrome, through Ava's extension and the native host
// (mcp/native.ts). The server sends page commands; the extension runs each through its own gate —
// the person's confirm categories, site lists, vault and panel (src/background/mcp.ts) — whatever
// the command carried, so a client cannot loosen the gate from here. Messages are JSON lines:
//   server → extension  { id, session, kind: 'attach', client } | { id, session, kind: 'command', command } |
//                       { id, session, kind: 'navigate', url } | { id, session, kind: 'url' } |
//                       { id, session, kind: 'ask', request } | { id, session, kind: 'detach' }
//   extension → server  { id, ok: true, … } | { id, ok: false, code, message } | { kind: 'stopped', session, message }
// Each MCP session of the server is a `session` of its own in the extension: its own tab, given by
// the person, and its own grant (src/background/mcp.ts).
import { randomUUID } from 'node:crypto'
import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { dirname } from 'node:path'
import { createChannelFlowPort, createChannelPort } from '../../core/page/channel'
import type { PageCommand, PageCommandKind, PageOutcome, SendCommand } from '../../core/page/command'
import type { AskReport } from './agent'
import { McpToolError } from './gate'
import type { McpPlace, McpTab } from './place'
import { lineReader, socketPath } from './native'
import { isFailureCode } from '../../core/failure'

/**
 * How long a tool waits for Ava's extension to connect. A Chrome that runs Ava with the host
 * installed connects within the host's retry interval (1 s, mcp/native.ts) of the server starting;
 * longer only keeps the client waiting to hear that nothing will.
 */
export const kBridgeWaitMs = 1_500
/** What a call (and the server's stderr) says when no extension has connected. */
export const kNoBrowserMessage =
  "Ava's extension has not connected to this server: open Chrome with Ava installed and run `ava mcp install --extension-id <id>` once, so Chrome can start the host that reaches it. `ava doctor` checks each part (docs/troubleshooting.md#the-extension-is-not-connected)."
/** How long the person has to answer "<client> asks to drive this tab". */
const kAttachWaitMs = 120_000

type Reply = { ok: true; [k: string]: unknown } | { ok: false; code: string; message: string }

export interface ChromePlace extends McpPlace {
  /** Ask Ava in the person's browser: the extension's own agent with the person's model, in the given tab. */
  ask(request: string, signal: AbortSignal, shape?: Record<string, unknown>): Promise<AskReport>
  /** Where the extension connects. */
  path: string
  /** Whether an extension has connected within `ms` (for the server's first word on stderr). */
  connectedWithin(ms: number): Promise<boolean>
}

export async function chromePlace(o: {
  client: () => string
  path?: string
  bridgeWaitMs?: number
  note?: (line: string) => void
}): Promise<ChromePlace> {
  const path = o.path ?? socketPath()
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  rmSync(path, { force: true })
  let bridge: Socket | undefined
  const waiters: (() => void)[] = []
  const pending = new Map<number, (r: Reply) => void>()
  let next = 1
  /** Each session's tab once the person gave it, and why it lost it. */
  const states = new Map<string, { attached?: McpTab; stopped?: string }>()
  const state = (key: string) => states.get(key) ?? (states.set(key, {}), states.get(key)!)
  const server = createServer((socket) => {
    // One browser at a time: a second connection replaces the first (the person restarted Chrome).
    bridge?.destroy()
    bridge = socket
    o.note?.('Ava in Chrome is connected')
    socket.on(
      'data',
      lineReader((m) => {
        const msg = m as { id?: number; kind?: string; session?: string; message?: string } & Reply
        if (msg.kind === 'stopped') {
          const st = states.get(msg.session ?? '')
          if (st) {
            st.attached = undefined
            st.stopped = msg.message ?? 'The person stopped this client in the browser.'
          }
          return
        }
        if (typeof msg.id === 'number') pending.get(msg.id)?.(msg)
      }),
    )
    socket.once('close', () => {
      if (bridge !== socket) return
      bridge = undefined
      o.note?.('Ava in Chrome went away (the browser closed, or Ava was reloaded)')
      for (const st of states.values()) {
        if (!st.attached) continue
        st.attached = undefined
        st.stopped = 'The browser went away (closed, or Ava was reloaded): the client must be given a tab again.'
      }
      for (const [, done] of pending)
        done({ ok: false, code: 'BROWSER_GONE', message: 'The browser went away (closed, or Ava was reloaded).' })
      pending.clear()
    })
    socket.once('error', () => undefined)
    for (const w of waiters.splice(0)) w()
  })
  await new Promise<void>((done) => server.listen(path, done))
  chmodSync(path, 0o600)

  async function connected(signal: AbortSignal): Promise<Socket> {
    if (bridge) return bridge
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(
        () => fail(new McpToolError('NO_BROWSER', kNoBrowserMessage)),
        o.bridgeWaitMs ?? kBridgeWaitMs,
      )
      waiters.push(() => (clearTimeout(timer), done()))
      signal.addEventListener('abort', () => fail(signal.reason), { once: true })
    })
    return bridge!
  }
  async function request(
    body: Record<string, unknown>,
    signal: AbortSignal | undefined,
    timeoutMs?: number,
  ): Promise<Reply> {
    const socket = await connected(signal ?? new AbortController().signal)
    const id = next++
    return new Promise<Reply>((done) => {
      const timer = timeoutMs
        ? setTimeout(
            () => finish({ ok: false, code: 'TIMEOUT', message: 'No answer came from the browser in time.' }),
            timeoutMs,
          )
        : undefined
      const finish = (r: Reply) => {
        clearTimeout(timer)
        pending.delete(id)
        done(r)
      }
      pending.set(id, finish)
      signal?.addEventListener(
        'abort',
        () => finish({ ok: false, code: 'CANCELLED', message: 'The client cancelled the call.' }),
        { once: true },
      )
      socket.write(`${JSON.stringify({ id, ...body })}\n`)
    })
  }
  const fail = (r: Reply): never => {
    if (r.ok) throw new Error('unreachable')
    throw new McpToolError(isFailureCode(r.code) ? r.code : 'UNKNOWN', r.message)
  }
  /** The place of one server session: its requests name it, so the extension keeps it to its own tab. */
  function sessionPlace(key: string, client: () => string): McpPlace & { ask: ChromePlace['ask'] } {
    const ask = (body: Record<string, unknown>, signal: AbortSignal | undefined, timeoutMs?: number) =>
      request({ ...body, session: key }, signal, timeoutMs)
    const send = (async <K extends PageCommandKind>(
      command: PageCommand<K>,
      signal?: AbortSignal,
    ): Promise<PageOutcome<K>> => {
      const r = await ask({ kind: 'command', command }, signal)
      // The browser's own failures come back as the page's: the engine and the flows read them as such.
      return (r.ok ? r.outcome : { ok: false, code: r.code, message: r.message }) as PageOutcome<K>
    }) as SendCommand
    const navigate = async (url: string, signal: AbortSignal) => {
      const r = await ask({ kind: 'navigate', url }, signal)
      if (!r.ok) fail(r)
    }
    const tab: McpTab = {
      send,
      navigate,
      async url() {
        const r = await ask({ kind: 'url' }, undefined, 10_000)
        return r.ok ? String(r.url) : fail(r)
      },
      browserPort: (gate) => createChannelPort(send, { ...gate, navigate }),
      flowPort: (gate) => ({ ...createChannelFlowPort(send, { ...gate, navigate }), close: () => undefined }),
    }
    return {
      secretsInPlace: true,
      tab: () => state(key).attached,
      gone: () => state(key).stopped,
      async open(url, signal) {
        const st = state(key)
        if (!st.attached) {
          // The person gives the session the tab in front of them, in that tab's panel.
          const r = await ask({ kind: 'attach', client: client() }, signal, kAttachWaitMs)
          if (!r.ok) fail(r)
          st.attached = tab
          st.stopped = undefined
        }
        await navigate(url, signal)
        return tab
      },
      async ask(text, signal, shape) {
        const st = state(key)
        if (!st.attached)
          throw new McpToolError(
            'NO_TAB',
            st.stopped ?? 'No tab is given to this client yet: open one with ava_navigate first.',
          )
        const r = await ask({ kind: 'ask', request: text, ...(shape ? { shape } : {}) }, signal)
        return r.ok ? (r.report as AskReport) : fail(r)
      },
      async close() {
        // The session ended (its HTTP session closed): the person's tab is theirs again.
        const st = states.get(key)
        states.delete(key)
        if (st?.attached && bridge) bridge.write(`${JSON.stringify({ id: next++, session: key, kind: 'detach' })}\n`)
      },
    }
  }

  const first = sessionPlace('', o.client)
  return {
    ...first,
    path,
    connectedWithin: (ms) =>
      bridge
        ? Promise.resolve(true)
        : new Promise<boolean>((done) => {
            const timer = setTimeout(() => done(!!bridge), ms)
            timer.unref()
            waiters.push(() => (clearTimeout(timer), done(true)))
          }),
    session: (client) => sessionPlace(randomUUID(), client ?? o.client),
    async close() {
      bridge?.destroy()
      await new Promise<void>((done) => server.close(() => done()))
      rmSync(path, { force: true })
    },
  }
}
