import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseFlow } from '../../src/core/flows'
import { toPlaywrightSpec } from '../../src/core/flows/playwright'
import { chromiumPath, distDir } from '../support/browser'
import { instructionChunks } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

// A bundled flow exported as a Playwright Test spec and run by `npx playwright test`: it passes on
// the sample site, and on a page whose Log in button became something else it fails with a
// screenshot and a trace in the report. `ava.ask` drives the panel against a scripted model.
// One Playwright run (one worker, one Chromium with the extension) holds all three tests; the
// failing one runs last, since a failure costs the worker (and its Chromium) a restart.

const root = resolve(import.meta.dirname, '../..')
// Inside the repo, so the specs can import the package entry `ava-assistant/playwright`.
const dir = resolve(root, `.ava-out/pwtest-export-${process.pid}`)

interface JsonReport {
  suites: {
    title: string
    specs: {
      title: string
      tests: {
        results: {
          status: string
          error?: { message?: string }
          attachments: { name: string; path?: string; body?: string; contentType: string }[]
        }[]
      }[]
    }[]
  }[]
}

let site: SiteServer
let llm: LlmServer
let broken: Server
let brokenUrl: string
let report: JsonReport
let exitCode: number | null
let output = ''

beforeAll(async () => {
  ;[site, llm] = await Promise.all([startSiteServer(), startLlmServer()])
  // The sign-in page after a bad release: the Log in button is now "Locked", and does nothing.
  broken = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Sign in</title><main><h1>Sign in</h1><form>
<label for="username">Username</label><input id="username" name="username" placeholder="Username">
<label for="password">Password</label><input id="password" name="password" type="password" placeholder="Password">
<button type="button" id="login-btn">Locked</button></form></main>`)
  })
  await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r))
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`

  const flow = parseFlow(readFileSync(resolve(import.meta.dirname, 'flows/order-742.flow.json'), 'utf8'))
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'a-passes.spec.ts'),
    toPlaywrightSpec({ ...flow, metadata: { ...flow.metadata, start_url: `${site.url}/login` } }),
  )
  writeFileSync(
    join(dir, 'c-broken.spec.ts'),
    toPlaywrightSpec({
      ...flow,
      metadata: { ...flow.metadata, name: 'Broken sign-in', start_url: `${brokenUrl}/login` },
    }),
  )
  writeFileSync(
    join(dir, 'b-ask.spec.ts'),
    `import { test, expect } from 'ava-assistant/playwright'
test.use({ avaProvider: { provider: 'openai', baseUrl: ${JSON.stringify(llm.baseUrl)}, apiKey: 'k', model: 'test-model' } })
test('ask', async ({ page, ava }) => {
  await page.goto(${JSON.stringify(`${site.url}/`)})
  const r = await ava.ask('open the sign-in page')
  expect(r.steps.map((s) => s.status)).toEqual(['ok'])
  expect(r.text).toContain('Sign-in page open')
  await expect(page).toHaveURL(/\\/login$/)
})
`,
  )
  // The model says done in the same reply as its step, before it could see the page: no evidence,
  // so the test fails on the verdict (docs/run-record.md, "The verdict"), the record attached.
  writeFileSync(
    join(dir, 'd-unverified.spec.ts'),
    `import { test } from 'ava-assistant/playwright'
test.use({ avaProvider: { provider: 'openai', baseUrl: ${JSON.stringify(llm.baseUrl)}, apiKey: 'k', model: 'test-model' } })
test('unverified', async ({ page, ava }) => {
  await page.goto(${JSON.stringify(`${site.url}/`)})
  await ava.ask('open the sign-in page and say so')
})
`,
  )
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `export default { testDir: '.', testMatch: '*.spec.ts', workers: 1, retries: 0, timeout: 40_000, outputDir: './results',
  reporter: [['json', { outputFile: './report.json' }]], use: { headless: true, avaStepTimeout: 2_000 } }\n`,
  )
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: 'a[href="/login"]', semantic_locator: 'Sign in link' },
          description: 'Open sign-in',
        },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: 'Sign-in page open.' } }]) },
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: 'a[href="/login"]', semantic_locator: 'Sign in link' },
          description: 'Open sign-in',
        },
        { step_id: 2, action_type: 'done', params: { answer: 'Done: you are signed in.' } },
      ]),
    },
  )

  exitCode = await new Promise<number | null>((done) => {
    const child = execFile(
      process.execPath,
      [resolve(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', join(dir, 'playwright.config.ts')],
      {
        cwd: root,
        env: { ...process.env, AVA_DIST: distDir, AVA_CHROMIUM: chromiumPath, ACME_PASSWORD: 'wonderland', CI: '' },
        timeout: 90_000,
      },
      (_e, stdout, stderr) => {
        output = `${stdout}\n${stderr}`
        done(child.exitCode)
      },
    )
  })
  report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport
}, 120_000)

afterAll(async () => {
  await Promise.all([site?.close(), llm?.close(), new Promise((r) => broken?.close(r))])
  rmSync(dir, { recursive: true, force: true })
})

/** An attachment's text: Playwright's JSON report keeps a body attached in memory as base64. */
function attached(a: { path?: string; body?: string } | undefined): string {
  expect(a).toBeTruthy()
  return a!.path ? readFileSync(a!.path, 'utf8') : Buffer.from(a!.body ?? '', 'base64').toString('utf8')
}

function result(file: string) {
  const suite = report.suites.find((s) => s.title === file)
  expect(suite, `${file} ran\n${output}`).toBeTruthy()
  return suite!.specs[0].tests[0].results[0]
}

test('the exported spec passes on the sample site, step by step through the package entry', () => {
  expect(result('a-passes.spec.ts').status, output).toBe('passed')
})

test('on a broken page it fails at the Log in step, with a screenshot and a trace attached', () => {
  const r = result('c-broken.spec.ts')
  expect(r.status).toBe('failed')
  expect(r.error?.message).toMatch(/ava run Broken sign-in, step 3 failed/)
  expect(r.error?.message).toMatch(/✗\s+3 click\s+.*failed: (NOT_SIMILAR|ELEMENT_NOT_FOUND)/)
  const shot = r.attachments.find((a) => a.name === 'ava-failure.png')
  const trace = r.attachments.find((a) => a.name === 'trace')
  expect(shot?.contentType).toBe('image/png')
  expect(trace?.contentType).toBe('application/zip')
  expect(existsSync(trace!.path!)).toBe(true)
  expect(exitCode).toBe(1)
})

test('ava.ask drives the panel: the model is asked, the step runs and the answer comes back', () => {
  expect(result('b-ask.spec.ts').status, output).toBe('passed')
  expect(llm.requests.filter((q) => q.api === 'openai').length).toBeGreaterThanOrEqual(1)
})

test("ava.ask attaches the run's record to Playwright's report, as HTML and as JSON", () => {
  const r = result('b-ask.spec.ts')
  const html = r.attachments.find((a) => a.name === 'ava-record.html')
  const json = r.attachments.find((a) => a.name === 'ava-record.json')
  expect(html?.contentType).toBe('text/html')
  expect(attached(html)).toContain('data-kind="step"')
  const rec = JSON.parse(attached(json))
  expect(rec).toMatchObject({
    request: 'open the sign-in page',
    status: 'done',
    verdict: { done: true, kind: 'judged' },
  })
})

test('a model that says done with no evidence on the page fails the test, the record attached', () => {
  const r = result('d-unverified.spec.ts')
  expect(r.status, output).toBe('failed')
  expect(r.error?.message).toMatch(/not done \(unverified\)/)
  const json = r.attachments.find((a) => a.name === 'ava-record.json')
  expect(JSON.parse(attached(json))).toMatchObject({ verdict: { done: false, kind: 'unverified' } })
})
