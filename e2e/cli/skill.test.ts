import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Lexer, type Tokens } from 'marked'
import { chromiumPath } from '../support/browser'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { isFailureCode } from '../../src/core/failure'

// SKILL.md teaches a coding agent the commands to run; this runs every one it shows, as the agent
// would type it in a project that has the package (`npx ava …` from node_modules/.bin, no
// registry), against the sample app for https://shop.example and the loopback model. A command
// marked `# exits 1` must fail with 1; every other must pass.

const root = resolve(import.meta.dirname, '../..')
const out = resolve(root, '.ava-out/e2e-skill')
const bin = join(out, 'ava.js')
const skill = readFileSync(resolve(root, 'SKILL.md'), 'utf8')

let site: SiteServer
let llm: LlmServer
let project: string

/** Every line of the SKILL's sh blocks, without comments of their own. */
function commands(): { line: string; exit: number }[] {
  const blocks = Lexer.lex(skill).filter(
    (t): t is Tokens.Code => t.type === 'code' && (t.lang === 'sh' || t.lang === 'bash'),
  )
  return blocks.flatMap((b) =>
    b.text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => ({ line: l, exit: /#\s*exits 1\b/.test(l) ? 1 : 0 })),
  )
}

function sh(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      'sh',
      ['-c', line.replaceAll('https://shop.example', site.url)],
      {
        cwd: project,
        timeout: 180_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: join(project, '.home'),
          npm_config_offline: 'true',
          npm_config_update_notifier: 'false',
          AVA_CHROMIUM: chromiumPath,
          SHOP_PASSWORD: 'wonderland',
          AVA_PROVIDER: 'openai',
          AVA_BASE_URL: llm.baseUrl,
          AVA_MODEL: 'test-model',
          AVA_API_KEY: 'k',
        },
      },
      (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    )
  })
}

beforeAll(async () => {
  mkdirSync(out, { recursive: true })
  const build = new Promise<void>((done, fail) =>
    execFile(
      process.execPath,
      [resolve(root, 'scripts/build-cli.mjs')],
      { cwd: root, env: { ...process.env, AVA_CLI_OUTFILE: bin } },
      (e) => (e ? fail(e) : done()),
    ),
  )
  ;[site, llm] = await Promise.all([startSiteServer(), startLlmServer(), build])
  // A project as the SKILL assumes it: the package's bin on node_modules/.bin, a recorded flow in .ava/flows.
  project = mkdtempSync(join(tmpdir(), 'ava-skill-'))
  writeFileSync(
    join(project, 'package.json'),
    '{\n  "name": "shop-tests",\n  "version": "1.0.0",\n  "type": "commonjs"\n}\n',
  )
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true })
  symlinkSync(bin, join(project, 'node_modules/.bin/ava'))
  mkdirSync(join(project, '.ava/flows'), { recursive: true })
  copyFileSync(
    resolve(root, 'e2e/playwright-test/flows/order-742.flow.json'),
    join(project, '.ava/flows/order-742.flow.json'),
  )
}, 120_000)

afterAll(async () => {
  await Promise.all([site?.close(), llm?.close()])
  if (project) rmSync(project, { recursive: true, force: true })
})

test('SKILL.md opens with the front matter agents read: a name and a description', () => {
  const front = /^---\nname: ([a-z0-9-]+)\ndescription: (.+)\n---\n/.exec(skill)
  expect(front?.[1]).toBe('ava')
  expect(front?.[2].length).toBeGreaterThan(100)
})

test('every refusal code SKILL.md explains is a code of the failure list', () => {
  const table = skill.slice(skill.indexOf('## When Ava refuses'))
  const codes = [...table.matchAll(/^\| `([A-Z_]+)`(?:, `([A-Z_]+)`)?(?:, `([A-Z_]+)`)? \|/gm)].flatMap((m) =>
    m.slice(1).filter(Boolean),
  )
  expect(codes.length).toBeGreaterThan(10)
  for (const code of codes) expect(isFailureCode(code), code).toBe(true)
})

test('every command SKILL.md shows runs as it says', async () => {
  const shown = commands()
  expect(shown.map((c) => c.line.split(' ').slice(0, 3).join(' '))).toEqual([
    'npx ava doctor',
    'npx ava action',
    'npx ava action',
    'npx ava action',
    'npx ava action',
    'npx ava run',
    'npx ava run',
    'npx ava run',
    'npx ava action',
    'npx ava mcp',
  ])
  for (const { line, exit } of shown) {
    if (line.startsWith('npx ava doctor')) llm.script({ text: 'OK' })
    const r = await sh(line)
    expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(exit)
    // A failure said with --json is the documented shape, with a code of the list.
    if (exit && line.includes('--json'))
      expect(JSON.parse(r.stdout)).toMatchObject({ success: false, error: { code: 'VERIFY_FAILED' } })
  }
}, 900_000)
