import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava action run` and `ava action debug` as built, on the sample site, with the
// pack coming from an npm package in node_modules of the working directory that the global config
// (~/.ava/config.yaml) names. The CLI is built to its own file, so this test never
// rebuilds the bin/ava.js another test may be running.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-action-run/ava.js')

let site: SiteServer
let dir: string
let project: string

const kPack = `namespace: acmesite
version: 1.0.0
description: The Acme portal, shipped as an npm package.
actions:
  session:login:
    description: Log in on the Acme portal and read the greeting.
    params:
      user: { type: string, description: Account name., required: true }
      password: { type: string, description: The password., required: true, secret: true }
    steps:
      - action: fill
        args: { selector: "css:#username", value: "\${params.user}" }
      - action: fill
        args: { selector: "css:#password", value: "\${params.password}" }
      - action: click
        args: { selector: "role:button[name='Log in']" }
      - action: wait
        args: { condition: "url:*/dashboard", timeout: 5000 }
      - action: getText
        output: greeting
        args: { selector: "css:#greeting" }
    returns:
      greeting: "\${steps.greeting}"
    verify:
      - condition: "\${steps.greeting} == 'Welcome, \${params.user}'"
        message: "Not logged in as \${params.user}"
  page:settle:
    description: Waits for an element the page never shows, then reads the address.
    steps:
      - action: wait
        args: { condition: "css:#never-there", timeout: 300 }
      - action: getUrl
        output: url
    returns:
      url: "\${steps.url}"
  page:two-tries:
    description: Clicks a missing element, then reads the address.
    steps:
      - action: click
        timeout: 300
        args: { selector: "css:#never-there" }
      - action: getUrl
`

async function ava(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      cwd: project,
      env: {
        ...process.env,
        AVA_CHROMIUM: chromiumPath,
        AVA_ACTIONS_PATH: '',
        AVA_CONFIG: '',
        HOME: join(dir, 'home'),
      },
      timeout: 60_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const login = (...more: string[]) => [
  'acmesite:session:login',
  '--url',
  `${site.url}/login`,
  '--param',
  'user=alice',
  '--param',
  'password=wonderland',
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
  dir = mkdtempSync(join(tmpdir(), 'ava-cli-action-'))
  project = join(dir, 'project')
  const pkg = join(project, 'node_modules', '@acme', 'ava-site')
  mkdirSync(join(pkg, 'actions'), { recursive: true })
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@acme/ava-site', version: '1.0.0' }))
  writeFileSync(join(pkg, 'actions', 'acme.yaml'), kPack)
  mkdirSync(join(dir, 'home', '.ava'), { recursive: true })
  writeFileSync(
    join(dir, 'home', '.ava', 'config.yaml'),
    'actions:\n  packages:\n    - "@acme/ava-site"\n  default_timeout: 5000\n',
  )
})
afterAll(async () => {
  await site?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  rmSync(resolve(root, '.ava-out/e2e-action-run'), { recursive: true, force: true })
})

describe('ava action run / debug (built), a pack from an npm package', () => {
  test('the package named in the config is listed and validates', async () => {
    const r = await ava(['action', 'list', 'acmesite'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('acmesite:session:login')
    const v = await ava(['action', 'validate', 'node_modules/@acme/ava-site/actions'])
    expect(v.code, v.stdout + v.stderr).toBe(0)
  })

  test('action run logs in through the seed-conformant wait and passes; the secret is never printed', async () => {
    const r = await ava(['action', 'run', ...login()])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('passed: acmesite:session:login')
    expect(r.stdout.split('\n').filter((l) => l.startsWith('✗'))).toEqual([])
    expect(r.stdout + r.stderr).not.toContain('wonderland')
    const json = await ava(['action', 'run', ...login('--json')])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ success: true, data: { greeting: 'Welcome, alice' } })
  })

  test('a wrong password fails (exit 1) at the wait-then-verify, not with a pass', async () => {
    const r = await ava([
      'action',
      'run',
      'acmesite:session:login',
      '--url',
      `${site.url}/login`,
      '--param',
      'user=alice',
      '--param',
      'password=nope',
      '--screenshot',
      join(dir, 'f.png'),
    ])
    expect(r.code, r.stdout + r.stderr).toBe(1)
    expect(r.stdout).toMatch(/FAILED: acmesite:session:login/)
    expect(r.stdout).not.toContain('passed')
  })

  test('action debug prints each step with its resolved arguments and result, and never waits without a terminal', async () => {
    const r = await ava(['action', 'debug', ...login()])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('[DEBUG] Step 1: fill {"selector":"css:#username","value":"alice"}')
    expect(r.stdout).toContain('[DEBUG] Step 2: fill {"selector":"css:#password","value":"***"}')
    expect(r.stdout).toContain('[DEBUG] Step 4: wait {"condition":"url:*/dashboard","timeout":5000}')
    expect(r.stdout).toContain('[DEBUG]   Matched: selector=css:#username')
    expect(r.stdout).toContain('[DEBUG]   Result: ok Welcome, alice')
    expect(r.stdout).not.toContain('Enter runs it')
    expect(r.stdout + r.stderr).not.toContain('wonderland')
  })

  test('a wait that times out goes on once the page has loaded, in a real browser', async () => {
    const r = await ava(['action', 'run', 'acmesite:page:settle', '--url', `${site.url}/`, '--json'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const result = JSON.parse(r.stdout) as { trace: { action: string; status: string }[]; data: { url: string } }
    expect(result.trace.map((t) => [t.action, t.status])).toEqual([
      ['wait', 'recovered'],
      ['getUrl', 'ok'],
    ])
    expect(result.data.url).toBe(`${site.url}/`)
  })

  test('--continue-on-error runs the steps after a failure and still exits 1', async () => {
    const stopped = await ava([
      'action',
      'run',
      'acmesite:page:two-tries',
      '--url',
      `${site.url}/`,
      '--screenshot',
      join(dir, 'f1.png'),
    ])
    expect(stopped.code).toBe(1)
    expect(stopped.stdout).not.toMatch(/✓ +2 getUrl/)
    const went = await ava([
      'action',
      'run',
      'acmesite:page:two-tries',
      '--url',
      `${site.url}/`,
      '--continue-on-error',
      '--step-delay',
      '50',
      '--screenshot',
      join(dir, 'f2.png'),
    ])
    expect(went.code, went.stdout + went.stderr).toBe(1)
    expect(went.stdout).toMatch(/✗ +1 click/)
    expect(went.stdout).toMatch(/✓ +2 getUrl/)
    expect(went.stdout).toMatch(/✗ +1 click +failed: ELEMENT_NOT_FOUND/)
    // Said on step 1's line; the verdict names the step and does not repeat why.
    expect(went.stdout.trimEnd().split('\n').at(-1)).toMatch(/^FAILED: acmesite:page:two-tries at step 1 in \d+ ms$/)
  })
})
