import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kExit, parseCommand, parseParams, plainMessage, type CommandSpec } from '../../src/cli/args'
import { kUsage, main } from '../../src/cli/ava'
import { formatActionTrace } from '../../src/cli/run'
import { kRunSpec } from '../../src/cli/run-spec'
import { actionEnv } from '../../src/cli/sources'
import { createRegistry, type ActionResult } from '../../src/core/registry'

// The CLI's argument handling and exit codes, in process: main() with a captured io. Packs come
// from the built-in actions/ only (HOME and AVA_ACTIONS_PATH point nowhere).

let home: string
const saved = { HOME: process.env.HOME, AVA_ACTIONS_PATH: process.env.AVA_ACTIONS_PATH, AVA_CHROMIUM: process.env.AVA_CHROMIUM }
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'ava-cli-home-'))
  process.env.HOME = home
  process.env.AVA_ACTIONS_PATH = ''
  // Nothing here may start a browser: if one tried, it would fail on this path.
  process.env.AVA_CHROMIUM = join(home, 'no-chromium')
})
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(home, { recursive: true, force: true })
})

async function ava(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const kCommands = [['run'], ['action', 'list'], ['action', 'describe'], ['action', 'search'], ['action', 'validate'], ['action', 'dry-run'], ['action', 'reload']]

describe('help', () => {
  it('the top-level help lists every command, ava run included, and the exit codes', async () => {
    for (const argv of [[], ['--help'], ['-h'], ['help']]) {
      const r = await ava(...argv)
      expect(r.code).toBe(kExit.ok)
      expect(r.out).toBe(kUsage)
    }
    for (const c of kCommands) expect(kUsage).toContain(`  ${c.join(' ')} `)
    expect(kUsage).toMatch(/Exit codes: 0 .*1 .*2 usage error/s)
  })

  it('--help, -h and `ava help <command>` work on every command and subcommand', async () => {
    for (const c of kCommands) {
      for (const argv of [[...c, '--help'], [...c, '-h'], ['help', ...c], [...c, 'some-arg', '--help']]) {
        const r = await ava(...argv)
        expect(r.code, argv.join(' ')).toBe(kExit.ok)
        expect(r.out, argv.join(' ')).toMatch(new RegExp(`^Usage: ava ${c.join(' ')} `))
        expect(r.out).toContain('--json')
        expect(r.out).toContain('Exit codes:')
      }
    }
  })

  it('`ava action` alone prints the action commands; an unknown one is a usage error', async () => {
    const bare = await ava('action')
    expect(bare.code).toBe(kExit.ok)
    expect(bare.out).toMatch(/^Usage: ava action <command>/)
    for (const c of kCommands.filter((x) => x[0] === 'action')) expect(bare.out).toContain(`  ${c[1]} `)
    const unknown = await ava('action', 'frobnicate')
    expect(unknown.code).toBe(kExit.usage)
    expect(unknown.err).toContain('unknown command "action frobnicate"')
    expect((await ava('frobnicate')).code).toBe(kExit.usage)
  })
})

describe('one parameter syntax', () => {
  it('--param name=value, repeated or inline; anything else is refused with the right form', () => {
    expect(parseParams(['a=1', 'b=x=y', 'c='])).toEqual({ a: '1', b: 'x=y', c: '' })
    expect(parseParams(['novalue'])).toMatch(/--param needs name=value/)
    expect(parseParams(['=v'])).toMatch(/--param needs name=value/)
    const parsed = parseCommand(kRunSpec, ['x', '--param', 'a=1', '--param=b=2', '--json'])
    expect(parsed).toMatchObject({ positionals: ['x'], values: { param: ['a=1', 'b=2'], json: true } })
  })

  it('dry-run and run agree: --name value is refused by both, with the --param hint', async () => {
    for (const c of [['action', 'dry-run'], ['run']]) {
      const r = await ava(...c, 'common:auth:login', '--username', 'alice')
      expect(r.code, c.join(' ')).toBe(kExit.usage)
      expect(r.err).toContain('unknown option --username; give action parameters as --param username=<value>')
    }
  })

  it('option values are checked: a missing value, a value on a flag', () => {
    const spec: CommandSpec = { name: 't', args: '', summary: '', options: { url: { type: 'string', help: '' } } }
    expect(parseCommand(spec, ['--url'])).toBe('--url needs a value')
    expect(parseCommand(spec, ['--json=yes'])).toBe('--json takes no value')
    expect(parseCommand(spec, ['--nope'])).toBe('unknown option --nope')
  })

  it('dry-run takes --param and masks secrets', async () => {
    const r = await ava('action', 'dry-run', 'common:auth:login', '--param', 'username=bob', '--param', 'password=hunter22')
    expect(r.code).toBe(kExit.ok)
    expect(r.out).toContain('"username":"bob"')
    expect(r.out).not.toContain('hunter22')
    const bad = await ava('action', 'dry-run', 'common:auth:login', '--param', 'username')
    expect(bad.code).toBe(kExit.usage)
  })
})

describe('--json on every command', () => {
  it('prints one JSON document on stdout', async () => {
    const runs: Array<[string[], number]> = [
      [['action', 'list', '--json'], kExit.ok],
      [['action', 'list', 'nope', '--json'], kExit.failed],
      [['action', 'describe', 'common:auth:login', '--json'], kExit.ok],
      [['action', 'search', 'cookie', '--json'], kExit.ok],
      [['action', 'search', 'zzzzzz', '--json'], kExit.failed],
      [['action', 'validate', 'actions', '--json'], kExit.ok],
      [['action', 'validate', 'no/such/dir', '--json'], kExit.failed],
      [['action', 'dry-run', 'common:auth:login', '--param', 'username=a', '--param', 'password=b', '--json'], kExit.ok],
      [['action', 'dry-run', 'common:auth:login', '--json'], kExit.failed],
      [['action', 'reload', '--json'], kExit.ok],
    ]
    for (const [argv, code] of runs) {
      const r = await ava(...argv)
      expect(r.code, argv.join(' ')).toBe(code)
      expect(() => JSON.parse(r.out), argv.join(' ')).not.toThrow()
    }
    const v = JSON.parse((await ava('action', 'validate', 'no/such/dir', '--json')).out) as { valid: boolean; files: Array<{ issues: Array<{ code: string }> }> }
    expect(v.valid).toBe(false)
    expect(v.files[0].issues[0].code).toBe('READ_FAILED')
  })
})

describe('ava run fails before a browser starts', () => {
  it('on an unknown action, naming it and the closest one', async () => {
    const r = await ava('run', 'common:auth:logn', '--url', 'http://127.0.0.1:9/')
    expect(r.code).toBe(kExit.failed)
    expect(r.err).toContain('No action "common:auth:logn"')
    expect(r.err).toContain('common:auth:login')
    expect(r.err).not.toMatch(/chromium|browser/i)
  })

  it('on a missing required parameter', async () => {
    const r = await ava('run', 'common:auth:login', '--url', 'http://127.0.0.1:9/', '--param', 'username=alice')
    expect(r.code).toBe(kExit.failed)
    expect(r.err).toMatch(/common:auth:login: .*password/)
    expect(r.err).not.toMatch(/chromium|browser/i)
  })

  it('usage errors exit 2: no target, a bad --timeout, no --url for an action', async () => {
    expect((await ava('run')).code).toBe(kExit.usage)
    expect((await ava('run', 'x', '--timeout', 'soon')).code).toBe(kExit.usage)
    expect((await ava('run', 'common:auth:login', '--param', 'username=a', '--param', 'password=b')).code).toBe(kExit.usage)
  })
})

describe('messages and traces', () => {
  it('internal error class names never reach the person', () => {
    expect(plainMessage(new Error('PortError: The page went away'))).toBe('The page went away')
    expect(plainMessage(new Error('Error: TypeError: x is not a function'))).toBe('x is not a function')
    expect(plainMessage('plain words')).toBe('plain words')
  })

  it('a step the pack lets fail is not a red ✗, and a failed verify says FAILED, not passed', () => {
    const base = { id: '1', owner: 'a:b:c', depth: 0, action: 'wait', input: {}, attempts: 1, durationMs: 5 }
    const ok: ActionResult = {
      success: true,
      action: 'common:auth:login',
      durationMs: 10,
      trace: [
        { ...base, status: 'ok' },
        { ...base, id: '2', status: 'continued', error: { code: 'ELEMENT_NOT_FOUND', message: 'gone' } },
      ],
    } as unknown as ActionResult
    const lines = formatActionTrace(ok)
    expect(lines.filter((l) => l.startsWith('✗'))).toEqual([])
    expect(lines.at(-1)).toMatch(/^passed: common:auth:login/)
    const failed = { ...ok, success: false, error: { code: 'VERIFY_FAILED', message: 'Still on the login form' } } as unknown as ActionResult
    expect(formatActionTrace(failed).at(-1)).toBe('FAILED: common:auth:login: VERIFY_FAILED Still on the login form')
    expect(formatActionTrace(failed).join('\n')).not.toContain('passed')
  })

  it('the engine gets only the environment variables a pack reads, so "1" is not masked everywhere', () => {
    const registry = createRegistry(() => [])
    registry.load([
      { source: 'env-path', files: [{ path: 'p.yaml', text: 'namespace: p\nversion: 1.0.0\nactions:\n  a:b:\n    description: Reads a token.\n    steps:\n      - action: wait\n        args: { ms: 1 }\n    returns:\n      t: "${env.P_TOKEN}"\n' }] },
    ])
    expect(actionEnv(registry, { P_TOKEN: 's3cret', SHLVL: '1', HOME: '/root' })).toEqual({ P_TOKEN: 's3cret' })
  })
})
