import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kExit } from '../../src/cli/args'
import { main } from '../../src/cli/ava'
import { cliSources, findPackage, packageDirs } from '../../src/cli/sources'

// Seed 000 §5.1.1 (global config) and §4.4.6 / §6.4.2 (packs from npm packages) for the CLI, in
// process: main() with a captured io, HOME and the working directory in a temp folder.

let dir: string
const saved = {
  HOME: process.env.HOME,
  AVA_ACTIONS_PATH: process.env.AVA_ACTIONS_PATH,
  AVA_CHROMIUM: process.env.AVA_CHROMIUM,
  AVA_CONFIG: process.env.AVA_CONFIG,
}
const cwd = process.cwd()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ava-seeds-cli-'))
  process.env.HOME = join(dir, 'home')
  process.env.AVA_ACTIONS_PATH = ''
  delete process.env.AVA_CONFIG
  // Nothing here may start a browser: if one tried, it would fail on this path.
  process.env.AVA_CHROMIUM = join(dir, 'no-chromium')
  mkdirSync(join(dir, 'home', '.ava'), { recursive: true })
  mkdirSync(join(dir, 'project'), { recursive: true })
  process.chdir(join(dir, 'project'))
})
afterEach(() => {
  rmSync(join(dir, 'home', '.ava', 'config.yaml'), { force: true })
  rmSync(join(dir, 'project', 'node_modules'), { recursive: true, force: true })
})
afterAll(() => {
  process.chdir(cwd)
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(dir, { recursive: true, force: true })
})

async function ava(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const config = (text: string) => writeFileSync(join(dir, 'home', '.ava', 'config.yaml'), text)

const pack = (ns: string) => `namespace: ${ns}
version: 1.0.0
description: From an npm package.
actions:
  banner:close:
    description: Close the banner.
    steps:
      - action: click
        args: { selector: "css:.banner .close" }
`

/** An installed package in node_modules of the project, with files relative to its folder. */
function installPackage(name: string, files: Record<string, string>, at = join(dir, 'project')): string {
  const root = join(at, 'node_modules', ...name.split('/'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('packs from npm packages', () => {
  it('a package with an actions/ folder, named in the config, loads; list and describe show it', async () => {
    installPackage('@acme/ava-packs', {
      'package.json': '{"name":"@acme/ava-packs","version":"1.0.0"}',
      'actions/acme.yaml': pack('acme'),
    })
    config('actions:\n  packages:\n    - "@acme/ava-packs"\n')
    const listed = await ava('action', 'list', 'acme')
    expect(listed.code, listed.err).toBe(kExit.ok)
    expect(listed.out).toContain('acme:banner:close')
    const described = await ava('action', 'describe', 'acme:banner:close', '--json')
    expect(JSON.parse(described.out)).toMatchObject({
      name: 'acme:banner:close',
      source: { source: 'cli-package', file: 'node_modules/@acme/ava-packs/actions/acme.yaml' },
    })
  })

  it('a package may declare its packs in package.json "ava.actions" instead', async () => {
    const root = installPackage('site-packs', {
      'package.json': '{"name":"site-packs","ava":{"actions":["packs/"]}}',
      'packs/site.yaml': pack('site'),
      'actions/ignored.yaml': pack('ignored'),
    })
    expect(packageDirs(root)).toEqual({ dirs: [join(root, 'packs')] })
    config('actions:\n  packages: [site-packs]\n')
    const names = (await ava('action', 'list', '--json')).out
    expect(names).toContain('"site"')
    expect(names).not.toContain('"ignored"')
  })

  it('is found in node_modules of a folder above the working directory, as Node finds it', () => {
    installPackage('up-packs', { 'package.json': '{"name":"up-packs"}', 'actions/up.yaml': pack('up') }, dir)
    expect(findPackage('up-packs', join(dir, 'project'))).toBe(join(dir, 'node_modules', 'up-packs'))
    rmSync(join(dir, 'node_modules'), { recursive: true, force: true })
  })

  it('a package that is missing, or holds no packs, is said on stderr and the rest still loads', async () => {
    installPackage('empty-pkg', { 'package.json': '{"name":"empty-pkg"}' })
    installPackage('escape-pkg', { 'package.json': '{"name":"escape-pkg","ava":{"actions":"../../.."}}' })
    config('actions:\n  packages: [not-installed, empty-pkg, escape-pkg]\n')
    const r = await ava('action', 'list', 'common')
    expect(r.code).toBe(kExit.ok)
    expect(r.err).toMatch(
      /package "not-installed" \(actions\.packages in \S+\/home\/\.ava\/config\.yaml\) is not installed in node_modules of \S+ or above; run `npm install not-installed`/,
    )
    expect(r.err).toContain('package "empty-pkg" has no packs: it has no actions/ folder')
    expect(r.err).toContain('"../../..", outside the package')
  })

  it("a project pack overrides a package's (the package loads first)", () => {
    installPackage('@acme/ava-packs', {
      'package.json': '{"name":"@acme/ava-packs"}',
      'actions/acme.yaml': pack('acme'),
    })
    config('actions:\n  packages: ["@acme/ava-packs"]\n  paths: ["~/more-packs"]\n')
    const { sources } = cliSources()
    expect(sources.map((s) => s.source)).toEqual([
      'builtin',
      'cli-package',
      'cli-home',
      'cli-config',
      'cli-project',
      'env-path',
    ])
    expect(sources.find((s) => s.source === 'cli-package')?.files.map((f) => f.path)).toEqual([
      'node_modules/@acme/ava-packs/actions/acme.yaml',
    ])
  })
})

describe('the global config file (§5.1.1)', () => {
  it('actions.paths load, ~ meaning the home folder', async () => {
    mkdirSync(join(dir, 'home', 'more-packs'), { recursive: true })
    writeFileSync(join(dir, 'home', 'more-packs', 'more.yaml'), pack('more'))
    config('actions:\n  paths: ["~/more-packs"]\n')
    expect((await ava('action', 'list', 'more')).out).toContain('more:banner:close')
  })

  it('an invalid config stops the command with exit 1 and says where', async () => {
    config('actions:\n  default_timeout: soon\n')
    const r = await ava('action', 'list')
    expect(r.code).toBe(kExit.failed)
    expect(r.err).toMatch(/config\.yaml:2:\d+: INVALID_VALUE actions\.default_timeout/)
    // Help still works: nothing is read for it.
    expect((await ava('action', 'list', '--help')).code).toBe(kExit.ok)
  })

  it('AVA_CONFIG names another file', async () => {
    writeFileSync(join(dir, 'other.yaml'), 'actions:\n  debgu: true\n')
    process.env.AVA_CONFIG = join(dir, 'other.yaml')
    try {
      const r = await ava('action', 'list')
      expect(r.code).toBe(kExit.failed)
      expect(r.err).toContain('Unknown setting "actions.debgu"')
    } finally {
      delete process.env.AVA_CONFIG
    }
  })
})

describe('ava action run / ava action debug: conventions, before any browser', () => {
  for (const command of ['run', 'debug']) {
    it(`${command}: --help names its options and the exit codes`, async () => {
      const r = await ava('action', command, '--help')
      expect(r.code).toBe(kExit.ok)
      expect(r.out).toMatch(new RegExp(`^Usage: ava action ${command} <action> \\[options\\]`))
      for (const flag of ['--url', '--param', '--continue-on-error', '--step-delay', '--json', '--help'])
        expect(r.out).toContain(flag)
      expect(r.out).toContain('Exit codes:')
    })

    it(`${command}: usage errors exit 2, with the --param form`, async () => {
      expect((await ava('action', command)).code).toBe(kExit.usage)
      const named = await ava('action', command, 'common:auth:login', '--username', 'alice')
      expect(named.code).toBe(kExit.usage)
      expect(named.err).toContain('give action parameters as --param username=<value>')
      expect((await ava('action', command, 'common:auth:login', '--param', 'username')).code).toBe(kExit.usage)
      expect(
        (await ava('action', command, 'common:auth:login', '--step-delay', 'soon', '--url', 'http://x.test')).code,
      ).toBe(kExit.usage)
    })

    it(`${command}: an unknown action or a missing parameter fails (exit 1) without a browser`, async () => {
      const typo = await ava('action', command, 'common:auth:logn', '--url', 'http://x.test')
      expect(typo.code).toBe(kExit.failed)
      expect(typo.err).toContain('Did you mean "common:auth:login"?')
      expect(typo.err).not.toMatch(/chromium/i)
      const missing = await ava(
        'action',
        command,
        'common:auth:login',
        '--url',
        'http://x.test',
        '--param',
        'username=alice',
      )
      expect(missing.code).toBe(kExit.failed)
      expect(missing.err).toMatch(/password/)
    })
  }

  it('the command lists show both', async () => {
    const r = await ava('action')
    expect(r.out).toMatch(/^ {2}run <action> /m)
    expect(r.out).toMatch(/^ {2}debug <action> /m)
  })
})

describe('ava action debug pauses only at a terminal', () => {
  it('pauses in debug mode only when stdin and stdout are a TTY and stdout is not JSON', async () => {
    const { shouldPause } = await import('../../src/cli/action-run')
    const base = { mode: 'debug' as const, noPause: false, json: false, stdinTTY: true, stdoutTTY: true }
    expect(shouldPause(base)).toBe(true)
    expect(shouldPause({ ...base, stdinTTY: false })).toBe(false)
    expect(shouldPause({ ...base, stdoutTTY: false })).toBe(false)
    expect(shouldPause({ ...base, json: true })).toBe(false)
    expect(shouldPause({ ...base, noPause: true })).toBe(false)
    expect(shouldPause({ ...base, mode: 'run' })).toBe(false)
  })

  it('Enter runs the step, s runs the rest without asking, q stops the run', async () => {
    const { pauser } = await import('../../src/cli/action-run')
    const { PassThrough } = await import('node:stream')
    const input = new PassThrough()
    const output = new PassThrough()
    let shown = ''
    output.on('data', (d: Buffer) => (shown += d.toString()))
    const stop = new AbortController()
    const err: string[] = []
    const p = pauser({ out: () => undefined, err: (l) => err.push(l) }, stop, { input, output })
    const step = (id: string) => ({ id, owner: 'a:b:c', depth: 0, action: 'click', input: { selector: 'css:#x' } })
    const first = p.before(step('1'))
    input.write('\n')
    await first
    expect(shown).toContain('next: step 1 click {"selector":"css:#x"}')
    const second = p.before(step('2'))
    input.write('s\n')
    await second
    await p.before(step('3')) // no longer asks: resolves without input
    expect(shown).not.toContain('step 3')
    expect(stop.signal.aborted).toBe(false)
    p.close()

    const stop2 = new AbortController()
    const input2 = new PassThrough()
    const p2 = pauser({ out: () => undefined, err: (l) => err.push(l) }, stop2, {
      input: input2,
      output: new PassThrough(),
    })
    const asked = p2.before(step('1'))
    input2.write('q\n')
    await asked
    expect(stop2.signal.aborted).toBe(true)
    expect(err.join('\n')).toContain('stopped before this step')
    p2.close()
  })
})

describe('the trace line of a wait that fell back', () => {
  it('says the condition did not hold, though the step passed', async () => {
    const { formatActionTrace } = await import('../../src/cli/run')
    const lines = formatActionTrace({
      success: true,
      action: 'a:b:c',
      warnings: [],
      fallbacksUsed: ['1'],
      durationMs: 900,
      trace: [
        {
          id: '1',
          owner: 'a:b:c',
          depth: 0,
          action: 'wait',
          status: 'recovered',
          input: {},
          attempts: 1,
          durationMs: 840,
          fellBack: { code: 'ELEMENT_NOT_FOUND', message: 'No element' },
        },
      ],
    })
    expect(lines[0]).toMatch(
      /^✓ {2}1 wait +recovered \(did not hold: ELEMENT_NOT_FOUND; went on once the page had loaded \+ 500 ms\) — 840 ms$/,
    )
  })
})
