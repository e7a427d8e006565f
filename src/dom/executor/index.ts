import type { ExecOutcome } from '../../core/exec'
import type { Instruction } from '../../core/instruction/schema'
import { actionRegistry } from './actions'

export { actionRegistry } from './actions'

const kDefaultTimeoutMs = 10_000

/** Executes one instruction in this page and reports what happened, as data, never by throwing. */
export async function executeInstruction(ins: Instruction, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ExecOutcome> {
  const action = actionRegistry.get(ins.action_type)
  if (!action) return { ok: false, code: 'INVALID', message: `Unknown action ${ins.action_type}` }
  try {
    return await action.run(ins, { timeoutMs: opts.timeoutMs ?? kDefaultTimeoutMs, signal: opts.signal })
  } catch (e) {
    return { ok: false, code: 'NOT_ACTIONABLE', message: `${ins.action_type} failed: ${(e as Error)?.message ?? e}` }
  }
}
