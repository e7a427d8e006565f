import browser from 'webextension-polyfill'
import { isSendable, kMaxRequestChars, type RunView, type StepView } from '../core/chat'
import { AvaError } from '../core/errors'
import type { ExecOutcome } from '../core/exec'
import { createAsyncQueue } from '../core/async-queue'
import { createInstructionSplitter } from '../core/instruction/stream'
import { safeParseInstructionText, type Instruction } from '../core/instruction/schema'
import { buildSystemPrompt, buildUserPrompt, type PageContext } from '../core/prompt'
import { ProtocolError, sendToTab } from '../messaging'
import { settingsStore } from '../storage/settings'
import { addMessage, appendText, loadChat, newId, putStep, setRun } from './chat'
import { streamCompletion } from './llm'
import { currentDoc, markNavigating, waitForDoc } from './tabs'

/**
 * A run: one request of the person, planned by the LLM and executed step by step in the tab.
 * The background owns it; its state lives in chrome.storage.session (see chat.ts) so the panel
 * of the next page, or of a restarted worker, sees where it stands.
 */
const active = new Map<number, { id: string; controller: AbortController }>()

const kElementWaitMs = 10_000 // SPA components may mount late (seed 001 §2.3, §4.3)
const kPageInfoTimeoutMs = 5_000
const kMayNavigate = new Set(['click', 'press'])

export async function startRun(tabId: number, text: string): Promise<string> {
  if (!isSendable(text)) throw new AvaError('UNKNOWN', 'Type a request first.')
  if (text.length > kMaxRequestChars) throw new AvaError('UNKNOWN', `The request is longer than ${kMaxRequestChars} characters; shorten it.`)
  if (active.has(tabId)) throw Object.assign(new Error('Ava is already working on a request in this tab. Stop it first.'), { code: 'BUSY' })

  const id = newId('run')
  const controller = new AbortController()
  active.set(tabId, { id, controller })
  try {
    await addMessage(tabId, { role: 'user', text })
    const assistant = await addMessage(tabId, { role: 'assistant', text: '', steps: [] })
    const run: RunView = { id, status: 'planning', messageId: assistant.id }
    await setRun(tabId, run)
    void execute(tabId, run, text, controller.signal).finally(() => {
      if (active.get(tabId)?.id === id) active.delete(tabId)
    })
  } catch (e) {
    active.delete(tabId)
    throw e
  }
  return id
}

export function stopRun(tabId: number): boolean {
  const run = active.get(tabId)
  if (!run) return false
  run.controller.abort(new AvaError('UNKNOWN', 'Stopped by you.'))
  return true
}

export function isRunning(tabId: number): boolean {
  return active.has(tabId)
}

/**
 * Instructions are consumed by one loop while the LLM is still streaming the next ones, so step
 * 1 runs as soon as its closing brace arrives.
 */
async function execute(tabId: number, run: RunView, request: string, signal: AbortSignal): Promise<void> {
  const steps: StepView[] = []
  const queue = createAsyncQueue<{ step: StepView; error?: string }>()
  let failure: AvaError | null = null
  const stream = new AbortController()
  const streamSignal = AbortSignal.any([signal, stream.signal])
  let splitter = createInstructionSplitter({ prose: () => undefined, element: () => undefined })

  const consumer = (async () => {
    for await (const item of queue) {
      if (signal.aborted) return
      if (failure) {
        await putStep(tabId, run.messageId, { ...item.step, status: 'skipped' })
        continue
      }
      if (item.error) {
        // An invalid instruction is reported, never executed, and the plan stops there.
        await putStep(tabId, run.messageId, { ...item.step, status: 'failed', detail: item.error })
        failure = new AvaError('SCHEMA', `Step ${item.step.index + 1} was not a valid instruction, so Ava stopped before it.`)
        stream.abort()
        continue
      }
      if (run.status !== 'running') {
        run.status = 'running'
        await setRun(tabId, { ...run })
      }
      const step = { ...item.step, status: 'running' as const }
      await putStep(tabId, run.messageId, step)
      const t0 = performance.now()
      const out = await runStep(tabId, step.instruction, signal).catch((e) => toOutcome(e))
      const durationMs = Math.round(performance.now() - t0)
      if (out.ok) {
        await putStep(tabId, run.messageId, { ...step, status: 'ok', detail: out.detail, rung: out.rung, durationMs })
      } else {
        await putStep(tabId, run.messageId, { ...step, status: 'failed', detail: out.message, durationMs })
        failure = new AvaError(out.code === 'ELEMENT_NOT_FOUND' ? 'ELEMENT_MISSING' : 'STEP_FAILED', `Step ${step.index + 1} failed: ${out.message}`)
        stream.abort()
      }
    }
  })()

  try {
    const settings = await settingsStore.get()
    const page = await pageContext(tabId)
    splitter = createInstructionSplitter({
      prose: (t) => void appendText(tabId, run.messageId, t),
      element: (raw, index) => {
        const parsed = safeParseInstructionText(raw)
        const instruction: Instruction = parsed.ok ? parsed.value : placeholderInstruction(raw, index)
        const step: StepView = { index, instruction, status: 'pending' }
        steps.push(step)
        void putStep(tabId, run.messageId, step)
        queue.push(parsed.ok ? { step } : { step, error: parsed.error.message })
      },
    })
    try {
      await streamCompletion({
        llm: settings.llm,
        system: buildSystemPrompt(),
        messages: [{ role: 'user', content: buildUserPrompt(request, page) }],
        signal: streamSignal,
        onText: (delta) => splitter.push(delta),
      })
      const end = splitter.end()
      if (end.truncated !== null && !failure) {
        failure = new AvaError('STREAM_CUT', `The reply stopped in the middle of step ${steps.length + 1}; the steps before it ran. Try again.`)
      }
    } catch (e) {
      // A stream we aborted ourselves after a failed step is not a second error. A connection
      // that dropped inside an instruction is reported by where it stopped, which is what matters.
      if (!(stream.signal.aborted && failure)) {
        const cut = splitter.end().truncated !== null && !signal.aborted
        failure ??= cut
          ? new AvaError('STREAM_CUT', `The reply stopped in the middle of step ${steps.length + 1}; the steps before it ran. Try again.`)
          : e instanceof AvaError
            ? e
            : new AvaError('UNKNOWN', String((e as Error)?.message ?? e))
      }
    }
    queue.close()
    await consumer
    if (signal.aborted) {
      await finish(tabId, run, 'stopped', new AvaError('UNKNOWN', 'Stopped by you.'))
    } else if (failure) {
      await finish(tabId, run, 'failed', failure)
    } else {
      const chat = await loadChat(tabId)
      const msg = chat.messages.find((m) => m.id === run.messageId)
      if (!steps.length && !msg?.text.trim()) {
        await finish(tabId, run, 'failed', new AvaError('JSON_PARSE', 'The model sent an empty reply.'))
      } else await finish(tabId, run, 'done')
    }
  } catch (e) {
    queue.close()
    await consumer.catch(() => undefined)
    await finish(tabId, run, signal.aborted ? 'stopped' : 'failed', e instanceof AvaError ? e : new AvaError('UNKNOWN', String((e as Error)?.message ?? e)))
  }
}

async function finish(tabId: number, run: RunView, status: RunView['status'], error?: AvaError): Promise<void> {
  if (error) await addMessage(tabId, { role: 'system', kind: 'error', text: error.message, hint: error.code })
  await setRun(tabId, { ...run, status })
  // Nothing may stay "pending" or "running" once the run is over.
  const chat = await loadChat(tabId)
  const steps = chat.messages.find((x) => x.id === run.messageId)?.steps ?? []
  for (const step of steps) {
    if (step && (step.status === 'pending' || step.status === 'running')) await putStep(tabId, run.messageId, { ...step, status: 'skipped' })
  }
}

function placeholderInstruction(raw: string, index: number): Instruction {
  return { step_id: index + 1, action_type: 'verify', params: { assertion: raw.slice(0, 200) }, description: '(invalid instruction)' }
}

async function pageContext(tabId: number): Promise<PageContext> {
  const doc = await waitForDoc(tabId, { timeoutMs: kPageInfoTimeoutMs }).catch(() => undefined)
  try {
    return await sendToTab(tabId, 'bg→content:page.info', {}, doc?.documentId ? { documentId: doc.documentId } : { frameId: 0 })
  } catch {
    const tab = await browser.tabs.get(tabId)
    return { url: tab.url ?? '', title: tab.title ?? '', listing: '' }
  }
}

/** Runs one instruction: navigation in the background, everything else in the page. */
async function runStep(tabId: number, instruction: Instruction, signal: AbortSignal): Promise<ExecOutcome> {
  if (instruction.action_type === 'navigate') return navigate(tabId, instruction.params.url!, signal)
  const deadline = Date.now() + kElementWaitMs + 5_000
  for (;;) {
    const doc = await waitForDoc(tabId, { signal })
    try {
      const out = await sendToTab(tabId, 'bg→content:exec', { runId: '', instruction, timeoutMs: kElementWaitMs }, doc.documentId ? { documentId: doc.documentId } : { frameId: 0 })
      if (out.ok && out.navigating) {
        markNavigating(tabId)
        await waitForDoc(tabId, { notDocumentId: doc.documentId, signal })
      }
      return out
    } catch (e) {
      // The document went away while it held the step. A click or key press that navigates can do
      // that before its answer leaves: the step did its job. Anything else is tried on the next page.
      if (isGone(e) && kMayNavigate.has(instruction.action_type)) {
        markNavigating(tabId)
        await waitForDoc(tabId, { notDocumentId: doc.documentId, signal })
        return { ok: true, detail: `${instruction.description ?? instruction.action_type} — the page navigated`, navigating: true }
      }
      if (isGone(e) && Date.now() < deadline && !signal.aborted) {
        if (currentDoc(tabId)?.documentId === doc.documentId) markNavigating(tabId)
        continue
      }
      throw e
    }
  }
}

async function navigate(tabId: number, url: string, signal: AbortSignal): Promise<ExecOutcome> {
  const tab = await browser.tabs.get(tabId)
  const target = new URL(url, tab.url).href
  const before = currentDoc(tabId)?.documentId
  markNavigating(tabId)
  await browser.tabs.update(tabId, { url: target })
  await waitForDoc(tabId, { notDocumentId: before, signal })
  return { ok: true, detail: `Opened ${target}` }
}

function isGone(e: unknown): boolean {
  const m = String((e as Error)?.message ?? e)
  return /Receiving end does not exist|message port closed|No frame with id|No document with id|Could not establish connection|NO_RECEIVER/i.test(m)
}

function toOutcome(e: unknown): ExecOutcome {
  if (e instanceof ProtocolError || e instanceof AvaError) return { ok: false, code: 'TIMEOUT', message: e.message }
  return { ok: false, code: 'TIMEOUT', message: String((e as Error)?.message ?? e) }
}

/** After a worker restart, runs that were in flight are ended with a message instead of hanging. */
export async function endOrphanedRuns(): Promise<void> {
  const all = await browser.storage.session.get(null)
  for (const [key, value] of Object.entries(all)) {
    if (!key.startsWith('chat:')) continue
    const tabId = Number(key.slice(5))
    const run = (value as { run?: RunView | null }).run
    if (run && (run.status === 'planning' || run.status === 'running') && !active.has(tabId)) {
      await finish(tabId, run, 'failed', new AvaError('UNKNOWN', "Ava's background was restarted during this request, so it stopped. Send the request again to continue."))
    }
  }
}
