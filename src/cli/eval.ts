// `ava eval`: how well Ava does with a given model (docs/eval.md). Each task of the bundled suite
// (eval-tasks.ts, served by eval-site.ts) or each recorded flow's goal (`--flows`) is run by Ava's
// own agent (mcp/agent.ts askAva: the same run, gate and reader as the extension's) in a fresh
// headless Chromium context with Ava's page code, then judged by its checker. Reported per task and
// in total: success, steps, model calls, tokens, time, cost where the providers table prices the
// model, and failure codes; as a table, as JSON (--json), and as a self-contained HTML page (--report).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { kAssertActions, parseFlow, type Flow } from '../core/flows/schema'
import { replayFlow } from '../core/flows/replay'
import { costUsd } from '../core/providers'
import { createRegistry } from '../core/registry'
import type { LlmSettings } from '../core/settings'
import { kExit, type Io, type Parsed } from './args'
import { askAva } from './mcp/agent'
import { modelFromEnv } from './mcp/agent'
import { tabOf } from './mcp/place'
import {
  chromiumPath,
  kBrowserArgs,
  kNavigationTimeoutMs,
  kViewport,
  pageFlowPort,
  kPageScript,
} from './playwright-page'
import { cliSources } from './sources'
import { missingLibraries, startEvalSite } from './eval-site'
import { kEvalTasks, type EvalObservation, type EvalTask } from './eval-tasks'

const kDefaultStepLimit = 20
const kDefaultTaskSeconds = 180
/** How long a page may take to send what the run's last step started (a form post, a fetch) before it is judged. */
const kSettleMs = 5_000
/** How long a failed check waits for a submission still on its way before it is looked at again. */
const kLateSubmitMs = 1_500

export interface TaskResult {
  id: string
  family: string
  goal: string
  status: 'passed' | 'failed' | 'skipped'
  /** Why the checker said no, or why the task was skipped. */
  why?: string
  /** The code of the failure (`kFailures`): the run's own, VERIFY_FAILED when the run ended but the result is wrong, TIMEOUT. */
  code?: string
  steps: number
  modelCalls: number
  tokens: { input: number; output: number }
  ms: number
  costUsd?: number
  answer: string
  /** The run's own notes: questions asked and their answers, errors. */
  notes: string[]
}

export interface EvalReport {
  version: 1
  model: { provider: string; model: string; baseUrl: string }
  suite: 'tasks' | 'flows'
  startedAt: string
  tasks: TaskResult[]
  total: {
    tasks: number
    passed: number
    failed: number
    skipped: number
    successRate: number
    steps: number
    modelCalls: number
    tokens: { input: number; output: number }
    ms: number
    costUsd?: number
    failures: Record<string, number>
  }
}

/** The tasks `--tasks` names: ids, families, or id prefixes ending in `*`. */
export function selectTasks(all: readonly EvalTask[], wanted: string[] | undefined): EvalTask[] | string {
  if (!wanted?.length) return [...all]
  const words = wanted
    .flatMap((w) => w.split(','))
    .map((w) => w.trim())
    .filter(Boolean)
  const unknown = words.filter(
    (w) => !all.some((t) => t.id === w || t.family === w || (w.endsWith('*') && t.id.startsWith(w.slice(0, -1)))),
  )
  if (unknown.length)
    return `no task or family ${unknown.map((w) => JSON.stringify(w)).join(', ')}; \`ava eval --list\` lists them`
  return all.filter((t) =>
    words.some((w) => t.id === w || t.family === w || (w.endsWith('*') && t.id.startsWith(w.slice(0, -1)))),
  )
}

/** One thing to score: where it starts, what the person asks, and how it is judged afterwards. */
interface Job {
  id: string
  family: string
  goal: string
  url: string
  skip?: string
  judge(o: { answer: string; asked: string[]; page: import('playwright-core').Page }): Promise<true | string>
}

function taskJobs(
  tasks: EvalTask[],
  site: { url: string; observe(id: string): Omit<EvalObservation, 'answer' | 'asked'>; reset(id: string): void },
): Job[] {
  return tasks.map((t) => {
    const missing = missingLibraries(t)
    return {
      id: t.id,
      family: t.family,
      goal: t.goal,
      url: `${site.url}/t/${t.id}/`,
      ...(missing.length ? { skip: `needs ${missing.join(', ')} installed beside Ava (its repository has them)` } : {}),
      judge: async ({ answer, asked }) => t.check({ answer, asked, ...site.observe(t.id) }),
    }
  })
}

/** The flows of a folder as jobs: the goal the flow was recorded for, judged by the flow's own checks. */
function flowJobs(dir: string): Job[] | string {
  let names: string[]
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
  } catch (e) {
    return `cannot read ${dir}: ${(e as Error).message}`
  }
  if (!names.length) return `no flow files (*.json) in ${dir}`
  return names.map((name): Job => {
    let flow: Flow
    try {
      flow = parseFlow(readFileSync(join(dir, name), 'utf8'))
    } catch (e) {
      return {
        id: name,
        family: 'flow',
        goal: '',
        url: '',
        skip: `not a flow: ${(e as Error).message}`,
        judge: async () => 'skipped',
      }
    }
    const m = flow.metadata
    const goal = m.source_task ?? m.description ?? m.name
    const checks = flow.steps.filter((s) => kAssertActions.has(s.action)).map((s, i) => ({ ...s, step_id: i + 1 }))
    const skip = !m.start_url
      ? 'the flow has no start_url'
      : !checks.length
        ? 'the flow has no checks (verify or expect steps) to judge by'
        : undefined
    return {
      id: name.replace(/\.json$/, ''),
      family: 'flow',
      goal,
      url: m.start_url ?? '',
      ...(skip ? { skip } : {}),
      judge: async ({ page }) => {
        const port = pageFlowPort(page)
        const env = Object.fromEntries(
          Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
        )
        const r = await replayFlow(
          { ...flow, steps: checks },
          { port, navigateToStart: false, variables: { env, secrets: env, params: {}, args: [] } },
        ).finally(() => port.close())
        return r.success || `check ${r.error?.step_id ?? '?'} failed: ${r.error?.message ?? 'unknown'}`
      },
    }
  })
}

export async function evalCli(parsed: Parsed, io: Io): Promise<number> {
  const v = parsed.values
  if (v.list) {
    for (const t of kEvalTasks) io.out(`${t.id.padEnd(22)} ${t.family.padEnd(10)} ${t.goal}`)
    return kExit.ok
  }
  const fromEnv = modelFromEnv()
  if (fromEnv === undefined) {
    io.err(
      'ava eval: no model: set AVA_MODEL_PROVIDER (openai, anthropic or local), and AVA_MODEL, AVA_MODEL_BASE_URL, AVA_API_KEY as it needs',
    )
    return kExit.usage
  }
  if (typeof fromEnv === 'string') {
    io.err(`ava eval: ${fromEnv}`)
    return kExit.usage
  }
  const llm: LlmSettings = { ...fromEnv, ...(v.model ? { model: String(v.model) } : {}) }
  // The option is checked here; the count against it is the guard's (askAva's run).
  const steps = v['step-limit'] === undefined ? kDefaultStepLimit : Number(v['step-limit'])
  const seconds = v.timeout === undefined ? kDefaultTaskSeconds : Number(v.timeout)
  if (!Number.isInteger(steps) || steps < 1) return usage(io, '--step-limit needs a whole number of steps, 1 or more')
  if (!Number.isFinite(seconds) || seconds <= 0) return usage(io, '--timeout needs a number of seconds')
  if (v.flows && v.tasks) return usage(io, 'give --tasks or --flows, not both')
  const browser = chromiumPath({ browser: v.browser as string | undefined })
  if (typeof browser === 'string') {
    io.err(`ava eval: ${browser}`)
    return kExit.failed
  }
  if (kPageScript === undefined) {
    io.err('ava eval: the page script is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js eval`')
    return kExit.failed
  }
  const tasks = v.flows ? [] : selectTasks(kEvalTasks, v.tasks as string[] | undefined)
  if (typeof tasks === 'string') return usage(io, tasks)

  const site = v.flows ? undefined : await startEvalSite(tasks)
  const jobs = v.flows ? flowJobs(resolve(String(v.flows))) : taskJobs(tasks, site!)
  if (typeof jobs === 'string') {
    await site?.close()
    return usage(io, jobs)
  }
  const { chromium } = await import('playwright-core')
  const b = await chromium.launch({ executablePath: browser.path, headless: !v.headed, args: kBrowserArgs })
  const registry = createRegistry(() => cliSources().sources)
  registry.load(cliSources().sources)
  const startedAt = new Date().toISOString()
  const results: TaskResult[] = []
  try {
    for (const job of jobs) {
      const result = await runJob(job, { browser: b, site, llm, registry, stepLimit: steps, seconds })
      results.push(result)
      if (!v.json)
        io.err(
          `${result.status === 'passed' ? 'pass' : result.status === 'skipped' ? 'skip' : 'FAIL'} ${job.id}${result.why ? ` — ${result.why}` : ''}`,
        )
    }
  } finally {
    await b.close().catch(() => undefined)
    await site?.close()
  }
  const report = summarise(results, llm, v.flows ? 'flows' : 'tasks', startedAt)
  if (v.report) writeFileSync(String(v.report), htmlReport(report))
  io.out(v.json ? JSON.stringify(report, null, 2) : formatTable(report))
  return report.total.failed ? kExit.failed : kExit.ok
}

function usage(io: Io, message: string): number {
  io.err(`ava eval: ${message}`)
  return kExit.usage
}

async function runJob(
  job: Job,
  o: {
    browser: import('playwright-core').Browser
    site?: { reset(id: string): void }
    llm: LlmSettings
    registry: ReturnType<typeof createRegistry>
    stepLimit: number
    seconds: number
  },
): Promise<TaskResult> {
  const base = {
    id: job.id,
    family: job.family,
    goal: job.goal,
    steps: 0,
    modelCalls: 0,
    tokens: { input: 0, output: 0 },
    ms: 0,
    answer: '',
    notes: [],
  }
  if (job.skip) return { ...base, status: 'skipped', why: job.skip }
  o.site?.reset(job.id)
  const context = await o.browser.newContext({ viewport: kViewport })
  await context.addInitScript({ content: kPageScript })
  const page = await context.newPage()
  const asked: string[] = []
  const t0 = Date.now()
  try {
    await page.goto(job.url, { timeout: kNavigationTimeoutMs })
    const signal = AbortSignal.timeout(o.seconds * 1000)
    // Nobody is there to answer: a risky step is allowed once asked, and the asking is recorded for the checker.
    const asker = { ask: async (q: { reason: string }) => (asked.push(q.reason), true) }
    const r = await askAva(job.goal, {
      tab: tabOf(() => page),
      llm: o.llm,
      registry: o.registry,
      asker,
      secrets: [],
      stepLimit: o.stepLimit,
      signal,
    }).catch((e: unknown) => (signal.aborted ? 'timeout' : (e as Error)))
    const ms = Date.now() - t0
    if (r === 'timeout')
      return { ...base, ms, status: 'failed', code: 'TIMEOUT', why: `the task took longer than ${o.seconds} s` }
    if (r instanceof Error) return { ...base, ms, status: 'failed', code: 'INTERNAL_ERROR', why: r.message }
    // A form the last step submitted may still be on its way: the page settles before it is judged.
    await page.waitForLoadState('networkidle', { timeout: kSettleMs }).catch(() => undefined)
    const judge = () =>
      job.judge({ answer: r.answer, asked, page }).catch((e: unknown) => `the checker failed: ${(e as Error).message}`)
    // A submit clicked in the run's last reply may start its request only after the run has ended
    // (networkidle then holds at once): a failed check is looked at once more after a short wait,
    // so the score is the page's, not the machine's speed.
    let verdict = await judge()
    if (verdict !== true) {
      await page.waitForTimeout(kLateSubmitMs).catch(() => undefined)
      await page.waitForLoadState('networkidle', { timeout: kSettleMs }).catch(() => undefined)
      verdict = await judge()
    }
    const cost = costUsd(o.llm.model, r.usage)
    const passed = verdict === true
    return {
      ...base,
      status: passed ? 'passed' : 'failed',
      ...(verdict === true
        ? {}
        : { why: verdict, code: r.status === 'done' ? 'VERIFY_FAILED' : (r.code ?? 'STEP_FAILED') }),
      steps: r.stepsUsed,
      modelCalls: r.modelCalls,
      tokens: r.usage,
      ms,
      ...(cost === undefined ? {} : { costUsd: cost }),
      answer: r.answer,
      notes: r.notes,
    }
  } catch (e) {
    return {
      ...base,
      ms: Date.now() - t0,
      status: 'failed',
      code: 'PAGE_NOT_OPENED',
      why: (e as Error).message.split('\n')[0],
    }
  } finally {
    await context.close().catch(() => undefined)
  }
}

export function summarise(
  tasks: TaskResult[],
  llm: LlmSettings,
  suite: EvalReport['suite'],
  startedAt: string,
): EvalReport {
  const ran = tasks.filter((t) => t.status !== 'skipped')
  const passed = ran.filter((t) => t.status === 'passed').length
  const sum = (f: (t: TaskResult) => number) => ran.reduce((n, t) => n + f(t), 0)
  const priced = ran.filter((t) => t.costUsd !== undefined)
  const failures: Record<string, number> = {}
  for (const t of ran) if (t.code) failures[t.code] = (failures[t.code] ?? 0) + 1
  return {
    version: 1,
    model: { provider: llm.provider, model: llm.model, baseUrl: llm.baseUrl },
    suite,
    startedAt,
    tasks,
    total: {
      tasks: tasks.length,
      passed,
      failed: ran.length - passed,
      skipped: tasks.length - ran.length,
      successRate: ran.length ? passed / ran.length : 0,
      steps: sum((t) => t.steps),
      modelCalls: sum((t) => t.modelCalls),
      tokens: { input: sum((t) => t.tokens.input), output: sum((t) => t.tokens.output) },
      ms: sum((t) => t.ms),
      ...(priced.length ? { costUsd: priced.reduce((n, t) => n + t.costUsd!, 0) } : {}),
      failures,
    },
  }
}

const money = (usd: number | undefined) => (usd === undefined ? '—' : `$${usd.toFixed(usd < 0.01 ? 4 : 2)}`)
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The plain-text table: one row per task, then the totals. */
export function formatTable(r: EvalReport): string {
  const head = ['task', 'family', 'result', 'steps', 'calls', 'tokens in/out', 'time', 'cost', 'failure']
  const rows = r.tasks.map((t) => [
    t.id,
    t.family,
    t.status === 'passed' ? 'pass' : t.status === 'skipped' ? 'skip' : 'FAIL',
    String(t.steps),
    String(t.modelCalls),
    `${t.tokens.input}/${t.tokens.output}`,
    secs(t.ms),
    money(t.costUsd),
    t.code ?? '',
  ])
  const T = r.total
  rows.push([
    'total',
    '',
    `${T.passed}/${T.passed + T.failed} (${Math.round(T.successRate * 100)}%)`,
    String(T.steps),
    String(T.modelCalls),
    `${T.tokens.input}/${T.tokens.output}`,
    secs(T.ms),
    money(T.costUsd),
    Object.entries(T.failures)
      .map(([c, n]) => `${c}×${n}`)
      .join(' '),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd()
  return [
    `ava eval — ${r.model.provider} ${r.model.model}${T.skipped ? ` (${T.skipped} skipped)` : ''}`,
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.slice(0, -1).map(line),
    line(widths.map((w) => '-'.repeat(w))),
    line(rows.at(-1)!),
  ].join('\n')
}

const html = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * The report as one HTML file with no script and nothing fetched (docs/eval.md, "The report"): the
 * totals, a row per task with its details (goal, why it failed, the answer, the run's notes), and
 * the whole report as JSON in a `<script type="application/json" id="ava-eval">` block for tools.
 */
export function htmlReport(r: EvalReport): string {
  const T = r.total
  const row = (t: TaskResult) =>
    `<tr class="${t.status}" data-task="${html(t.id)}"><td>${html(t.id)}</td><td>${html(t.family)}</td><td>${t.status}</td><td>${t.steps}</td><td>${t.modelCalls}</td><td>${t.tokens.input}/${t.tokens.output}</td><td>${secs(t.ms)}</td><td>${money(t.costUsd)}</td><td>${html(t.code ?? '')}</td></tr>
<tr class="details"><td colspan="9"><details><summary>${html(t.goal)}</summary>${t.why ? `<p><b>Why:</b> ${html(t.why)}</p>` : ''}<p><b>Answer:</b></p><pre>${html(t.answer || '(none)')}</pre>${t.notes.length ? `<p><b>Notes:</b></p><ul>${t.notes.map((n) => `<li>${html(n)}</li>`).join('')}</ul>` : ''}</details></td></tr>`
  // `<` is escaped inside the JSON so that no text in it can close the block.
  const data = JSON.stringify(r).replace(/</g, '\\u003c')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>ava eval — ${html(r.model.model)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:24px}table{border-collapse:collapse}th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left}tr.failed td:nth-child(3){color:#b00;font-weight:bold}tr.passed td:nth-child(3){color:#070}tr.details td{border:0;padding:0 8px 6px}pre{white-space:pre-wrap;background:#f6f6f6;padding:6px}</style></head>
<body><h1>ava eval</h1>
<p>Model <b>${html(r.model.model)}</b> (${html(r.model.provider)}, ${html(r.model.baseUrl)}), ${html(r.suite)} suite, started ${html(r.startedAt)}.</p>
<p id="total"><b>${T.passed} of ${T.passed + T.failed} passed (${Math.round(T.successRate * 100)}%)</b>${T.skipped ? `, ${T.skipped} skipped` : ''}; ${T.steps} steps, ${T.modelCalls} model calls, ${T.tokens.input}/${T.tokens.output} tokens in/out, ${secs(T.ms)}, cost ${money(T.costUsd)}. Failures: ${html(
    Object.entries(T.failures)
      .map(([c, n]) => `${c} ×${n}`)
      .join(', ') || 'none',
  )}.</p>
<table><thead><tr><th>task</th><th>family</th><th>result</th><th>steps</th><th>calls</th><th>tokens in/out</th><th>time</th><th>cost</th><th>failure</th></tr></thead><tbody>
${r.tasks.map(row).join('\n')}
</tbody></table>
<script type="application/json" id="ava-eval">${data}</script>
</body></html>
`
}
