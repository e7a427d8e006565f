import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { startFixtureServer, type FixtureServer } from '../executor/server'
import { chromiumPath } from '../support/browser'

// `${file:path}` variables through `ava run`: a flow in its own folder uploads files
// that sit beside it, into a plain file input (upload step, and fill on the input) and into one
// hidden behind a styled button; the page shows what it received, and the flow checks it.

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
// Inside the repo, so the bundle finds playwright-core in node_modules.
const ava = resolve(root, '.ava-out/e2e-flow-files/ava.js')

let server: FixtureServer
let dir: string

async function avaRun(args: string[], cwd = dir): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [ava, 'run', ...args], {
      cwd,
      env: { ...process.env, AVA_CHROMIUM: chromiumPath },
      timeout: 60_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

// What the page received, by the input's own files: a name and a size only a real upload gives.
const kPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Apply</title>
<style>.photo-upload input { display: none } .photo-upload span { border: 1px solid #888; padding: 4px }</style></head><body>
<h1>Apply</h1>
<label for="cv">Résumé</label> <input type="file" id="cv" name="cv">
<div class="photo-upload" onclick="this.querySelector('input').click()"><span role="button">Attach photo</span><input type="file" accept="image/*"></div>
<p id="chosen"></p>
<script>
  const show = () => { document.getElementById('chosen').textContent = [...document.querySelectorAll('input[type=file]')].flatMap((i) => [...i.files].map((f) => f.name + ' (' + f.size + ' bytes)')).join('; ') }
  document.addEventListener('change', show)
</script></body></html>`

const sel = (value: string, type = 'css') => ({ primary: { type, value }, fallback: [] })
const flowOf = (steps: unknown[], variables: Record<string, unknown>) => ({
  version: '1.0',
  metadata: { name: 'Apply', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' },
  variables,
  steps: steps.map((s, i) => ({ step_id: i + 1, ...(s as object) })),
})

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ava-files-'))
  // Our own copy of the CLI, so parallel tests never rebuild the file another is running.
  await run(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: ava },
  })
  server = await startFixtureServer()
  server.page('/apply.html', kPage)
  mkdirSync(join(dir, 'flows', 'files'), { recursive: true })
  mkdirSync(join(dir, 'elsewhere'))
  writeFileSync(join(dir, 'flows', 'files', 'cv.txt'), 'Ann, tester.') // 12 bytes
  writeFileSync(
    join(dir, 'flows', 'files', 'me.png'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
  )
  writeFileSync(join(dir, 'other.txt'), 'other')
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('ava run with ${file:…} variables', () => {
  test('uploads the files beside the flow, whatever the working directory, and the page gets their bytes', async () => {
    const flow = flowOf(
      [
        { action: 'upload', params: { file: '${cv}' }, selectors: sel('css:#cv', 'id'), description: 'Résumé' },
        { action: 'upload', params: { file: '${photo}' }, selectors: sel('role:button[name="Attach photo"]', 'role') },
        { action: 'verify', params: { text: 'cv.txt (12 bytes); me.png (10 bytes)' }, selectors: sel('css:#chosen') },
      ],
      { cv: { value: '${file:files/cv.txt}' }, photo: { value: '${file:files/me.png}' } },
    )
    const file = join(dir, 'flows', 'apply.flow.json')
    writeFileSync(file, JSON.stringify(flow))
    const r = await avaRun([file, '--url', server.url('/apply.html')], join(dir, 'elsewhere'))
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toMatch(/✓ {2}1 upload .*Uploaded "cv\.txt"/)
    expect(r.stdout).toMatch(/✓ {2}2 upload .*Uploaded "me\.png"/)
    expect(r.stdout).toMatch(/✓ {2}3 verify/)
  })

  test('a fill step on a file input uploads the file; a --param path is relative to the working directory', async () => {
    const flow = flowOf(
      [
        { action: 'fill', params: { value: '${cv}' }, selectors: sel('css:#cv') },
        { action: 'verify', params: { text: 'other.txt (5 bytes)' }, selectors: sel('css:#chosen') },
      ],
      { cv: { value: '${file:files/cv.txt}' } },
    )
    const file = join(dir, 'flows', 'fill.flow.json')
    writeFileSync(file, JSON.stringify(flow))
    const passed = await avaRun([file, '--url', server.url('/apply.html'), '--param', 'cv=other.txt'])
    expect(passed.code, passed.stdout + passed.stderr).toBe(0)
    // The same flow with its own file: the check sees cv.txt, not other.txt, and fails.
    const failed = await avaRun([
      file,
      '--url',
      server.url('/apply.html'),
      '--timeout',
      '1500',
      '--screenshot',
      join(dir, 'fail.png'),
    ])
    expect(failed.code).toBe(1)
    expect(failed.stdout).toMatch(/✗ {2}2 verify +failed: VERIFY_FAILED/)
    expect(failed.stdout).toMatch(/^ {3}detail: .*"other\.txt \(5 bytes\)".*"cv\.txt \(12 bytes\)"/m)
  })

  test('a missing file fails with exit 1 naming the variable, before a browser starts', async () => {
    const flow = flowOf(
      [
        { action: 'upload', params: { file: '${cv}' }, selectors: sel('css:#cv') },
        { action: 'verify', params: { text: 'cv' } },
      ],
      { cv: { value: '${file:files/nope.txt}' } },
    )
    const file = join(dir, 'flows', 'missing.flow.json')
    writeFileSync(file, JSON.stringify(flow))
    // A browser path that does not exist: a run that got as far as starting one would say so instead.
    const r = await run(
      process.execPath,
      [ava, 'run', file, '--url', server.url('/apply.html'), '--browser', join(dir, 'no-chromium')],
      { cwd: dir },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    )
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(
      `ava run: ${join('flows', 'missing.flow.json')}: the file "cv" is not at ${join('flows', 'files', 'nope.txt')}.\n`,
    )
  })
})
