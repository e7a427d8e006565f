import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// The CLI as a user gets it: `npm pack` (prepack builds bin/ava.js), then `npx` from the tarball in
// an empty folder, so only what the package ships and declares can be found.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

let site: SiteServer
let packDir: string
let workDir: string
let tarball: string
/** Where npx installed the tarball (in the npm cache); removed afterwards. */
let installDir: string | undefined

async function npx(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // --prefer-offline: playwright-core comes from the local npm cache when it is there.
  const argv = ['--yes', '--prefer-offline', '--no-audit', '--no-fund', '--package', tarball, '--', ...args]
  try {
    const r = await exec('npx', argv, {
      cwd: workDir,
      env: { ...process.env, AVA_CHROMIUM: chromiumPath, AVA_ACTIONS_PATH: '' },
      timeout: 45_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/manifest.json')) || !existsSync(join(root, 'bin/ava.js')))
    throw new Error('Run `npm run build` first: this test packs what it built.')
  packDir = mkdtempSync(join(tmpdir(), 'ava-pack-'))
  workDir = mkdtempSync(join(tmpdir(), 'ava-npx-'))
  // Packs what `npm run build` made before the e2e tier (the tarball's prepack runs the same build).
  // Not rebuilt here: the other e2e file running beside this one loads dist/ while a build would be
  // emptying and rewriting it.
  await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: root, timeout: 120_000 })
  tarball = join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith('.tgz'))!,
  )
  site = await startSiteServer()
})
afterAll(async () => {
  await site?.close()
  // npx keeps one install per tarball path; a fresh path each run would pile them up in the cache.
  if (installDir && basename(dirname(installDir)) === '_npx') rmSync(installDir, { recursive: true, force: true })
  for (const dir of [packDir, workDir]) if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('ava from a packed tarball', () => {
  test('ships the built CLI, fixture, MCP server, extension and packs, not the sources', async () => {
    const { stdout } = await exec('tar', ['-tzf', tarball])
    const files = stdout.trim().split('\n').sort()
    for (const f of [
      'bin/ava.js',
      'lib/playwright.cjs',
      'lib/playwright.d.cts',
      'lib/mcp.cjs',
      'lib/mcp.d.cts',
      'dist/manifest.json',
      'actions/common.yaml',
      'docs/mcp.md',
      'docs/flows.md',
      'docs/action-packs.md',
    ])
      expect(files).toContain(`package/${f}`)
    const top = new Set(files.map((f) => f.split('/').slice(0, 2).join('/')))
    for (const t of [
      'package/README.md',
      'package/package.json',
      'package/bin',
      'package/lib',
      'package/dist',
      'package/actions',
      'package/docs',
    ])
      expect(top).toContain(t)
    // Nothing else but the skill file for coding agents.
    expect(
      [...top].filter((t) => !/^package\/(README\.md|SKILL\.md|package\.json|bin|lib|dist|actions|docs)$/.test(t)),
    ).toEqual([])
    // TypeScript only as declarations: nothing in the package needs a TypeScript loader.
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([])
    const manifest = JSON.parse((await exec('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as Record<
      string,
      any
    >
    expect(manifest.private).toBeUndefined()
    expect(manifest.peerDependencies).toHaveProperty('@playwright/test')
    expect(manifest.peerDependenciesMeta['@playwright/test'].optional).toBe(true)
  })

  test('installs with playwright-core as its only dependency and prints its usage', async () => {
    const help = await npx(['ava', '--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: ava /)
    const where = await npx(['sh', '-c', 'command -v ava'])
    installDir = dirname(dirname(dirname(realpathSync(where.stdout.trim())))) // …/node_modules/ava-assistant/bin/ava.js
    expect(
      readdirSync(installDir)
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['ava-assistant', 'playwright-core'])
    installDir = dirname(installDir)
  })

  test('`ava run` logs in on a loopback site with a built-in action', async () => {
    const r = await npx([
      'ava',
      'run',
      'common:auth:login',
      '--url',
      `${site.url}/login`,
      '--param',
      'username=alice',
      '--param',
      'password=wonderland',
      '--allow',
      'credentials',
    ])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('passed: common:auth:login')
    expect(r.stdout).not.toContain('wonderland')
    // The site saw the form post and the redirect to the signed-in page.
    expect(site.hits.map((h) => `${h.method} ${h.path}`)).toEqual(
      expect.arrayContaining(['POST /login', 'GET /dashboard']),
    )
  })
})

/**
 * A team's own project that installs the tarball: `ava mcp` from it serves the SDK's client, and
 * the server imports as a library. (The fixture in such projects, CommonJS and ES module, with its
 * types: e2e/cli/consumer.test.ts.)
 */
describe('a project that installs the tarball', () => {
  let project: string
  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'ava-project-'))
    const pkg = {
      name: 'checks',
      private: true,
      type: 'module',
      devDependencies: { 'ava-assistant': `file:${tarball}` },
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2))
    await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, timeout: 120_000 })
  }, 150_000)
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true })
  })

  test('ava mcp from the installed package serves the SDK client, and the server imports as a library', async () => {
    const client = new Client({ name: 'tarball-check', version: '1.0.0' })
    await client.connect(
      new StdioClientTransport({
        command: join(project, 'node_modules/.bin/ava'),
        args: ['mcp'],
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: project, AVA_CHROMIUM: chromiumPath },
      }),
    )
    try {
      const { tools } = await client.listTools()
      expect(tools.map((t) => t.name)).toContain('ava_action_run')
      const r = (await client.callTool({ name: 'ava_action_search', arguments: { query: 'login' } })) as CallToolResult
      expect(r.isError).toBeFalsy()
      expect(r.content[0].type === 'text' && r.content[0].text).toContain('common:auth:login')
    } finally {
      await client.close()
    }
    const lib = await exec(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('ava-assistant/mcp'); console.log(Object.keys(m).sort().join(' '))",
      ],
      { cwd: project },
    )
    expect(lib.stdout).toMatch(/chromiumPlace .*createAvaMcpServer/)
  }, 60_000)
})
