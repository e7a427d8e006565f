import browser from 'webextension-polyfill'
import type { ExecOutcome, RiskCategory } from '../core/exec'
import type { Instruction } from '../core/instruction/schema'
import type { PageContext } from '../core/agent/prompt'
import { ProtocolError, sendToTab } from '../messaging'
import { currentDoc, isDocumentGone as isGone, isGoneMidMessage, markNavigating, takeNewTab, waitForDoc } from './tabs'
import { frameTarget, outcomeFromFrame, withFrames, type FrameRoute } from './frames'

/** The run's hands in the tab: reading the page and executing one step there. */
const kElementWaitMs = 10_000 // SPA components may mount late (seed 001 §2.3, §4.3)
const kPageInfoTimeoutMs = 15_000 // the page may take its 10 s readiness cap first
const kMayNavigate = new Set(['click', 'press'])

/** The page as the planner sees it; with `settle`, after it has gone quiet (semantic engine §4.1). */
export async function pageContext(tabId: number, request: string, signal?: AbortSignal, settle = false): Promise<PageContext> {
  // A click may have started a navigation that has not committed yet: a document that goes away
  // under the question is asked again once its successor is ready.
  for (let attempt = 0; attempt < 3; attempt++) {
    const doc = await waitForDoc(tabId, { timeoutMs: kPageInfoTimeoutMs, signal }).catch(() => undefined)
    if (!doc) break
    try {
      const info = await sendToTab(tabId, 'bg→content:page.info', { request, settle }, doc.documentId ? { documentId: doc.documentId } : { frameId: 0 })
      return await withFrames(tabId, info, request, signal)
    } catch (e) {
      if (!isGone(e)) break
      if (currentDoc(tabId)?.documentId === doc.documentId) markNavigating(tabId)
    }
  }
  const tab = await browser.tabs.get(tabId)
  return { url: tab.url ?? '', title: tab.title ?? '', listing: '' }
}

export async function tabUrl(tabId: number): Promise<string> {
  return currentDoc(tabId)?.url ?? (await browser.tabs.get(tabId)).url ?? ''
}

export interface StepOptions {
  signal: AbortSignal
  confirm: RiskCategory[]
  confirmed: boolean
  /** Called when a click opened a new tab and the run moved into it. */
  onTabChange?: (tabId: number) => void
  /** How long the element may take to appear; a replay, whose page is known, waits less. */
  elementWaitMs?: number
}

/** Runs one page instruction: navigation in the background, everything else in the page. */
export async function execInPage(tabId: number, instruction: Instruction, opts: StepOptions): Promise<ExecOutcome & { tabId: number }> {
  if (instruction.action_type === 'navigate') return { ...(await navigate(tabId, instruction.params.url!, opts.signal)), tabId }
  const inFrame = await frameTarget(tabId, instruction.params.target_id)
  if (inFrame) return execInFrame(tabId, instruction, inFrame, opts)
  const elementWait = opts.elementWaitMs ?? kElementWaitMs
  const deadline = Date.now() + elementWait + 5_000
  const since = Date.now()
  for (;;) {
    const doc = await waitForDoc(tabId, { signal: opts.signal })
    try {
      const out = await sendToTab(tabId, 'bg→content:exec', execRequest(instruction, opts), doc.documentId ? { documentId: doc.documentId } : { frameId: 0 })
      if (out.ok && out.navigating) {
        markNavigating(tabId)
        await waitForDoc(tabId, { notDocumentId: doc.documentId, signal: opts.signal })
      }
      return await followNewTab(tabId, out, instruction, since, opts)
    } catch (e) {
      // The document went away while it held the step. A click or key press that navigates can do
      // that before its answer leaves: the step did its job. Anything else is tried on the next page.
      if (isGone(e) && kMayNavigate.has(instruction.action_type)) {
        markNavigating(tabId)
        await waitForDoc(tabId, { notDocumentId: doc.documentId, signal: opts.signal })
        return { ok: true, detail: `${instruction.description ?? instruction.action_type} — the page navigated`, navigating: true, tabId }
      }
      if (isGone(e) && Date.now() < deadline && !opts.signal.aborted) {
        if (currentDoc(tabId)?.documentId === doc.documentId) markNavigating(tabId)
        continue
      }
      if (e instanceof ProtocolError) return { ok: false, code: 'TIMEOUT', message: e.message, tabId }
      throw e
    }
  }
}

function execRequest(instruction: Instruction, opts: StepOptions) {
  return { runId: '', instruction, timeoutMs: opts.elementWaitMs ?? kElementWaitMs, confirm: opts.confirm, confirmed: opts.confirmed }
}

/**
 * A step on an element of a merged cross-origin frame, run by that frame's content script with
 * the frame's own id for the element; its risk check runs there too. It goes to the document that
 * was read and nowhere else: if the frame has navigated since, the step fails (seed 002 §6).
 */
async function execInFrame(tabId: number, instruction: Instruction, { route, local }: { route: FrameRoute; local: string }, opts: StepOptions): Promise<ExecOutcome & { tabId: number }> {
  const since = Date.now()
  const inFrame = { ...instruction, params: { ...instruction.params, target_id: local } }
  let out: ExecOutcome
  try {
    out = await sendToTab(tabId, 'bg→content:exec', execRequest(inFrame, opts), route.documentId ? { documentId: route.documentId } : { frameId: route.frameId })
  } catch (e) {
    // Gone while it held the step: a click that navigated the frame (or closed it) did its job.
    // Gone before the step arrived: the frame is not the one that was read, and nothing is done.
    const midStep = isGoneMidMessage(e)
    if (midStep && kMayNavigate.has(instruction.action_type)) return { ok: true, detail: `${instruction.description ?? instruction.action_type} — the frame navigated`, tabId }
    if (!midStep && !isGone(e)) {
      if (e instanceof ProtocolError) return { ok: false, code: 'TIMEOUT', message: e.message, tabId }
      throw e
    }
    return {
      ok: false,
      code: 'ELEMENT_STALE',
      message: `${instruction.params.target_id} was in the frame ${route.prefix} (${route.url}), which has navigated or closed since the page was read. Read the page again.`,
      tabId,
    }
  }
  // `navigating` means the frame's document is going: the tab's stays (a click that navigates the
  // whole tab is seen by watchNavigations like any other).
  if (out.ok && out.navigating) out = { ...out, navigating: false }
  return followNewTab(tabId, outcomeFromFrame(out, route.prefix), instruction, since, opts)
}

/** After a step: a link that opened a new tab, or a page script that did, takes the run there (issue 6). */
async function followNewTab(tabId: number, out: ExecOutcome, instruction: Instruction, since: number, opts: StepOptions): Promise<ExecOutcome & { tabId: number }> {
  if (out.ok && out.openTab) {
    const tab = await browser.tabs.create({ url: out.openTab, openerTabId: tabId, active: true })
    markNavigating(tab.id!)
    opts.onTabChange?.(tab.id!)
    await waitForDoc(tab.id!, { signal: opts.signal })
    return { ...out, tabId: tab.id! }
  }
  const opened = out.ok && kMayNavigate.has(instruction.action_type) ? await takeNewTab(tabId, since) : undefined
  if (out.ok && opened !== undefined) {
    await waitForDoc(opened, { signal: opts.signal })
    opts.onTabChange?.(opened)
    return { ...out, detail: `${out.detail} — opened in a new tab`, tabId: opened }
  }
  return { ...out, tabId }
}

export async function navigate(tabId: number, url: string, signal: AbortSignal): Promise<ExecOutcome> {
  const here = await tabUrl(tabId)
  const target = new URL(url, here || undefined).href
  if (!/^https?:/i.test(target)) return { ok: false, code: 'INVALID', message: `Ava only opens http(s) pages, not ${target.slice(0, 40)}` }
  if (stripHash(target) === stripHash(here) && currentDoc(tabId)) return { ok: true, detail: `Already on ${target}` }
  const before = currentDoc(tabId)?.documentId
  markNavigating(tabId)
  await browser.tabs.update(tabId, { url: target })
  await waitForDoc(tabId, { notDocumentId: before, signal })
  return { ok: true, detail: `Opened ${target}` }
}

function stripHash(u: string): string {
  return u.replace(/#.*$/, '')
}

