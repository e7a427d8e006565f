/**
 * `ava schedule` reaches Ava in the person's Chrome the way `ava mcp --chrome` does: through the
 * native host `ava mcp install` registers (here in a fresh profile, as e2e/cli/mcp-chrome.test.ts
 * sets it up). A schedule added from the shell is kept by the extension with its alarm; bad input
 * is one clear message; with no browser to reach, it says so.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromium, type BrowserContext, type Worker } from 'playwright-core'
import { baseArgs, chromiumPath, closeWelcomePage, distDir } from '../support/browser'
import type { Schedule } from '../../src/core/schedule/model'

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-schedule/ava.js')

let dir: string
let home: string
let context: BrowserContext
let extensionId: string

/** Chromium's id of an unpacked extension: its path's SHA-256, the first 32 hex digits written a to p. */
function unpackedId(path: string): string {
  return [...createHash('sha256').update(realpathSync(path)).digest('hex').slice(0, 32)]
    .map((c) => String.fromCharCode(97 + parseInt(c, 16)))
    .join('')
}

async function worker(): Promise<Worker> {
  const live = context.serviceWorkers().filter((w) => w.url().startsWith(`chrome-extension://${extensionId}/`))
  return live.at(-1) ?? context.waitForEvent('serviceworker', { timeout: 10_000 })
}

/** `ava schedule …` as the person runs it: its exit code, stdout and stderr. */
async function ava(args: string[], h = home): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, 'schedule', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: h },
    })
    return { code: 0, out: stdout, err: stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, out: x.stdout, err: x.stderr }
  }
}

beforeAll(async () => {
  await exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
    cwd: root,
    env: { ...process.env, AVA_CLI_OUTFILE: bin },
  })
  dir = mkdtempSync(join(tmpdir(), 'ava-schedule-'))
  home = join(dir, 'home')
  const profile = join(dir, 'profile')
  mkdirSync(home)
  extensionId = unpackedId(distDir)
  await exec(process.execPath, [bin, 'mcp', 'install', '--extension-id', extensionId, '--profile', profile], {
    env: { ...process.env, HOME: home },
  })
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [...baseArgs, `--disable-extensions-except=${distDir}`, `--load-extension=${distDir}`],
    viewport: { width: 1280, height: 800 },
  })
  await worker()
  await closeWelcomePage(context, extensionId)
}, 120_000)

afterAll(async () => {
  await context?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test(
  'a watch added from the shell is kept by Ava in Chrome, with its alarm; list and remove it',
  { timeout: 120_000 },
  async () => {
    const added = await ava([
      'add',
      '--watch',
      '--url',
      'https://shop.example/orders',
      '--every',
      'weekdays',
      '--at',
      '07:30',
      '--tz',
      'Asia/Shanghai',
    ])
    expect(added.code, added.err).toBe(0)
    const id = /Scheduled: (\S+)/.exec(added.out)?.[1]
    expect(id, added.out).toBeTruthy()
    const w = await worker()
    const { schedules } = (await w.evaluate(() => chrome.storage.local.get('schedules'))) as {
      schedules: Record<string, Schedule>
    }
    expect(schedules[id!]).toMatchObject({
      target: { kind: 'watch', url: 'https://shop.example/orders' },
      repeat: { every: 'weekdays', time: '07:30' },
      timeZone: 'Asia/Shanghai',
      missed: 'run',
    })
    const alarm = await w.evaluate((n) => chrome.alarms.get(n), `ava.schedule:${id}`)
    expect(alarm?.scheduledTime).toBe(schedules[id!].dueAt)

    const listed = await ava(['list'])
    expect(listed.out).toContain(`${id}  watch https://shop.example/orders  (weekdays at 07:30 Asia/Shanghai`)

    const removed = await ava(['remove', id!])
    expect(removed.out.trim(), removed.err).toBe(`Removed ${id}.`)
    expect(await w.evaluate((n) => chrome.alarms.get(n), `ava.schedule:${id}`)).toBeFalsy()
  },
)

test(
  'bad input is one clear message and a usage exit: a bad time, an unknown pack action',
  { timeout: 60_000 },
  async () => {
    const bad = await ava(['add', '--watch', '--url', 'https://shop.example/', '--every', 'daily', '--at', '25:00'])
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('"25:00" is not a time of day: write it as HH:MM, 00:00 to 23:59.')
    const unknown = await ava([
      'add',
      '--action',
      'nosuch:x:y',
      '--url',
      'https://shop.example/',
      '--every',
      'daily',
      '--at',
      '9:00',
    ])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('No pack action is called "nosuch:x:y".')
  },
)

test('with no Ava in Chrome to reach, it says so and how to connect it', { timeout: 60_000 }, async () => {
  const lonely = join(dir, 'lonely')
  mkdirSync(lonely)
  const r = await ava(['list'], lonely)
  expect(r.code).toBe(1)
  expect(r.err).toContain("Ava's extension has not connected")
  expect(r.err).toContain('ava mcp install')
})
