/**
 * Ava on Playwright Test: a fixture that starts Chromium with Ava's built extension and gives each
 * test `ava.run(flow or action, params)` and `ava.ask(request)` (docs/flows.md, "Playwright Test").
 *
 *   import { test, expect } from 'ava-assistant/playwright'   // or 'src/playwright/fixture' in this repo
 *   test('sign in', async ({ ava }) => {
 *     const { returns } = await ava.run('common:auth:login', { username: 'alice' }, { url: '/login' })
 *   })
 *
 * `ava.run` is `ava run` (src/cli/run.ts: loadTarget + runOnPage) on the test's page, so a flow
 * passes or fails here exactly as it does on the command line.
 *
 * This file is the package entry `ava-assistant/playwright`: its declarations are shipped as they
 * are emitted (scripts/build-lib.mjs), so every type an export mentions is declared here or comes
 * from @playwright/test. The public types below restate the parts of core's types a test reads;
 * the code that fills them from core's types is what keeps them true (it stops compiling when they
 * drift), and the build refuses a declaration that reaches into a file or package the package does
 * not ship.
 */
import {
  test as base,
  chromium,
  expect,
  type BrowserContext,
  type Frame,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestInfo,
  type TestType,
  type Worker,
} from '@playwright/test'
import { existsSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { configEngineOptions, formatActionTrace, loadTarget, runOnPage, type RunOutcome, type Target } from '../cli/run'
import { unattendedGuard } from '../cli/unattended'
import { kBrowserArgs } from '../cli/playwright-page'
import { packageRoot, readGlobalConfig } from '../cli/sources'
import { formatReport, parseFlow, type StepReport } from '../core/flows'
import { describeStep } from '../core/flows/playwright'
import { flowStepReturns } from '../core/vocabulary'
import { DEFAULT_SETTINGS, type Settings } from '../core/settings'
import { RISK_CATEGORIES } from '../core/exec'
import { modelFromEnvironment, readEnvironment } from '../core/environment'
import { buildPageScript } from '../../scripts/page-script.mjs'
import { closeWelcomePage } from './welcome'
import type { RunRecord } from '../core/agent/record'
import { recordHtml, recordJson } from '../core/agent/record-html'
import { parseShape, shapeFromZod } from '../core/extract/shape'

export { expect }

/** Parameters by name; an undefined value counts as not given (a spec's `process.env.X`). */
export type AvaParams = Record<string, string | undefined>

/** One step of a flow as a flow file writes it (docs/flows.md, "The flow file"); checked when it runs. */
export interface FlowStep {
  step_id: number
  /** navigate, click, fill, select, press, scroll, wait, verify, expect, extract, tab, upload, run, done… */
  action: string
  params?: Record<string, string | number | boolean>
  selectors?: object
  element_snapshot?: object
  wait_after?: number
  retry?: number
  timeout?: number
  description?: string
}

/** A flow document (`*.flow.json`, docs/flows.md): what `ava.run` and `ava.step` take as an object. */
export interface Flow {
  $schema?: string
  version: '1.0'
  metadata: {
    name: string
    description?: string
    created_at: string
    source?: 'recording' | 'agent' | 'manual'
    source_task?: string
    start_url?: string
    total_steps?: number
  }
  variables?: Record<string, object>
  steps: FlowStep[]
  stats?: object
}

/** The model `ava.ask` talks to, as a settings profile in Ava's options names it (docs/providers.md). */
export interface AvaProvider {
  provider: 'anthropic' | 'openai' | 'local'
  baseUrl: string
  authStyle: 'x-api-key' | 'bearer'
  apiKey: string
  model: string
  requestTimeoutMs: number
  structuredOutput?: 'auto' | 'on' | 'off'
  vision?: 'auto' | 'on' | 'off'
}

export interface AvaOptions {
  /** The built extension: `AVA_DIST`, else the dist/ the package ships (in Ava's repository, `npm run build`'s). */
  avaDist: string
  /** Chromium to start: `AVA_CHROMIUM`, else Debian's /usr/bin/chromium. */
  avaChromium: string
  /** The model `ava.ask` talks to: AVA_PROVIDER, AVA_BASE_URL, AVA_API_KEY, AVA_MODEL; without one, `ava.ask` fails and says so. */
  avaProvider: Partial<AvaProvider> | undefined
  /** Per-step timeout for flows (ms), as `ava run --timeout`. */
  avaStepTimeout: number | undefined
  /**
   * The risk categories every `ava.run`/`ava.step` of the test takes without stopping, as `ava run
   * --allow` (e.g. `['credentials']` for a flow that signs in); default none.
   */
  avaAllow: Array<
    'credentials' | 'payment' | 'destructive' | 'cross_site' | 'high_risk_action' | 'permission' | 'data_send'
  >
  /** Record a trace of each test and attach it when the test fails. */
  avaTrace: 'retain-on-failure' | 'off'
}

/** An element a failed flow step considered (`ava run`'s "candidates"). */
export interface AvaStepCandidate {
  selector: string
  level?: string
  count: number
  label?: string
  similarity?: number
}

/** What one step of a flow did (docs/flows.md, "Replay"). */
export interface AvaFlowStepReport {
  step_id: number
  action: string
  status: 'ok' | 'failed'
  /** Which selector level found the element (null: the step needs none). */
  level: string | null
  alternative: number
  selector?: string
  healed: 'fallback' | 'repair' | null
  attempts: number
  resolveMs: number
  durationMs: number
  detail?: string
  /** A failure's code (docs/troubleshooting.md lists them). */
  code?: string
  message?: string
  candidates?: AvaStepCandidate[]
}

/** What one step of a pack action did (docs/action-packs.md, "Running"). */
export interface AvaActionStepTrace {
  /** "2" for the second step, "2.fallback.1" for the first step of its fallback. */
  id: string
  owner: string
  depth: number
  action: string
  status: 'ok' | 'skipped' | 'failed' | 'recovered' | 'continued'
  input: Record<string, unknown>
  selectors?: Record<string, string>
  output?: unknown
  attempts: number
  durationMs: number
  error?: { code: string; message: string }
  fellBack?: { code: string; message: string }
}

/** A flow's whole result, as `ava run --json` prints it. */
export interface AvaFlowResult {
  success: boolean
  flow: string
  steps: AvaFlowStepReport[]
  heals: object[]
  durationMs: number
  error?: { step_id: number; code: string; message: string; candidates: AvaStepCandidate[] }
  returns: Record<string, string>
  done?: string
  stats: object
}

/** A pack action's whole result, as `ava run --json` prints it. */
export interface AvaActionResult {
  success: boolean
  action: string
  data?: Record<string, unknown>
  error?: {
    code: string
    message: string
    action: string
    step?: number
    stepAction?: string
    details?: Record<string, unknown>
  }
  warnings: string[]
  fallbacksUsed: string[]
  version?: string | null
  durationMs: number
  trace: AvaActionStepTrace[]
}

export interface AvaRunReport {
  success: boolean
  kind: 'flow' | 'action'
  /** One entry per step: a flow's step reports, or an action's trace. */
  steps: (AvaFlowStepReport | AvaActionStepTrace)[]
  /** What the flow or action returned (`returns` / the action's data). */
  returns: Record<string, unknown>
  /** The trace lines `ava run` prints. */
  lines: string[]
  /** The whole result, as `ava run --json` prints it. */
  result: AvaFlowResult | AvaActionResult
}

export interface AvaAskReport {
  /** The steps of the run as the panel shows them: `detail` is behind a step's Details, else the line under it (a success's result). */
  steps: { status: string; detail: string }[]
  /** The assistant's answer text. */
  text: string
  /**
   * Whether what was asked is done, and what on the page shows it (docs/run-record.md, "The
   * verdict"). `ava.ask` fails the test when `done` is false, unless `allowNotDone` is given.
   */
  verdict?: {
    done: boolean
    kind: 'verified' | 'answered' | 'judged' | 'unverified' | 'completed' | 'not-done'
    evidence?: { text?: string[]; url?: string; element?: string }
    missing?: string[]
  }
}

/** A zod 4 schema, structurally: its output type is what a row is typed as. */
export interface AvaZodLike {
  _zod: { output: unknown }
}
/** A row of the schema: an array schema's element, else the schema itself; a JSON Schema gives plain records. */
export type AvaRowOf<S> = S extends { _zod: { output: (infer R)[] } }
  ? R
  : S extends { _zod: { output: infer R } }
    ? R
    : Record<string, unknown>

export interface AvaExtractReport<Row> {
  /** The rows that fit the schema, in page order (docs/extraction.md). */
  rows: Row[]
  /** Beside each row: for each field, the item (its key) and part it was read from. */
  sources: Record<string, { item: string; part: number; text: string }>[]
  /** What did not fit after the one re-ask: row index, field, why. */
  problems: { row: number; field: string; issue: 'missing' | 'type' | 'schema'; text?: string; message: string }[]
  /** Fields the page does not have: in no row. */
  absent: string[]
  /** The model's answer beside the rows. */
  text: string
}

export interface AvaRunOptions {
  /** Page to start on (relative to `baseURL`); default: the page as it is, else the flow's start_url. */
  url?: string
  /** Positional values for `${arg:N}`. */
  args?: string[]
  /** Return a failed run's report instead of failing the test. */
  allowFailure?: boolean
  /**
   * Take every risky step (sign in, delete, pay, another site, …) without stopping, as `ava run
   * --yes`. Without it (or `allow`) such a step fails the run with UNATTENDED, nothing done: nobody
   * is there to say yes.
   */
  yes?: boolean
  /** The risk categories taken without stopping, as `ava run --allow` (e.g. `['credentials']` for a login). */
  allow?: Array<
    'credentials' | 'payment' | 'destructive' | 'cross_site' | 'high_risk_action' | 'permission' | 'data_send'
  >
}

export interface AvaFixture {
  /** A flow file, a pack file or an action name (`namespace:component:action`), or a flow object. */
  run(target: string | Flow | object, params?: AvaParams, opts?: AvaRunOptions): Promise<AvaRunReport>
  /** Runs one step of a flow (the exported specs' readable lines), as a Playwright test step. */
  step(flow: Flow | object, stepId: number, params?: AvaParams): Promise<AvaFlowStepReport & { value?: string }>
  /**
   * Asks Ava in the panel, as a person does; the run's record is attached to the test's report
   * (`ava-record.html`, `ava-record.json`). Fails the test when the run does not end done with
   * evidence, unless `allowNotDone`.
   */
  ask(request: string, opts?: { timeout?: number; allowNotDone?: boolean }): Promise<AvaAskReport>
  /**
   * Rows of a shape, read from the page by Ava's agent (docs/extraction.md): a zod schema (rows
   * typed from it) or a JSON Schema of one row or an array of rows.
   */
  extract<S extends AvaZodLike | Record<string, unknown>>(
    schema: S,
    instruction?: string,
    opts?: { timeout?: number },
  ): Promise<AvaExtractReport<AvaRowOf<S>>>
  extensionId: string
}

/** The Chromium one Playwright worker shares between its tests. */
export interface AvaWorker {
  context: BrowserContext
  extensionId: string
  worker(): Promise<Worker>
}

/** Thrown when a run fails: the message is `ava run`'s trace, so the report reads like the CLI. */
export class AvaRunError extends Error {
  constructor(
    readonly report: AvaRunReport,
    label: string,
  ) {
    super(`ava run ${label} failed:\n${report.lines.join('\n')}`)
    this.name = 'AvaRunError'
  }
}

/** The package's folder (node_modules/ava-assistant, or this repository from source): its dist/ is the extension. */
const root = packageRoot() ?? process.cwd()
const kViewport = { width: 1280, height: 800 }
/** Where the panel's launcher is drawn (src/content/launcher.ts): a person clicks it there. */
const kLauncher = { size: 52, margin: 20 }

function flowTarget(data: Flow | object): Extract<Target, { kind: 'flow' }> {
  const flow = parseFlow(data)
  return { kind: 'flow', flow, label: flow.metadata.name }
}

function reportOf(outcome: RunOutcome): AvaRunReport {
  const r = outcome.result as RunOutcome['result'] & { returns?: Record<string, unknown> }
  if (outcome.kind === 'flow')
    return {
      success: outcome.result.success,
      kind: 'flow',
      steps: outcome.result.steps,
      returns: r.returns ?? {},
      lines: formatReport(outcome.result),
      result: outcome.result,
    }
  return {
    success: outcome.result.success,
    kind: 'action',
    steps: outcome.result.trace,
    returns: r.returns ?? outcome.result.data ?? {},
    lines: formatActionTrace(outcome.result),
    result: outcome.result,
  }
}

async function attachScreenshot(page: Page, info: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ fullPage: true }).catch(() => null)
  if (body) await info.attach(name, { body, contentType: 'image/png' })
}

let pageScript: Promise<string> | undefined

/** What each test gets: `ava`, and the options a config or `test.use()` sets. */
export type AvaTestArgs = { ava: AvaFixture } & Pick<
  AvaOptions,
  'avaProvider' | 'avaStepTimeout' | 'avaTrace' | 'avaAllow'
>
/** What each worker shares: its Chromium with the extension, and the options that start it. */
export type AvaWorkerArgs = { avaWorker: AvaWorker } & Pick<AvaOptions, 'avaDist' | 'avaChromium'>

// Typed by name, so the declaration says `TestType` from @playwright/test rather than from the
// `playwright` package behind it, which a project need not have at its top level.
// The one table of environment variables (docs/environment.md), read as `ava` and the demo read it.
const kEnv = readEnvironment(process.env)
for (const warning of kEnv.warnings) console.warn(`ava fixture: warning: ${warning}`)
const kEnvModel = modelFromEnvironment(kEnv.values)

export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & AvaTestArgs,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & AvaWorkerArgs
> = base.extend<AvaTestArgs, AvaWorkerArgs>({
  avaDist: [kEnv.values.AVA_DIST ?? resolve(root, 'dist'), { option: true, scope: 'worker' }],
  avaChromium: [kEnv.values.AVA_CHROMIUM ?? '/usr/bin/chromium', { option: true, scope: 'worker' }],
  avaProvider: [typeof kEnvModel === 'object' ? kEnvModel : undefined, { option: true }],
  avaStepTimeout: [undefined, { option: true }],
  avaAllow: [[], { option: true }],
  avaTrace: ['retain-on-failure', { option: true }],

  // One Chromium per worker (starting it with the extension is the slow part); each test gets
  // fresh pages and no cookies, so tests do not see each other's sessions.
  avaWorker: [
    async ({ avaDist, avaChromium, headless }, use) => {
      const dist = isAbsolute(avaDist) ? avaDist : resolve(avaDist)
      if (!existsSync(resolve(dist, 'manifest.json')))
        throw new Error(
          `No built extension in ${dist}: run \`npm run build\` in Ava's repository, or point AVA_DIST at an unpacked Ava (the ava-assistant package ships one in its dist/).`,
        )
      if (!existsSync(avaChromium))
        throw new Error(
          `No Chromium at ${avaChromium}: install it (Debian/Ubuntu: apt-get install chromium) or set AVA_CHROMIUM. Troubleshooting: docs/troubleshooting.md#no-chromium; \`ava doctor\` checks each part of the set-up.`,
        )
      const context = await chromium.launchPersistentContext('', {
        executablePath: avaChromium,
        headless,
        args: [...kBrowserArgs, `--disable-extensions-except=${dist}`, `--load-extension=${dist}`],
        viewport: kViewport,
      })
      // The page code `ava run` injects into every document (the extension's own content script
      // lives in an isolated world the test cannot call).
      pageScript ??= buildPageScript()
      await context.addInitScript({ content: await pageScript })
      const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }))
      const extensionId = new URL(first.url()).host
      // Tests start past the first run: its welcome tab would sit in front of their pages.
      await closeWelcomePage(context, extensionId)
      const worker = async (): Promise<Worker> => {
        const live = context.serviceWorkers().filter((w) => w.url().startsWith(`chrome-extension://${extensionId}/`))
        if (live.length) return live.at(-1)!
        // A stopped worker wakes for an extension page.
        const woken = context.waitForEvent('serviceworker', { timeout: 10_000 })
        const p = await context.newPage()
        await p.goto(`chrome-extension://${extensionId}/src/popup/index.html`)
        const w = await woken
        await p.close()
        return w
      }
      await use({ context, extensionId, worker })
      await context.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  context: async ({ avaWorker }, use) => {
    await avaWorker.context.clearCookies()
    const before = new Set(avaWorker.context.pages())
    await use(avaWorker.context)
    await Promise.all(
      avaWorker.context
        .pages()
        .filter((p) => !before.has(p))
        .map((p) => p.close().catch(() => undefined)),
    )
  },

  ava: async ({ avaWorker, page, baseURL, avaProvider, avaStepTimeout, avaTrace, avaAllow }, use, info) => {
    const { context, extensionId, worker } = avaWorker
    let tracing = false
    if (avaTrace !== 'off') {
      // When the config's own `trace` option already records this context, that trace is the one.
      tracing = await context.tracing.start({ screenshots: true, snapshots: true, title: info.title }).then(
        () => true,
        () => false,
      )
    }
    let shot = false
    const url = (u: string) => (baseURL ? new URL(u, baseURL).href : u)

    const given = (params: AvaParams): Record<string, string> =>
      Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))

    // The page the flow is on: the test's, until a flow's `tab` step moves it (an exported spec's
    // ava.step lines run one step each, so the move must outlast the step).
    let current = page
    async function runLoaded(
      loaded: Target,
      params: AvaParams,
      opts: AvaRunOptions,
      title: string,
    ): Promise<AvaRunReport> {
      if (current.isClosed()) current = page
      const start =
        opts.url ??
        (current.url() === 'about:blank' && loaded.kind === 'flow' ? loaded.flow.metadata.start_url : undefined)
      if (start) await current.goto(url(start))
      else if (current.url() === 'about:blank')
        throw new Error(`ava run ${loaded.label}: give the page to start on ({ url }) or go there first`)
      const report = await base.step(title, async () => {
        // The same guard as `ava run`'s (src/cli/run.ts unattendedGuard): a test has nobody to ask.
        const onPage = current
        const allowed = opts.yes ? [...RISK_CATEGORIES] : [...avaAllow, ...(opts.allow ?? [])]
        const guard = unattendedGuard(
          allowed,
          () => onPage.url(),
          (c) => (c ? `ava.run(…, { allow: ['${c}'] }) (or { yes: true })` : 'ava.run(…, { yes: true })'),
        )
        const outcome = await runOnPage(current, loaded, {
          guard,
          params: given(params),
          positional: opts.args,
          timeoutMs: avaStepTimeout,
          engine: configEngineOptions(readGlobalConfig().config),
        })
        if (outcome.kind === 'flow' && outcome.page) current = outcome.page
        return reportOf(outcome)
      })
      if (!report.success && !opts.allowFailure) {
        await attachScreenshot(current, info, 'ava-failure.png')
        shot = true
        throw new AvaRunError(report, loaded.label)
      }
      return report
    }

    async function run(
      target: string | Flow | object,
      params: AvaParams = {},
      opts: AvaRunOptions = {},
    ): Promise<AvaRunReport> {
      const loaded = typeof target === 'string' ? loadTarget({ target, params: given(params) }) : flowTarget(target)
      if (typeof loaded === 'string') throw new Error(`ava run ${String(target)}: ${loaded}`)
      return runLoaded(loaded, params, opts, `ava.run ${loaded.label}`)
    }

    async function step(
      data: Flow | object,
      stepId: number,
      params: AvaParams = {},
    ): Promise<StepReport & { value?: string }> {
      const { flow } = flowTarget(data)
      const one = flow.steps.find((s) => s.step_id === stepId)
      if (!one) throw new Error(`"${flow.metadata.name}" has no step ${stepId}`)
      // The step alone, with the flow's variables: it acts on the page as the previous steps left it.
      const single: Target = {
        kind: 'flow',
        flow: { ...flow, steps: [one], metadata: { ...flow.metadata, start_url: undefined, total_steps: 1 } },
        label: `${flow.metadata.name}, step ${stepId}`,
      }
      const r = await runLoaded(single, params, {}, `${stepId} ${describeStep(flow, one)}`)
      // An extract step's value, for the spec's `returns[name] = (await ava.step(…)).value`.
      const value = flowStepReturns(one.action) ? r.returns[String(one.params.name)] : undefined
      return { ...(r.steps[0] as StepReport), ...(typeof value === 'string' ? { value } : {}) }
    }

    async function panel(timeout: number): Promise<Frame> {
      const prefix = `chrome-extension://${extensionId}/src/panel/`
      const deadline = Date.now() + timeout
      for (;;) {
        for (const f of page.frames()) {
          if (f.url().startsWith(prefix) && (await (await f.frameElement()).isVisible().catch(() => false))) return f
        }
        if (Date.now() > deadline) throw new Error('The Ava panel did not open')
        await page.waitForSelector('ava-root[data-ava-ready]', {
          state: 'attached',
          timeout: Math.max(1, deadline - Date.now()),
        })
        await page.mouse.click(
          kViewport.width - kLauncher.margin - kLauncher.size / 2,
          kViewport.height - kLauncher.margin - kLauncher.size / 2,
        )
        await page.waitForTimeout(150)
      }
    }

    async function ask(
      request: string,
      opts: { timeout?: number; allowNotDone?: boolean } = {},
    ): Promise<AvaAskReport> {
      if (!avaProvider)
        throw new Error(
          'ava.ask needs a model: set the avaProvider option (provider, baseUrl, apiKey, model) in the config or test.use(), or AVA_PROVIDER, AVA_BASE_URL, AVA_API_KEY and AVA_MODEL in the environment (docs/environment.md)' +
            (typeof kEnvModel === 'string' ? `: ${kEnvModel}` : '.') +
            ' Troubleshooting: docs/troubleshooting.md#no-model.',
        )
      const timeout = opts.timeout ?? 60_000
      return base.step(`ava.ask ${request}`, async () => {
        const defaults = structuredClone(DEFAULT_SETTINGS)
        const settings: Settings = {
          ...defaults,
          profiles: [{ ...defaults.profiles[0], ...avaProvider }],
          activeProfile: defaults.profiles[0].id,
        }
        await (await worker()).evaluate((v) => chrome.storage.local.set({ settings: v }), settings)
        const deadline = Date.now() + timeout
        let f = await panel(timeout)
        await f.waitForSelector('[data-test=send]:not([disabled])')
        const before = await f.locator('[data-role=assistant]').count()
        await f.fill('[data-test=input]', request)
        await f.click('[data-test=send]')
        // A run always ends by writing its token usage on its message; a run that navigates takes
        // the panel's document with it, and the panel comes back on the next page with the chat.
        for (;;) {
          const done = await f
            .locator('[data-role=assistant]')
            .evaluateAll((els, n) => els.length > n && !!els.at(-1)!.querySelector('[data-test=usage]'), before)
            .catch(() => false)
          if (done) break
          if (Date.now() > deadline) throw new Error(`ava.ask "${request}": no answer within ${timeout} ms`)
          await page.waitForTimeout(100)
          if (f.isDetached()) f = await panel(Math.max(1, deadline - Date.now()))
        }
        const last = f.locator('[data-role=assistant]').last()
        const steps = await last.locator('[data-test=step]').evaluateAll((els) =>
          els.map((e) => ({
            status: e.getAttribute('data-status') ?? '',
            detail:
              (e.querySelector('[data-test=step-detail]') ?? e.querySelector('[data-test=step-note]'))?.textContent ??
              '',
          })),
        )
        const text = (await last.locator('[data-test=text]').allTextContents()).join('\n')
        const messageId = await last.getAttribute('data-id')
        // The record is written just after the usage the loop above waits for: a few seconds more at most.
        const record = await runRecordOf(messageId, Date.now() + 5_000)
        if (record) {
          await info.attach('ava-record.html', { body: recordHtml(record), contentType: 'text/html' })
          await info.attach('ava-record.json', { body: recordJson(record), contentType: 'application/json' })
        }
        const verdict = record?.verdict
        if (verdict && !verdict.done && !opts.allowNotDone)
          throw new Error(
            `ava.ask "${request}": not done (${verdict.kind}${verdict.missing?.length ? `: the page does not show ${verdict.missing.map((w) => `"${w}"`).join(', ')}` : ''}). The run's record is attached (ava-record.html); docs/run-record.md says how a verdict is reached.`,
          )
        return { steps, text, ...(verdict ? { verdict } : {}) }
      })
    }

    /** The record the extension kept of the run shown by message `messageId` (written just after the run's usage). */
    async function runRecordOf(messageId: string | null, deadline: number): Promise<RunRecord | undefined> {
      if (!messageId) return undefined
      for (;;) {
        const found = await (
          await worker()
        )
          .evaluate(async (id) => {
            const all = await chrome.storage.local.get(null)
            for (const [k, v] of Object.entries(all))
              if (k.startsWith('records:') && Array.isArray(v)) {
                const r = v.find((x: { messageId?: string }) => x.messageId === id)
                if (r) return r
              }
            return undefined
          }, messageId)
          .catch(() => undefined)
        if (found) return found as RunRecord
        if (Date.now() > deadline) return undefined
        await page.waitForTimeout(100)
      }
    }

    async function extract(
      schema: AvaZodLike | Record<string, unknown>,
      instruction?: string,
      opts: { timeout?: number } = {},
    ): Promise<AvaExtractReport<never>> {
      const shape = '_zod' in schema ? shapeFromZod(schema as never) : schema
      const fields = parseShape(shape).fields.map((f) => f.name)
      const request = instruction ?? `Get the ${fields.join(', ')} of every item`
      // Rows carry their own evidence (each value's element); the verdict on the answer's words does not decide.
      const answer = await ask(`/extract ${JSON.stringify(shape)} ${request}`, { ...opts, allowNotDone: true })
      // The rows are in the site's chat as the panel shows them; the panel draws only the first ones.
      const origin = new URL(current.url()).origin
      const key = `history:${origin}`
      const history = (await (await worker()).evaluate((k) => chrome.storage.local.get(k), key))[key] as
        { messages: { role: string; extraction?: Omit<AvaExtractReport<never>, 'text'> }[] } | undefined
      const got = history?.messages.findLast((m) => m.role === 'assistant')?.extraction
      if (!got) throw new Error(`ava.extract: the run ended without rows: ${answer.text}`)
      return { rows: got.rows, sources: got.sources, problems: got.problems, absent: got.absent, text: answer.text }
    }

    await use({ run, step, ask, extract: extract as AvaFixture['extract'], extensionId })

    const failed = info.status !== info.expectedStatus
    if (failed && !shot) await attachScreenshot(current.isClosed() ? page : current, info, 'ava-failure.png')
    if (tracing) {
      if (failed) {
        const path = info.outputPath('ava-trace.zip')
        await context.tracing.stop({ path })
        await info.attach('trace', { path, contentType: 'application/zip' })
      } else await context.tracing.stop()
    }
  },
})
