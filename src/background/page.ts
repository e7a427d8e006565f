import browser from 'webextension-polyfill'
import type { ExecOutcome, RiskCategory } from '../core/exec'
import type { Instruction } from '../core/instruction/schema'
import type { PageContext } from '../core/agent/prompt'
import { ProtocolError, sendToTab } from '../messaging'
import { currentDoc, isDocumentGone as isGone, markNavigating, takeNewTab, waitForDoc } from './tabs'

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
      return await sendToTab(tabId, 'bg→content:page.info', { request, settle }, doc.documentId ? { documentId: doc.documentId } : { frameId: 0 })
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
  const elementWait = opts.elementWaitMs ?? kElementWaitMs
  const deadline = Date.now() + elementWait + 5_000
  const since = Date.now()
  for (;;) {
    const doc = await waitForDoc(tabId, { signal: opts.signal })
    try {
      const out = await sendToTab(
        tabId,
        'bg→content:exec',
        { runId: '', instruction, timeoutMs: elementWait, confirm: opts.confirm, confirmed: opts.confirmed },
        doc.documentId ? { documentId: doc.documentId } : { frameId: 0 },
      )
      if (out.ok && out.navigating) {
        markNavigating(tabId)
        await waitForDoc(tabId, { notDocumentId: doc.documentId, signal: opts.signal })
      }
      // A link that opens a new tab: the run follows it there (issue 6).
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

