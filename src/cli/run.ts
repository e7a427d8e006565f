// `ava run <action-or-flow-file> [--param k=v ...] --url <start> [--browser path] [--headed]`:
// the headless runner of issue 8 (seed 000 §4.1.2 "回归测试"). Runs a recorded flow (JSON) or a
// registry action (a name, or a pack file) in Chromium through playwright-core, with the same
// page-side code the extension injects (src/dom/recorder/page-api.ts, built into bin/ava.js),
// prints one trace line per step, writes a screenshot on failure and exits 1 on failure.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { readFile as readFileAsync } from 'node:fs/promises'
import { basename, dirname, extname, resolve } from 'node:path'
import { formatReport, formatStepReport, parseFlow, replayFlow, type Flow, type FlowPort, type FlowRunResult, type StepReport } from '../core/flows'
import { createChannelFlowPort, createChannelPort } from '../core/page/channel'
import { navigatedOutcome, type PageCommand, type PageCommandKind, type PageOutcome, type SendCommand } from '../core/page/command'
import { createEngine, createRegistry, validateParams, type ActionRegistry, type ActionResult, type BrowserPort, type EngineOptions, type GlobalConfig, type PackSource, type RunOptions } from '../core/registry'
import { formatCommandHelp, kExit, parseParams, plainMessage, type Io, type Parsed } from './args'
import { kRunSpec } from './run-spec'
import { actionEnv, cliSources, displayPath, readGlobalConfig, readPack } from './sources'

/** Chromium flags for CI machines (no sandbox as root, no GPU, no background traffic). */
export const kBrowserArgs = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
export const kViewport = { width: 1280, height: 800 }
/** The page global the page script defines (kPageGlobal in scripts/page-script.mjs). */
const kGlobal = '__avaRun'
/** A page slower than this to load fails the run instead of hanging CI. */
export const kNavigationTimeoutMs = 30_000

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
  const [target, ...rest] = positionals
  return { target, positional: rest, params, url: str('url'), action: str('action'), browser: str('browser'), screenshot: str('screenshot'), timeoutMs, headed: !!values.headed, json: !!values.json }
}

// ---------------------------------------------------------------------------------------------
// The page script

/** src/dom/recorder/page-api.ts as one IIFE publishing kGlobal, inlined by scripts/build-cli.mjs. */
declare const __AVA_PAGE_SCRIPT__: string | undefined

// ---------------------------------------------------------------------------------------------
// Ports onto a Playwright page

type PwPage = import('playwright-core').Page

function isContextLoss(e: unknown): boolean {
  return /Execution context was destroyed|navigat|Target closed|frame was detached/i.test(String((e as Error)?.message ?? e))
}

/** A command that lost its document is sent to the next one this many more times. */
const kContextRetries = 2

/**
 * The page channel on a Playwright page (src/core/page/command.ts): each command is answered by
 * the same receiver the extension's content script runs, injected as the page global.
 */
export function pageSender(page: PwPage): SendCommand {
  return async <K extends PageCommandKind>(command: PageCommand<K>): Promise<PageOutcome<K>> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await page.evaluate(([c, g]) => (window as unknown as Record<string, { receive: (c: unknown) => Promise<unknown> }>)[g].receive(c), [command, kGlobal] as const)) as PageOutcome<K>
      } catch (e) {
        const message = String((e as Error)?.message ?? e).replace(/^page\.evaluate: (?:[A-Z]\w*Error: )*/, '').split('\n')[0]
        if (!isContextLoss(e)) return { ok: false, code: 'NOT_ACTIONABLE', message }
        // The document went away under the command: a click that navigates did its job; any other
        // command goes to the next document once it has loaded, as the extension's sender does.
        await page.waitForLoadState('load', { timeout: kNavigationTimeoutMs }).catch(() => undefined)
        const navigated = navigatedOutcome(command)
        if (navigated) return navigated
        if (attempt >= kContextRetries) return { ok: false, code: 'ELEMENT_STALE', message: `The page navigated ${attempt + 1} times while this step ran; it did not settle long enough to finish.` }
      }
    }
  }
}

async function goto(page: PwPage, url: string): Promise<void> {
  await page.goto(new URL(url, page.url()).href, { timeout: kNavigationTimeoutMs })
}

export function pageFlowPort(page: PwPage): FlowPort {
  return createChannelFlowPort(pageSender(page), { navigate: (url) => goto(page, url) })
}

/** Types of the files people upload most; others go without one, as a file chooser may send them. */
const kMimeTypes: Record<string, string> = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', txt: 'text/plain', csv: 'text/csv', json: 'application/json', zip: 'application/zip' }

/** The registry's BrowserPort on a Playwright page. */
export function pageBrowserPort(page: PwPage): BrowserPort {
  const port = createChannelPort(pageSender(page), {
    navigate: (url) => goto(page, url),
    // An upload step's `path` is read here, relative to where `ava run` was started.
    async readFile(path) {
      const full = resolve(path)
      const ext = extname(full).slice(1).toLowerCase()
      return { name: basename(full), mimeType: kMimeTypes[ext], base64: (await readFileAsync(full)).toString('base64') }
    },
    // §6.5.2 version_global: a fixed function reads a property path in the page's main world.
    async readGlobal(path) {
      return page.evaluate((keys) => {
        let o: unknown = globalThis
        for (const k of keys) o = o == null ? undefined : (o as Record<string, unknown>)[k]
        return typeof o === 'string' || typeof o === 'number' ? o : undefined
      }, path)
    },
  })
  // Seed 001 wait fallback: Playwright knows the document's load state.
  port.waitForLoad = async (state, timeoutMs) => {
    await page.waitForLoadState(state, { timeout: timeoutMs })
  }
  return port
}

// ---------------------------------------------------------------------------------------------
// The command

export type Target = { kind: 'flow'; flow: Flow; label: string } | { kind: 'action'; name: string; registry: ActionRegistry; label: string }

function actionTarget(name: string, sources: PackSource[], params: Record<string, string>): Target | string {
  const registry = createRegistry(() => sources)
  registry.load(sources)
  // Checked here, before Chromium starts: a typo in the name or a missing parameter costs nothing.
  const found = registry.lookup(name)
  if (!found.ok) return `${found.message}${found.suggestion && !found.message.includes(found.suggestion) ? ` ${found.suggestion}` : ''}`
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
      if (Array.isArray(data.steps) && typeof data.title === 'string' && !('version' in data)) return `${displayPath(path)} is a Chrome DevTools recording; run flows saved by Ava (the .flow.json export).`
      return { kind: 'flow', flow: parseFlow(data), label: displayPath(path) }
    }
    if (/\.ya?ml$/i.test(path)) {
      const file = readPack(path)
      const { sources } = cliSources()
      const others = sources.map((s) => ({ ...s, files: s.files.filter((f) => f.path !== file.path) }))
      const all: PackSource[] = [...others, { source: 'env-path', files: [file] }]
      const registry = createRegistry(() => all)
      registry.load(all)
      const mine = registry.list().flatMap((n) => n.actions.filter((x) => x.source.file === file.path).map((x) => x.name))
      const names = [...new Set(mine)]
      const name = a.action ? (a.action.split(':').length === 3 ? a.action : names.find((n) => n.endsWith(`:${a.action}`))) : names.length === 1 ? names[0] : undefined
      if (!name) return names.length ? `${displayPath(path)} has ${names.length} actions; pick one with --action: ${names.join(', ')}` : `${displayPath(path)} has no valid action; run \`ava action validate ${displayPath(path)}\``
      return actionTarget(name, all, a.params)
    }
    return `${displayPath(path)}: expected a .json flow or a .yaml pack`
  }
  if (/^[a-z][a-z0-9_-]*:[a-z][a-zA-Z0-9_-]*:[a-z][a-zA-Z0-9_-]*$/.test(target)) return actionTarget(target, cliSources().sources, a.params)
  return `no file "${target}", and it is not an action name (namespace:component:action)`
}

/** One line per step; a step the pack lets fail (onError: continue) is not a failure of the run. */
export function formatActionTrace(r: ActionResult): string[] {
  const lines = r.trace.map((t) => {
    const mark = t.status === 'ok' || t.status === 'recovered' ? '✓' : t.status === 'skipped' ? '-' : t.status === 'continued' ? '~' : '✗'
    const sel = t.selectors ? ` [${Object.values(t.selectors).join(', ')}]` : ''
    // A tolerated failure is part of the plan (a check that nothing is left): its code is enough
    // here; --json has the whole message.
    // A wait that fell back (seed 001) passed without seeing its condition: say so on its line.
    const fell = t.fellBack ? ` (did not hold: ${t.fellBack.code}; went on once the page had loaded + 500 ms)` : ''
    const why = !t.error ? fell : t.status === 'continued' ? ` (${t.error.code}; the pack allows it: onError: continue)` : `: ${t.error.code} ${t.error.message}`
    return `${mark} ${t.id.padStart(2)} ${t.action.padEnd(12)}${sel} ${t.status}${why} — ${Math.round(t.durationMs)} ms`
  })
  lines.push(r.success ? `passed: ${r.action} in ${Math.round(r.durationMs)} ms` : `FAILED: ${r.action}: ${r.error?.code} ${r.error?.message}`)
  return lines
}

export type RunOutcome = { kind: 'flow'; result: FlowRunResult } | { kind: 'action'; result: ActionResult }

/**
 * Runs a loaded target on a page whose context already injects the page script (kGlobal) into
 * every document; `ava run` and the Playwright Test fixture (e2e/playwright-test/fixture.ts) both
 * go through here, so a flow passes or fails the same way in either.
 */
export async function runOnPage(
  page: PwPage,
  target: Target,
  opts: { params: Record<string, string>; positional?: string[]; timeoutMs?: number; onStep?: (r: StepReport) => void; engine?: Partial<EngineOptions>; run?: RunOptions },
): Promise<RunOutcome> {
  if (target.kind === 'flow') {
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
    const result = await replayFlow(target.flow, {
      port: pageFlowPort(page),
      // In CI the vault is the environment: ${secret:KEY} reads $KEY.
      variables: { params: opts.params, env, secrets: env, args: opts.positional ?? [] },
      navigateToStart: false,
      stepTimeoutMs: opts.timeoutMs,
      onStep: opts.onStep,
    })
    return { kind: 'flow', result }
  }
  const engine = createEngine({ ...opts.engine, registry: target.registry, port: pageBrowserPort(page), env: actionEnv(target.registry) })
  return { kind: 'action', result: await engine.run(target.name, opts.params, opts.run) }
}

/** The engine options the global config (§5.1.1) sets for every action run from the CLI. */
export function configEngineOptions(config: GlobalConfig): Partial<EngineOptions> {
  return { stepTimeoutMs: config.actions.default_timeout, detectVersion: config.actions.detect_version }
}

/** The browser to start, or why there is none (before playwright's own, longer message). */
export function chromiumPath(a: Pick<RunArgs, 'browser'>): { path: string } | string {
  const path = a.browser ?? process.env.AVA_CHROMIUM ?? '/usr/bin/chromium'
  if (existsSync(path)) return { path }
  const from = a.browser ? '--browser' : process.env.AVA_CHROMIUM ? 'AVA_CHROMIUM' : 'the default path'
  return `no Chromium at ${path} (from ${from}). Install it (Debian/Ubuntu: sudo apt-get install chromium) or point at one with --browser <path> or AVA_CHROMIUM.`
}

export async function runCli(parsed: Parsed, io: Io): Promise<number> {
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
  if (typeof __AVA_PAGE_SCRIPT__ !== 'string') {
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
  const script = __AVA_PAGE_SCRIPT__
  const { chromium } = await import('playwright-core')
  let browser: import('playwright-core').Browser
  try {
    browser = await chromium.launch({ executablePath: executable.path, headless: !a.headed, args: kBrowserArgs })
  } catch (e) {
    io.err(`ava run: Chromium at ${executable.path} did not start: ${plainMessage(e).split('\n')[0]}`)
    return kExit.failed
  }
  let page: PwPage | undefined
  let failed: boolean
  try {
    const context = await browser.newContext({ viewport: kViewport })
    // Every document the run opens gets the page code, as the extension's content script does.
    await context.addInitScript({ content: script })
    page = await context.newPage()
    await page.goto(startUrl, { timeout: kNavigationTimeoutMs })
    const t0 = performance.now()
    say(target.kind === 'flow' ? `ava run: ${target.label} (${target.flow.steps.length} steps) on ${startUrl}` : `ava run: ${target.label} on ${startUrl}`)
    const { config } = readGlobalConfig()
    const run = await runOnPage(page, target, {
      params: a.params,
      positional: a.positional,
      timeoutMs: a.timeoutMs,
      onStep: a.json ? undefined : (r) => io.out(formatStepReport(r)),
      // The global config (§5.1.1) holds for actions run here as for `ava action run`.
      engine: { ...configEngineOptions(config), logger: config.actions.debug && !a.json ? io.out : undefined },
      run: { debug: config.actions.debug },
    })
    failed = !run.result.success
    if (a.json) io.out(JSON.stringify(run.result, null, 2))
    else if (run.kind === 'flow') for (const line of formatReport(run.result, { steps: false })) io.out(line)
    else io.out(formatActionTrace(run.result).join('\n'))
    say(`${failed ? 'FAILED' : 'passed'} in ${Math.round(performance.now() - t0)} ms (browser start excluded)`)
    if (failed) {
      const file = resolve(a.screenshot ?? `.ava-out/run-failure-${new Date().toISOString().replace(/[:.]/g, '-')}.png`)
      mkdirSync(dirname(file), { recursive: true })
      await page.screenshot({ path: file, fullPage: true }).then(
        () => io.err(`screenshot: ${displayPath(file)}`),
        (e: Error) => io.err(`no screenshot: ${plainMessage(e)}`),
      )
    }
  } catch (e) {
    io.err(`ava run: ${plainMessage(e).replace(/^page\.\w+: /, '')}`)
    failed = true
  } finally {
    await browser.close().catch(() => undefined)
  }
  return failed ? kExit.failed : kExit.ok
}
