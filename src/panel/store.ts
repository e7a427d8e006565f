import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { isSendable, kMaxRequestChars, type ChatMessage, type RunEvent, type RunView } from '../core/chat'
import { isSlash } from '../core/slash'
import { isExtractCommand, parseExtractCommand } from '../core/extract/command'
import { send } from '../messaging'
import type { Attachment } from '../core/agent/attachments'
import { t } from '../ui/i18n'
import { downloadText } from '../ui/download'
import { recordHtml, recordJson } from '../core/agent/record-html'

/**
 * What the panel says when the background refuses or cannot be reached, in the person's language:
 * a refusal the chat already explains (a blocked site) says nothing more, and a runtime's own
 * words ("message channel closed…") are never shown.
 */
function refusal(e: unknown): string | null {
  const code = (e as { code?: unknown })?.code
  if (code === 'FORBIDDEN') return null
  if (code === 'BUSY') return t('outcome.busy')
  // A schema the person typed: what is wrong in it is theirs to read (its path and words).
  if (code === 'EXTRACT_SCHEMA') return `${t('failure.EXTRACT_SCHEMA')} ${(e as Error).message}`
  return t('outcome.sendFailed')
}

/** An answer sent while the worker restarts is sent again this often, this many times (some 5 s in all). */
const kAnswerRetries = 20
const kAnswerRetryMs = 250

/** The chat as this panel shows it. The background's stored chat is the truth; events keep us current. */
export const useChatStore = defineStore('chat', () => {
  const messages = ref<ChatMessage[]>([])
  /** The conversation's site and the tab's page (the schedule and note forms use them). */
  const site = ref({ origin: '', url: '' })
  const run = ref<RunView | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  const connected = ref(false)
  /** The debug overlay: the page's indexed elements outlined with their ids. */
  const overlay = ref(false)
  /** Events at or below the loaded snapshot's sequence number are already in it. */
  let seq = -1
  let pending: { e: RunEvent; seq: number }[] = []

  const busy = computed(
    () => run.value?.status === 'planning' || run.value?.status === 'running' || run.value?.status === 'waiting',
  )

  async function load() {
    loading.value = true
    // Events that come while the snapshot is on its way wait for it (a reconnect): applied at once,
    // a snapshot taken before them would overwrite them, and the panel would lose text for good.
    const before = seq
    seq = -1
    try {
      const r = await send('panel→bg:chat.load', {})
      messages.value = r.messages
      site.value = { origin: r.origin, url: r.url ?? r.origin }
      run.value = r.run
      seq = r.seq
      error.value = null
      connected.value = true
    } catch (e) {
      seq = before
      error.value = refusal(e)
    } finally {
      const later = pending.filter((p) => p.seq > seq)
      pending = []
      if (seq >= 0) for (const p of later) apply(p.e, p.seq)
      loading.value = false
    }
  }

  /** Returns false when the text was refused (empty or whitespace only). */
  /** `files`: attached for upload steps; a slash command takes none. */
  async function sendText(text: string, opts: { noCache?: boolean; files?: Attachment[] } = {}): Promise<boolean> {
    if (!isSendable(text) || busy.value) return false
    error.value = null
    if (text.trim().length > kMaxRequestChars) {
      error.value = t('outcome.tooLong', { max: kMaxRequestChars })
      return false
    }
    try {
      if (isExtractCommand(text)) {
        const { shape, request } = parseExtractCommand(text)
        await send('panel→bg:run.start', { text: request, shape })
      } else if (isSlash(text)) await send('panel→bg:slash', { text: text.trim() })
      else
        await send('panel→bg:run.start', {
          text: text.trim(),
          ...(opts.noCache ? { noCache: true } : {}),
          ...(opts.files?.length ? { files: opts.files.map((f) => ({ ...f })) } : {}),
        })
      return true
    } catch (e) {
      error.value = refusal(e)
      return false
    }
  }

  /**
   * The recovery buttons of a failed outcome: Retry sends the request before it again;
   * Regenerate asks the model afresh, past the instruction cache, for the same request.
   */
  async function retry(messageId: string, opts: { regenerate?: boolean } = {}): Promise<boolean> {
    const i = messages.value.findIndex((m) => m.id === messageId)
    const request = messages.value.slice(0, Math.max(0, i)).findLast((m) => m.role === 'user')
    if (!request) return false
    return sendText(request.text, opts.regenerate ? { noCache: true } : {})
  }

  async function openOptions() {
    // Loaded on the click: the polyfill refuses to load outside an extension page (the store's Node tests).
    const { default: browser } = await import('webextension-polyfill')
    await browser.runtime.openOptionsPage().catch(() => (error.value = t('outcome.sendFailed')))
  }

  async function stop() {
    await send('panel→bg:run.stop', {}).catch((e) => (error.value = refusal(e)))
  }

  /** Pause: the run stops before its next step and hands the page to the person (docs/agent.md, "Taking over"). */
  async function pause(): Promise<boolean> {
    return send('panel→bg:run.pause', {})
      .then((r) => r.paused)
      .catch((e) => ((error.value = refusal(e)), false))
  }

  async function toggleOverlay() {
    try {
      overlay.value = (await send('panel→bg:overlay', { on: !overlay.value })).on
    } catch (e) {
      error.value = refusal(e)
    }
  }

  /** Allow or Deny on a question's card (`id`: the card's message id). */
  async function confirm(id: string, allow: boolean) {
    try {
      const r = await send('ui→bg:question.answer', { id, allow })
      // A second click on a card already answered says nothing: the card shows the first answer.
      if (!r.ok && r.reason !== 'answered')
        error.value = t(r.reason === 'elsewhere' ? 'confirm.refused.elsewhere' : 'confirm.refused.closed')
    } catch (e) {
      error.value = refusal(e)
    }
  }

  /**
   * The person's answer to the model's question: their words, or Continue (`null`; Resume on a
   * take-over card); `takeover`: "do it myself".
   */
  async function answer(runId: string, text: string | null, picked = false, takeover = false) {
    const req = takeover
      ? { runId, takeover: true }
      : text === null
        ? { runId, continued: true }
        : { runId, text, ...(picked ? { picked } : {}) }
    for (let tries = 0; ; tries++) {
      try {
        const r = await send('panel→bg:run.answer', req)
        if (!r.ok) error.value = t(r.reason === 'empty' ? 'ask.refused.empty' : 'ask.refused.closed')
        return
      } catch (e) {
        // A question waits across a worker restart; until this frame's port has shown its token to
        // the new worker, the worker does not take our messages (FORBIDDEN). Said again once it has.
        if ((e as { code?: unknown })?.code === 'FORBIDDEN' && tries < kAnswerRetries) {
          await new Promise((r) => setTimeout(r, kAnswerRetryMs))
          continue
        }
        error.value = refusal(e)
        return
      }
    }
  }

  /** The finished run's record, saved as one HTML file or as JSON (docs/run-record.md, "Export"). */
  async function exportRecord(messageId: string, format: 'html' | 'json'): Promise<boolean> {
    const r = await send('panel→bg:record.get', { messageId }).catch(() => ({ record: null }))
    if (!r.record) return false
    const stamp = new Date(r.record.startedAt).toISOString().slice(0, 19).replace(/[:T]/g, '-')
    if (format === 'html') downloadText(`ava-run-${stamp}.html`, recordHtml(r.record), 'text/html;charset=utf-8')
    else downloadText(`ava-run-${stamp}.json`, recordJson(r.record), 'application/json')
    return true
  }

  async function clear() {
    const r = await send('panel→bg:chat.clear', {})
    if (r.cleared) messages.value = []
  }

  function apply(e: RunEvent, eventSeq: number) {
    // Run status travels outside the history's numbering: the newest always wins.
    if (e.type === 'status') {
      run.value = e.run
      return
    }
    if (seq < 0) {
      pending.push({ e, seq: eventSeq }) // the snapshot is still loading
      return
    }
    if (eventSeq <= seq) return
    seq = eventSeq
    if (e.type === 'message') {
      const i = messages.value.findIndex((m) => m.id === e.message.id)
      if (i >= 0) messages.value[i] = e.message
      else messages.value.push(e.message)
    } else if (e.type === 'text') {
      const m = messages.value.find((x) => x.id === e.messageId)
      if (m) m.text += e.delta
    } else if (e.type === 'step') {
      const m = messages.value.find((x) => x.id === e.messageId)
      if (m) {
        m.steps ??= []
        m.steps[e.step.index] = e.step
      }
    }
  }

  return {
    messages,
    site,
    run,
    loading,
    error,
    connected,
    overlay,
    busy,
    load,
    sendText,
    retry,
    openOptions,
    exportRecord,
    stop,
    pause,
    clear,
    confirm,
    answer,
    toggleOverlay,
    apply,
  }
})
