import browser from 'webextension-polyfill'
import { isActive } from '../core/agent/state'
import type { ChatMessage, RunEvent, StepView } from '../core/chat'
import { DEFAULT_HISTORY, historyStore, kMaxHistoryMessages, runStore, type History } from '../storage/conversation'
import { emitToPanels } from './panels'
import { currentDoc } from './tabs'

/**
 * The conversation a tab's panel shows: the site of the run in progress, else the site of the
 * page. Every change is written first (storage is the truth a panel reloads from after a
 * navigation) and then pushed to the tab's panel, numbered with the history's sequence number.
 */
export function originOf(url: string | undefined): string {
  try {
    const u = new URL(url ?? '')
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : `${u.protocol}//`
  } catch {
    return 'about:'
  }
}

export async function conversationOf(tabId: number): Promise<string> {
  const run = await runStore(tabId).get()
  if (run && isActive(run.status)) return run.origin
  const url = currentDoc(tabId)?.url ?? (await browser.tabs.get(tabId).catch(() => undefined))?.url
  return originOf(url)
}

export { isActive }

const queues = new Map<string, Promise<unknown>>()
/**
 * Write-through copies of the histories this worker is writing, so a run's many small updates
 * (a step going pending → running → done) do not each read the whole history back first.
 * Dropped when another context changes the stored value (the options page clearing history).
 */
const cached = new Map<string, History>()

export function watchHistories(): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local') return
    for (const [key, change] of Object.entries(changes)) {
      if (!key.startsWith('history:')) continue
      const origin = key.slice('history:'.length)
      const mine = cached.get(origin)
      if (mine && (change.newValue as History | undefined)?.seq !== mine.seq) cached.delete(origin)
    }
  })
}

/** Serialised read-modify-write of one site's history, then the live event to `tabId`'s panel. */
export function updateHistory<T>(origin: string, tabId: number | null, fn: (h: History) => T, event?: (out: T) => RunEvent | undefined): Promise<T> {
  const prev = queues.get(origin) ?? Promise.resolve()
  const next = prev.then(async () => {
    const store = historyStore(origin)
    const h = cached.get(origin) ?? (await store.get())
    const out = fn(h)
    if (h.messages.length > kMaxHistoryMessages) h.messages.splice(0, h.messages.length - kMaxHistoryMessages)
    h.seq++
    cached.set(origin, h)
    await store.set(h).catch((e) => {
      cached.delete(origin)
      throw e
    })
    const e = event?.(out)
    if (e && tabId !== null) emitToPanels(tabId, e, h.seq)
    return out
  })
  queues.set(origin, next.catch(() => undefined))
  return next
}

export async function clearHistory(origin: string): Promise<void> {
  await updateHistory(origin, null, (h) => Object.assign(h, { ...DEFAULT_HISTORY(), seq: h.seq }))
}

let counter = 0
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

/**
 * Streamed text reaches storage and the panel at most this often (issue 19): a write per token
 * rewrote the whole site history and broadcast it dozens of times a second. Any other write to
 * the conversation (a step, a message, a patch) first writes the text buffered before it.
 */
const kTextBatchMs = 100

/** Writes into one run's conversation and keeps that run's panel current. */
export function chatWriter(origin: string, tabId: () => number) {
  /** Text not yet written, per message, and the promise its callers wait on. */
  let buffered: { deltas: Map<string, string>; written: Promise<void>; settle(p: Promise<void>): void } | null = null
  let timer: ReturnType<typeof setTimeout> | undefined

  /** Queues the buffered text for writing, one history write and one event per message. */
  function writeText(): void {
    clearTimeout(timer)
    timer = undefined
    const batch = buffered
    buffered = null
    if (!batch) return
    const writes = [...batch.deltas].map(([messageId, delta]) =>
      updateHistory(
        origin,
        tabId(),
        (h) => {
          const m = h.messages.find((x) => x.id === messageId)
          if (m) m.text += delta
        },
        () => ({ type: 'text', messageId, delta }),
      ),
    )
    batch.settle(Promise.all(writes).then(() => undefined))
  }

  return {
    async add(message: Omit<ChatMessage, 'id' | 'ts'>): Promise<ChatMessage> {
      const full: ChatMessage = { id: newId('m'), ts: Date.now(), ...message }
      writeText()
      await updateHistory(origin, tabId(), (h) => void h.messages.push(full), () => ({ type: 'message', message: full }))
      return full
    },
    /** Appends to a message's text; resolves once the batch holding this delta is stored. */
    text(messageId: string, delta: string): Promise<void> {
      if (!buffered) {
        let settle!: (p: Promise<void>) => void
        const written = new Promise<void>((resolve, reject) => (settle = (p) => p.then(resolve, reject)))
        buffered = { deltas: new Map(), written, settle }
        timer = setTimeout(writeText, kTextBatchMs)
      }
      buffered.deltas.set(messageId, (buffered.deltas.get(messageId) ?? '') + delta)
      return buffered.written
    },
    async step(messageId: string, step: StepView): Promise<void> {
      writeText()
      await updateHistory(
        origin,
        tabId(),
        (h) => {
          const m = h.messages.find((x) => x.id === messageId)
          if (!m) return
          m.steps ??= []
          m.steps[step.index] = step
        },
        () => ({ type: 'step', messageId, step }),
      )
    },
    /** Resolves once every write queued so far, buffered text included, has reached storage. */
    async flush(): Promise<void> {
      writeText()
      await queues.get(origin)
    },
    async patch(messageId: string, patch: Partial<ChatMessage>): Promise<void> {
      let updated: ChatMessage | undefined
      writeText()
      await updateHistory(
        origin,
        tabId(),
        (h) => {
          const m = h.messages.find((x) => x.id === messageId)
          if (m) updated = Object.assign(m, patch)
        },
        () => (updated ? { type: 'message', message: updated } : undefined),
      )
    },
  }
}
export type ChatWriter = ReturnType<typeof chatWriter>
