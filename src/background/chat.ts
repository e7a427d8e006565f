import type { ChatMessage, RunEvent, RunView, StepView } from '../core/chat'
import { DEFAULT_TAB_CHAT, tabChatStore, type TabChat } from '../storage/chat'
import { emitToPanels } from './panels'

/**
 * The per-tab conversation. Every change is written to chrome.storage.session first (it is the
 * truth the panel reloads from after a navigation) and then pushed to the tab's panel as a live
 * event numbered with the chat's sequence number.
 * Writes to one tab are serialised so that concurrent stream and step updates never interleave.
 */
const queues = new Map<number, Promise<unknown>>()

export function updateChat<T>(tabId: number, fn: (chat: TabChat) => T, event?: (out: T) => RunEvent | undefined): Promise<T> {
  const prev = queues.get(tabId) ?? Promise.resolve()
  const next = prev.then(async () => {
    const store = tabChatStore(tabId)
    const chat = await store.get()
    const out = fn(chat)
    chat.seq++
    await store.set(chat)
    const e = event?.(out)
    if (e) emitToPanels(tabId, e, chat.seq)
    return out
  })
  queues.set(tabId, next.catch(() => undefined))
  return next
}

export function loadChat(tabId: number): Promise<TabChat> {
  return tabChatStore(tabId).get()
}

export async function clearChat(tabId: number): Promise<void> {
  await updateChat(tabId, (chat) => Object.assign(chat, { ...DEFAULT_TAB_CHAT(), panelOpen: chat.panelOpen, run: chat.run, seq: chat.seq }))
}

let counter = 0
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

export async function addMessage(tabId: number, message: Omit<ChatMessage, 'id' | 'ts'>): Promise<ChatMessage> {
  const full: ChatMessage = { id: newId('m'), ts: Date.now(), ...message }
  await updateChat(tabId, (chat) => void chat.messages.push(full), () => ({ type: 'message', message: full }))
  return full
}

export async function appendText(tabId: number, messageId: string, delta: string): Promise<void> {
  await updateChat(
    tabId,
    (chat) => {
      const m = chat.messages.find((x) => x.id === messageId)
      if (m) m.text += delta
    },
    () => ({ type: 'text', messageId, delta }),
  )
}

export async function putStep(tabId: number, messageId: string, step: StepView): Promise<void> {
  await updateChat(
    tabId,
    (chat) => {
      const m = chat.messages.find((x) => x.id === messageId)
      if (!m) return
      m.steps ??= []
      m.steps[step.index] = step
    },
    () => ({ type: 'step', messageId, step }),
  )
}

export async function setRun(tabId: number, run: RunView): Promise<void> {
  await updateChat(tabId, (chat) => void (chat.run = run), () => ({ type: 'status', run }))
}
