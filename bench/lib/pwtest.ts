/**
 * `pwtest_20_flows_2_workers_ms` ("Measured"): 20 flows on Playwright Test with 2 workers,
 * through the example config (e2e/playwright-test/playwright.config.ts) and Ava's fixture: the
 * bundled flows, copied until there are 20, against the sample site its global set-up starts.
 * The figure is Playwright's own run duration (worker and Chromium start included, as a CI job
 * sees it; node's start and the config's loading excluded). Called at the end of bench/flows.ts.
 */
import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromiumPath } from '../../e2e/support/browser'
import { dist, root } from './extension'
import { report } from './report'

const kFlows = 20
const kWorkers = 2
const kConfig = resolve(root, 'e2e/playwright-test/playwright.config.ts')

interface JsonReport {
  stats: { duration: number; expected: number; unexpected: number; flaky: number; skipped: number }
}

function playwrightTest(flowsDir: string): Promise<JsonReport> {
  const args = [resolve(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', kConfig, '--workers', String(kWorkers), '--retries', '0', '--reporter', 'json', '--grep-invert', 'pack action|nobody there']
  return new Promise((done, fail) =>
    execFile(process.execPath, args, { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, AVA_FLOWS_DIR: flowsDir, AVA_DIST: dist, AVA_CHROMIUM: chromiumPath } }, (_e, stdout, stderr) => {
      try {
        done(JSON.parse(stdout) as JsonReport)
      } catch {
        fail(new Error(`playwright test printed no report:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`))
      }
    }),
  )
}

export async function benchPlaywrightTest(): Promise<void> {
  const bundled = resolve(root, 'e2e/playwright-test/flows')
  const files = readdirSync(bundled).filter((f) => f.endsWith('.flow.json'))
  const dir = mkdtempSync(join(tmpdir(), 'ava-bench-pwtest-'))
  try {
    for (let i = 0; i < kFlows; i++) copyFileSync(join(bundled, files[i % files.length]), join(dir, `${String(i).padStart(2, '0')}-${files[i % files.length]}`))
    const r = await playwrightTest(dir)
    if (r.stats.expected !== kFlows || r.stats.unexpected || r.stats.flaky) throw new Error(`Playwright Test: ${r.stats.expected} of ${kFlows} flows passed (${r.stats.unexpected} failed, ${r.stats.flaky} flaky)`)
    report({ suite: 'flows', case: `Playwright Test, ${kFlows} flows, ${kWorkers} workers`, metric: 'pwtest_20_flows_2_workers_ms', value: Math.round(r.stats.duration), unit: 'ms' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
