// npm run bench -- observe [--page <url-or-file> ...] [--only <name substring>] [--runs <n>] [--warmup <n>] [--loads <n>] [--json]
// Loads each page --loads times, each in a Chromium of its own, with the main-world listener script
// (content/listeners-main.ts) at document start as the extension has it, injects the Observe bundle, waits
// for the page to be ready as the agent does before it reads a page (waitForReady: 500 ms of DOM
// silence) and prints, per page: elements, interactive, scan_ms (median of the
// --runs back-to-back scans after --warmup scans, over all loads), scan_ms_first (median of the
// loads' cold first scans), read_ms_cold (median over the loads of the first read in a fresh page
// in Chromium with the built extension, AVA_DIST or dist/: the page agent's load included, timed in
// the service worker), read_cpu_ms_cold (the page's main-thread CPU time during that read, which
// another program's load on the machine does not inflate as it does wall time), read_longest_task_ms
// (the longest task over 50 ms the page saw during the reads, 0 for none), read_ms_warm (median of the seven reads after it, the same way),
// read_cpu_ms_warm (the page's main-thread CPU time per warm read, median over the loads), tokens_full and
// tokens_budgeted (exact o200k counts in Node) and tokens_per_interactive. Built-in pages are
// generated; `python-stdtypes` is Debian's python3.11-doc page of built-in types, a large docs page.
import { existsSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { launchBrowser } from '../e2e/support/browser'
import { observeBundle } from '../e2e/observe/bundle'
import { startServer } from '../e2e/observe/server'
import { countTokens } from './lib/tokens'
import { launchWithExtension } from '../e2e/support/browser'
import { dist, ensureBuilt } from './lib/extension'
import { listenersMainScript } from './lib/listeners-main'
import { elementPlusPage, syntheticPage, tablePage } from './lib/observe-pages'
import { median, report, runsOf } from './lib/report'

/** Runs per page after the warm-up ("median of at least 5 runs"). */
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

/** A large documentation page nobody wrote for Ava (Debian's python3.11-doc). */
const kStdtypes = '/usr/share/doc/python3.11/html/library/stdtypes.html'

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
  only?: string
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    pages: [],
    runs: runsOf(kDefaultRuns),
    warmup: runsOf(kDefaultWarmup),
    loads: runsOf(kDefaultLoads),
  }
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--page' && argv[i + 1]) args.pages.push(argv[++i])
    else if (argv[i] === '--runs' && argv[i + 1]) args.runs = Math.max(5, Number(argv[++i]) || kDefaultRuns)
    else if (argv[i] === '--warmup' && argv[i + 1]) args.warmup = Math.max(1, Number(argv[++i]) || kDefaultWarmup)
    else if (argv[i] === '--loads' && argv[i + 1]) args.loads = Math.max(1, Number(argv[++i]) || kDefaultLoads)
    else if (argv[i] === '--only' && argv[i + 1]) args.only = argv[++i]
  }
  return args
}

interface Measured {
  /** The first read in a fresh page, the page agent's load included. */
  cold: number
  /** The page's main-thread CPU time during that first read. */
  coldCpu: number
  /** The longest task of the page's main thread during the reads (0: none over 50 ms). */
  longest: number
  /** The reads after it, the same way (scan and listing). */
  warm: number[]
  /** The page's main-thread CPU time per warm read (their mean). */
  warmCpu: number
  first: number
  elements: number
  interactive: number
  times: number[]
  full: string
  budgeted: string
  estimatedBudgeted: number
}

/**
 * The first read of a fresh page, as a person waits for it, in Chromium with the built extension
 * (AVA_DIST or dist/): the background sends the page its first command, a read, as a run's first
 * turn does; the content script imports the page agent on that command (src/content/boot.ts),
 * which scans the page and writes the listing. Timed in the service worker from send to answer,
 * then the next reads of the same page the same way (the warm reads of later turns).
 */
async function measureColdInExtension(
  spec: PageSpec,
): Promise<{ cold: number; coldCpu: number; warm: number[]; warmCpu: number; longest: number }> {
  const ava = await launchWithExtension({ dist })
  try {
    const page = await ava.context.newPage()
    await page.addInitScript({ content: 'window.__name = (f) => f' })
    await page.goto(spec.url, { waitUntil: 'load' })
    if (spec.ready) await page.waitForSelector(spec.ready, { timeout: 15_000 })
    await settleFresh(page)
    const url = page.url()
    await ava.worker.evaluate('globalThis.__name = (f) => f')
    // The page's main-thread CPU time (the content script runs there): what the read cost the
    // page whatever else the machine was doing, beside the wall time a person waits.
    const cdp = await ava.context.newCDPSession(page)
    await cdp.send('Performance.enable')
    const threadMs = async () =>
      ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000
    const read = (url: string) =>
      ava.worker.evaluate(
        async ({ url, n }) => {
          const [tab] = await chrome.tabs.query({ url })
          const out: { ms: number; listing: string }[] = []
          for (let i = 0; i < n; i++) {
            const t0 = performance.now()
            const reply = (await chrome.tabs.sendMessage(
              tab.id!,
              { ava: 1, name: 'bg→content:command', req: { kind: 'read' } },
              { frameId: 0 },
            )) as any
            const ms = performance.now() - t0
            out.push({
              ms,
              listing: String(reply?.res?.info?.listing ?? reply?.info?.listing ?? JSON.stringify(reply).slice(0, 300)),
            })
          }
          return out
        },
        { url, n: 1 },
      )
    // Long tasks while Ava reads (the browser's own measure, > 50 ms), seen from the page's world.
    await page.evaluate(() => {
      const w = window as any
      w.__avaLongTasks = []
      new PerformanceObserver((list) => w.__avaLongTasks.push(...list.getEntries().map((e) => e.duration))).observe({
        type: 'longtask',
      })
    })
    const cpu0 = await threadMs()
    const [first] = await read(url)
    const coldCpu = (await threadMs()) - cpu0
    const cpu1 = await threadMs()
    const warm = await ava.worker.evaluate(async (url) => {
      const [tab] = await chrome.tabs.query({ url })
      const times: number[] = []
      for (let i = 0; i < 7; i++) {
        const t0 = performance.now()
        await chrome.tabs.sendMessage(
          tab.id!,
          { ava: 1, name: 'bg→content:command', req: { kind: 'read' } },
          { frameId: 0 },
        )
        times.push(performance.now() - t0)
      }
      return times
    }, url)
    const warmCpu = ((await threadMs()) - cpu1) / warm.length
    // Entries are delivered after their task: give the observer a frame.
    const longest = await page.evaluate(
      () => new Promise<number>((done) => setTimeout(() => done(Math.max(0, ...(window as any).__avaLongTasks)), 50)),
    )
    const r = { cold: first.ms, coldCpu, warm, warmCpu, longest, listing: first.listing }
    if (!r.listing.startsWith('# ')) throw new Error(`${spec.name}: the extension's read gave no listing: ${r.listing}`)
    return { cold: r.cold, coldCpu: r.coldCpu, warm: r.warm, warmCpu: r.warmCpu, longest: r.longest }
  } finally {
    await ava.close()
  }
}

/** Waits until the page's DOM has been quiet for a while, from outside: no Ava code is in the page yet. */
async function settleFresh(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        let timer = setTimeout(finish, 500)
        const mo = new MutationObserver(() => {
          clearTimeout(timer)
          timer = setTimeout(finish, 500)
        })
        function finish() {
          mo.disconnect()
          done()
        }
        mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
      }),
  )
}

async function measure(
  page: Page,
  runs: number,
  warmup: number,
): Promise<Omit<Measured, 'cold' | 'coldCpu' | 'warm' | 'warmCpu' | 'longest'>> {
  await page.addScriptTag({ content: await observeBundle() })
  // The boot script's one request for listener hints at load, as on every page (dom/observe/listeners.ts).
  await page.evaluate(() => (window as any).__avaObserve.watchListenerHints?.(document, true))
  // The agent reads a page only once it is ready (content/agent.ts pageInfo); so does the bench.
  await page.evaluate(() => (window as any).__avaObserve.waitForReady())
  return page.evaluate(
    ({ n, warmup }) => {
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
      return {
        first,
        elements: snap.stats.elements,
        interactive: snap.stats.interactive,
        times,
        full: full.text,
        budgeted: budgeted.text,
        estimatedBudgeted: budgeted.tokens,
      }
    },
    { n: runs, warmup },
  )
}

/*
 * The main-world listener script runs at document_start as in the extension: its cost on every
 * `addEventListener` of the page's load, and its answer to each scan's request for hints, are
 * part of what a scan costs.
 */
/** One load of the page in a browser of its own: the previous load's teardown and garbage stay out of it. */
async function measureLoad(spec: PageSpec, runs: number, warmup: number): Promise<Measured> {
  const browser = await launchBrowser()
  let scans: Omit<Measured, 'cold' | 'coldCpu' | 'warm' | 'warmCpu' | 'longest'>
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.addInitScript({ content: await listenersMainScript() })
    // tsx compiles with keepNames: the functions passed to page.evaluate call a `__name` helper.
    await page.addInitScript({ content: 'window.__name = (f) => f' })
    await page.goto(spec.url, { waitUntil: 'load' })
    if (spec.ready) await page.waitForSelector(spec.ready, { timeout: 15_000 })
    scans = await measure(page, runs, warmup)
  } finally {
    await browser.close()
  }
  return { ...(await measureColdInExtension(spec)), ...scans }
}

async function main(): Promise<void> {
  ensureBuilt()
  const { pages: extra, runs, warmup, loads, only } = parseArgs(process.argv.slice(2))
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
    if (existsSync(kStdtypes)) specs.push({ name: 'python-stdtypes', url: pathToFileURL(kStdtypes).href })
    else
      console.error(`observe: ${kStdtypes} is missing (apt-get install python3.11-doc); python-stdtypes not measured`)
  }
  for (const p of extra) {
    const file = resolve(p)
    const url = /^[a-z]+:\/\//i.test(p) ? p : existsSync(file) ? pathToFileURL(file).href : p
    specs.push({ name: /^[a-z]+:\/\//i.test(p) ? new URL(p).host + new URL(p).pathname : basename(p), url })
  }
  try {
    for (const spec of specs) {
      if (only && !spec.name.includes(only)) continue
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
      report({ suite, case: spec.name, metric: 'read_ms_cold', value: median(loaded.map((l) => l.cold)), unit: 'ms' })
      report({
        suite,
        case: spec.name,
        metric: 'read_cpu_ms_cold',
        value: median(loaded.map((l) => l.coldCpu)),
        unit: 'ms',
      })
      report({
        suite,
        case: spec.name,
        metric: 'read_longest_task_ms',
        value: Math.max(...loaded.map((l) => l.longest)),
        unit: 'ms',
      })
      report({
        suite,
        case: spec.name,
        metric: 'read_ms_warm',
        value: median(loaded.flatMap((l) => l.warm)),
        unit: 'ms',
      })
      report({
        suite,
        case: spec.name,
        metric: 'read_cpu_ms_warm',
        value: median(loaded.map((l) => l.warmCpu)),
        unit: 'ms',
      })
      if (process.env.AVA_BENCH_TIMES) console.log(spec.name, 'cold', loaded.map((l) => l.cold.toFixed(1)).join(' '))
      if (process.env.AVA_BENCH_TIMES)
        for (const l of loaded) console.log(spec.name, l.times.map((t) => t.toFixed(1)).join(' '))
      report({ suite, case: spec.name, metric: 'tokens_full', value: tokensFull, unit: 'tokens' })
      report({ suite, case: spec.name, metric: 'tokens_budgeted', value: tokensBudgeted, unit: 'tokens' })
      report({
        suite,
        case: spec.name,
        metric: 'tokens_per_interactive',
        value: m.interactive ? tokensFull / m.interactive : 0,
        unit: 'tokens',
      })
      report({
        suite,
        case: spec.name,
        metric: 'budget_estimate_ratio',
        value: tokensBudgeted ? m.estimatedBudgeted / tokensBudgeted : 0,
        unit: 'x',
      })
    }
  } finally {
    await server.close()
  }
}

await main()
