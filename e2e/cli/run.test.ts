import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { failureHint, failureMsg } from '../../src/core/failure'
import { renderEn } from '../../src/core/locales/render'

// The built `ava` (bin/ava.js, rebuilt here) as a person runs it: help on every command, exit codes
// that tell the truth about a login, --json that parses, and no browser for a name that is wrong.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
// Its own build, so that parallel e2e files never rebuild the file another is running.
const bin = resolve(root, '.ava-out/e2e-run/ava.js')

let site: SiteServer
let dir: string

async function ava(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { ...process.env, AVA_CHROMIUM: chromiumPath, AVA_ACTIONS_PATH: '', HOME: dir, ...env },
      timeout: 60_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const login = (password: string, ...more: string[]) => [
  'run',
  'common:auth:login',
  '--url',
  `${site.url}/login`,
  '--param',
  'username=alice',
  '--param',
  `password=${password}`,
  '--allow',
  'credentials',
  '--screenshot',
  join(dir, 'failure.png'),
  ...more,
]

beforeAll(async () => {
  await exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: bin },
  })
  site = await startSiteServer()
  dir = mkdtempSync(join(tmpdir(), 'ava-cli-run-'))
})
afterAll(async () => {
  await site?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('ava (built)', () => {
  test('help on every command and subcommand; the top level lists ava run', async () => {
    const top = await ava(['--help'])
    expect(top.code).toBe(0)
    expect(top.stdout).toMatch(/^ {2}run </m)
    for (const argv of [
      ['run', '--help'],
      ['action'],
      ['action', 'list', '--help'],
      ['action', 'describe', '--help'],
      ['action', 'search', '--help'],
      ['action', 'validate', '--help'],
      ['action', 'dry-run', '--help'],
      ['action', 'reload', '--help'],
      ['action', 'run', '--help'],
      ['action', 'debug', '--help'],
    ]) {
      const r = await ava(argv)
      expect(r.code, argv.join(' ') + r.stderr).toBe(0)
      expect(r.stdout, argv.join(' ')).toMatch(
        new RegExp(`^Usage: ava ${argv.filter((a) => a !== '--help').join(' ')} `),
      )
      expect(r.stdout).toContain('Exit codes:')
    }
  })

  test('a wrong password exits 1, says FAILED and why, and never "passed"', async () => {
    const r = await ava(login('not-the-password'))
    expect(r.code, r.stdout + r.stderr).toBe(1)
    expect(r.stdout).not.toContain('passed')
    expect(r.stdout).toMatch(/^FAILED: common:auth:login: VERIFY_FAILED$/m)
    expect(r.stdout).toMatch(/^ {3}detail: Still on the login form/m)
    expect(r.stdout + r.stderr).not.toContain('not-the-password')
    expect(site.hits.map((h) => `${h.method} ${h.path}`)).toContain('POST /login')
  })

  test('the right password passes with no failed step: the navigation was expected', async () => {
    const r = await ava(login('wonderland'))
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('passed: common:auth:login')
    // The verdict is said once.
    expect(r.stdout.split('\n').filter((l) => /passed|FAILED/.test(l))).toEqual([
      expect.stringMatching(/^passed: common:auth:login in \d+ ms$/),
    ])
    expect(r.stdout.split('\n').filter((l) => l.startsWith('✗'))).toEqual([])
    expect(r.stdout + r.stderr).not.toMatch(/Execution context was destroyed|PortError/)
  })

  test('--json prints one JSON document, for a pass and for a failure', async () => {
    const ok = await ava(login('wonderland', '--json'))
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toMatchObject({
      success: true,
      action: 'common:auth:login',
      data: { url: `${site.url}/dashboard` },
    })
    const bad = await ava(login('not-the-password', '--json'))
    expect(bad.code).toBe(1)
    expect(JSON.parse(bad.stdout)).toMatchObject({ success: false, error: { code: 'VERIFY_FAILED' } })
    const described = await ava(['action', 'describe', 'common:auth:login', '--json'])
    expect(JSON.parse(described.stdout)).toMatchObject({ name: 'common:auth:login' })
  })

  test('an unknown action fails fast, about the action, without starting Chromium', async () => {
    const r = await ava(['run', 'common:auth:logn', '--url', `${site.url}/login`], {
      AVA_CHROMIUM: join(dir, 'no-such-chromium'),
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('No action "common:auth:logn"')
    expect(r.stderr).toContain('Did you mean "common:auth:login"?')
    // Had it tried to start a browser, the message would be about the missing Chromium.
    expect(r.stderr).not.toMatch(/chromium/i)
  })

  test('a page that does not open is one plain line, and one JSON object with --json', async () => {
    // A port nothing listens on: a server's, closed.
    const server = createServer()
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    await new Promise((done) => server.close(done))
    for (const argv of [
      ['run', 'common:auth:login'],
      ['action', 'run', 'common:auth:login'],
    ]) {
      const args = [...argv, '--url', url, '--param', 'username=a', '--param', 'password=b']
      const r = await ava(args)
      expect(r.code, r.stderr).toBe(1)
      expect(r.stderr.trim()).toBe(
        `ava ${argv[0] === 'run' ? 'run' : 'action run'}: Could not open ${url}: connection refused`,
      )
      const j = await ava([...args, '--json'])
      expect(j.code).toBe(1)
      expect(JSON.parse(j.stdout)).toEqual({
        success: false,
        error: { code: 'PAGE_NOT_OPENED', message: `Could not open ${url}: connection refused`, exitCode: 1 },
      })
      expect(j.stdout + j.stderr).not.toContain('Call log')
      // No terminal colour codes.
      expect(j.stdout + j.stderr).not.toContain('\u001b')
      // AVA_DEBUG keeps Playwright's own text for a bug report.
      expect((await ava(args, { AVA_DEBUG: '1' })).stderr).toContain('Call log')
    }
    // Six Chromium launches: 19 s alone, past a minute on a loaded 2-core machine.
  }, 180_000)

  test('a failed step names the selector, and the failure is said once', async () => {
    const config = join(dir, 'fast.yaml')
    writeFileSync(config, 'actions:\n  default_timeout: 1500\n')
    const r = await ava(
      [
        'action',
        'run',
        'common:page:search',
        '--url',
        `${site.url}/login`,
        '--param',
        'query=x',
        '--screenshot',
        join(dir, 'search.png'),
      ],
      { AVA_CONFIG: config },
    )
    expect(r.code, r.stderr).toBe(1)
    expect(r.stdout).not.toContain('${')
    expect(r.stdout).toMatch(/^✗ {2}1 fill +failed: ELEMENT_NOT_FOUND — \d+ ms$/m)
    // The person's sentence is the en locale table's for the code (src/core/failure.ts); the engine's
    // words, naming the selector, are the detail; then the code's hint.
    const lines = r.stdout.split('\n')
    const at = lines.findIndex((l) => l.startsWith('✗  1 fill'))
    expect(lines[at + 1]).toBe(`   ${renderEn(failureMsg('ELEMENT_NOT_FOUND', { n: '1' }))}`)
    expect(lines[at + 1]).toBe('   Step 1 failed: nothing on the page matches what it looks for.')
    expect(lines[at + 2]).toMatch(
      /^ {3}detail: No element matches selector "search_input"; tried "css:input\[type='search'\]"/,
    )
    expect(lines[at + 3]).toBe(`   hint: ${renderEn(failureHint('ELEMENT_NOT_FOUND')!)}`)
    expect(r.stdout.split('\n').filter((l) => l.includes('ELEMENT_NOT_FOUND'))).toHaveLength(1)
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^FAILED: common:page:search at step 1 in \d+ ms$/)
  })

  test('a missing Chromium is named with how to get one, not a stack trace', async () => {
    const r = await ava(login('wonderland'), { AVA_CHROMIUM: join(dir, 'no-such-chromium') })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/no Chromium at .*no-such-chromium \(from AVA_CHROMIUM\)\. Install it/)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})
