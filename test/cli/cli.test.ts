import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  jsonFailure,
  kExit,
  oneLine,
  openFailure,
  parseCommand,
  parseParams,
  plainMessage,
  type CommandSpec,
} from '../../src/cli/args'
import { kUsage, main } from '../../src/cli/ava'
import { formatActionTrace, stepMessage } from '../../src/cli/run'
import { formatReport, stepCount } from '../../src/core/flows/format'
import { failureMsg } from '../../src/core/failure'
import { renderEn } from '../../src/core/locales/render'
import en from '../../src/core/locales/en'
import type { FlowRunResult } from '../../src/core/flows'
import { kRunSpec } from '../../src/cli/run-spec'
import { actionEnv } from '../../src/cli/sources'
import { createRegistry, type ActionResult } from '../../src/core/registry'

// The CLI's argument handling and exit codes, in process: main() with a captured io. Packs come
// from the built-in actions/ only (HOME and AVA_ACTIONS_PATH point nowhere).

let home: string
const saved = {
  HOME: process.env.HOME,
  AVA_ACTIONS_PATH: process.env.AVA_ACTIONS_PATH,
  AVA_CHROMIUM: process.env.AVA_CHROMIUM,
}
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

const kCommands = [
  ['run'],
  ['action', 'list'],
  ['action', 'describe'],
  ['action', 'search'],
  ['action', 'validate'],
  ['action', 'dry-run'],
  ['action', 'reload'],
]

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
      for (const argv of [
        [...c, '--help'],
        [...c, '-h'],
        ['help', ...c],
        [...c, 'some-arg', '--help'],
      ]) {
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
    const r = await ava(
      'action',
      'dry-run',
      'common:auth:login',
      '--param',
      'username=bob',
      '--param',
      'password=hunter22',
    )
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
      [
        ['action', 'dry-run', 'common:auth:login', '--param', 'username=a', '--param', 'password=b', '--json'],
        kExit.ok,
      ],
      [['action', 'dry-run', 'common:auth:login', '--json'], kExit.failed],
      [['action', 'reload', '--json'], kExit.ok],
    ]
    for (const [argv, code] of runs) {
      const r = await ava(...argv)
      expect(r.code, argv.join(' ')).toBe(code)
      expect(() => JSON.parse(r.out), argv.join(' ')).not.toThrow()
    }
    const v = JSON.parse((await ava('action', 'validate', 'no/such/dir', '--json')).out) as {
      valid: boolean
      files: Array<{ issues: Array<{ code: string }> }>
    }
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
    expect((await ava('run', 'common:auth:login', '--param', 'username=a', '--param', 'password=b')).code).toBe(
      kExit.usage,
    )
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
    const failed = {
      ...ok,
      success: false,
      error: { code: 'VERIFY_FAILED', message: 'Still on the login form' },
    } as unknown as ActionResult
    // The verdict names the code; under it the popup's sentence for it and the pack's own words.
    expect(formatActionTrace(failed).slice(-4)).toEqual([
      'FAILED: common:auth:login: VERIFY_FAILED',
      `   ${renderEn({ key: 'action.failed', params: { reason: en['action.reason.VERIFY_FAILED'] } })}`,
      '   detail: Still on the login form',
      `   hint: ${en['failure.hint.VERIFY_FAILED']}`,
    ])
    expect(formatActionTrace(failed).join('\n')).not.toContain('passed')
  })

  it('the engine gets only the environment variables a pack reads, so "1" is not masked everywhere', () => {
    const registry = createRegistry(() => [])
    registry.load([
      {
        source: 'env-path',
        files: [
          {
            path: 'p.yaml',
            text: 'namespace: p\nversion: 1.0.0\nactions:\n  a:b:\n    description: Reads a token.\n    steps:\n      - action: wait\n        args: { ms: 1 }\n    returns:\n      t: "${env.P_TOKEN}"\n',
          },
        ],
      },
    ])
    expect(actionEnv(registry, { P_TOKEN: 's3cret', SHLVL: '1', HOME: '/root' })).toEqual({ P_TOKEN: 's3cret' })
  })
})

describe('--json: every outcome is one JSON object on stdout', () => {
  it('failures before a run starts keep their exit code and say why in { success: false, error }', async () => {
    const runs: Array<[string[], number, string, RegExp]> = [
      [
        ['action', 'run', 'nope:a:b', '--json'],
        kExit.failed,
        'ACTION_NOT_FOUND',
        /^No action "nope:a:b"\. Run `ava action list`/,
      ],
      [
        ['run', 'common:auth:logn', '--url', 'http://127.0.0.1:9/', '--json'],
        kExit.failed,
        'ACTION_NOT_FOUND',
        /Did you mean "common:auth:login"\?/,
      ],
      [
        ['action', 'run', 'common:auth:login', '--json'],
        kExit.failed,
        'FAILED',
        /^common:auth:login: .*"username" is required/,
      ],
      [
        ['action', 'debug', 'common:auth:login', '--param', 'username=a', '--param', 'password=b', '--json'],
        kExit.usage,
        'USAGE_ERROR',
        /^give the page to start on with --url$/,
      ],
      [
        ['run', 'common:auth:login', '--bogus', '--json'],
        kExit.usage,
        'USAGE_ERROR',
        /^unknown option --bogus; give action parameters as --param bogus=<value>$/,
      ],
      [['run', '--json'], kExit.usage, 'USAGE_ERROR', /^give a flow file, a pack file or an action name\.$/],
      [['action', 'dry-run', '--json'], kExit.usage, 'USAGE_ERROR', /^dry-run needs an action name/],
      [['action', 'describe', 'nope:a:b', '--json'], kExit.failed, 'ACTION_NOT_FOUND', /^No action "nope:a:b"/],
      [['action', 'frobnicate', '--json'], kExit.usage, 'USAGE_ERROR', /^unknown command "action frobnicate"$/],
      [['frobnicate', '--json'], kExit.usage, 'USAGE_ERROR', /^unknown command "frobnicate"$/],
      [
        [
          'action',
          'run',
          'common:auth:login',
          '--param',
          'username=a',
          '--param',
          'password=b',
          '--url',
          'http://127.0.0.1:9/',
          '--json',
        ],
        kExit.failed,
        'FAILED',
        /^the page script is built into bin\/ava\.js/,
      ],
    ]
    for (const [argv, code, errorCode, message] of runs) {
      const r = await ava(...argv)
      const what = argv.join(' ')
      expect(r.code, what).toBe(code)
      const doc = JSON.parse(r.out) as { success: boolean; error: { code: string; message: string; exitCode: number } }
      expect(doc, what).toMatchObject({ success: false, error: { code: errorCode, exitCode: code } })
      expect(doc.error.message, what).toMatch(message)
      // stderr still says it, for a person watching the job.
      expect(r.err, what).toContain(doc.error.message)
    }
  })

  it('without --json nothing extra reaches stdout, and a "--json" after "--" is not the flag', async () => {
    const r = await ava('action', 'run', 'nope:a:b')
    expect(r.out).toBe('')
    expect((await ava('action', 'search', '--', '--json')).out).not.toMatch(/"success": false/)
  })

  it('jsonFailure takes the first line and drops the command prefix', () => {
    expect(
      JSON.parse(
        jsonFailure(kExit.usage, ['ava action run: unknown option --x\nRun `ava action run --help` for its options.']),
      ),
    ).toEqual({
      success: false,
      error: { code: 'USAGE_ERROR', message: 'unknown option --x', exitCode: 2 },
    })
    expect(JSON.parse(jsonFailure(kExit.internal, []))).toMatchObject({
      error: { code: 'INTERNAL_ERROR', message: 'failed' },
    })
  })
})

describe('a page that does not open', () => {
  // What Playwright's page.goto throws: a call log with terminal colour codes.
  const raw = (first: string) =>
    new Error(
      `page.goto: ${first}\nCall log:\n\u001b[2m  - navigating to "http://127.0.0.1:9/", waiting until "load"\u001b[22m\n`,
    )
  it('is one plain line naming the address and why', () => {
    expect(openFailure('http://127.0.0.1:8/', raw('net::ERR_CONNECTION_REFUSED at http://127.0.0.1:8/'))).toBe(
      'Could not open http://127.0.0.1:8/: connection refused',
    )
    expect(openFailure('http://x.invalid/', raw('net::ERR_NAME_NOT_RESOLVED at http://x.invalid/'))).toBe(
      'Could not open http://x.invalid/: no such host',
    )
    expect(openFailure('http://slow/', raw('Timeout 30000ms exceeded.'))).toBe(
      'Could not open http://slow/: it did not load within 30 s',
    )
    expect(openFailure('http://a/', raw('net::ERR_SSL_PROTOCOL_ERROR at http://a/'))).toBe(
      'Could not open http://a/: ssl protocol error',
    )
    for (const e of [
      raw('net::ERR_CONNECTION_REFUSED at x'),
      raw('Timeout 30000ms exceeded.'),
      raw('something else'),
    ]) {
      const line = openFailure('http://a/', e)
      expect(line).not.toMatch(/Call log|\n|page\.goto/)
      expect(line).not.toContain('\u001b')
    }
    expect(oneLine(raw('Target page, context or browser has been closed'))).toBe(
      'Target page, context or browser has been closed',
    )
  })
})

describe('a run is said once', () => {
  const step = { owner: 'common:page:search', depth: 0, input: {}, attempts: 1, durationMs: 1490 }
  const failed = {
    success: false,
    action: 'common:page:search',
    durationMs: 1515,
    trace: [
      {
        ...step,
        id: '1',
        action: 'fill',
        status: 'failed',
        error: {
          code: 'ELEMENT_NOT_FOUND',
          message:
            'Step 1 (fill) failed: No element matches selector "search_input"; tried "css:input[type=\'search\']", "role:searchbox".',
        },
      },
    ],
    error: {
      code: 'ELEMENT_NOT_FOUND',
      message:
        'Step 1 (fill) failed: No element matches selector "search_input"; tried "css:input[type=\'search\']", "role:searchbox".',
    },
  } as unknown as ActionResult

  it("a failed step: the why on the step's line only", () => {
    const lines = formatActionTrace(failed)
    expect(lines).toEqual([
      [
        '✗  1 fill         failed: ELEMENT_NOT_FOUND — 1490 ms',
        `   ${renderEn(failureMsg('ELEMENT_NOT_FOUND', { n: '1' }))}`,
        `   detail: No element matches selector "search_input"; tried "css:input[type='search']", "role:searchbox".`,
        `   hint: ${en['failure.hint.ELEMENT_NOT_FOUND']}`,
      ].join('\n'),
      'FAILED: common:page:search at step 1 in 1515 ms',
    ])
    expect(lines.join('\n')).not.toContain('${')
    expect(lines.filter((l) => l.includes('No element matches'))).toHaveLength(1)
    expect(stepMessage('Step 2.fallback.1 (run a:b:c) failed: x')).toBe('x')
  })

  it('a pass is one verdict line; a flow says "1 step" and "3 steps", also when its step lines were printed live', () => {
    const ok = {
      ...failed,
      success: true,
      error: undefined,
      trace: [{ ...step, id: '1', action: 'fill', status: 'ok' }],
    } as unknown as ActionResult
    expect(formatActionTrace(ok).filter((l) => /passed|FAILED/.test(l))).toEqual([
      'passed: common:page:search in 1515 ms',
    ])
    expect([0, 1, 2, 3].map(stepCount)).toEqual(['0 steps', '1 step', '2 steps', '3 steps'])
    const flow = (n: number, success: boolean): FlowRunResult =>
      ({
        success,
        flow: 'Sign up',
        durationMs: 417.4,
        heals: [],
        steps: Array.from({ length: n }, (_, i) => ({
          step_id: i + 1,
          action: 'click',
          status: 'ok',
          durationMs: 1,
          resolveMs: 0,
          level: 'role',
          alternative: 0,
        })),
      }) as unknown as FlowRunResult
    expect(formatReport(flow(1, true), { steps: false })).toEqual(['passed: Sign up, 1 step in 417 ms'])
    expect(formatReport(flow(3, false)).at(-1)).toBe('FAILED: Sign up, 3 steps in 417 ms')
    expect(formatReport(flow(3, true)).filter((l) => /passed/.test(l))).toHaveLength(1)
  })
})

describe('action describe of a name that does not exist', () => {
  it('says what `ava action run` says: the closest name, else where to look', async () => {
    const close = await ava('action', 'describe', 'common:auth:logn')
    expect(close.code).toBe(kExit.failed)
    expect(close.err).toContain('Did you mean "common:auth:login"?')
    const far = await ava('action', 'describe', 'nope:a:b')
    const run = await ava('action', 'run', 'nope:a:b', '--url', 'http://127.0.0.1:9/')
    expect(far.err).toBe(run.err.replace(/^ava action run: /, 'ava action describe: '))
    expect(far.err).toContain('Run `ava action list` or `ava action search <keyword>`')
  })
})
