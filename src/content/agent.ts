import type { ExecOutcome, ExecRequest } from '../core/exec'
import type { PageInfo } from '../messaging/protocol'
import { executeInstruction, type DomActionName } from '../dom/executor'
import { hideOverlay, observe, serialize, showOverlay, waitForReady, type PageSnapshot, type PendingRequestSource } from '../dom/observe'
import { send } from '../messaging'
import { riskOf } from '../dom/risk'
import { createPagePort } from '../dom/port'
import { PortError, type BrowserPort } from '../core/registry/port'

/** DOM actions that can submit, delete or pay, mapped to how the risk check reads them. */
const kRiskyActions: Partial<Record<DomActionName, 'click' | 'press'>> = { click: 'click', dblclick: 'click', press: 'press', submit: 'click' }

/** The page-side agent, loaded on the first step or page read of a run. */
export async function execute(req: ExecRequest): Promise<ExecOutcome> {
  const confirm = req.confirmed ? [] : (req.confirm ?? [])
  // Risky steps are refused until the person has said yes (issue 6); nothing is done meanwhile.
  const check = (el: Element, action: DomActionName): ExecOutcome & { ok: false } | null => {
    const as = kRiskyActions[action]
    const risk = as ? riskOf(el, as) : null
    return risk && confirm.includes(risk.category) ? { ok: false, code: 'NEEDS_CONFIRMATION', message: risk.reason } : null
  }
  const ins = req.instruction
  const p = ins.params
  let newTab: string | undefined
  // A key pressed with no target goes to the focused element, which the executor does not locate.
  if (confirm.length && ins.action_type === 'press' && !p.target_id && !p.fallback_selector && !p.semantic_locator && document.activeElement) {
    const refused = check(document.activeElement, 'press')
    if (refused) return refused
  }
  const out = await executeInstruction(ins, {
    timeoutMs: req.timeoutMs,
    beforeAct: (el, action) => {
      const refused = confirm.length ? check(el, action) : null
      if (refused) return refused
      const link = action === 'click' ? newTabLink(el) : null
      if (!link) return null
      newTab = link
      return { ok: false, code: 'INVALID', message: 'opens a new tab' } // not clicked: the background opens it
    },
  })
  return newTab ? { ok: true, detail: `Opened ${newTab} in a new tab`, openTab: newTab } : out
}

/** A link that would open a new tab (target=_blank or a named window), as an absolute http(s) URL. */
function newTabLink(el: Element): string | null {
  const a = el.closest('a[href]') as HTMLAnchorElement | null
  if (!a || !a.target || a.target === '_self' || a.target === '_parent' || a.target === '_top') return null
  return /^https?:/i.test(a.href) ? a.href : null
}

const kPendingPollMs = 100 // how often the tab's request count is refreshed while waiting

/** The tab's in-flight requests as the background counts them, refreshed while a wait runs. */
function requestsOfThisTab(): PendingRequestSource & { stop(): void } {
  let last = 0
  const listeners = new Set<() => void>()
  const poll = setInterval(() => {
    send('content→bg:pending', {})
      .then(({ pending }) => {
        if (pending === last) return
        last = pending
        for (const l of listeners) l()
      })
      .catch(() => undefined)
  }, kPendingPollMs)
  return {
    pending: () => last,
    subscribe(onChange) {
      listeners.add(onChange)
      return () => listeners.delete(onChange)
    },
    stop: () => clearInterval(poll),
  }
}

export async function pageInfo(request?: string, settle = false): Promise<PageInfo> {
  let note = ''
  if (settle) {
    const requests = requestsOfThisTab()
    try {
      const ready = await waitForReady({ requests })
      if (!ready.ready) note += `(The page was still changing after ${Math.round(ready.waitedMs / 1000)} s; this is how it looked then.)\n`
      if (ready.errors.length) note += `(The page reported errors: ${ready.errors.slice(0, 3).join(' | ')})\n`
    } finally {
      requests.stop()
    }
  }
  const snapshot = observe({ request })
  const { text } = serialize(snapshot, { request })
  const info: PageInfo = { url: location.href, title: document.title, listing: note + text }
  // Cross-origin frames are read by our content script inside each of them; the background merges
  // their snapshots into this one and lists the whole again (seed 002 §6, background/frames.ts).
  if (snapshot.frames.some((f) => f.status === 'cross_origin_restricted')) Object.assign(info, { snapshot, note })
  return info
}

/** This subframe's snapshot, its elements marked for the steps the background routes here. */
export function frameSnapshot(request?: string): { snapshot: PageSnapshot } {
  return { snapshot: observe({ request }) }
}

// The BrowserPort methods the background's step engine may call; anything else is refused.
const kPortMethods = new Set(['query', 'click', 'fill', 'type', 'press', 'hover', 'select', 'check', 'scroll', 'waitFor', 'snapshot', 'find', 'getText', 'getAttribute', 'getUrl'])
const kPortCallTimeoutMs = 30_000 // one step's own timeout is shorter; this only bounds a lost call
let pagePort: BrowserPort | null = null

/** One call of the registry's step engine, running in this page (src/dom/port.ts). */
export async function portCall(method: string, args: unknown[]): Promise<{ value?: unknown }> {
  if (!kPortMethods.has(method)) throw new PortError('STEP_FAILED', `Unknown port method ${method}`)
  pagePort ??= createPagePort()
  const ctl = new AbortController()
  const timer = setTimeout(() => ctl.abort(new PortError('TIMEOUT', `${method} took longer than ${kPortCallTimeoutMs / 1000} s`)), kPortCallTimeoutMs)
  try {
    const fn = (pagePort as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]
    const value = await fn.call(pagePort, ...args, ctl.signal)
    // Snapshots and handles are for the page; only plain data crosses back.
    return { value: method === 'snapshot' || method === 'find' ? (value == null ? null : true) : value }
  } finally {
    clearTimeout(timer)
  }
}

/** The debug overlay: every indexed element outlined with its id (issue 4). */
export function overlay(on: boolean): { on: boolean; elements: number } {
  if (!on) {
    hideOverlay()
    return { on: false, elements: 0 }
  }
  const snapshot = observe()
  showOverlay(snapshot)
  return { on: true, elements: snapshot.elements.length }
}
