import { z } from 'zod'
import {
  alternativesOf,
  ElementSnapshotSchema,
  FlowSelectorsSchema,
  type Flow,
  type FlowSelector,
  type FlowSelectors,
  type FlowStats,
} from './schema'
import type { StepReport } from './replay'

/**
 * Healing is reviewable: a replay that needed a fallback or a repair proposes the
 * selector change as a diff; the person accepts (the flow's selectors are replaced) or rejects
 * (nothing changes). Every run updates per-step heal counts, and a step that needed healing on
 * each of its last kFlagAfterRuns runs flags the flow.
 */

/** Kept with a saved flow until the person accepts or rejects it, so it has a stored schema. */
export const HealProposalSchema = z.object({
  step_id: z.number().int().positive(),
  kind: z.enum(['fallback', 'repair']),
  before: FlowSelectorsSchema,
  after: FlowSelectorsSchema,
  /** Unified-diff lines: " " kept, "-" removed, "+" added; primary first. */
  diff: z.array(z.string()),
  /** The element as it is now, to replace the recorded snapshot when accepted. */
  snapshot: ElementSnapshotSchema.optional(),
})
export type HealProposal = z.infer<typeof HealProposalSchema>

/** Outcomes remembered per step. */
export const kRecentRuns = 5
/** Healed this many runs in a row: the flow needs its selectors updated (flagged). */
export const kFlagAfterRuns = 3

function line(s: FlowSelector): string {
  return s.type === 'index' ? `${s.type} ${s.value} #${s.index} @${s.context_hash}` : `${s.type} ${s.value}`
}

/** The change from `before` to `after` as diff lines (an LCS over the alternatives, in order). */
export function healDiff(before: FlowSelectors, after: FlowSelectors): string[] {
  const a = alternativesOf(before).map(line)
  const b = alternativesOf(after).map(line)
  const n = a.length
  const m = b.length
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
  const out: string[] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push(`  ${a[i]}`)
      i++
      j++
    } else if (j < m && (i >= n || lcs[i][j + 1] >= lcs[i + 1][j])) out.push(`+ ${b[j++]}`)
    else out.push(`- ${a[i++]}`)
  }
  return out
}

/** The flow with the proposal's selectors (and snapshot) in place of the step's. */
export function applyHeal(flow: Flow, proposal: HealProposal): Flow {
  return {
    ...flow,
    steps: flow.steps.map((s) =>
      s.step_id === proposal.step_id
        ? { ...s, selectors: proposal.after, ...(proposal.snapshot ? { element_snapshot: proposal.snapshot } : {}) }
        : s,
    ),
  }
}

/** Statistics after one more run; steps that never ran (after a failure) are not counted. */
export function recordRun(
  stats: FlowStats | undefined,
  reports: readonly StepReport[],
  opts: { counted: boolean } = { counted: true },
): FlowStats {
  const next: FlowStats = {
    runs: stats?.runs ?? 0,
    healed_runs: stats?.healed_runs ?? 0,
    steps: { ...(stats?.steps ?? {}) },
  }
  if (!opts.counted) return next
  next.runs++
  if (reports.some((r) => r.healed)) next.healed_runs++
  for (const r of reports) {
    if (r.status !== 'ok' && !r.healed) continue
    const key = String(r.step_id)
    const s = next.steps[key] ?? { runs: 0, heals: 0, recent: [] }
    next.steps[key] = {
      runs: s.runs + 1,
      heals: s.heals + (r.healed ? 1 : 0),
      recent: [...s.recent, !!r.healed].slice(-kRecentRuns),
    }
  }
  return next
}

/** Steps healed on each of their last kFlagAfterRuns runs: their selectors no longer fit the page. */
export function flaggedSteps(stats: FlowStats | undefined): number[] {
  if (!stats) return []
  return Object.entries(stats.steps)
    .filter(([, s]) => s.recent.length >= kFlagAfterRuns && s.recent.slice(-kFlagAfterRuns).every(Boolean))
    .map(([id]) => Number(id))
    .sort((a, b) => a - b)
}

export function needsHealingEveryTime(flow: Pick<Flow, 'stats'>): boolean {
  return flaggedSteps(flow.stats).length > 0
}
