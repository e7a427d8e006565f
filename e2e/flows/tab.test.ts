import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { startFixtureServer, type FixtureServer } from '../executor/server'
import { chromiumPath } from '../support/browser'

// The `tab` step through `ava run`: a link with target=_blank opens the receipt in a new
// tab, the flow moves there and checks it, then goes back to the first tab by index and checks
// that one; a tab step with no tab to go to fails naming what it looked for.

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
// Inside the repo, so the bundle finds playwright-core in node_modules.
const ava = resolve(root, '.ava-out/e2e-flow-tab/ava.js')

let server: FixtureServer
let dir: string

async function avaRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [ava, 'run', ...args], {
      cwd: dir,
      env: { ...process.env, AVA_CHROMIUM: chromiumPath },
      timeout: 60_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`
const css = (value: string) => ({ primary: { type: 'css', value: `css:${value}` }, fallback: [] })
function flowFile(name: string, steps: unknown[]): string {
  const file = join(dir, `${name}.flow.json`)
  const flow = {
    version: '1.0',
    metadata: { name, created_at: '2026-01-01T00:00:00.000Z', source: 'manual' },
    steps: steps.map((s, i) => ({ step_id: i + 1, ...(s as object) })),
  }
  writeFileSync(file, JSON.stringify(flow))
  return file
}

beforeAll(async () => {
  await run(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: ava },
  })
  server = await startFixtureServer()
  server.page(
    '/tab-orders.html',
    shell(
      'Orders',
      '<h1>Orders</h1><p id="who">Orders of Ann</p><a href="/tab-receipt.html?order=742" target="_blank" id="receipt">Receipt</a>',
    ),
  )
  server.page('/tab-receipt.html', shell('Receipt', '<h1>Receipt</h1><p id="total">Order 742: 19.90 EUR</p>'))
  dir = mkdtempSync(join(tmpdir(), 'ava-tab-'))
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('ava run with tab steps', () => {
  test('a target=_blank link, then tab: the checks run on the new tab, and tab 0 goes back', async () => {
    const file = flowFile('receipt', [
      { action: 'click', params: {}, selectors: css('#receipt') },
      // Still on the first tab until a tab step moves the flow.
      { action: 'verify', params: { text: 'Orders of Ann' } },
      { action: 'tab', params: {} },
      { action: 'verify', params: { url: '*/tab-receipt.html?order=742' } },
      { action: 'expect', params: { text: '19.90 EUR' }, selectors: css('#total') },
      { action: 'tab', params: { index: 0 } },
      { action: 'verify', params: { text: 'Orders of Ann' } },
      { action: 'tab', params: { url: '*receipt*' } },
      { action: 'extract', params: { name: 'total' }, selectors: css('#total') },
    ])
    const r = await avaRun([file, '--url', server.url('/tab-orders.html'), '--json'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const result = JSON.parse(r.stdout) as {
      success: boolean
      returns: Record<string, string>
      steps: { step_id: number; status: string; detail?: string }[]
    }
    expect(result.steps.map((s) => s.status)).toEqual(Array(9).fill('ok'))
    expect(result.steps[2].detail).toBe(
      `Switched to the tab the previous step opened (${server.url('/tab-receipt.html?order=742')})`,
    )
    expect(result.returns).toEqual({ total: 'Order 742: 19.90 EUR' })
  })

  test('a check that holds only on the new tab fails without a tab step', async () => {
    const file = flowFile('no-switch', [
      { action: 'click', params: {}, selectors: css('#receipt') },
      { action: 'verify', params: { text: '19.90 EUR' }, timeout: 1500 },
    ])
    const r = await avaRun([file, '--url', server.url('/tab-orders.html'), '--screenshot', join(dir, 'no-switch.png')])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/✗ {2}2 verify +failed: VERIFY_FAILED/)
  })

  test('a tab step with no tab to go to fails, naming what it looked for', async () => {
    const file = flowFile('no-tab', [
      { action: 'verify', params: { text: 'Orders' } },
      { action: 'tab', params: {} },
    ])
    const r = await avaRun([file, '--url', server.url('/tab-orders.html'), '--screenshot', join(dir, 'no-tab.png')])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/✗ {2}2 tab +failed: STEP_FAILED/)
    expect(r.stdout).toMatch(/^ {3}detail: .*the previous step opened no tab after 5 s\./m)
  })
})
