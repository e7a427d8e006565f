import { flaggedSteps } from './heal'
import type { FlowRunResult, StepReport } from './replay'
import { failureLinesEn } from '../locales/render'

/**
 * One trace line per step, as `ava run` and `ava mcp` print it. A failed step's line names its
 * code; under it, the code's sentence from the en locale table (what the panel says), the page's
 * own words as the detail, and the code's hint.
 */
export function formatStepReport(r: StepReport): string {
  const mark = r.status === 'ok' ? '✓' : '✗'
  const where = r.level
    ? ` [${r.level}${r.alternative === 0 ? ', primary' : r.alternative > 0 ? `, fallback ${r.alternative}` : ', repaired'}]`
    : ''
  const healed = r.healed ? ` (healed: ${r.healed})` : ''
  const what = r.status === 'ok' ? (r.detail ?? '') : `failed: ${r.code}`
  const line = `${mark} ${String(r.step_id).padStart(2)} ${r.action.padEnd(8)}${where} ${what}${healed} — ${r.durationMs} ms (find ${r.resolveMs} ms)`
  return r.status === 'ok' || !r.code
    ? line
    : [line, ...failureLinesEn(r.code, { n: r.step_id, detail: r.message })].join('\n')
}

/** "1 step", "3 steps". */
export const stepCount = (n: number): string => `${n} step${n === 1 ? '' : 's'}`

/** The whole result, ending with the verdict; `steps: false` leaves out the step lines (printed live already). */
export function formatReport(result: FlowRunResult, opts: { steps?: boolean } = {}): string[] {
  const withSteps = opts.steps !== false
  const lines = withSteps ? result.steps.map(formatStepReport) : []
  if (result.error && !result.steps.some((s) => s.step_id === result.error!.step_id))
    lines.push(
      `✗ ${result.error.code}`,
      ...failureLinesEn(result.error.code, {
        ...(result.error.step_id ? { n: result.error.step_id } : {}),
        detail: result.error.message,
      }),
    )
  const candidates = result.error?.candidates ?? []
  if (candidates.length)
    lines.push(
      '  candidates:',
      ...candidates.map(
        (c) =>
          `    ${c.selector}${c.count !== 1 ? ` (${c.count} matches)` : ''}${c.label ? ` — ${c.label}` : ''}${c.similarity !== undefined ? ` similarity ${c.similarity}` : ''}`,
      ),
    )
  for (const h of result.heals)
    lines.push(`  step ${h.step_id} healed by ${h.kind}; proposed selectors:`, ...h.diff.map((d) => `    ${d}`))
  if (result.stats && flaggedSteps(result.stats).length)
    lines.push(
      `  steps ${flaggedSteps(result.stats).join(', ')} needed healing on each of their last runs: update their selectors`,
    )
  lines.push(
    `${result.success ? 'passed' : 'FAILED'}: ${result.flow}, ${stepCount(result.steps.length)} in ${Math.round(result.durationMs)} ms`,
  )
  return lines
}
