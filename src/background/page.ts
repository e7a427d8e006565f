import { domAction, instructionLoads } from '../core/vocabulary'
import browser from 'webextension-polyfill'
import { stepResult, type ExecOutcome, type RiskCategory } from '../core/exec'
import type { Instruction } from '../core/instruction/schema'
import type { PageContext } from '../core/agent/prompt'
import type { SitePolicy } from '../core/offsite'
import type { DrawnTarget } from '../core/gate/drawn'
import {
  actionOf,
  mayNavigate,
  navigatedOutcome,
  type UploadFile,
  type ShotFrame,
  type PageCommand,
  type PageCommandKind,
  type PageOutcome,
  type SendCommand,
  type PageAction,
  targetOfAction,
} from '../core/page/command'
import { sendToTab } from '../messaging'
import {
  currentDoc,
  isDocumentGone as isGone,
  isGoneMidMessage,
  markNavigating,
  takeNewTab,
  waitForDoc,
  waitForNextDoc,
} from './tabs'
import { frameTarget, outcomeFromFrame, withFrames, type FrameRoute } from './frames'
import { pendingRequests, watchRequests } from './requests'
import { noteActedFrame, verifyInFrames } from './frame-check'

/**
 * The one sender of the page channel (src/core/page/command.ts): the agent, the registry's steps
 * and flow replays all reach a tab through `sendCommand`, which alone knows that a step may
 * replace the document under it, that an element may live in a cross-origin frame, and that a
 * click may open a new tab.
 */
const kElementWaitMs = 10_000 // SPA components may mount late
const kGoneGraceMs = 5_000 // past a command's own timeout, how long a document that went away is waited for

export interface SendOptions {
  signal?: AbortSignal
  /**
   * Called when a click opened a new tab and the caller moved into it. Without it, only a link the
   * page reports as opening a new tab is followed; a tab a page script opens is left alone.
   */
  onTabChange?: (tabId: number) => void
}

/**
 * What arrived, and the tab it came from (a click may have moved the work into a new tab);
 * `wentAway` when the document (or the frame's) left under a step that may navigate.
 */
export type Delivered<K extends PageCommandKind> = PageOutcome<K> & { tabId: number; wentAway?: 'page' | 'frame' }

function timeoutOf(command: PageCommand): number {
  return 'timeoutMs' in command && typeof command.timeoutMs === 'number' ? command.timeoutMs : kElementWaitMs
}

/**
 * The page's answer, or the run's end, whichever comes first: Stop must end a run at once even
 * while the page's script is busy (a command cannot interrupt it), so the run does not wait for
 * the answer; one that comes later is dropped (docs/executor.md, "Bounded evaluation").
 */
function untilAborted<T>(answer: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return answer
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason)
    signal.addEventListener('abort', stop, { once: true })
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}

/** One command to the tab's current document, following navigations, frames and new tabs. */
export async function sendCommand<K extends PageCommandKind>(
  tabId: number,
  command: PageCommand<K>,
  opts: SendOptions = {},
): Promise<Delivered<K>> {
  const since = Date.now()
  if (command.kind === 'act') {
    const inFrame = await frameTarget(tabId, targetOfAction((command as PageCommand<'act'>).step)?.targetId)
    if (inFrame) return sendToFrame(tabId, command as PageCommand<'act'>, inFrame, since, opts) as Promise<Delivered<K>>
  }
  const deadline = since + timeoutOf(command) + kGoneGraceMs
  for (;;) {
    const doc = await waitForDoc(tabId, { signal: opts.signal })
    let out: PageOutcome<K>
    try {
      out = (await untilAborted(
        sendToTab(
          tabId,
          'bg→content:command',
          command,
          doc.documentId ? { documentId: doc.documentId } : { frameId: 0 },
        ),
        opts.signal,
      )) as PageOutcome<K>
    } catch (e) {
      if (opts.signal?.aborted) throw opts.signal.reason
      // The transport typed the failure (src/messaging/transport.ts): nothing here reads Chrome's words.
      if (!isGone(e)) return { ok: false, code: 'TIMEOUT', message: (e as Error).message, tabId }
      // The document went away while it held the command. A click or key press that navigates can
      // do that before its answer leaves: the step did its job. A command nobody took (the document
      // had already gone, say under the previous step's navigation) was never done, so it is no
      // success: it goes to the next page like anything else.
      const navigated = isGoneMidMessage(e) ? navigatedOutcome(command) : null
      if (navigated) {
        await waitForNextDoc(tabId, doc.documentId, since, opts.signal)
        return { ...navigated, tabId, wentAway: 'page' }
      }
      if (Date.now() < deadline && !opts.signal?.aborted) {
        if (currentDoc(tabId)?.documentId === doc.documentId) markNavigating(tabId)
        continue
      }
      return {
        ok: false,
        code: 'ELEMENT_STALE',
        message: 'The page went away before the step could run; read the page again.',
        tabId,
      }
    }
    if (out.ok && 'navigating' in out && out.navigating) await waitForNextDoc(tabId, doc.documentId, since, opts.signal)
    // A check the top document does not hold is looked for where the steps acted (frame-check.ts).
    if (!out.ok && out.code === 'VERIFY_FAILED' && command.kind === 'act')
      out = ((await verifyInFrames(tabId, command as PageCommand<'act'>, opts.signal)) as PageOutcome<K> | null) ?? out
    return followNewTab(tabId, command, out, since, opts)
  }
}

/**
 * A step on an element of a merged cross-origin frame, run by that frame's content script with
 * the frame's own id for the element; its risk check runs there too. It goes to the document that
 * was read and nowhere else: if the frame has navigated since, the step fails.
 */
async function sendToFrame(
  tabId: number,
  command: PageCommand<'act'>,
  { route, local }: { route: FrameRoute; local: string },
  since: number,
  opts: SendOptions,
): Promise<Delivered<'act'>> {
  // HOOK (src/core/step-place.ts): the frame's content script cannot read the top page, so the
  // run's site travels with the step and the frame's own site is judged against it.
  const runSite = command.runSite ?? currentDoc(tabId)?.url
  const inFrame: PageCommand<'act'> = {
    ...command,
    ...(runSite ? { runSite } : {}),
    step: { ...command.step, target: { ...targetOfAction(command.step), targetId: local } } as PageAction,
  }
  let out: ExecOutcome
  await noteActedFrame(tabId, route.frameId).catch(() => undefined)
  try {
    out = (await untilAborted(
      sendToTab(
        tabId,
        'bg→content:command',
        inFrame,
        route.documentId ? { documentId: route.documentId } : { frameId: route.frameId },
      ),
      opts.signal,
    )) as ExecOutcome
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason
    // Gone while it held the step: a click that navigated the frame (or closed it) did its job.
    // Gone before the step arrived: the frame is not the one that was read, and nothing is done.
    const midStep = isGoneMidMessage(e)
    if (midStep && mayNavigate(command)) return { ok: true, detail: 'The frame navigated', tabId, wentAway: 'frame' }
    if (!midStep && !isGone(e)) return { ok: false, code: 'TIMEOUT', message: (e as Error).message, tabId }
    return {
      ok: false,
      code: 'ELEMENT_STALE',
      message: `${targetOfAction(command.step)?.targetId} was in the frame ${route.prefix} (${route.url}), which has navigated or closed since the page was read. Read the page again.`,
      tabId,
    }
  }
  // `navigating` means the frame's document is going: the tab's stays (a click that navigates the
  // whole tab is seen by watchNavigations like any other).
  if (out.ok && out.navigating) out = { ...out, navigating: false }
  return followNewTab(tabId, command, outcomeFromFrame(out, route.prefix), since, opts)
}

/** After a step: a link that opened a new tab, or a page script that did, takes the work there. */
async function followNewTab<K extends PageCommandKind>(
  tabId: number,
  command: PageCommand<K>,
  out: PageOutcome<K>,
  since: number,
  opts: SendOptions,
): Promise<Delivered<K>> {
  if (out.ok && 'openTab' in out && out.openTab) {
    const tab = await browser.tabs.create({ url: out.openTab, openerTabId: tabId, active: true })
    markNavigating(tab.id!)
    opts.onTabChange?.(tab.id!)
    await waitForDoc(tab.id!, { signal: opts.signal })
    return { ...out, tabId: tab.id! }
  }
  // Only a caller that follows tabs pays for the look (Chrome reports a script's new tab a moment
  // after the click): the agent does; a pack or a flow stays in its tab, as it always has.
  const opened = out.ok && opts.onTabChange && mayNavigate(command) ? await takeNewTab(tabId, since) : undefined
  if (out.ok && opened !== undefined) {
    await waitForDoc(opened, { signal: opts.signal })
    opts.onTabChange?.(opened)
    return { ...out, ...('detail' in out ? { detail: `${out.detail} — opened in a new tab` } : {}), tabId: opened }
  }
  return { ...out, tabId }
}

/**
 * The channel bound to a tab, as core's ports want it (src/core/page/channel.ts). The tab it
 * follows changes when a step opens a new one.
 */
export function tabSender(tabId: number, onTabChange?: (tabId: number) => void): SendCommand & { tabId(): number } {
  let current = tabId
  const send = async <K extends PageCommandKind>(
    command: PageCommand<K>,
    signal?: AbortSignal,
  ): Promise<PageOutcome<K>> => {
    const follow = onTabChange ? (t: number) => ((current = t), onTabChange(t)) : undefined
    const { tabId: after, ...out } = await sendCommand(current, command, { signal, onTabChange: follow })
    current = after
    return out as PageOutcome<K>
  }
  return Object.assign(send, { tabId: () => current })
}

/** The page as the planner sees it; with `settle`, after it has gone quiet. */
export async function pageContext(
  tabId: number,
  request: string,
  signal?: AbortSignal,
  settle = false,
  sections?: number,
): Promise<PageContext> {
  // While the page settles it is told the tab's in-flight requests as they change: the network
  // half of readiness is counted here, where the requests are seen, and nothing polls.
  const tell = (pending: number) => {
    const doc = currentDoc(tabId)
    if (doc)
      void sendToTab(
        tabId,
        'bg→content:command',
        { kind: 'requests', pending },
        doc.documentId ? { documentId: doc.documentId } : { frameId: 0 },
      ).catch(() => undefined)
  }
  const unwatch = settle ? watchRequests(tabId, tell) : () => undefined
  try {
    const out = await sendCommand(
      tabId,
      {
        kind: 'read',
        request,
        settle,
        ...(settle ? { pending: pendingRequests(tabId) } : {}),
        ...(sections ? { sections } : {}),
      },
      { signal },
    ).catch(() => null)
    if (out?.ok) {
      const page: PageContext = await withFrames(tabId, out.info, request, signal)
      if (out.info.challenge) page.challenge = out.info.challenge
      return page
    }
  } finally {
    unwatch()
  }
  // No document answered (an error page, a tab that never loaded): the planner still gets the URL.
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
  /** With `confirmed`: the handle of the question the yes answered (StepGate.bound). */
  bound?: string
  /** Called when a click opened a new tab and the run moved into it. */
  onTabChange?: (tabId: number) => void
  /** How long the element may take to appear; a replay, whose page is known, waits less. */
  elementWaitMs?: number
  /** The allowed and blocked sites, for the page to refuse a step that would load a denied one. */
  sites?: SitePolicy
  /** The step types a saved secret: the origins its field may be on. */
  secretSites?: string[]
  /** upload: the attached files the step names, which the run resolved. */
  files?: UploadFile[]
  /** The last screenshot's geometry, for a step that names a point in it. */
  shot?: ShotFrame
  /** The element approved for this step in a whole plan (StepGate.planned). */
  planned?: DrawnTarget
}

/** Runs one of the agent's page instructions: navigation in the background, everything else in the page. */
export async function execInPage(
  tabId: number,
  instruction: Instruction,
  opts: StepOptions,
): Promise<ExecOutcome & { tabId: number }> {
  if (instructionLoads(instruction.action_type))
    return { ...(await navigate(tabId, instruction.params.url!, opts.signal)), tabId }
  const step = actionOf(instruction, opts.shot)
  if (!step)
    return {
      ok: false,
      code: 'INVALID',
      message: `${instruction.action_type} is not a page action; the background runs it.`,
      tabId,
    }
  if ('files' in domAction(step.action).fields && opts.files) Object.assign(step, { files: opts.files })
  // `describe`: each agent step keeps what it acted on, for "Save last run as flow".
  const out = await sendCommand(
    tabId,
    {
      kind: 'act',
      step,
      timeoutMs: opts.elementWaitMs ?? kElementWaitMs,
      confirm: opts.confirm,
      confirmed: opts.confirmed,
      ...(opts.bound ? { bound: opts.bound } : {}),
      ...(opts.planned ? { planned: opts.planned } : {}),
      sites: opts.sites,
      secretSites: opts.secretSites,
      describe: true,
    },
    opts,
  )
  // A step that took its document with it is named for the person: "Log in — the page navigated".
  const { wentAway, ...outcome } = out
  return wentAway && outcome.ok
    ? {
        ...outcome,
        detail: `${instruction.description ?? instruction.action_type} — the ${wentAway} navigated`,
        msg: stepResult('navigated'),
      }
    : outcome
}

export async function navigate(tabId: number, url: string, signal: AbortSignal): Promise<ExecOutcome> {
  const here = await tabUrl(tabId)
  const target = new URL(url, here || undefined).href
  if (!/^https?:/i.test(target))
    return { ok: false, code: 'INVALID', message: `Ava only opens http(s) pages, not ${target.slice(0, 40)}` }
  if (stripHash(target) === stripHash(here) && currentDoc(tabId))
    return { ok: true, detail: `Already on ${target}`, msg: stepResult('alreadyOn', { url: target }) }
  const before = currentDoc(tabId)?.documentId
  markNavigating(tabId)
  await browser.tabs.update(tabId, { url: target })
  await waitForDoc(tabId, { notDocumentId: before, signal })
  return { ok: true, detail: `Opened ${target}`, msg: stepResult('opened', { url: target }) }
}

function stripHash(u: string): string {
  return u.replace(/#.*$/, '')
}
