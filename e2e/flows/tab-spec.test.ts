import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseFlow } from '../../src/core/flows'
import { toPlaywrightSpec } from '../../src/core/flows/playwright'
import { chromiumPath, distDir } from '../support/browser'
import { startFixtureServer, type FixtureServer } from '../executor/server'

// A flow with a new tab, checks and an extract, exported as a Playwright Test spec and run by
// `npx playwright test` on Ava's fixture: each step is its own ava.step line, so the tab the
// `tab` line moves to must hold for the lines after it, and the extract line must get its value.

const root = resolve(import.meta.dirname, '../..')
// Inside the repo, so the spec can import the package entry `ava-assistant/playwright`.
const dir = resolve(root, `.ava-out/flowgaps-tab-spec-${process.pid}`)

let server: FixtureServer
let status = ''
let output = ''

const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`
const css = (value: string) => ({ primary: { type: 'css' as const, value: `css:${value}` }, fallback: [] })

beforeAll(async () => {
  server = await startFixtureServer()
  server.page(
    '/tab-orders.html',
    shell(
      'Orders',
      '<h1>Orders</h1><p id="who">Orders of Ann</p><a href="/tab-receipt.html?order=742" target="_blank" id="receipt">Receipt</a>',
    ),
  )
  server.page('/tab-receipt.html', shell('Receipt', '<h1>Receipt</h1><p id="total">Order 742: 19.90 EUR</p>'))
  const flow = parseFlow({
    version: '1.0',
    metadata: {
      name: 'Receipt in a new tab',
      created_at: '2026-01-01T00:00:00.000Z',
      source: 'manual',
      start_url: server.url('/tab-orders.html'),
    },
    steps: [
      { action: 'click', params: {}, selectors: css('#receipt') },
      { action: 'verify', params: { text: 'Orders of Ann' } },
      { action: 'tab', params: {} },
      { action: 'verify', params: { url: '*/tab-receipt.html?order=742' } },
      { action: 'extract', params: { name: 'total' }, selectors: css('#total') },
      { action: 'done', params: { text: 'Receipt checked' } },
    ].map((s, i) => ({ step_id: i + 1, ...s })),
  })
  mkdirSync(dir, { recursive: true })
  // The exported test, and after its last line a check of what the extract line kept.
  const spec = toPlaywrightSpec(flow)
    .replace('import { test } from', 'import { test, expect } from')
    .replace(
      /\n\}\)\n\n\/\/ The flow/,
      '\n  expect(returns).toEqual({ total: "Order 742: 19.90 EUR" })\n  expect(page.url()).toContain("tab-orders")\n})\n\n// The flow',
    )
  writeFileSync(join(dir, 'receipt.spec.ts'), spec)
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `export default { testDir: '.', testMatch: '*.spec.ts', workers: 1, retries: 0, timeout: 40_000, outputDir: './results', reporter: [['json', { outputFile: './report.json' }]], use: { headless: true } }\n`,
  )
  await new Promise<void>((done) => {
    execFile(
      process.execPath,
      [resolve(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', join(dir, 'playwright.config.ts')],
      { cwd: root, env: { ...process.env, AVA_DIST: distDir, AVA_CHROMIUM: chromiumPath, CI: '' }, timeout: 90_000 },
      (_e, stdout, stderr) => {
        output = `${stdout}\n${stderr}`
        done()
      },
    )
  })
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    suites: { specs: { tests: { results: { status: string }[] }[] }[] }[]
  }
  status = report.suites[0]?.specs[0]?.tests[0]?.results[0]?.status ?? 'did not run'
}, 120_000)

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('the exported spec moves to the new tab for the lines after its tab line, and keeps the extract', () => {
  expect(status, output).toBe('passed')
})
