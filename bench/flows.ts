/**
 * Suite `flows` (issue 8): a 10-step flow recorded on the component fixture app's plain page
 * (by driving it with mouse and keyboard under the page recorder), then replayed with no LLM:
 *   replay_10_steps_ms         in the extension, from the panel's Replay click to the result shown
 *                              (median; aim ≤ 500 ms);
 *   runner_replay_10_steps_ms  with `ava run` (bin/ava.js), as it prints it: browser start excluded;
 *   resolve_step_ms            selector resolution per step (median over every step of every run);
 *   replay_in_page_10_steps_ms the core loop with the page code in a plain page, no messaging.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Page } from 'playwright-core'
import { replayFlow, type Flow } from '../src/core/flows'
import { launchAva } from '../e2e/support/ava'
import { chromiumPath } from '../e2e/support/browser'
import { centre, pagePort, startFlowHarness, startRecorder, stopRecorder } from '../e2e/flows/harness'
import { ensureBuilt } from './lib/extension'
import { median, report } from './lib/report'

const kRuns = 7
const root = resolve(import.meta.dirname, '..')
const run = promisify(execFile)

/** Ten actions a person does on the plain page. */
async function tenSteps(page: Page): Promise<void> {
  const click = async (sel: string) => page.mouse.click(...(await centre(page, sel)))
  await click('#user')
  await page.keyboard.type('alice')
  await click('#email')
  await page.keyboard.type('alice@example.com')
  await click('#comment')
  await page.keyboard.type('hello')
  await page.focus('#country')
  await page.keyboard.press('j')
  await click('#subscribe')
  await click('input[value=pro]')
  await click('#save')
  await click('#notes')
  await page.keyboard.type('memo')
  await page.mouse.dblclick(...(await centre(page, '#dblbox')))
  await click('#save')
}

ensureBuilt()
await run(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], { cwd: root })
const h = await startFlowHarness()
let flow: Flow
const resolveMs: number[] = []
try {
  const page = await h.open('/plain.html')
  await startRecorder(page)
  await tenSteps(page)
  flow = (await stopRecorder(page, 'Bench ten steps')).flow
  await page.close()
  if (flow.steps.length !== 10) throw new Error(`expected 10 recorded steps, got ${flow.steps.map((s) => s.action).join(', ')}`)

  const inPage: number[] = []
  for (let i = 0; i < kRuns; i++) {
    const p = await h.open('/plain.html')
    const r = await replayFlow(flow, { port: pagePort(p), navigateToStart: false })
    if (!r.success) throw new Error(`in-page replay failed: ${r.error?.message}`)
    inPage.push(r.durationMs)
    resolveMs.push(...r.steps.map((s) => s.resolveMs))
    await p.close()
  }
  report({ suite: 'flows', case: 'plain page, 10 recorded steps', metric: 'replay_in_page_10_steps_ms', value: median(inPage), unit: 'ms' })
  report({ suite: 'flows', case: 'plain page, per step', metric: 'resolve_step_ms', value: median(resolveMs), unit: 'ms' })
  report({ suite: 'flows', case: 'plain page, per step (max)', metric: 'resolve_step_max_ms', value: Math.max(...resolveMs), unit: 'ms' })

  // ava run
  const dir = mkdtempSync(join(tmpdir(), 'ava-bench-flows-'))
  const file = join(dir, 'ten.flow.json')
  writeFileSync(file, JSON.stringify(flow))
  const runner: number[] = []
  for (let i = 0; i < kRuns; i++) {
    const out = await run(process.execPath, [resolve(root, 'bin/ava.js'), 'run', file, '--url', h.server.url('/plain.html')], { cwd: dir, env: { ...process.env, AVA_CHROMIUM: chromiumPath } })
    const m = /passed in (\d+) ms/.exec(out.stdout)
    if (!m) throw new Error(`ava run did not pass:\n${out.stdout}`)
    runner.push(Number(m[1]))
  }
  rmSync(dir, { recursive: true, force: true })
  report({ suite: 'flows', case: 'ava run, 10 steps', metric: 'runner_replay_10_steps_ms', value: median(runner), unit: 'ms' })

  // The extension: the flow saved as the panel saves it, replayed from the panel.
  const ava = await launchAva()
  try {
    const worker = await ava.worker()
    const id = 'recorded:flow:bench-ten-steps'
    await worker.evaluate(([k, v]) => chrome.storage.local.set({ 'flows.saved': { [k]: v } }), [id, { id, namespace: 'recorded', action: id, flow, savedAt: Date.now(), pending: [] }] as const)
    const ext: number[] = []
    for (let i = 0; i < kRuns; i++) {
      const p = await ava.context.newPage()
      await p.goto(h.server.url('/plain.html'))
      const panel = await ava.openPanel(p)
      await panel.waitForSelector('[data-test=flow-replay]')
      const t0 = performance.now()
      await panel.click('[data-test=flow-replay]')
      const result = panel.locator('[data-test=flow-result]')
      await result.waitFor({ timeout: 30_000 })
      ext.push(performance.now() - t0)
      if ((await result.getAttribute('data-success')) !== 'true') throw new Error('extension replay failed')
      await p.close()
    }
    report({ suite: 'flows', case: 'extension panel, 10 steps', metric: 'replay_10_steps_ms', value: median(ext), unit: 'ms' })
  } finally {
    await ava.close()
  }
} finally {
  await h.close()
}
