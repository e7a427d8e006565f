import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava mcp` with a Chromium of its own (place (a)), driven by real MCP clients: the SDK's `Client`
// and the MCP Inspector's CLI. Each HTTP session (each `mcp-session-id`) gets a tab and a browser
// context of its own, so two sessions share neither a page nor cookies, and a new session reads
// nothing of another's; the --deny-site list holds for a navigation no tool asked for (a page's
// script after a click), not only for ava_navigate.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-mcp-sessions/ava.js')
const inspector = resolve(root, 'node_modules/.bin/mcp-inspector-cli')

let site: SiteServer
let dir: string
let other: string
const children: ChildProcess[] = []
const clients: Client[] = []

const env = () => ({ PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), AVA_CHROMIUM: chromiumPath })

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult
  return { text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), isError: !!r.isError }
}

/** `ava mcp --http 0 …`, and the URL it prints once it listens. */
async function httpServer(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [bin, 'mcp', '--http', '0', ...args], {
    cwd: dir,
    env: env(),
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  children.push(child)
  return new Promise<string>((done, fail) => {
    let err = ''
    child.stderr!.on('data', (d: Buffer) => {
      err += String(d)
      const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(err)
      if (m) done(m[0])
    })
    child.once('exit', () => fail(new Error(`ava mcp --http exited: ${err}`)))
  })
}

async function httpClient(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  clients.push(client)
  return client
}

/**
 * One call through the Inspector's CLI, as a person checks a server with it: each run is a client
 * of its own (a new session). inspector-cli 1.0.3 finds its own package.json by a path relative to
 * the working directory (`../package.json`), so it runs from a folder below a project's.
 */
async function inspect(
  url: string,
  tool: string,
  args: Record<string, string> = {},
): Promise<{ text: string; isError: boolean }> {
  const toolArgs = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`])
  const { stdout } = await exec(
    inspector,
    ['--cli', url, '--transport', 'http', '--method', 'tools/call', '--tool-name', tool, ...toolArgs],
    { cwd: join(dir, 'project/inspect'), env: { ...process.env, ...env() }, timeout: 90_000 },
  )
  const r = JSON.parse(stdout.slice(stdout.indexOf('{'))) as CallToolResult
  return { text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), isError: !!r.isError }
}

beforeAll(async () => {
  ;[site] = await Promise.all([
    startSiteServer(),
    exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
      cwd: root,
      env: { ...process.env, AVA_CLI_OUTFILE: bin },
    }),
  ])
  dir = mkdtempSync(join(tmpdir(), 'ava-mcp-sessions-'))
  mkdirSync(join(dir, 'project/inspect'), { recursive: true })
  writeFileSync(join(dir, 'project/package.json'), JSON.stringify({ name: 'inspect', version: '1.0.0' }))
  // The same server under another name: another site, which the lists below forbid.
  other = site.url.replace('127.0.0.1', 'localhost')
}, 60_000)

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)))
  for (const c of children) c.kill()
  await site?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('two HTTP sessions have two tabs and separate cookies; a session the Inspector opens reads neither', async () => {
  const url = await httpServer(['--allow', 'credentials'])
  const a = await httpClient(url, 'agent-a')
  const b = await httpClient(url, 'agent-b')
  // A signs in: the sample app's session cookie is set in A's context.
  expect((await call(a, 'ava_navigate', { url: `${site.url}/login` })).isError).toBe(false)
  const login = await call(a, 'ava_page_act', {
    instructions: [
      { action_type: 'input', fallback_selector: '#username', semantic_locator: 'Username', value: 'alice' },
      { action_type: 'input', fallback_selector: '#password', semantic_locator: 'Password', value: 'wonderland' },
      { action_type: 'click', fallback_selector: '#login-btn', semantic_locator: 'Log in' },
    ],
  })
  expect(login.isError, login.text).toBe(false)
  await expect.poll(async () => (await call(a, 'ava_page_read')).text, { timeout: 20_000 }).toMatch(/Welcome, alice/)
  // B has no tab until it opens one; then it is B's own, without A's cookie: the dashboard sends it to sign in.
  expect((await call(b, 'ava_page_read')).text).toMatch(/^NO_TAB: /)
  expect((await call(b, 'ava_navigate', { url: `${site.url}/dashboard` })).isError).toBe(false)
  const bRead = await call(b, 'ava_page_read')
  expect(bRead.text).toMatch(/URL: .*\/login\n/)
  expect(bRead.text).not.toMatch(/Welcome, alice/)
  // A's tab is where A left it.
  expect((await call(a, 'ava_page_read')).text).toMatch(/URL: .*\/dashboard\n[\s\S]*Welcome, alice/)
  // The Inspector's CLI is a client of its own: a new session, with no tab of another's to read.
  const seen = await inspect(url, 'ava_page_read')
  expect(seen.isError).toBe(true)
  expect(seen.text).toMatch(/^NO_TAB: /)
  expect(seen.text).not.toMatch(/alice/)
  // It opens a tab of its own, as any session does, and reads it there (without A's cookie).
  const opened = await inspect(url, 'ava_navigate', { url: `${site.url}/dashboard` })
  expect(opened.text).toMatch(/Opened .*\/login/)
}, 180_000)

test('--deny-site holds for a navigation no tool asked for: a page script after a click is stopped, and the call says BLOCKED', async () => {
  const client = new Client({ name: 'agent-deny', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--deny-site', 'localhost'],
      cwd: dir,
      stderr: 'pipe',
      env: env(),
    }),
  )
  clients.push(client)
  // The page's "Next step" sends the tab to the other site from a timer, after the click has been done.
  const start = `${site.url}/hostile/offsite.html?other=${encodeURIComponent(other)}`
  expect((await call(client, 'ava_navigate', { url: start })).isError).toBe(false)
  // ava_navigate itself was always held to the lists; the Inspector shows the same refusal.
  const direct = await call(client, 'ava_navigate', { url: `${other}/exfil?from=navigate` })
  expect(direct.text).toMatch(/^BLOCKED: /)
  const r = await call(client, 'ava_page_act', {
    instructions: [{ action_type: 'click', fallback_selector: '#script-nav', semantic_locator: 'Next step' }],
  })
  // The navigation the script starts is stopped before a request leaves: the tab shows the
  // browser's "blocked" page, and the call during which it was stopped (the click), or else the
  // first call after it that finds the tab there (the read), says BLOCKED, naming the site. The
  // client reads a moment later, as a client thinking between calls does.
  await new Promise((r) => setTimeout(r, 1_000))
  const said = [r.text]
  const page = async () => {
    const read = await call(client, 'ava_page_read')
    said.push(read.text)
    return /URL: (\S+)/.exec(read.text)?.[1] ?? ''
  }
  await expect.poll(page, { timeout: 20_000 }).not.toMatch(/\/hostile\/offsite\.html/)
  expect(await page()).toMatch(/^chrome-error:/)
  expect(
    said.filter((t) => /^BLOCKED: .*localhost/.test(t)),
    said.join('\n---\n'),
  ).toHaveLength(1)
  expect(site.hits.filter((h) => h.path === '/exfil')).toEqual([])
}, 120_000)
