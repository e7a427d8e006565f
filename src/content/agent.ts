import type { ExecOutcome, ExecRequest } from '../core/exec'
import type { PageInfo } from '../messaging/protocol'
import { executeInstruction } from '../dom/executor'

/** The page-side agent, loaded on the first step or page read of a run. */
export function execute(req: ExecRequest): Promise<ExecOutcome> {
  return executeInstruction(req.instruction, { timeoutMs: req.timeoutMs })
}

export function pageInfo(): PageInfo {
  return { url: location.href, title: document.title, listing: '' }
}
