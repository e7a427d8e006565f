// `ava action run <action>` and `ava action debug <action>` (the action API's
// run and debug): one registry action in Chromium, as `ava run` runs it, with the step
// engine's run options (stopOnError, stepDelay). `debug` prints every step's resolved arguments and result as
// it happens and, only when a person is at a terminal, pauses before each step.
import { createInterface } from 'node:readline/promises'
import type { RunOptions, StepStart } from '../core/registry'
import { kActionDebugSpec, kActionRunSpec } from './action-run-spec'
import { kExit, oneLine, type Io, type Parsed } from './args'
import {
  configEngineOptions,
  failUnexpected,
  failureScreenshot,
  formatActionTrace,
  loadTarget,
  openStart,
  runArgs,
  runOnPage,
} from './run'
import { refusedLine, unattendedGuard } from './unattended'
import { chromiumPath, kBrowserArgs, kViewport, kPageScript, trackTraffic } from './playwright-page'
import { readGlobalConfig } from './sources'
import { failureOf } from '../core/failure'

/** The pause between steps from the command line, or a usage message. */
function stepDelay(values: Parsed['values']): number | string {
  const raw = values['step-delay'] as string | undefined
  if (raw === undefined) return 0
  const ms = Number(raw)
  return Number.isInteger(ms) && ms >= 0 && ms <= 60_000
    ? ms
    : '--step-delay needs a whole number of ms from 0 to 60000'
}

/** A pause needs someone to answer it: never in CI or a pipe, never when stdout is the JSON document. */
export function shouldPause(o: {
  mode: 'run' | 'debug'
  noPause: boolean
  json: boolean
  stdinTTY: boolean
  stdoutTTY: boolean
}): boolean {
  return o.mode === 'debug' && !o.noPause && !o.json && o.stdinTTY && o.stdoutTTY
}

/** Waits for the person before each step; `s` stops pausing, `q` stops the run. */
export function pauser(
  io: Io,
  stop: AbortController,
  streams: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = {
    input: process.stdin,
    output: process.stdout,
  },
): { before: (s: StepStart) => Promise<void>; close: () => void } {
  const rl = createInterface(streams)
  let paused = true
  return {
    async before(step) {
      if (!paused || stop.signal.aborted) return
      const answer = (
        await rl.question(
          `[DEBUG] next: step ${step.id} ${step.action} ${JSON.stringify(step.input)} — Enter runs it, s runs the rest, q stops: `,
        )
      )
        .trim()
        .toLowerCase()
      if (answer === 's') paused = false
      if (answer === 'q') {
        io.err('ava action debug: stopped before this step')
        stop.abort()
      }
    },
    close: () => rl.close(),
  }
}

export async function actionRunCli(parsed: Parsed, io: Io, mode: 'run' | 'debug'): Promise<number> {
  const spec = mode === 'run' ? kActionRunSpec : kActionDebugSpec
  const usage = (message: string): number => {
    io.err(`ava ${spec.name}: ${message}\nRun \`ava ${spec.name} --help\` for its options.`)
    return kExit.usage
  }
  const a = runArgs(parsed)
  if (typeof a === 'string') return usage(a)
  if (!a.target) return usage('give an action name, e.g. common:auth:login (see `ava action list`)')
  const delay = stepDelay(parsed.values)
  if (typeof delay === 'string') return usage(delay)
  if (!/^[a-z][a-z0-9_-]*:[a-z][a-zA-Z0-9_-]*:[a-z][a-zA-Z0-9_-]*$/.test(a.target)) {
    io.err(
      `ava ${spec.name}: "${a.target}" is not an action name (namespace:component:action); to run a pack or flow file, use \`ava run <file>\``,
    )
    return kExit.failed
  }
  const target = loadTarget({ target: a.target, params: a.params })
  if (typeof target === 'string') {
    io.err(`ava ${spec.name}: ${target}`)
    return kExit.failed
  }
  if (!a.url) return usage('give the page to start on with --url')
  if (kPageScript === undefined) {
    io.err(
      `ava ${spec.name}: the page script is built into bin/ava.js: run \`npm run build:cli\`, then \`node bin/ava.js ${spec.name} …\``,
    )
    return kExit.failed
  }
  const executable = chromiumPath(a)
  if (typeof executable === 'string') {
    io.err(`ava ${spec.name}: ${executable}`)
    return kExit.failed
  }

  const { config } = readGlobalConfig()
  const debug = mode === 'debug' || config.actions.debug
  const stop = new AbortController()
  const interactive = shouldPause({
    mode,
    noPause: !!parsed.values['no-pause'],
    json: a.json,
    stdinTTY: !!process.stdin.isTTY,
    stdoutTTY: !!process.stdout.isTTY,
  })
  const pause = interactive ? pauser(io, stop) : undefined
  const runOptions: RunOptions = {
    debug,
    stopOnError: !parsed.values['continue-on-error'],
    stepDelay: delay,
    signal: stop.signal,
    beforeStep: pause?.before,
  }

  const { chromium } = await import('playwright-core')
  let browser: import('playwright-core').Browser
  try {
    browser = await chromium.launch({ executablePath: executable.path, headless: !a.headed, args: kBrowserArgs })
  } catch (e) {
    pause?.close()
    io.err(`ava ${spec.name}: Chromium at ${executable.path} did not start: ${oneLine(e)}`)
    return kExit.failed
  }
  let failed: boolean
  // The exit status class of the code the run ended on (src/core/failure.ts; kExit).
  let exit: number = kExit.failed
  try {
    const context = await browser.newContext({ viewport: kViewport })
    const traffic = trackTraffic(context)
    await context.addInitScript({ content: kPageScript })
    const page = await context.newPage()
    const notOpen = await openStart(page, a.url, io)
    if (notOpen) {
      io.err(`ava ${spec.name}: ${notOpen}`)
      return kExit.failed
    }
    if (!a.json) io.out(`ava ${spec.name}: ${target.label} on ${a.url}`)
    // Debug lines go out as each step happens, so a hang shows where it hangs.
    // Nobody is there to ask, as in `ava run`: the same guard, the same answer (UNATTENDED, naming --allow).
    const guard = unattendedGuard(
      a.allowed,
      () => page.url(),
      (c) => `running ava ${spec.name} again with --allow ${c ?? 'all'} (or --yes)`,
    )
    const run = await runOnPage(page, target, {
      guard,
      params: a.params,
      engine: { ...configEngineOptions(config), logger: debug && !a.json ? io.out : undefined },
      run: runOptions,
    })
    // What the last step sent reaches the site before the browser closes.
    await traffic.settled()
    failed = !run.result.success
    if (failed) exit = kExit[failureOf(run.result.error?.code ?? 'STEP_FAILED').exit]
    if (a.json) io.out(JSON.stringify(run.result, null, 2))
    else if (run.kind === 'action') io.out(formatActionTrace(run.result).join('\n'))
    if (guard.refused.length) io.err(refusedLine(guard.refused[0], `ava ${spec.name}`))
    if (failed) {
      await failureScreenshot(page, a.screenshot, io)
    }
  } catch (e) {
    failUnexpected(`ava ${spec.name}`, e, io)
    failed = true
  } finally {
    pause?.close()
    await browser.close().catch(() => undefined)
  }
  return failed ? exit : kExit.ok
}
