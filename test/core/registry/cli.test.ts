import { describe, it, expect } from 'vitest'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = resolve(import.meta.dirname, '../../..')
const fixtures = join(root, 'test/fixtures/packs')
const home = mkdtempSync(join(tmpdir(), 'ava-home-'))
// By path, so the CLI also starts from folders without node_modules (the project test below).
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href

function ava(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, ['--import', tsx, join(root, 'src/cli/ava.ts'), ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, HOME: home, AVA_ACTIONS_PATH: '', ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

describe('ava action (CLI)', { timeout: 60_000 }, () => {
  it('list shows the built-in namespaces and their actions', () => {
    const r = ava(['action', 'list'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^common 1\.0\.0/m)
    expect(r.out).toMatch(/^ {2}elementplus:select:choose +Choose an option/m)
    const one = ava(['action', 'list', 'common'])
    expect(one.out).not.toContain('elementplus')
    expect(ava(['action', 'list', 'nope']).code).toBe(1)
  })

  it('describe prints text, or JSON with --json', () => {
    const text = ava(['action', 'describe', 'common:auth:login'])
    expect(text.code).toBe(0)
    expect(text.out).toContain('\n    password  string, required, secret')
    const json = ava(['action', 'describe', 'common:auth:login', '--json'])
    expect(JSON.parse(json.out)).toMatchObject({
      name: 'common:auth:login',
      paramDetails: { password: { secret: true } },
    })
    const missing = ava(['action', 'describe', 'common:auth:logn'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain('Did you mean "common:auth:login"?')
  })

  it('search finds by keyword', () => {
    const r = ava(['action', 'search', 'cookie'])
    expect(r.code).toBe(0)
    expect(
      r.out
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[0]),
    ).toEqual(['common:cookies:dismiss'])
    expect(ava(['action', 'search', 'zzzz']).code).toBe(1)
  })

  it('validate passes the built-in packs with exit 0', () => {
    const r = ava(['action', 'validate', 'actions'])
    expect(r.out).toBe('')
    expect(r.code).toBe(0)
  })

  it('validate prints path:line:col: CODE message per problem and exits 1', () => {
    const r = ava([
      'action',
      'validate',
      'test/fixtures/packs/broken/unknown-scope.yaml',
      'test/fixtures/packs/broken/duplicate-keys.yaml',
      'test/fixtures/packs/valid',
    ])
    expect(r.code).toBe(1)
    const lines = r.out.trim().split('\n')
    expect(lines).toEqual([
      'test/fixtures/packs/broken/unknown-scope.yaml:9:26: UNKNOWN_SCOPE Unknown variable scope "foo" in "foo.bar"; allowed: params, env, selectors, steps.',
      'test/fixtures/packs/broken/duplicate-keys.yaml:9:3: YAML_DUPLICATE_KEY Map keys must be unique (DUPLICATE_KEY)',
    ])
    expect(r.err).toContain('2 of 4 files invalid')
    const missing = ava(['action', 'validate', 'no/such/dir'])
    expect(missing.code).toBe(1)
    expect(missing.out).toContain('no/such/dir:1:1: READ_FAILED')
  })

  it('dry-run resolves params and prints the plan without running anything', () => {
    const r = ava([
      'action',
      'dry-run',
      'common:auth:login',
      '--param',
      'username=bob',
      '--param',
      'password=hunter22',
      '--param=submit=false',
    ])
    expect(r.code).toBe(0)
    expect(r.out).toContain('params: {"username":"bob","password":"***","submit":false}')
    expect(r.out).toContain('3. [skip] click')
    expect(r.out).not.toContain('hunter22')
    const old = ava([
      'action',
      'dry-run',
      'elementplus:select:choose',
      '--param',
      'label=A',
      '--param',
      'option=B',
      '--lib-version',
      '2.3.0',
      '--json',
    ])
    expect(JSON.parse(old.out).plan.overridesApplied).toEqual(['<2.5.0'])
    const bad = ava(['action', 'dry-run', 'common:auth:login'])
    expect(bad.code).toBe(1)
    expect(bad.out).toContain('error: PARAM_REQUIRED')
  })

  it('reload says there is nothing to do', () => {
    const r = ava(['action', 'reload'])
    expect(r.code).toBe(0)
    expect(r.out).toContain('Nothing to reload')
  })

  it('loads ~/.ava/actions, ./.ava/actions and AVA_ACTIONS_PATH after the built-ins, later overriding', () => {
    const project = mkdtempSync(join(tmpdir(), 'ava-project-'))
    mkdirSync(join(home, '.ava/actions'), { recursive: true })
    mkdirSync(join(project, '.ava/actions'), { recursive: true })
    cpSync(join(fixtures, 'valid/shop.yaml'), join(home, '.ava/actions/shop.yaml'))
    writeFileSync(
      join(project, '.ava/actions/shop.yaml'),
      'namespace: shop\nversion: 1.2.0\nactions:\n  cart:open:\n    description: Project override of cart open.\n    steps:\n      - action: wait\n        args: { ms: 1 }\n',
    )
    const extra = mkdtempSync(join(tmpdir(), 'ava-extra-'))
    cpSync(join(fixtures, 'valid/shop-plus.yaml'), join(extra, 'shop-plus.yaml'))
    const r = ava(['action', 'describe', 'shop:cart:open', '--json'], {
      cwd: project,
      env: { AVA_ACTIONS_PATH: ['/does/not/exist', extra].join(delimiter) },
    })
    expect(JSON.parse(r.out)).toMatchObject({
      description: 'Project override of cart open.',
      source: { source: 'cli-project' },
    })
    const list = ava(['action', 'list'], { cwd: project, env: { AVA_ACTIONS_PATH: extra } })
    expect(list.out).toMatch(/^shopplus 2\.0\.0/m)
    expect(list.out).toContain('shop:product:find')
  })

  it('unknown commands print usage and exit 2', () => {
    const r = ava(['action', 'frobnicate'])
    expect(r.code).toBe(2)
    expect(r.err).toContain('Usage: ava action <command>')
  })
})
