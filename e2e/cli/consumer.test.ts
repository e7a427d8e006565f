import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// The package as a developer first meets it (docs/flows.md, "Playwright Test"; docs/mcp.md, "As a
// library"): the packed tarball checked by the ecosystem's own tools, then installed beside
// @playwright/test into a project made by `npm init -y` (CommonJS, as npm writes it) and into an ES
// module one. In each, a spec runs through the fixture against a local page, both entries load with
// require() and import, and a file that uses their types compiles under node16, nodenext and bundler
// with the library check on (skipLibCheck would hide a broken declaration, and turn it into any).

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = (pkg: string, file: string) => join(root, 'node_modules', pkg, file)
/** The versions this repository tests with, so the installs come from the local npm cache. */
const version = (pkg: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version

interface Run {
  code: number
  out: string
}
async function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<Run> {
  try {
    const r = await exec(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      timeout: opts.timeout ?? 120_000,
      maxBuffer: 16 << 20,
    })
    return { code: 0, out: `${r.stdout}\n${r.stderr}` }
  } catch (e) {
    const x = e as { code: number | string; stdout?: string; stderr?: string; message: string }
    return { code: typeof x.code === 'number' ? x.code : 1, out: `${x.stdout ?? ''}\n${x.stderr ?? ''}\n${x.message}` }
  }
}

let site: SiteServer
let packDir: string
let tarball: string

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/manifest.json')) || !existsSync(join(root, 'lib')))
    throw new Error('Run `npm run build` first: this test packs what it built.')
  packDir = mkdtempSync(join(tmpdir(), 'ava-consumer-pack-'))
  // What `npm run build` made before the e2e tier; not rebuilt here (another e2e file loads dist/).
  await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: root, timeout: 120_000 })
  tarball = join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith('.tgz'))!,
  )
  site = await startSiteServer()
}, 150_000)
afterAll(async () => {
  await site?.close()
  if (packDir) rmSync(packDir, { recursive: true, force: true })
})

describe('the packed tarball', () => {
  test(
    '@arethetypeswrong/cli finds every entry typed right under node16 (CommonJS and ESM) and bundler',
    { timeout: 150_000 },
    async () => {
      // The node16 profile leaves out node10, whose resolution predates `exports`.
      const r = await run(
        process.execPath,
        [bin('@arethetypeswrong/cli', 'dist/index.js'), tarball, '--profile', 'node16', '--format', 'json'],
        { cwd: packDir },
      )
      expect(r.code, r.out).toBe(0)
      const { analysis } = JSON.parse(r.out.slice(r.out.indexOf('{'), r.out.lastIndexOf('}') + 1)) as {
        analysis: {
          problems: { kind: string; entrypoint: string; resolutionKind?: string }[]
          entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }>
        }
      }
      expect(analysis.problems.filter((p) => p.resolutionKind !== 'node10')).toEqual([])
      for (const entry of ['./playwright', './mcp']) {
        const types = Object.fromEntries(
          ['node16-cjs', 'node16-esm', 'bundler'].map((k) => [
            k,
            analysis.entrypoints[entry].resolutions[k].resolution?.fileName,
          ]),
        )
        expect(Object.values(types), entry).toEqual(
          Array(3).fill(`/node_modules/ava-assistant/lib/${entry.slice(2)}.d.cts`),
        )
      }
    },
  )

  test('publint finds nothing to fix, warnings included', async () => {
    const r = await run(process.execPath, [bin('publint', 'src/cli.js'), 'run', tarball, '--strict'], { cwd: packDir })
    expect(r.code, r.out).toBe(0)
    expect(r.out).toContain('All good!')
  })
})

const kConfig = `import { defineConfig } from '@playwright/test'
import type { AvaOptions } from 'ava-assistant/playwright'
export default defineConfig<AvaOptions>({ testDir: '.', workers: 1, retries: 0, reporter: 'line', use: { baseURL: process.env.SITE_URL, headless: true } })
`
const kSpec = `import { test, expect } from 'ava-assistant/playwright'
test('alice signs in with a built-in action', async ({ page, ava }) => {
  const r = await ava.run('common:auth:login', { username: 'alice', password: process.env.ACME_PASSWORD }, { url: '/login', allow: ['credentials'] })
  expect(r.success).toBe(true)
  expect(r.steps.length).toBeGreaterThan(0)
  await expect(page).toHaveURL(/\\/dashboard$/)
  await expect(page.locator('#greeting')).toHaveText('Welcome, alice')
})
`
/** Compiled, never run: the public types as a developer's editor sees them. */
const kTyped = `import { test, expect, AvaRunError, type AvaOptions, type AvaRunReport, type Flow } from 'ava-assistant/playwright'
import { createAvaMcpServer, chromiumPlace, allowListAsker, parseAllow, modelFromEnv, kServerInfo, McpToolError, type McpOptions } from 'ava-assistant/mcp'

type IsAny<T> = 0 extends 1 & T ? true : false
const notAny = <T>(_value: T, isAny: IsAny<T>) => isAny

export const options: Partial<AvaOptions> = { avaChromium: '/usr/bin/chromium', avaTrace: 'off', avaProvider: { provider: 'openai', model: 'm' } }
const flow: Flow = { version: '1.0', metadata: { name: 'Sign in', created_at: '2026-01-01T00:00:00Z' }, steps: [{ step_id: 1, action: 'navigate', params: { url: '/login' } }] }

test('typed', async ({ page, ava }) => {
  const r: AvaRunReport = await ava.run('common:auth:login', { username: 'alice' }, { url: '/login', allow: ['credentials'] })
  notAny(r.steps, false)
  notAny(r.steps[0], false)
  const ms: number = r.steps[0].durationMs
  const ok: boolean = r.result.success
  const one = await ava.step(flow, 1)
  const status: 'ok' | 'failed' = one.status
  const answer: string = (await ava.ask('hello')).text
  // @ts-expect-error a run's parameters are text
  await ava.run('common:auth:login', { username: 42 })
  // @ts-expect-error the report has no such field
  r.nothing
  await expect(page).toHaveURL(/dashboard/)
  return [ms, ok, status, answer, new AvaRunError(r, 'x').report]
})

const llm = modelFromEnv({ AVA_MODEL_PROVIDER: 'openai' })
const allow = parseAllow(['credentials'])
const o: McpOptions = { place: chromiumPlace({ executablePath: '/usr/bin/chromium', headed: false }), asker: allowListAsker(typeof allow === 'string' ? [] : allow), stepLimit: 10, sites: { allow: [], deny: [] }, secrets: [], flowDirs: [], llm }
const server = createAvaMcpServer(o)
notAny(server, false)
export const closed: Promise<void> = server.close()
export const name: string = kServerInfo.name
export const code = (e: unknown) => (e instanceof McpToolError ? e.code : undefined)
`
const kResolutions = { node16: 'node16', nodenext: 'nodenext', bundler: 'esnext' } as const

describe.each([
  { kind: 'CommonJS (`npm init -y`)', type: 'commonjs' },
  { kind: 'ES module', type: 'module' },
])('a $kind project that installs the tarball', ({ type }) => {
  let project: string
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), `ava-consumer-${type}-`))
    await exec('npm', ['init', '-y'], { cwd: project })
    if (type === 'module') await exec('npm', ['pkg', 'set', 'type=module'], { cwd: project })
    // As npm writes it: a project made by `npm init -y` says "commonjs" (npm 10.9 on) or nothing.
    expect(
      (JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string }).type ?? 'commonjs',
    ).toBe(type)
    const deps = [tarball, `@playwright/test@${version('@playwright/test')}`, `@types/node@${version('@types/node')}`]
    const r = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...deps], {
      cwd: project,
      timeout: 120_000,
    })
    expect(r.code, r.out).toBe(0)
    writeFileSync(join(project, 'playwright.config.ts'), kConfig)
    writeFileSync(join(project, 'login.spec.ts'), kSpec)
    writeFileSync(join(project, 'typed.ts'), kTyped)
    for (const [resolution, module] of Object.entries(kResolutions)) {
      const compilerOptions = {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module,
        moduleResolution: resolution,
        skipLibCheck: false,
        types: ['node'],
      }
      writeFileSync(
        join(project, `tsconfig.${resolution}.json`),
        JSON.stringify({ compilerOptions, files: ['typed.ts'] }, null, 2),
      )
    }
  }, 150_000)
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true })
  })

  test('npx playwright test passes a spec that imports ava-assistant/playwright', async () => {
    // No AVA_DIST: the fixture finds the extension the package ships.
    const { AVA_DIST: _dist, ...env } = process.env
    const r = await run('npx', ['--no-install', 'playwright', 'test'], {
      cwd: project,
      env: { ...env, SITE_URL: site.url, ACME_PASSWORD: 'wonderland', AVA_CHROMIUM: chromiumPath, CI: '' },
      timeout: 120_000,
    })
    expect(r.code, r.out).toBe(0)
    expect(r.out).toMatch(/1 passed/)
    expect(site.hits.map((h) => `${h.method} ${h.path}`)).toEqual(
      expect.arrayContaining(['POST /login', 'GET /dashboard']),
    )
  }, 150_000)

  test('both entries load with require() and with import, with the same exports', async () => {
    const names = "Object.keys(m).filter((k) => k !== 'default' && k !== 'module.exports').sort().join(' ')"
    for (const entry of ['ava-assistant/playwright', 'ava-assistant/mcp']) {
      const required = await run(process.execPath, ['-e', `const m = require('${entry}'); console.log(${names})`], {
        cwd: project,
      })
      const imported = await run(
        process.execPath,
        ['--input-type=module', '-e', `const m = await import('${entry}'); console.log(${names})`],
        { cwd: project },
      )
      expect(required.code, required.out).toBe(0)
      expect(imported.code, imported.out).toBe(0)
      expect(imported.out.trim()).toBe(required.out.trim())
    }
    const lib = await run(
      process.execPath,
      ['-e', "console.log(Object.keys(require('ava-assistant/mcp')).sort().join(' '))"],
      { cwd: project },
    )
    expect(lib.out).toMatch(/chromiumPlace .*createAvaMcpServer/)
    const fixture = await run(
      process.execPath,
      [
        '-e',
        "const { test, expect } = require('ava-assistant/playwright'); console.log(typeof test.extend, typeof expect)",
      ],
      { cwd: project },
    )
    expect(fixture.out.trim()).toBe('function function')
    // Six Node processes, each loading a 2.6 or 4.7 MB bundle: 40 s seen on a loaded machine.
  }, 180_000)

  test.each(Object.keys(kResolutions))(
    'a file using the types compiles under moduleResolution %s',
    async (resolution) => {
      const r = await run(process.execPath, [bin('typescript', 'bin/tsc'), '-p', `tsconfig.${resolution}.json`], {
        cwd: project,
        timeout: 170_000,
      })
      expect(r.code, r.out).toBe(0)
      // With the library check on, TypeScript reads all of @types/node and Playwright's types: 3 s on
      // an idle machine, 60 s seen on a loaded 2-core one.
    },
    180_000,
  )
})
