import type { Instruction } from './instruction/schema'

/** Failure codes of the page-side executor (seed 002 §5.2, issue 5). */
export type ExecErrorCode =
  | 'ELEMENT_NOT_FOUND'
  | 'ELEMENT_STALE'
  | 'AMBIGUOUS'
  | 'NOT_ACTIONABLE'
  | 'TIMEOUT'
  | 'VERIFY_FAILED'
  | 'INVALID'

export interface Candidate {
  id: string
  label: string
  score: number
}

export type ExecOutcome =
  | {
      ok: true
      /** One line for the person, e.g. `Typed "alice" into "Username"`. */
      detail: string
      rung?: string
      /** The action started a navigation: the next step must wait for the next document. */
      navigating?: boolean
      /** The action had no visible effect but is not known to need one. */
      forced?: boolean
    }
  | { ok: false; code: ExecErrorCode; message: string; candidates?: Candidate[]; suggestion?: string }

export interface ExecRequest {
  runId: string
  instruction: Instruction
  /** How long to wait for the element to appear (SPA mounts, seed 001 §2.3). */
  timeoutMs?: number
}
