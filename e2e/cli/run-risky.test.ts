import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'

// `ava run` has nobody to ask (docs/flows.md, "Risky steps in ava run"): a step the page judges
// destructive stops the run before it acts, with one plain line naming it, unless --yes is given.
// The site counts what reached it, as a real account page would delete on that request.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-run-risky/ava.js')

let server: Server
let url: string
let dir: string
const hits: string[] = []

const kAccountPage = `<!doctype html><html><head><title>Account</title></head><body>
<h1>Your account</h1>
<label>Display name <input id="name" value="Ada"></label>
<button id="save" type="button" onclick="fetch('/api/save', { method: 'POST' }).then(() => document.querySelector('#out').textContent = 'Saved')">Save settings</button>
<button id="delete" type="button" onclick="fetch('/api/delete-account', { method: 'POST' }).then(() => document.querySelector('#out').textContent = 'Account deleted')">Delete account</button>
<button id="feedback" type="button" onclick="setTimeout(() => fetch('/api/feedback', { method: 'POST' }), 250)">Send feedback</button>
<p id="out"></p>
</body></html>`

function flow(selector: string, text?: string): string {
  const file = join(dir, `${selector.slice(1)}.flow.json`)
  writeFileSync(
    file,
    JSON.stringify({
      version: '1.0',
      metadata: { name: `click ${selector}`, created_at: '2026-01-01T00:00:00Z', start_url: `${url}/account` },
      steps: [
        {
          step_id: 1,
          action: 'click',
          selectors: { primary: { type: 'css', value: `css:${selector}` } },
          description: `the ${text ?? selector} button`,
        },
        ...(text ? [{ step_id: 2, action: 'verify', params: { text } }] : []),
      ],
    }),
  )
  return file
}

async function ava(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { ...process.env, AVA_CHROMIUM: chromiumPath, AVA_ACTIONS_PATH: '', HOME: dir },
      timeout: 60_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

beforeAll(async () => {
  await exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: bin },
  })
  dir = mkdtempSync(join(tmpdir(), 'ava-cli-risky-'))
  server = createServer((req, res) => {
    if (req.method === 'POST') {
      hits.push(req.url ?? '')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(kAccountPage)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((r) => server?.close(r))
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('ava run and risky steps', () => {
  test('a destructive click stops the run before it acts, naming the step and --yes', async () => {
    hits.length = 0
    const r = await ava(['run', flow('#delete', 'Account deleted'), '--screenshot', join(dir, 'f.png')])
    expect(r.code, r.stdout + r.stderr).toBe(1)
    expect(hits).not.toContain('/api/delete-account')
    expect(r.stderr).toMatch(
      /^ava run: stopped before a risky step \(destructive\): .*Delete account.*run again with --allow destructive \(or --yes\)/m,
    )
    expect(r.stdout).not.toMatch(/^passed/m)
    // Said once, in plain words: no runtime error's text.
    expect(r.stderr.match(/stopped before a risky step/g)).toHaveLength(1)
    expect(r.stdout + r.stderr).not.toMatch(/PortError|at .*\.js:\d+/)
  })

  test('with --yes the same step runs', async () => {
    hits.length = 0
    const r = await ava(['run', flow('#delete', 'Account deleted'), '--yes'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(hits).toContain('/api/delete-account')
    expect(r.stderr).not.toContain('risky')
  })

  test('a harmless click runs without --yes', async () => {
    hits.length = 0
    const r = await ava(['run', flow('#save', 'Saved')])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(hits).toEqual(['/api/save'])
  })

  test('what the last step sends reaches the site before the browser closes (a handler that posts a moment later)', async () => {
    hits.length = 0
    const r = await ava(['run', flow('#feedback'), '--yes'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    // Read as the command ends: no wait here, the run itself waited for the page to go quiet.
    expect(hits).toEqual(['/api/feedback'])
  })

  test('--help says the policy', async () => {
    const r = await ava(['run', '--help'])
    expect(r.stdout).toMatch(/--yes/)
    expect(r.stdout).toMatch(/stops the run/)
  })
})
