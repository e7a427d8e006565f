import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'

// `ava run` after a step that starts a navigation to a slow page (src/cli/run.ts pageSender): the
// link's step answers while its document is still there, so the next step, sent at once, ran in
// the leaving document; when that document went away under it, its click was counted as a click
// that navigated — a pass for a click that never happened. The next step must wait for the next
// document, click there, and the check after it must see what that click did.

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const ava = resolve(root, '.ava-out/e2e-flow-navigation/ava.js')

let server: Server
let origin: string
let dir: string

const kStart =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Start</title></head><body><a id="go" href="/slow-next.html">Go on</a></body></html>'
const kNext =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Next</title></head><body><button id="confirm" onclick="document.getElementById(\'s\').textContent = \'Confirmed\'">Confirm</button><p id="s"></p></body></html>'
/** Long enough that a step sent at once reaches the old document and waits there for its element. */
const kSlowMs = 1_500

beforeAll(async () => {
  await run(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: ava },
  })
  server = createServer((req, res) => {
    const send = (html: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    if (req.url === '/slow-next.html') setTimeout(() => send(kNext), kSlowMs)
    else send(kStart)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  dir = mkdtempSync(join(tmpdir(), 'ava-nav-'))
})
afterAll(async () => {
  await new Promise((done) => server?.close(done))
  rmSync(dir, { recursive: true, force: true })
})

describe('ava run after a step that navigates to a slow page', () => {
  test('the next click acts on the next document, and the check after it holds', async () => {
    const css = (value: string) => ({ primary: { type: 'css', value: `css:${value}` }, fallback: [] })
    const steps = [
      { action: 'click', params: {}, selectors: css('#go') },
      { action: 'click', params: {}, selectors: css('#confirm') },
      { action: 'verify', params: { text: 'Confirmed' }, selectors: css('#s'), timeout: 10_000 },
    ].map((s, i) => ({ step_id: i + 1, ...s }))
    const file = join(dir, 'slow.flow.json')
    writeFileSync(
      file,
      JSON.stringify({
        version: '1.0',
        metadata: { name: 'slow', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' },
        steps,
      }),
    )
    const r = await run(
      process.execPath,
      [ava, 'run', file, '--url', `${origin}/start.html`, '--json', '--screenshot', join(dir, 'fail.png')],
      { cwd: dir, env: { ...process.env, AVA_CHROMIUM: chromiumPath } },
    ).then(
      (x) => ({ code: 0, stdout: x.stdout }),
      (e: { code: number; stdout: string }) => e,
    )
    const result = JSON.parse(r.stdout) as {
      success: boolean
      steps: { step_id: number; status: string; detail?: string; message?: string }[]
    }
    expect(result.steps.map((s) => [s.step_id, s.status, s.detail ?? s.message])).toEqual([
      [1, 'ok', expect.stringMatching(/Go on/)],
      [2, 'ok', expect.stringMatching(/Confirm/)],
      [3, 'ok', expect.stringMatching(/Confirmed/)],
    ])
    expect(r.code).toBe(0)
  })
})
