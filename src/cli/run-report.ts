// `ava run --report <file>`: the run's record (src/core/agent/record.ts, docs/run-record.md) from
// the flow's or action's trace, written as one HTML file, or as JSON when the name ends in .json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createRunRecorder, type RunRecord, type Verdict } from '../core/agent/record'
import { recordHtml, recordJson } from '../core/agent/record-html'
import type { ExecFailure } from '../core/exec'
import { drawnLabel } from '../core/gate/drawn'
import type { RunOutcome } from './run'
import { flowStep } from '../core/vocabulary'
import { counts } from '../core/gate/guard'

/**
 * Whether a step that checks the page (the vocabulary's `check` steps: verify, expect) passed
 * after the last step that acted (one that counts as a step, by the vocabulary's one rule).
 */
function checkedAfterLastAct(steps: { action: string; status: string }[]): boolean {
  let checked = false
  for (const s of steps) {
    if (s.status !== 'ok' && s.status !== 'recovered') continue
    if (flowStep(s.action)?.check) checked = true
    else if (counts(flowStep(s.action) ? { flow: s.action } : { dom: s.action })) checked = false
  }
  return checked
}

/**
 * The verdict of a run with no model in it (docs/run-record.md, "The verdict"): a failed run is
 * not done; one whose own check (verify, assert…) passed after its last action is `verified`; one
 * whose steps all ran with nothing checking their effect is `completed`, and exits 0 as a flow
 * always has: the flow's author, not a model, decided what it claims.
 */
export function runVerdict(run: RunOutcome, url?: string): Verdict {
  const at = url ? { evidence: { url } } : {}
  if (!run.result.success) return { done: false, kind: 'not-done', ...at }
  const steps =
    run.kind === 'flow'
      ? run.result.steps.map((s) => ({ action: s.action, status: s.status }))
      : run.result.trace.map((t) => ({ action: t.action, status: t.status }))
  return checkedAfterLastAct(steps) ? { done: true, kind: 'verified', ...at } : { done: true, kind: 'completed', ...at }
}

export function runRecord(o: {
  run: RunOutcome
  label: string
  startUrl: string
  endUrl?: string
  startedAt: number
  endedAt: number
  params: Record<string, string>
  refused: ExecFailure[]
  screenshot?: { data: string; mediaType: string }
}): RunRecord {
  const r = createRunRecorder({
    id: `cli_${o.startedAt.toString(36)}`,
    origin: 'cli',
    request: `ava run ${o.label}`,
    startUrl: o.startUrl,
    startedAt: o.startedAt,
  })
  let at = o.startedAt
  if (o.run.kind === 'flow') {
    for (const s of o.run.result.steps) {
      r.step({
        at,
        ms: s.durationMs,
        index: s.step_id - 1,
        action: s.action,
        params: {},
        status: s.status,
        ...(s.detail || s.message ? { detail: s.detail ?? s.message } : {}),
        ...(s.code ? { code: s.code } : {}),
        ...(s.selector ? { element: s.selector } : {}),
        ...(s.level ? { rung: s.level } : {}),
      })
      at += s.durationMs
    }
  } else {
    for (const [i, t] of o.run.result.trace.entries()) {
      r.step({
        at,
        ms: t.durationMs,
        index: i,
        action: t.action,
        description: `${t.owner} step ${t.id}`,
        params: {},
        status: t.status === 'failed' ? 'failed' : t.status === 'skipped' ? 'skipped' : 'ok',
        ...(t.error ? { detail: t.error.message, code: t.error.code } : {}),
        ...(t.selectors ? { element: Object.values(t.selectors).join(', ') } : {}),
      })
      at += t.durationMs
    }
  }
  // Nobody is there to answer: each question a risky step raised is answered no (UNATTENDED).
  for (const q of o.refused)
    r.question({
      at,
      step: -1,
      type: 'confirm',
      question: q.message,
      ...(q.drawn ? { element: drawnLabel(q.drawn) } : q.label ? { element: q.label } : {}),
      ...(q.category ? { category: q.category } : {}),
      answer: 'unanswered (nobody is there to say yes)',
    })
  const error = o.run.result.error
  if (error) r.failure({ at, code: error.code, message: error.message })
  if (o.screenshot) r.shot({ at: o.endedAt, image: o.screenshot, caption: 'The page when the run failed' })
  const hidden = Object.values(o.params).filter((v) => v.length >= 3)
  return r.end(
    {
      at: o.endedAt,
      status: o.run.result.success ? 'done' : 'failed',
      verdict: runVerdict(o.run, o.endUrl),
      ...(o.run.kind === 'flow' && o.run.result.done ? { answer: o.run.result.done } : {}),
    },
    hidden,
  )
}

/** Writes the record: JSON when the file's name ends in .json, else one HTML file. */
export function writeRunReport(path: string, record: RunRecord): string {
  const file = resolve(path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, /\.json$/i.test(file) ? recordJson(record) : recordHtml(record))
  return file
}
