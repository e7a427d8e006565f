import type { ErrorData } from '../core/errors'
import type { FailureCode } from '../core/failure'
import { kChannelFailures } from '../core/failure-channel'
import type { Envelope, MessageName, Protocol, Reply, Req, Res } from './protocol'

/** Who sent a message, decided from Chrome's own sender record — never from the message body. */
export type SenderKind = 'tab' | 'panel' | 'options' | 'popup' | 'background'

export interface MessageSenderLike {
  id?: string
  url?: string
  tab?: { id?: number }
  frameId?: number
  documentId?: string
}

/**
 * Classifies a sender. Anything not from this extension is `null` and gets no answer. Page
 * scripts cannot reach `runtime.onMessage` at all (no `externally_connectable`), so `tab` means
 * our own content script in that tab.
 */
export function classifySender(sender: MessageSenderLike, extensionId: string): SenderKind | null {
  if (sender.id !== extensionId) return null
  const origin = `chrome-extension://${extensionId}/`
  const url = sender.url ?? ''
  if (url.startsWith(origin)) {
    const path = url.slice(origin.length)
    if (path.startsWith('src/options/')) return 'options'
    // The first-run page is the options page's provider form on a page of its own.
    if (path.startsWith('src/welcome/')) return 'options'
    if (path.startsWith('src/popup/')) return 'popup'
    // The chat panel is an extension page framed inside a tab; it must also hold a token (see authorize).
    if (path.startsWith('src/panel/') && sender.tab) return 'panel'
    // The service worker itself (tabs.sendMessage from the background carries its URL or none).
    if (!sender.tab) return 'background'
    return null
  }
  if (sender.tab) return 'tab'
  return url ? null : 'background'
}

export interface HandlerContext {
  kind: SenderKind
  tabId?: number
  frameId?: number
  documentId?: string
  url?: string
}

type Handler<N extends MessageName> = {
  from: readonly SenderKind[]
  fn: (req: Req<N>, ctx: HandlerContext) => Promise<Res<N>> | Res<N>
}

export class ProtocolError extends Error {
  override name = 'ProtocolError'
  constructor(
    readonly code: string,
    message: string,
    /** Filled into the UI's `failure.<code>` message; `message` is the English for logs and the CLI. */
    readonly params?: Record<string, string | number>,
  ) {
    super(message)
  }
}

/**
 * What can happen to a message on its way, as codes: Chrome reports each as an English sentence in
 * `runtime.lastError` (a rejected `sendMessage`), which must never reach a person.
 * - `NO_RECEIVER`: nobody took it (no content script yet, the document or frame is gone, the tab closed).
 * - `GONE_MID_MESSAGE`: the receiver took it and went away before it answered (a navigation, the
 *   back/forward cache, a frame removed): whatever it was asked may have been done.
 * - `CONTEXT_GONE`: this context itself was cut off from the extension (Ava was updated or reloaded).
 * - `CHANNEL`: anything else the browser said; the sentence is kept in `detail`, for logs only.
 */
export type ChannelCode = Extract<FailureCode, 'NO_RECEIVER' | 'GONE_MID_MESSAGE' | 'CONTEXT_GONE' | 'CHANNEL'>

export class ChannelError extends ProtocolError {
  override name = 'ChannelError'
  constructor(
    override readonly code: ChannelCode,
    message: string,
    /** The browser's own words, for a console; never shown. */
    readonly detail?: string,
  ) {
    super(code, message)
  }
}

/** English for a console and a model (ava mcp): what the failure list says the code means; a person reads its locale sentence. */
const channelMessage = (code: ChannelCode): string => kChannelFailures[code].means

/**
 * The browser's wording of each failure (Chromium's messaging code; the polyfill passes it on as
 * the rejection's message). Checked in this order: "the message port closed before a response"
 * is a message no listener kept (the polyfill turns it into `undefined`): nobody took it.
 */
const kChannelTexts: [ChannelCode, RegExp][] = [
  ['CONTEXT_GONE', /Extension context invalidated/i],
  ['NO_RECEIVER', /message port closed before a response/i],
  [
    'GONE_MID_MESSAGE',
    /message (?:port|channel) (?:is )?closed|back\/forward cache|listener indicated an asynchronous response/i,
  ],
  [
    'NO_RECEIVER',
    /Receiving end does not exist|Could not establish connection|No frame with id|No document with id|No tab with id|Frame with ID \d+ was removed|Nobody answered/i,
  ],
]

/** A rejected send, as a typed error with a sentence of ours; an error that already has a code passes. */
export function channelError(e: unknown): ProtocolError {
  if (e instanceof ProtocolError) return e
  const text = String((e as Error)?.message ?? e)
  const code = kChannelTexts.find(([, re]) => re.test(text))?.[0] ?? 'CHANNEL'
  return new ChannelError(code, channelMessage(code), text)
}

/** The receiver went away, before or after it took the message: the request may be sent to its successor. */
export function isReceiverGone(e: unknown): boolean {
  return e instanceof ProtocolError && (e.code === 'NO_RECEIVER' || e.code === 'GONE_MID_MESSAGE')
}

/** The receiver took the message and went away before answering: a step it was asked may have run. */
export function isGoneMidMessage(e: unknown): boolean {
  return e instanceof ProtocolError && e.code === 'GONE_MID_MESSAGE'
}

/** The parts of the extension API the transport needs; `webextension-polyfill`'s `browser` fits. */
export interface RuntimeLike {
  id: string
  sendMessage(message: unknown): Promise<unknown>
  onMessage: {
    addListener(cb: (message: unknown, sender: MessageSenderLike) => Promise<unknown> | undefined): void
  }
}
export interface TabsLike {
  sendMessage(tabId: number, message: unknown, options?: { frameId?: number; documentId?: string }): Promise<unknown>
}

function isEnvelope(m: unknown): m is Envelope {
  return typeof m === 'object' && m !== null && (m as Envelope).ava === 1 && typeof (m as Envelope).name === 'string'
}

function toErrorData(e: unknown): ErrorData {
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'string') {
    const params = (e as { params?: unknown }).params
    const data: ErrorData = { code: (e as { code: string }).code, message: String((e as unknown as Error).message) }
    if (params && typeof params === 'object') data.params = params as Record<string, string | number>
    return data
  }
  const message = e instanceof Error ? e.message : String(e)
  // A handler that let a browser messaging error through answers with our sentence, not Chrome's.
  const channel = kChannelTexts.some(([, re]) => re.test(message)) ? channelError(e) : null
  return channel ? { code: channel.code, message: channel.message } : { code: 'UNKNOWN', message }
}

function unwrap<N extends MessageName>(name: N, reply: unknown): Res<N> {
  if (reply === undefined)
    throw new ChannelError('NO_RECEIVER', channelMessage('NO_RECEIVER'), `Nobody answered ${name}`)
  const r = reply as Reply<N>
  if (r.ok) return r.res
  throw new ProtocolError(r.error.code, r.error.message, r.error.params)
}

/**
 * A second check after the sender's kind, for senders whose kind alone does not prove who they
 * are: any page could frame our panel page, so a panel must be the frame its tab's boot script made
 * (its port showed that frame's token; src/background/panels.ts).
 */
export type Authorizer = (ctx: HandlerContext) => boolean

export function createMessenger(runtime: RuntimeLike, tabs?: TabsLike) {
  const handlers = new Map<MessageName, Handler<any>>()
  const authorizers = new Map<SenderKind, Authorizer>()
  let listening = false

  function listen() {
    if (listening) return
    listening = true
    runtime.onMessage.addListener((message, sender) => {
      if (!isEnvelope(message)) return undefined
      const handler = handlers.get(message.name)
      if (!handler) return undefined // another context of ours handles it
      const kind = classifySender(sender, runtime.id)
      if (!kind || !handler.from.includes(kind)) {
        const error: ErrorData = {
          code: 'FORBIDDEN',
          message: `${message.name} is not accepted from ${kind ?? 'an unknown sender'}`,
        }
        return Promise.resolve({ ok: false, error } satisfies Reply)
      }
      const ctx: HandlerContext = {
        kind,
        tabId: sender.tab?.id,
        frameId: sender.frameId,
        documentId: sender.documentId,
        url: sender.url,
      }
      const authorize = authorizers.get(kind)
      if (authorize && !authorize(ctx)) {
        const error: ErrorData = {
          code: 'FORBIDDEN',
          message: `${message.name} came from a ${kind} that has not been authorised`,
        }
        return Promise.resolve({ ok: false, error } satisfies Reply)
      }
      return Promise.resolve()
        .then(() => handler.fn(message.req, ctx))
        .then(
          (res) => ({ ok: true, res }) as Reply,
          (e) => ({ ok: false, error: toErrorData(e) }) as Reply,
        )
    })
  }

  return {
    /** Adds a check that every message from senders of `kind` must pass. */
    authorize(kind: SenderKind, fn: Authorizer): void {
      authorizers.set(kind, fn)
    },
    /** Registers the handler of one message, with the senders it accepts. */
    handle<N extends MessageName>(name: N, from: readonly SenderKind[], fn: Handler<N>['fn']): void {
      if (handlers.has(name)) throw new Error(`Two handlers for ${name}`)
      handlers.set(name, { from, fn })
      listen()
    },
    /** Sends to the background (or to the extension pages that handle `name`). */
    async send<N extends MessageName>(name: N, req: Req<N>): Promise<Res<N>> {
      const reply = await Promise.resolve()
        // A context cut off from the extension throws at the call itself, not in the promise.
        .then(() => runtime.sendMessage({ ava: 1, name, req } satisfies Envelope<N>))
        .catch((e: unknown) => Promise.reject(channelError(e)))
      return unwrap(name, reply)
    },
    /** Sends to the content script of one tab (the top frame unless told otherwise). */
    async sendToTab<N extends MessageName>(
      tabId: number,
      name: N,
      req: Req<N>,
      target: { frameId?: number; documentId?: string } = { frameId: 0 },
    ): Promise<Res<N>> {
      if (!tabs) throw new Error('sendToTab is only available in the background')
      // Every way a document can vanish under a message (navigation, bfcache, a closed frame or
      // tab) arrives here as a typed ChannelError: callers decide by code, never by Chrome's text.
      const reply = await Promise.resolve()
        .then(() => tabs.sendMessage(tabId, { ava: 1, name, req } satisfies Envelope<N>, target))
        .catch((e: unknown) => Promise.reject(channelError(e)))
      return unwrap(name, reply)
    },
  }
}

export type Messenger = ReturnType<typeof createMessenger>
export type { Protocol }
