import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// The CLI as a user gets it: `npm pack` (prepack builds bin/ava.js), then `npx` from the tarball in
// an empty folder, so only what the package ships and declares can be found (issue 19 §4).

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
    const r = await exec('npx', argv, { cwd: workDir, env: { ...process.env, AVA_CHROMIUM: chromiumPath, AVA_ACTIONS_PATH: '' }, timeout: 45_000 })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

beforeAll(async () => {
  packDir = mkdtempSync(join(tmpdir(), 'ava-pack-'))
  workDir = mkdtempSync(join(tmpdir(), 'ava-npx-'))
  await exec('npm', ['pack', '--pack-destination', packDir], { cwd: root, timeout: 45_000 })
  tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!)
  site = await startSiteServer()
})
afterAll(async () => {
  await site?.close()
  // npx keeps one install per tarball path; a fresh path each run would pile them up in the cache.
  if (installDir && basename(dirname(installDir)) === '_npx') rmSync(installDir, { recursive: true, force: true })
  for (const dir of [packDir, workDir]) if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('ava from a packed tarball', () => {
  test('ships the built CLI and the built-in packs, not the sources', async () => {
    const { stdout } = await exec('tar', ['-tzf', tarball])
    const files = stdout.trim().split('\n').sort()
    expect(files).toContain('package/bin/ava.js')
    expect(files).toContain('package/actions/common.yaml')
    expect(new Set(files.map((f) => f.split('/').slice(0, 2).join('/')))).toEqual(new Set(['package/README.md', 'package/package.json', 'package/bin', 'package/actions']))
  })

  test('installs with playwright-core as its only dependency and prints its usage', async () => {
    const help = await npx(['ava', '--help'])
    expect(help.code, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/^Usage: ava /)
    const where = await npx(['sh', '-c', 'command -v ava'])
    installDir = dirname(dirname(dirname(realpathSync(where.stdout.trim())))) // …/node_modules/ava-assistant/bin/ava.js
    expect(readdirSync(installDir).filter((n) => !n.startsWith('.')).sort()).toEqual(['ava-assistant', 'playwright-core'])
    installDir = dirname(installDir)
  })

  test('`ava run` logs in on a loopback site with a built-in action', async () => {
    const r = await npx(['ava', 'run', 'common:auth:login', '--url', `${site.url}/login`, '--param', 'username=alice', '--param', 'password=wonderland'])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    expect(r.stdout).toContain('passed: common:auth:login')
    expect(r.stdout).not.toContain('wonderland')
    // The site saw the form post and the redirect to the signed-in page.
    expect(site.hits.map((h) => `${h.method} ${h.path}`)).toEqual(expect.arrayContaining(['POST /login', 'GET /dashboard']))
  })
})
