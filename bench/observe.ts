// npm run bench -- observe [--page <url-or-file> ...] [--runs <n>] [--warmup <n>] [--loads <n>] [--json]
// Loads each page --loads times, each in a Chromium of its own, with the main-world listener script
// (content/listeners-main.ts) at document start as the extension has it, injects the Observe bundle, waits
// for the page to be ready as the agent does before it reads a page (waitForReady: 500 ms of DOM
// silence, seed 002 §4.1) and prints, per page: elements, interactive, scan_ms (median of the
// --runs back-to-back scans after --warmup scans, over all loads), scan_ms_first (median of the
// loads' cold first scans), tokens_full and tokens_budgeted (exact o200k counts in Node) and
// tokens_per_interactive. Built-in pages are generated.
import { existsSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { launchBrowser } from '../e2e/support/browser'
import { observeBundle } from '../e2e/observe/bundle'
import { startServer } from '../e2e/observe/server'
import { countTokens } from './lib/tokens'
import { listenersMainScript } from './lib/listeners-main'
import { elementPlusPage, syntheticPage, tablePage } from './lib/observe-pages'
import { median, report, runsOf } from './lib/report'

/** Runs per page after the warm-up (issue 4: "median of at least 5 runs"). */
const kDefaultRuns = 9
const suite = 'observe'
/**
 * Scans before the measured ones, the first included: V8 reaches optimised code for the walk
 * after about eight. The first scan (cold code, ids written) is reported as scan_ms_first.
 */
const kDefaultWarmup = 10
/**
 * Loads of each page, each in a Chromium of its own, whose scans are pooled for the median. This
 * machine class runs the same code up to twice as slowly for seconds at a time; one load's scans
 * fall inside one such stretch, three loads seldom all do (JMH's forks, for the same reason).
 */
const kDefaultLoads = 3

interface PageSpec {
  name: string
  url: string
  /** A selector to wait for before measuring (client-rendered pages). */
  ready?: string
}

interface Args {
  pages: string[]
  runs: number
  warmup: number
  loads: number
}

function parseArgs(argv: string[]): Args {
  const args: Args = { pages: [], runs: runsOf(kDefaultRuns), warmup: runsOf(kDefaultWarmup), loads: runsOf(kDefaultLoads) }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--page' && argv[i + 1]) args.pages.push(argv[++i])
    else if (argv[i] === '--runs' && argv[i + 1]) args.runs = Math.max(5, Number(argv[++i]) || kDefaultRuns)
    else if (argv[i] === '--warmup' && argv[i + 1]) args.warmup = Math.max(1, Number(argv[++i]) || kDefaultWarmup)
    else if (argv[i] === '--loads' && argv[i + 1]) args.loads = Math.max(1, Number(argv[++i]) || kDefaultLoads)
  }
  return args
}

interface Measured {
  first: number
  elements: number
  interactive: number
  times: number[]
  full: string
  budgeted: string
  estimatedBudgeted: number
}

async function measure(page: Page, runs: number, warmup: number): Promise<Measured> {
  await page.addScriptTag({ content: await observeBundle() })
  // The boot script's one request for listener hints at load, as on every page (dom/observe/listeners.ts).
  await page.evaluate(() => (window as any).__avaObserve.watchListenerHints?.(document, true))
  // The agent reads a page only once it is ready (content/agent.ts pageInfo); so does the bench.
  await page.evaluate(() => (window as any).__avaObserve.waitForReady())
  return page.evaluate(({ n, warmup }) => {
    const api = (window as any).__avaObserve
    // The first scan runs cold code and writes the ids; it is reported on its own.
    const c0 = performance.now()
    api.observe()
    const first = performance.now() - c0
    for (let i = 1; i < warmup; i++) api.observe()
    const times: number[] = []
    let snap: any
    for (let i = 0; i < n; i++) {
      const t0 = performance.now()
      snap = api.observe()
      times.push(performance.now() - t0)
    }
    const full = api.serialize(snap, { budgetTokens: Infinity })
    const budgeted = api.serialize(snap)
    return { first, elements: snap.stats.elements, interactive: snap.stats.interactive, times, full: full.text, budgeted: budgeted.text, estimatedBudgeted: budgeted.tokens }
  }, { n: runs, warmup })
}

/*
 * The main-world listener script runs at document_start as in the extension: its cost on every
 * `addEventListener` of the page's load, and its answer to each scan's request for hints, are
 * part of what a scan costs (issue 20 §1).
 */
/** One load of the page in a browser of its own: the previous load's teardown and garbage stay out of it. */
async function measureLoad(spec: PageSpec, runs: number, warmup: number): Promise<Measured> {
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.addInitScript({ content: await listenersMainScript() })
    await page.goto(spec.url, { waitUntil: 'load' })
    if (spec.ready) await page.waitForSelector(spec.ready, { timeout: 15_000 })
    return await measure(page, runs, warmup)
  } finally {
    await browser.close()
  }
}

async function main(): Promise<void> {
  const { pages: extra, runs, warmup, loads } = parseArgs(process.argv.slice(2))
  const server = await startServer()
  const specs: PageSpec[] = []
  if (extra.length === 0) {
    const builtIn: Array<[string, string]> = [
      ['table-200', tablePage(200)],
      ['table-1000', tablePage(1000)],
      ['synthetic-3k', syntheticPage(3000)],
      ['synthetic-15k', syntheticPage(15000)],
      ['synthetic-35k', syntheticPage(35000)],
    ]
    for (const [name, html] of builtIn) {
      server.page(`/${name}.html`, html)
      specs.push({ name, url: server.url(`/${name}.html`) })
    }
    server.page('/element-plus.html', elementPlusPage())
    specs.push({ name: 'element-plus-admin', url: server.url('/element-plus.html'), ready: '.el-table__row' })
  }
  for (const p of extra) {
    const file = resolve(p)
    const url = /^[a-z]+:\/\//i.test(p) ? p : existsSync(file) ? pathToFileURL(file).href : p
    specs.push({ name: /^[a-z]+:\/\//i.test(p) ? new URL(p).host + new URL(p).pathname : basename(p), url })
  }
  try {
    for (const spec of specs) {
      const loaded: Measured[] = []
      for (let i = 0; i < loads; i++) loaded.push(await measureLoad(spec, runs, warmup))
      const m = loaded[0]
      const times = loaded.flatMap((l) => l.times)
      const first = median(loaded.map((l) => l.first))
      const tokensFull = countTokens(m.full)
      const tokensBudgeted = countTokens(m.budgeted)
      report({ suite, case: spec.name, metric: 'elements', value: m.elements, unit: 'count' })
      report({ suite, case: spec.name, metric: 'interactive', value: m.interactive, unit: 'count' })
      report({ suite, case: spec.name, metric: 'scan_ms', value: median(times), unit: 'ms' })
      report({ suite, case: spec.name, metric: 'scan_ms_first', value: first, unit: 'ms' })
      if (process.env.AVA_BENCH_TIMES) for (const l of loaded) console.log(spec.name, l.times.map((t) => t.toFixed(1)).join(' '))
      report({ suite, case: spec.name, metric: 'tokens_full', value: tokensFull, unit: 'tokens' })
      report({ suite, case: spec.name, metric: 'tokens_budgeted', value: tokensBudgeted, unit: 'tokens' })
      report({ suite, case: spec.name, metric: 'tokens_per_interactive', value: m.interactive ? tokensFull / m.interactive : 0, unit: 'tokens' })
      report({ suite, case: spec.name, metric: 'budget_estimate_ratio', value: tokensBudgeted ? m.estimatedBudgeted / tokensBudgeted : 0, unit: 'x' })
    }
  } finally {
    await server.close()
  }
}

await main()
