import type { ExecOutcome, ExecRequest } from '../core/exec'
import type { PageInfo } from '../messaging/protocol'
import { executeInstruction } from '../dom/executor'
import { observe, serialize } from '../dom/observe'
import { riskOf } from '../dom/risk'

/** The page-side agent, loaded on the first step or page read of a run. */
export async function execute(req: ExecRequest): Promise<ExecOutcome> {
  const ins = req.instruction
  // Risky steps are refused until the person has said yes (issue 6); nothing is done meanwhile.
  if (req.confirm?.length && !req.confirmed && (ins.action_type === 'click' || ins.action_type === 'press')) {
    const el = ins.action_type === 'press' ? document.activeElement : await preflight(req)
    const risk = el ? riskOf(el, ins.action_type) : null
    if (risk && req.confirm.includes(risk.category)) return { ok: false, code: 'NEEDS_CONFIRMATION', message: risk.reason }
  }
  return executeInstruction(ins, { timeoutMs: req.timeoutMs })
}

// TODO(executor integration): let the executor call a before-act hook with the element it located.
async function preflight(req: ExecRequest): Promise<Element | null> {
  const p = req.instruction.params
  if (p.target_id) {
    const el = document.querySelector(`[data-agent-id="${CSS.escape(p.target_id)}"]`)
    if (el) return el
  }
  if (p.fallback_selector) {
    try {
      const el = document.querySelector(p.fallback_selector)
      if (el) return el
    } catch {
      // not CSS: the executor reports it
    }
  }
  return null
}

export function pageInfo(request?: string): PageInfo {
  const snapshot = observe({ request })
  const { text } = serialize(snapshot, { request })
  return { url: location.href, title: document.title, listing: text }
}
