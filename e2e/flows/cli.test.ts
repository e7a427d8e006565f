import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { addFlowToPack, type Flow } from '../../src/core/flows'
import { chromiumPath } from '../support/browser'
import { fillAndSave, startFlowHarness, startRecorder, stopRecorder, type FlowHarness } from './harness'
import { failureMsg } from '../../src/core/failure'
import { renderEn } from '../../src/core/locales/render'

// `ava run` (bin/ava.js, rebuilt here) on a flow recorded by driving the plain fixture page.

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const ava = resolve(root, 'bin/ava.js')

let h: FlowHarness
let dir: string
let flowFile: string
let flow: Flow

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

beforeAll(async () => {
  await run(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], { cwd: root })
  h = await startFlowHarness()
  const page = await h.open('/plain.html')
  await startRecorder(page)
  await fillAndSave(page)
  flow = (await stopRecorder(page, 'Sign up')).flow
  await page.close()
  dir = mkdtempSync(join(tmpdir(), 'ava-run-'))
  flowFile = join(dir, 'signup.flow.json')
  writeFileSync(flowFile, JSON.stringify(flow, null, 2))
})
afterAll(async () => {
  await h.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('ava run', () => {
  test('passes a recorded flow against the fixture app, printing one trace line per step', async () => {
    const r = await avaRun([flowFile, '--url', h.server.url('/plain-redesigned.html'), '--param', 'user_name=carol'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const steps = r.stdout.split('\n').filter((l) => /^[✓✗]/.test(l))
    expect(steps).toHaveLength(5)
    expect(steps.every((l) => l.startsWith('✓') && l.includes('[role, primary]'))).toBe(true)
    // The verdict is said once, on the last line.
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .filter((l) => /passed/.test(l)),
    ).toEqual([expect.stringMatching(/^passed: .*, 5 steps in \d+ ms$/)])
  })

  test('fails with exit code 1 and a screenshot when the target is removed', async () => {
    const shot = join(dir, 'failure.png')
    const r = await avaRun([
      flowFile,
      '--url',
      h.server.url('/plain-without-save.html'),
      '--timeout',
      '500',
      '--screenshot',
      shot,
    ])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/✗ {2}5 click .*failed: NOT_SIMILAR/)
    // Under the step's line, the sentence the en locale table has for the code, as the panel says it.
    expect(r.stdout.split('\n')).toContain(`   ${renderEn(failureMsg('NOT_SIMILAR', { n: 5 }))}`)
    expect(r.stdout).toContain('FAILED')
    expect(r.stderr).toContain('screenshot:')
    expect(existsSync(shot)).toBe(true)
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG')
  })

  test('runs the same flow saved as a pack action, by file', async () => {
    const pack = addFlowToPack(null, flow, { namespace: 'recorded' })
    const file = join(dir, 'recorded.yaml')
    writeFileSync(file, pack.text)
    const r = await avaRun([file, '--url', h.server.url('/plain.html'), '--param', 'email=dan@example.com'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('passed: recorded:flow:sign-up')
  })

  test('usage errors exit 2', async () => {
    expect((await avaRun([])).code).toBe(2)
    expect((await avaRun([flowFile, '--bogus'])).code).toBe(2)
  })
})
