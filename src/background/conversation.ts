import { recordsStore } from '../storage/records'
import browser from 'webextension-polyfill'
import { isActive } from '../core/agent/state'
import { kMaxAnswerChars, type ChatMessage, type RunEvent, type StepView } from '../core/chat'
import { DEFAULT_HISTORY, historyStore, kMaxHistoryMessages, runStore, type History } from '../storage/conversation'
import { emitToPanels } from './panels'
import { currentDoc } from './tabs'
import { kAnswerCutHint } from '../core/chat'

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
 * The histories this worker is writing, ahead of storage: every change lands here first and is
 * pushed to the panel at once, while streamed text reaches storage at most once a second (issue
 * 16). Dropped when another context changes the stored value (the options page clearing history).
 */
const cached = new Map<string, History>()
/**
 * The sequence numbers of our own writes per site whose storage.onChanged echo has not come yet,
 * so no echo is taken for someone else's change. Every one is kept, not just the last: an echo
 * that arrived after a newer write dropped the cache while it held text not yet stored, and the
 * history's numbering went back, so the panel took the run's last events for old ones.
 */
const written = new Map<string, Set<number>>()
/** Sites whose cached history is ahead of storage, with the timer that will write it. */
const dirty = new Map<string, ReturnType<typeof setTimeout>>()

/**
 * Streamed text reaches storage at most this often ("history written per instruction or
 * per second"); every other change (a message, a step, a patch) is written at once and takes the
 * text before it along. A worker stopped in between loses at most this much of an answer's text.
 */
export const kTextStoreMs = 1_000

export function watchHistories(): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local') return
    for (const [key, change] of Object.entries(changes)) {
      if (!key.startsWith('history:')) continue
      const origin = key.slice('history:'.length)
      const seq = (change.newValue as History | undefined)?.seq
      if (seq !== undefined && written.get(origin)?.delete(seq)) continue
      cached.delete(origin)
      clearTimeout(dirty.get(origin))
      dirty.delete(origin)
    }
  })
}

/** Runs `job` after every job queued before it for this site. */
function enqueue<T>(origin: string, job: () => Promise<T>): Promise<T> {
  const next = (queues.get(origin) ?? Promise.resolve()).then(job)
  queues.set(
    origin,
    next.catch(() => undefined),
  )
  return next
}

/** Writes the cached history of `origin` to storage; called inside its queue only. */
async function store(origin: string): Promise<void> {
  clearTimeout(dirty.get(origin))
  dirty.delete(origin)
  const h = cached.get(origin)
  if (!h) return
  if (!written.has(origin)) written.set(origin, new Set())
  written.get(origin)!.add(h.seq)
  await historyStore(origin)
    .set(h)
    .catch((e) => {
      written.get(origin)?.delete(h.seq)
      cached.delete(origin)
      throw e
    })
}

/**
 * Serialised read-modify-write of one site's history, then the live event to `tabId`'s panel.
 * `lazy` changes (streamed text) are stored within kTextStoreMs instead of at once.
 */
export function updateHistory<T>(
  origin: string,
  tabId: number | null,
  fn: (h: History) => T,
  event?: (out: T) => RunEvent | undefined,
  opts: { lazy?: boolean } = {},
): Promise<T> {
  return enqueue(origin, async () => {
    const h = cached.get(origin) ?? (await historyStore(origin).get())
    const out = fn(h)
    if (h.messages.length > kMaxHistoryMessages) h.messages.splice(0, h.messages.length - kMaxHistoryMessages)
    h.seq++
    cached.set(origin, h)
    if (!opts.lazy) await store(origin)
    else if (!dirty.has(origin))
      dirty.set(
        origin,
        setTimeout(() => void enqueue(origin, () => store(origin)).catch(() => undefined), kTextStoreMs),
      )
    const e = event?.(out)
    if (e && tabId !== null) emitToPanels(tabId, e, h.seq)
    return out
  })
}

/** The history as the panel should see it: this worker's copy when it is ahead of storage. */
export function readHistory(origin: string): Promise<History> {
  return enqueue(origin, async () => structuredClone(cached.get(origin)) ?? historyStore(origin).get())
}

/** Resolves once every change queued so far for `origin` has reached storage. */
function stored(origin: string): Promise<void> {
  return enqueue(origin, () => (dirty.has(origin) ? store(origin) : Promise.resolve()))
}

export async function clearHistory(origin: string): Promise<void> {
  await updateHistory(origin, null, (h) => Object.assign(h, { ...DEFAULT_HISTORY(), seq: h.seq }))
  // A run's record is part of the history it was shown in (docs/run-record.md, "Kept records").
  await recordsStore(origin).remove()
}

let counter = 0
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

/**
 * Streamed text reaches the panel at most this often: an event per token kept the
 * panel busy with messages. Any other write to the conversation (a step, a message, a patch)
 * first writes the text buffered before it.
 */
const kTextBatchMs = 100

export { kAnswerCutHint } from '../core/chat'

/** Appends what fits under kMaxAnswerChars; marks the message cut when some did not fit. */
export function appendCapped(m: ChatMessage, delta: string): { added: string; cut: boolean } {
  const room = Math.max(0, kMaxAnswerChars - m.text.length)
  const added = delta.slice(0, room)
  m.text += added
  const cut = added.length < delta.length && m.hint !== kAnswerCutHint
  if (cut) m.hint = kAnswerCutHint
  return { added, cut }
}

/** Writes into one run's conversation and keeps that run's panel current. */
export function chatWriter(origin: string, tabId: () => number) {
  /** Text not yet written, per message, and the promise its callers wait on. */
  let buffered: { deltas: Map<string, string>; written: Promise<void>; settle(p: Promise<void>): void } | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastWrite = 0

  /** Queues the buffered text for writing, one history write and one event per message. */
  function writeText(): void {
    clearTimeout(timer)
    timer = undefined
    lastWrite = Date.now()
    const batch = buffered
    buffered = null
    if (!batch) return
    const writes = [...batch.deltas].map(([messageId, delta]) =>
      updateHistory(
        origin,
        tabId(),
        (h) => {
          const m = h.messages.find((x) => x.id === messageId)
          return m ? { m, ...appendCapped(m, delta) } : undefined
        },
        // The note travels with the message once; after that nothing more is added.
        (r): RunEvent | undefined =>
          !r
            ? undefined
            : r.cut
              ? { type: 'message', message: r.m }
              : r.added
                ? { type: 'text', messageId, delta: r.added }
                : undefined,
        { lazy: true },
      ),
    )
    batch.settle(Promise.all(writes).then(() => undefined))
  }

  return {
    async add(message: Omit<ChatMessage, 'id' | 'ts'>): Promise<ChatMessage> {
      const full: ChatMessage = { id: newId('m'), ts: Date.now(), ...message }
      writeText()
      await updateHistory(
        origin,
        tabId(),
        (h) => void h.messages.push(full),
        () => ({ type: 'message', message: full }),
      )
      return full
    },
    /** Appends to a message's text; resolves once the batch holding this delta reached the panel (storage follows within kTextStoreMs). */
    text(messageId: string, delta: string): Promise<void> {
      if (!buffered) {
        let settle!: (p: Promise<void>) => void
        const written = new Promise<void>((resolve, reject) => (settle = (p) => p.then(resolve, reject)))
        buffered = { deltas: new Map(), written, settle }
        timer = setTimeout(writeText, kTextBatchMs)
      }
      buffered.deltas.set(messageId, (buffered.deltas.get(messageId) ?? '') + delta)
      const written = buffered.written
      // A reply that arrived whole is read in one long run of microtasks, during which no timer
      // fires: without this the panel would see nothing until the end, then everything at once.
      if (Date.now() - lastWrite >= kTextBatchMs) writeText()
      return written
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
      await stored(origin)
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
