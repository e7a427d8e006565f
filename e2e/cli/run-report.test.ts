import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser } from 'playwright-core'
import { baseArgs, chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava run --report` (docs/run-record.md): the built CLI writes the run's record as one HTML file
// and as JSON; the HTML opens in Chromium with no network and no script and shows the failure and
// the picture; the password given with --param is in neither file in any form.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-run-report/ava.js')
const kPassword = 'Wr0ngPassw0rd77'

let site: SiteServer
let dir: string
let browser: Browser

async function ava(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { ...process.env, AVA_CHROMIUM: chromiumPath, AVA_ACTIONS_PATH: '', HOME: dir },
      timeout: 90_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const login = (password: string, report: string) => [
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
  '--report',
  join(dir, report),
]

/** Every form a secret can leak in: plain, case-folded, spaced, percent-encoded, base64 at each alignment. */
function leaks(text: string, secret: string): string[] {
  const lower = text.toLowerCase()
  const b64 = (pad: number) => Buffer.from('\0'.repeat(pad) + secret).toString('base64')
  const forms = [
    secret,
    secret.split('').join(' '),
    encodeURIComponent(secret),
    b64(0).replace(/=+$/, ''),
    b64(1).slice(4, -4),
    b64(2).slice(4, -4),
  ]
  return forms.filter((f) => lower.includes(f.toLowerCase()))
}

beforeAll(async () => {
  await exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: bin },
  })
  site = await startSiteServer()
  dir = mkdtempSync(join(tmpdir(), 'ava-run-report-'))
  browser = await chromium.launch({ executablePath: chromiumPath, args: baseArgs })
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('ava run --report', () => {
  test('a failed run writes both forms: JSON by the name, HTML otherwise; exit 1 as the run failed', async () => {
    const json = await ava(login(kPassword, 'record.json'))
    expect(json.code, json.stdout + json.stderr).toBe(1)
    expect(json.stderr).toMatch(/^report: .*record\.json$/m)
    const rec = JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8'))
    expect(rec).toMatchObject({ version: 1, status: 'failed', verdict: { done: false, kind: 'not-done' } })
    expect(
      rec.events.some((e: { kind: string; code?: string }) => e.kind === 'failure' && e.code === 'VERIFY_FAILED'),
    ).toBe(true)
    expect(rec.events.filter((e: { kind: string }) => e.kind === 'step').length).toBeGreaterThan(1)
    expect(rec.shots).toHaveLength(1)
    expect(rec.shots[0].data.length).toBeGreaterThan(100)

    const html = await ava(login(kPassword, 'record.html'))
    expect(html.code, html.stdout + html.stderr).toBe(1)
    for (const file of ['record.json', 'record.html']) {
      const text = readFileSync(join(dir, file), 'utf8')
      expect(leaks(text, kPassword), file).toEqual([])
      // The picture's bytes (its metadata included) hold no form of it either.
      for (const m of text.matchAll(/"data": "([A-Za-z0-9+/=]+)"|base64,([A-Za-z0-9+/=]+)"/g))
        expect(leaks(Buffer.from(m[1] ?? m[2], 'base64').toString('latin1'), kPassword), file).toEqual([])
    }
  }, 240_000)

  test('the HTML opens offline with scripts off and shows the steps, the failure and the picture', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true })
    const requests: string[] = []
    const page = await context.newPage()
    page.on(
      'request',
      (r) => void (r.url().startsWith('file:') || r.url().startsWith('data:') || requests.push(r.url())),
    )
    await page.goto(pathToFileURL(join(dir, 'record.html')).href)
    await expect.poll(() => page.locator('li[data-kind=failure]').count(), { timeout: 15_000 }).toBe(1)
    expect(await page.locator('li[data-kind=failure]').innerText()).toContain('VERIFY_FAILED')
    expect(await page.locator('li[data-kind=step]').count()).toBeGreaterThan(1)
    expect(await page.locator('[data-verdict=not-done]').count()).toBe(1)
    const img = page.locator('li[data-kind=shot] img')
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0)
    expect(requests).toEqual([])
    await context.close()
  }, 60_000)

  test('a run that passes its own check reports it verified and exits 0', async () => {
    const r = await ava(login('wonderland', 'pass.json'))
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const rec = JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8'))
    expect(rec).toMatchObject({ status: 'done', verdict: { done: true } })
    expect(leaks(JSON.stringify(rec), 'wonderland')).toEqual([])
  }, 120_000)
})
