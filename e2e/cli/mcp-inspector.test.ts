import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { frame, frameReader, lineReader } from '../../src/cli/mcp/native'

// `ava mcp` as a person first tries it: with the MCP Inspector's CLI, which starts a new server over
// stdio for every call. The page the last call left (and its cookies) is there for the next one;
// `--isolated` keeps nothing; `--chrome` with no extension says so and what to do; and the native
// host `ava mcp install` writes runs from the user's folder alone, naming nothing of the package.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const out = resolve(root, '.ava-out/e2e-mcp-inspector')
const bin = join(out, 'ava.js')
const inspector = resolve(root, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js')

let site: SiteServer
let dir: string
let cwd: string
let home: string

/** One Inspector CLI call: a new `ava mcp` on stdio, one tool call, the server gone after. */
async function inspect(
  tool: string,
  args: Record<string, unknown> = {},
  flags: string[] = [],
  as = home,
): Promise<{ text: string; isError: boolean }> {
  const toolArgs = Object.entries(args).flatMap(([k, v]) => [
    '--tool-arg',
    `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  ])
  const r = await exec(
    process.execPath,
    [
      inspector,
      '--cli',
      process.execPath,
      bin,
      'mcp',
      '--allow',
      'credentials',
      ...flags,
      '--method',
      'tools/call',
      '--tool-name',
      tool,
      ...toolArgs,
    ],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: as, AVA_CHROMIUM: chromiumPath },
      timeout: 120_000,
    },
  )
  const json = r.stdout.slice(r.stdout.indexOf('{'))
  const result = JSON.parse(json) as { content: { type: string; text?: string }[]; isError?: boolean }
  return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: !!result.isError }
}

beforeAll(async () => {
  mkdirSync(out, { recursive: true })
  ;[site] = await Promise.all([
    startSiteServer(),
    exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
      cwd: root,
      env: { ...process.env, AVA_CLI_OUTFILE: bin },
    }),
  ])
  dir = mkdtempSync(join(tmpdir(), 'ava-inspector-'))
  home = join(dir, 'home')
  // The Inspector CLI (1.0.3) names itself from `../package.json` as seen from the folder it runs
  // in: run it one folder down in a project, as `npx` in a project's subfolder would.
  writeFileSync(join(dir, 'package.json'), '{"name":"shop-tests","version":"1.0.0"}\n')
  cwd = join(dir, 'tests')
  mkdirSync(cwd)
}, 120_000)

afterAll(async () => {
  await site?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('each call is a new server, and each finds the page (logged in) where the last one left it', async () => {
  const opened = await inspect('ava_navigate', { url: `${site.url}/login` })
  expect(opened, opened.text).toEqual({ text: `Opened ${site.url}/login`, isError: false })
  const form = await inspect('ava_page_read', { request: 'sign in' })
  expect(form.isError, form.text).toBe(false)
  expect(form.text).toContain(`URL: ${site.url}/login`)
  // The ids of that listing name the same fields for the next server.
  const ids = [...form.text.matchAll(/\b((?:input|password|btn)_[a-z0-9_]+)/g)].map((m) => m[1])
  const user = ids.find((id) => id.startsWith('input_'))
  const password = ids.find((id) => id.startsWith('password_'))
  const submit = ids.find((id) => id.startsWith('btn_'))
  expect([user, password, submit].every(Boolean), form.text).toBe(true)
  const act = await inspect('ava_page_act', {
    instructions: [
      { action_type: 'input', target_id: user, value: 'alice', description: 'username' },
      { action_type: 'input', target_id: password, value: 'wonderland', description: 'password' },
      { action_type: 'click', target_id: submit, description: 'Log in' },
    ],
  })
  expect(act.isError, act.text).toBe(false)
  // A later server reopens the dashboard with the session cookie the login set.
  const dashboard = await inspect('ava_page_read')
  expect(dashboard.isError, dashboard.text).toBe(false)
  expect(dashboard.text).toContain(`URL: ${site.url}/dashboard`)
  expect(dashboard.text).toContain('Welcome, alice')
  const link = /\b(link_details_near_742)\b/.exec(dashboard.text)?.[1]
  expect(link, dashboard.text).toBeTruthy()
  expect(
    (
      await inspect('ava_page_act', {
        instructions: [{ action_type: 'click', target_id: link, description: 'Open order 742' }],
      })
    ).isError,
  ).toBe(false)
  expect((await inspect('ava_page_read')).text).toContain(`URL: ${site.url}/orders/742`)
}, 600_000)

test('--isolated keeps nothing: a new server has no tab, and says how to get one', async () => {
  const r = await inspect('ava_page_read', {}, ['--isolated'])
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^NO_TAB: No tab is given to this client yet: open one with ava_navigate first/)
}, 180_000)

test('a last page that no longer opens is no tab: NO_TAB, not a browser error', async () => {
  const other = join(dir, 'other-home')
  mkdirSync(join(other, '.ava/mcp/inspector-cli'), { recursive: true })
  writeFileSync(
    join(other, '.ava/mcp/inspector-cli/last-page.json'),
    JSON.stringify({ url: 'http://127.0.0.1:9/gone', at: Date.now() }),
  )
  const r = await inspect('ava_page_read', {}, [], other)
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^NO_TAB: /)
}, 180_000)

test('--chrome with no extension connected says so, what to do, and where to look', async () => {
  const r = await inspect('ava_navigate', { url: `${site.url}/` }, ['--chrome'])
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(
    /^NO_BROWSER: Ava's extension has not connected to this server: .*`ava mcp install --extension-id <id>`.*`ava doctor`/,
  )
}, 180_000)

test('the installed native host runs from the user folder alone and relays to the server', async () => {
  const id = 'abcdefghijklmnopabcdefghijklmnop'
  const installed = await exec(process.execPath, [bin, 'mcp', 'install', '--extension-id', id], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: home },
  })
  const written = installed.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^wrote /, ''))
  // Nothing written names the package the install ran from (its bin/, its node_modules).
  for (const file of written) {
    expect(file.startsWith(home), file).toBe(true)
    expect(readFileSync(file, 'utf8'), file).not.toContain(root)
    expect(readFileSync(file, 'utf8'), file).not.toContain(out)
  }
  const manifest = JSON.parse(
    readFileSync(join(home, '.config/chromium/NativeMessagingHosts/com.ava_assistant.bridge.json'), 'utf8'),
  ) as { path: string }
  expect(statSync(manifest.path).mode & 0o777).toBe(0o700)
  expect(readdirSync(join(home, '.ava/native-host')).sort()).toEqual(['ava-native-host', 'ava-native-host.mjs'])

  // Chrome's side: start the launcher as Chrome does; the server's side: the socket ava mcp --chrome listens on.
  const got: unknown[] = []
  const server = createServer((s) =>
    s.on(
      'data',
      lineReader((m) => got.push(m)),
    ),
  )
  await new Promise<void>((done) => server.listen(join(home, '.ava/mcp.sock'), done))
  const host = spawn(manifest.path, [`chrome-extension://${id}/`], {
    cwd: tmpdir(),
    env: { PATH: '/usr/bin:/bin' },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const toChrome: unknown[] = []
  host.stdout.on(
    'data',
    frameReader((m) => toChrome.push(m)),
  )
  try {
    host.stdin.write(frame({ id: 1, ok: true, hello: 'from the extension' }))
    await expect.poll(() => got, { timeout: 30_000 }).toEqual([{ id: 1, ok: true, hello: 'from the extension' }])
    expect(toChrome).toContainEqual({ kind: 'server', connected: true })
  } finally {
    host.kill()
    server.close()
  }
}, 180_000)
