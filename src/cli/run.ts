// `ava run <action-or-flow-file> [--param k=v ...] --url <start> [--browser path] [--headed]`:
// the headless runner. Runs a recorded flow (JSON) or a
// registry action (a name, or a pack file) in Chromium through playwright-core, with the same
// page-side code the extension injects (src/dom/recorder/page-api.ts, built into bin/ava.js),
// prints one trace line per step, writes a screenshot on failure and exits 1 on failure.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import {
  fileVariables,
  formatReport,
  formatStepReport,
  parseFlow,
  parseSource,
  replayFlow,
  type Flow,
  type FlowRunResult,
  type StepReport,
} from '../core/flows'
import { stepCount } from '../core/flows/format'
import { type StepGuard } from '../core/page/channel'
import { type RiskCategory } from '../core/exec'
import { guardedRun } from '../core/gate/guard'
import { allowedOf, refusedLine, unattendedGuard } from './unattended'
import {
  createEngine,
  createRegistry,
  validateParams,
  type ActionRegistry,
  type ActionResult,
  type EngineOptions,
  type GlobalConfig,
  type PackSource,
  type RunOptions,
} from '../core/registry'
import {
  debugDetail,
  formatCommandHelp,
  kExit,
  oneLine,
  openFailure,
  parseParams,
  plainMessage,
  type Io,
  type Parsed,
} from './args'
import { kRunSpec } from './run-spec'
import {
  chromiumPath,
  kBrowserArgs,
  kNavigationTimeoutMs,
  kPageScript,
  kViewport,
  pageBrowserPort,
  pageFlowPort,
  type PwPage,
  readUpload,
  trackTraffic,
} from './playwright-page'
import { failureOf } from '../core/failure'
import { runRecord, writeRunReport } from './run-report'
import { failureLinesEn, renderEn } from '../core/locales/render'
import { actionEnv, cliSources, displayPath, lookupFailure, readGlobalConfig, readPack } from './sources'

interface RunArgs {
  target?: string
  url?: string
  params: Record<string, string>
  positional: string[]
  action?: string
  browser?: string
  headed: boolean
  timeoutMs?: number
  screenshot?: string
  json: boolean
  /** Where the run's record goes (run-report.ts). */
  report?: string
  /** The risk categories taken unasked (`--allow`, `--yes` for all); anything else is UNATTENDED. */
  allowed: RiskCategory[]
}

/** The parsed command line (kRunSpec) as the runner needs it, or a usage message. */
export function runArgs({ values, positionals }: Parsed): RunArgs | string {
  const params = parseParams(values.param as string[] | undefined)
  if (typeof params === 'string') return params
  const str = (name: string): string | undefined => values[name] as string | undefined
  let timeoutMs: number | undefined
  if (str('timeout') !== undefined) {
    timeoutMs = Number(str('timeout'))
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return '--timeout needs a whole number of ms'
  }
  const allowed = allowedOf(values)
  if (typeof allowed === 'string') return allowed
  const [target, ...rest] = positionals
  return {
    target,
    positional: rest,
    params,
    url: str('url'),
    action: str('action'),
    browser: str('browser'),
    screenshot: str('screenshot'),
    timeoutMs,
    headed: !!values.headed,
    json: !!values.json,
    allowed,
    report: str('report'),
  }
}

// ---------------------------------------------------------------------------------------------
// The command

/** `dir`: the flow file's folder, which its `${file:…}` paths are relative to (default: the working directory). */
export type Target =
  | { kind: 'flow'; flow: Flow; label: string; dir?: string }
  | { kind: 'action'; name: string; registry: ActionRegistry; label: string }

function actionTarget(name: string, sources: PackSource[], params: Record<string, string>): Target | string {
  const registry = createRegistry(() => sources)
  registry.load(sources)
  // Checked here, before Chromium starts: a typo in the name or a missing parameter costs nothing.
  const found = registry.lookup(name)
  if (!found.ok) return lookupFailure(found)
  const checked = validateParams(params, found.action.params)
  if (!checked.ok) return `${found.action.fullName}: ${checked.message}`
  return { kind: 'action', name, registry, label: found.action.fullName }
}

/** A flow file, a pack file or an action name, checked before any browser starts; or why not. */
export function loadTarget(a: Pick<RunArgs, 'action' | 'params'> & { target: string }): Target | string {
  const target = a.target
  const path = resolve(target)
  if (existsSync(path)) {
    if (/\.json$/i.test(path)) {
      const text = readFileSync(path, 'utf8')
      const data = JSON.parse(text) as Record<string, unknown>
      if (Array.isArray(data.steps) && typeof data.title === 'string' && !('version' in data))
        return `${displayPath(path)} is a Chrome DevTools recording; run flows saved by Ava (the .flow.json export).`
      const flow = parseFlow(data)
      // A missing upload file is found here, before Chromium starts, as a missing parameter is.
      const missing = missingFlowFiles(flow, dirname(path), a.params)
      if (missing.length)
        return missing
          .map((m) => `${displayPath(path)}: the file "${m.variable}" is not at ${displayPath(m.path)}.`)
          .join('\n')
      return { kind: 'flow', flow, label: displayPath(path), dir: dirname(path) }
    }
    if (/\.ya?ml$/i.test(path)) {
      const file = readPack(path)
      const { sources } = cliSources()
      const others = sources.map((s) => ({ ...s, files: s.files.filter((f) => f.path !== file.path) }))
      const all: PackSource[] = [...others, { source: 'env-path', files: [file] }]
      const registry = createRegistry(() => all)
      registry.load(all)
      const mine = registry
        .list()
        .flatMap((n) => n.actions.filter((x) => x.source.file === file.path).map((x) => x.name))
      const names = [...new Set(mine)]
      const name = a.action
        ? a.action.split(':').length === 3
          ? a.action
          : names.find((n) => n.endsWith(`:${a.action}`))
        : names.length === 1
          ? names[0]
          : undefined
      if (!name)
        return names.length
          ? `${displayPath(path)} has ${names.length} actions; pick one with --action: ${names.join(', ')}`
          : `${displayPath(path)} has no valid action; run \`ava action validate ${displayPath(path)}\``
      return actionTarget(name, all, a.params)
    }
    return `${displayPath(path)}: expected a .json flow or a .yaml pack`
  }
  if (/^[a-z][a-z0-9_-]*:[a-z][a-zA-Z0-9_-]*:[a-z][a-zA-Z0-9_-]*$/.test(target))
    return actionTarget(target, cliSources().sources, a.params)
  return `no file "${target}", and it is not an action name (namespace:component:action)`
}

/**
 * Where a `${file:path}` variable's file is: a path given with `--param name=…` is the person's,
 * relative to the working directory; the flow's own is relative to the flow file's folder (so a
 * flow and its files move together); an absolute path is used as it is.
 */
export function flowFilePath(
  flow: Flow,
  variable: string,
  dir: string | undefined,
  params: Record<string, string>,
): string {
  if (variable in params) return resolve(params[variable])
  const source = parseSource(flow.variables[variable]?.value)
  return resolve(dir ?? process.cwd(), source && source.kind === 'file' ? source.key : '')
}

/** The flow's file variables whose file is not there. */
export function missingFlowFiles(
  flow: Flow,
  dir: string | undefined,
  params: Record<string, string>,
): { variable: string; path: string }[] {
  return fileVariables(flow)
    .map((variable) => ({ variable, path: flowFilePath(flow, variable, dir, params) }))
    .filter((f) => !existsSync(f.path))
}

/** One line per step; a step the pack lets fail (onError: continue) is not a failure of the run. */
export function formatActionTrace(r: ActionResult): string[] {
  const lines = r.trace.map((t) => {
    const mark =
      t.status === 'ok' || t.status === 'recovered'
        ? '✓'
        : t.status === 'skipped'
          ? '-'
          : t.status === 'continued'
            ? '~'
            : '✗'
    const sel = t.selectors ? ` [${Object.values(t.selectors).join(', ')}]` : ''
    // A tolerated failure is part of the plan (a check that nothing is left): its code is enough
    // here; --json has the whole message.
    // A wait that fell back passed without seeing its condition: say so on its line.
    const fell = t.fellBack ? ` (did not hold: ${t.fellBack.code}; went on once the page had loaded + 500 ms)` : ''
    const why = !t.error
      ? fell
      : t.status === 'continued'
        ? ` (${t.error.code}; the pack allows it: onError: continue)`
        : `: ${t.error.code}`
    const line = `${mark} ${t.id.padStart(2)} ${t.action.padEnd(12)}${sel} ${t.status}${why} — ${Math.round(t.durationMs)} ms`
    // Under a failed step: its code's sentence from the en table, the engine's words, the hint.
    return t.status === 'failed' && t.error
      ? [line, ...failureLinesEn(t.error.code, { n: t.id, detail: stepMessage(t.error.message) })].join('\n')
      : line
  })
  // A failure a step's line already gave is not said again: the last line is the verdict. One
  // that no step shows (verify, a missing return) is said there.
  const shown = r.error && r.trace.find((t) => t.status === 'failed' && t.error?.code === r.error!.code)
  const ms = `in ${Math.round(r.durationMs)} ms`
  if (r.success) lines.push(`passed: ${r.action} ${ms}`)
  else if (shown || !r.error) lines.push(`FAILED: ${r.action}${shown ? ` at step ${shown.id}` : ''} ${ms}`)
  else {
    // The popup's line for the same failure ("Failed: <the code's clause>."), in English.
    const reason = failureOf(r.error.code).say.reason
    const sentence = reason ? { key: 'action.failed', params: { reason: renderEn({ key: reason }) } } : undefined
    lines.push(
      `FAILED: ${r.action}: ${r.error.code}`,
      ...failureLinesEn(r.error.code, { detail: stepMessage(r.error.message), ...(sentence ? { sentence } : {}) }),
    )
  }
  return lines
}

/** A step's error as its own line says it: without "Step 2 (fill) failed:", which the line shows. */
export function stepMessage(message: string): string {
  return message.replace(/^Step [\w.]+ \([^)]*\) failed: /, '')
}

export type RunOutcome =
  { kind: 'flow'; result: FlowRunResult; page?: PwPage } | { kind: 'action'; result: ActionResult }

/**
 * Runs a loaded target on a page whose context already injects the page script (kGlobal) into
 * every document; `ava run` and the Playwright Test fixture (src/playwright/fixture.ts) both
 * go through here, so a flow passes or fails the same way in either.
 */
export async function runOnPage(
  page: PwPage,
  target: Target,
  opts: {
    params: Record<string, string>
    positional?: string[]
    timeoutMs?: number
    onStep?: (r: StepReport) => void
    engine?: Partial<EngineOptions>
    run?: RunOptions
    guard?: StepGuard
  },
): Promise<RunOutcome> {
  if (target.kind === 'flow') {
    const flow = target.flow
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
    const port = pageFlowPort(page, { guard: opts.guard })
    const result = await replayFlow(target.flow, {
      port,
      // In CI the vault is the environment: ${secret:KEY} reads $KEY.
      variables: {
        params: opts.params,
        env,
        secrets: env,
        args: opts.positional ?? [],
        file: (_path, variable) => readUpload(flowFilePath(flow, variable, target.dir, opts.params)),
      },
      navigateToStart: false,
      stepTimeoutMs: opts.timeoutMs,
      onStep: opts.onStep,
    }).finally(() => port.close())
    // The page the flow ended on (a `tab` step moves it): the one a failure's screenshot shows.
    return { kind: 'flow', result, page: port.page() }
  }
  const engineFor = (guard?: StepGuard) =>
    createEngine({
      ...opts.engine,
      registry: target.registry,
      port: pageBrowserPort(page, { guard }),
      env: actionEnv(target.registry),
    })
  // Through the guard: the action's own questions before its first step (core/gate/guard.ts).
  if (opts.guard)
    return {
      kind: 'action',
      result: await guardedRun(
        { registry: target.registry, guard: opts.guard, url: page.url() },
        target.name,
        opts.params,
        engineFor,
        opts.run,
      ),
    }
  return { kind: 'action', result: await engineFor().run(target.name, opts.params, opts.run) }
}

/** The engine options the global config (docs/action-packs.md, "The global config file") sets for every action run from the CLI. */
export function configEngineOptions(config: GlobalConfig): Partial<EngineOptions> {
  return { stepTimeoutMs: config.actions.default_timeout, detectVersion: config.actions.detect_version }
}

export async function runCli(parsed: Parsed, io: Io): Promise<number> {
  // Rows in a shape: Ava's agent with the model from the environment, not a flow or a pack (run-extract.ts).
  if (parsed.values.schema !== undefined) return (await import('./run-extract')).runExtractCli(parsed, io)
  const a = runArgs(parsed)
  if (typeof a === 'string') {
    io.err(`ava run: ${a}\nRun \`ava run --help\` for its options.`)
    return kExit.usage
  }
  if (!a.target) {
    io.err(`ava run: give a flow file, a pack file or an action name.\n\n${formatCommandHelp(kRunSpec)}`)
    return kExit.usage
  }
  let target: Target | string
  try {
    target = loadTarget({ ...a, target: a.target })
  } catch (e) {
    io.err(`ava run: ${plainMessage(e)}`)
    return kExit.failed
  }
  if (typeof target === 'string') {
    io.err(`ava run: ${target}`)
    return kExit.failed
  }
  const startUrl = a.url ?? (target.kind === 'flow' ? target.flow.metadata.start_url : undefined)
  if (!startUrl) {
    io.err('ava run: give the page to start on with --url')
    return kExit.usage
  }

  // Only the built CLI has the page script (from source, `ava action` works and `ava run` does not).
  if (kPageScript === undefined) {
    io.err('ava run: the page script is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js run …`')
    return kExit.failed
  }
  const executable = chromiumPath(a)
  if (typeof executable === 'string') {
    io.err(`ava run: ${executable}`)
    return kExit.failed
  }
  // With --json, stdout holds the one JSON document; progress lines go nowhere.
  const say = a.json ? () => undefined : io.out
  const script = kPageScript
  const { chromium } = await import('playwright-core')
  let browser: import('playwright-core').Browser
  try {
    browser = await chromium.launch({ executablePath: executable.path, headless: !a.headed, args: kBrowserArgs })
  } catch (e) {
    io.err(`ava run: Chromium at ${executable.path} did not start: ${oneLine(e)}`)
    return kExit.failed
  }
  let page: PwPage | undefined
  let failed: boolean
  // The exit status class of the code the run ended on (src/core/failure.ts; kExit).
  let exit: number = kExit.failed
  try {
    const context = await browser.newContext({ viewport: kViewport })
    const traffic = trackTraffic(context)
    // Every document the run opens gets the page code, as the extension's content script does.
    await context.addInitScript({ content: script })
    page = await context.newPage()
    const notOpen = await openStart(page, startUrl, io)
    if (notOpen) {
      io.err(`ava run: ${notOpen}`)
      return kExit.failed
    }
    say(
      target.kind === 'flow'
        ? `ava run: ${target.label} (${stepCount(target.flow.steps.length)}) on ${startUrl}`
        : `ava run: ${target.label} on ${startUrl}`,
    )
    const { config } = readGlobalConfig()
    const runPage = page
    const guard = unattendedGuard(a.allowed, () => runPage.url())
    const startedAt = Date.now()
    const run = await runOnPage(page, target, {
      guard,
      params: a.params,
      positional: a.positional,
      timeoutMs: a.timeoutMs,
      onStep: a.json ? undefined : (r) => io.out(formatStepReport(r)),
      // The global config holds for actions run here as for `ava action run`.
      engine: { ...configEngineOptions(config), logger: config.actions.debug && !a.json ? io.out : undefined },
      run: { debug: config.actions.debug },
    })
    // What the last step sent reaches the site before the browser closes.
    await traffic.settled()
    failed = !run.result.success
    if (failed) exit = kExit[failureOf(run.result.error?.code ?? 'STEP_FAILED').exit]
    if (run.kind === 'flow' && run.page) page = run.page
    if (a.json) io.out(JSON.stringify(run.result, null, 2))
    else if (run.kind === 'flow') for (const line of formatReport(run.result, { steps: false })) io.out(line)
    else io.out(formatActionTrace(run.result).join('\n'))
    if (guard.refused.length) io.err(refusedLine(guard.refused[0]))
    if (failed) {
      await failureScreenshot(page, a.screenshot, io)
    }
    if (a.report) {
      const shot = failed
        ? await page
            .screenshot({ type: 'png' })
            .then((b) => ({ data: b.toString('base64'), mediaType: 'image/png' }))
            .catch(() => undefined)
        : undefined
      const record = runRecord({
        run,
        label: target.label,
        startUrl,
        endUrl: page.url(),
        startedAt,
        endedAt: Date.now(),
        params: a.params,
        refused: guard.refused,
        ...(shot ? { screenshot: shot } : {}),
      })
      io.err(`report: ${displayPath(writeRunReport(a.report, record))}`)
    }
  } catch (e) {
    failUnexpected('ava run', e, io)
    failed = true
  } finally {
    await browser.close().catch(() => undefined)
  }
  return failed ? exit : kExit.ok
}

/**
 * Opens the page a run starts on; on failure, why in one line (the raw Playwright text, call log
 * and all, only with AVA_DEBUG set).
 */
export async function openStart(page: PwPage, url: string, io: Io): Promise<string | undefined> {
  try {
    await page.goto(url, { timeout: kNavigationTimeoutMs })
    return undefined
  } catch (e) {
    const detail = debugDetail(e)
    if (detail) io.err(detail)
    return openFailure(url, e)
  }
}

/** Something the run did not expect (the browser went away, a bug): one line, the rest with AVA_DEBUG. */
export function failUnexpected(command: string, e: unknown, io: Io): void {
  io.err(`${command}: ${oneLine(e)}`)
  const detail = debugDetail(e)
  if (detail) io.err(detail)
}

/** After a failed run: a full-page screenshot, at `path` or under .ava-out/, named on stderr. */
export async function failureScreenshot(
  page: PwPage,
  path: string | undefined,
  io: { err(line: string): void },
): Promise<void> {
  const file = resolve(path ?? `.ava-out/run-failure-${new Date().toISOString().replace(/[:.]/g, '-')}.png`)
  mkdirSync(dirname(file), { recursive: true })
  await page.screenshot({ path: file, fullPage: true }).then(
    () => io.err(`screenshot: ${displayPath(file)}`),
    (e: Error) => io.err(`no screenshot: ${plainMessage(e)}`),
  )
}
