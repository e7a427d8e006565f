import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { chromium, type BrowserContext, type Frame, type Page, type Worker } from 'playwright-core'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings'
import { allowAll, instructionChunks } from '../support/ava'
import { baseArgs, chromiumPath, closeWelcomePage, distDir } from '../support/browser'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

// Place (b): the person's own browser. `ava mcp install --profile` registers the native host in a
// fresh profile's NativeMessagingHosts (Chromium with --user-data-dir reads per-user hosts there);
// Chromium starts with the built extension, which connects through the host to `ava mcp --chrome`,
// driven by the SDK's own client. The person gives the client the tab in the panel, sees
// "<client> is driving this tab" with each step and Stop, allows or denies risky steps there, and
// revokes the client in the options. The password is in the person's vault, never in a result.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-mcp-chrome/ava.js')
const kPassword = 'wonderland'
const kClient = 'e2e-agent'

let site: SiteServer
let llm: LlmServer
let dir: string
let context: BrowserContext
let extensionId: string
let page: Page
let client: Client
const seen: string[] = []

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

async function panel(p: Page): Promise<Frame> {
  const prefix = `chrome-extension://${extensionId}/src/panel/`
  for (let i = 0; i < 200; i++) {
    const f = p.frames().find((fr) => fr.url().startsWith(prefix))
    if (f) return f
    await p.waitForTimeout(50)
  }
  throw new Error('The Ava panel did not appear')
}

/** The panel frame that shows `selector` (the panel's frame is made again when it opens or the page changes). */
async function panelWith(p: Page, selector: string, timeout = 20_000): Promise<Frame> {
  const prefix = `chrome-extension://${extensionId}/src/panel/`
  const deadline = Date.now() + timeout
  for (;;) {
    for (const f of p.frames()) {
      if (
        f.url().startsWith(prefix) &&
        (await f
          .locator(selector)
          .count()
          .catch(() => 0))
      )
        return f
    }
    if (Date.now() > deadline) throw new Error(`The panel did not show ${selector}`)
    await p.waitForTimeout(100)
  }
}

/**
 * Answers the panel's pending question as a person would. The panel ignores a click that lands
 * right after it appeared or moved (its click guard, src/panel/visibility.ts): click until taken.
 */
async function answer(p: Page, allow: boolean): Promise<string> {
  const f = await panelWith(p, '[data-test=confirm][data-state=pending]')
  const card = f.locator('[data-test=confirm][data-state=pending]').first()
  const text = (await card.textContent()) ?? ''
  for (let i = 0; i < 50 && (await card.count().catch(() => 0)); i++) {
    await card
      .locator(allow ? '[data-test=confirm-allow]' : '[data-test=confirm-deny]')
      .click({ timeout: 1_000 })
      .catch(() => undefined)
    await p.waitForTimeout(200)
  }
  return text
}

/** Answers the pending card that says `says`, and no other (`answer` takes whichever card is pending). */
async function answerCard(p: Page, says: RegExp, allow: boolean): Promise<string> {
  const f = await panelWith(p, '[data-test=confirm][data-state=pending]')
  const card = f.locator('[data-test=confirm][data-state=pending]').filter({ hasText: says }).first()
  await card.waitFor({ timeout: 30_000 })
  const text = (await card.textContent()) ?? ''
  for (let i = 0; i < 50 && (await card.count().catch(() => 0)); i++) {
    await card
      .locator(allow ? '[data-test=confirm-allow]' : '[data-test=confirm-deny]')
      .click({ timeout: 1_000 })
      .catch(() => undefined)
    await p.waitForTimeout(200)
  }
  return text
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 })) as CallToolResult
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  seen.push(text)
  return { text, isError: !!r.isError }
}

/**
 * A call that must not ask the person anything: it resolves with the call's result, or fails as
 * soon as a question shows in the panel (rather than waiting on an answer nobody gives).
 */
async function unasked(name: string, args: Record<string, unknown> = {}) {
  const pending = call(name, args)
  const asked = panelWith(page, '[data-test=confirm][data-state=pending]', 60_000).then(
    async (f) => `asked: ${await f.locator('[data-test=confirm][data-state=pending]').first().textContent()}`,
    () => 'not asked',
  )
  const first = await Promise.race([pending, asked])
  if (typeof first === 'string') throw new Error(`${name} asked the person: ${first}`)
  return first
}

/** The person changes their settings in the background's storage, as the options page would. */
async function setSafety(change: (safety: Settings['safety']) => Settings['safety']): Promise<void> {
  const w = await worker()
  const { settings } = (await w.evaluate(() => chrome.storage.local.get('settings'))) as { settings: Settings }
  await w.evaluate((s) => chrome.storage.local.set({ settings: s }), { ...settings, safety: change(settings.safety) })
}

/** The sample app under another site's name (`*.test` resolves to the loopback server, e2e/support/browser.ts). */
const elsewhere = (host: string, path: string) => site.url.replace('127.0.0.1', host) + path

/** A call during which the person allows every question the panel asks. */
async function allowed(name: string, args: Record<string, unknown> = {}) {
  const pending = call(name, args)
  await allowAll(page, pending, panel)
  return pending
}

beforeAll(async () => {
  ;[site, llm] = await Promise.all([
    startSiteServer(),
    startLlmServer(),
    exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
      cwd: root,
      env: { ...process.env, AVA_CLI_OUTFILE: bin },
    }),
  ])
  dir = mkdtempSync(join(tmpdir(), 'ava-mcp-chrome-'))
  const home = join(dir, 'home')
  const profile = join(dir, 'profile')
  mkdirSync(home)
  extensionId = unpackedId(distDir)
  // What the person runs once: the host, registered for this profile only.
  await exec(process.execPath, [bin, 'mcp', 'install', '--extension-id', extensionId, '--profile', profile], {
    env: { ...process.env, HOME: home },
  })
  client = new Client({ name: kClient, version: '1.0.0' })
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--chrome'],
    cwd: dir,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: home },
  })
  let serverSays = ''
  transport.stderr?.on('data', (chunk: Buffer) => void (serverSays += chunk.toString('utf8')))
  await client.connect(transport)
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [...baseArgs, `--disable-extensions-except=${distDir}`, `--load-extension=${distDir}`],
    viewport: { width: 1280, height: 800 },
  })
  const w = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }))
  expect(new URL(w.url()).host).toBe(extensionId)
  await closeWelcomePage(context, extensionId)
  const base = structuredClone(DEFAULT_SETTINGS)
  const settings: Settings = {
    ...base,
    profiles: [{ ...base.profiles[0], provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' }],
  }
  await w.evaluate(
    ([s, origin, password]) =>
      chrome.storage.local.set({
        settings: s,
        vault: { ACME_PASSWORD: password },
        vaultSites: { ACME_PASSWORD: [origin] },
      }),
    [settings, site.url, kPassword] as const,
  )
  // A call made while no extension is connected fails at once (NO_BROWSER): wait for the server to say it is.
  for (let waited = 0; !serverSays.includes('ava mcp: Ava in Chrome is connected'); waited += 100) {
    if (waited > 30_000) throw new Error(`the extension did not connect to ava mcp --chrome; it said:\n${serverSays}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  page = context.pages().find((p) => p.url() === 'about:blank') ?? (await context.newPage())
  await page.goto(`${site.url}/`)
  await page.bringToFront()
}, 90_000)

afterAll(async () => {
  await client?.close()
  await context?.close()
  await Promise.all([site?.close(), llm?.close()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('install writes the host and its manifest, allowing only Ava', () => {
  const manifest = JSON.parse(
    readFileSync(join(dir, 'profile/NativeMessagingHosts/com.ava_assistant.bridge.json'), 'utf8'),
  ) as { path: string; allowed_origins: string[]; type: string }
  expect(manifest.allowed_origins).toEqual([`chrome-extension://${extensionId}/`])
  expect(manifest.type).toBe('stdio')
  expect(existsSync(manifest.path)).toBe(true)
})

test('the person gives the client the tab in its panel, and sees who drives it, with Stop', async () => {
  const pending = call('ava_navigate', { url: `${site.url}/login` })
  expect(await answer(page, true)).toContain(kClient)
  const r = await pending
  expect(r.isError, r.text).toBe(false)
  await page.waitForURL(/\/login$/)
  const g = await panelWith(page, '[data-test=stop]')
  expect(await g.locator('[data-role=assistant]').last().textContent()).toContain(`${kClient} is driving this tab`)
})

test("a granted tab cannot reach another site without the person's yes: the card names the site; no is DENIED, yes goes", async () => {
  const other = elsewhere('mail.bank.test', '/login')
  const refused = call('ava_navigate', { url: other })
  const card = await answer(page, false)
  expect(card).toContain(kClient)
  expect(card).toContain('bank.test')
  const r = await refused
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^DENIED: .*bank\.test/)
  expect(new URL(page.url()).hostname).toBe('127.0.0.1')
  const allowed = call('ava_navigate', { url: other })
  expect(await answer(page, true)).toContain('bank.test')
  expect((await allowed).isError).toBe(false)
  await page.waitForURL(/mail\.bank\.test/)
  // Both sites are the client's now (the one it was given, the one the person said yes to): no more questions.
  expect((await unasked('ava_navigate', { url: `${site.url}/login` })).isError).toBe(false)
  expect((await unasked('ava_navigate', { url: elsewhere('accounts.bank.test', '/login') })).isError).toBe(false)
  expect((await unasked('ava_navigate', { url: `${site.url}/login` })).isError).toBe(false)
})

test("a click that would take the tab to another site asks, naming it, even for a person who lets Ava's own model go", async () => {
  await setSafety((s) => ({ ...s, confirm: s.confirm.filter((c) => c !== 'cross_site') }))
  try {
    await call('ava_navigate', {
      url: `${site.url}/hostile/offsite.html?other=${encodeURIComponent(elsewhere('pay.evil.test', ''))}`,
    })
    const pending = call('ava_page_act', {
      instructions: [{ action_type: 'click', fallback_selector: '#same-tab', semantic_locator: 'Continue' }],
    })
    expect(await answer(page, false)).toContain('pay.evil.test')
    const r = await pending
    expect(r.text).toMatch(/^DENIED: /)
    expect(site.hits.filter((h) => h.path === '/exfil')).toEqual([])
    expect(page.url()).toMatch(/\/hostile\/offsite\.html/)
  } finally {
    await setSafety((s) => ({ ...s, confirm: [...new Set([...s.confirm, 'cross_site' as const])] }))
  }
})

test('a page the grant does not cover is not read nor acted on: NOT_GRANTED', async () => {
  // The person takes the client's tab to another site of theirs themselves.
  await page.goto(elsewhere('pay.evil.test', '/dashboard'))
  const read = await call('ava_page_read')
  expect(read.isError).toBe(true)
  expect(read.text).toMatch(/^NOT_GRANTED: .*evil\.test/)
  expect(read.text).not.toMatch(/Sign in|Dashboard/)
  const act = await call('ava_page_act', {
    instructions: [{ action_type: 'click', fallback_selector: '#login-btn', semantic_locator: 'Log in' }],
  })
  expect(act.text).toMatch(/^NOT_GRANTED: /)
  await page.goto(`${site.url}/login`)
  expect((await call('ava_page_read')).text).toMatch(/<untrusted_page_content>[\s\S]*Sign in/)
})

test('the person widens the grant to a named site in the options, and narrows it again', async () => {
  const options = await context.newPage()
  await options.goto(`chrome-extension://${extensionId}/src/options/index.html`)
  const row = options.locator(`[data-test=mcp-client][data-name="${kClient}"]`)
  await row.locator('[data-test=mcp-site-input]').fill('not a site')
  await row.locator('[data-test=mcp-site-add]').click()
  await row.locator('[data-test=mcp-site-error]').waitFor()
  await row.locator('[data-test=mcp-site-input]').fill('https://shop.evil.test/anything')
  await row.locator('[data-test=mcp-site-add]').click()
  await row.locator('[data-test=mcp-site][data-site="evil.test"]').waitFor()
  await options.close()
  await page.bringToFront()
  expect((await unasked('ava_navigate', { url: elsewhere('pay.evil.test', '/login') })).isError).toBe(false)
  expect((await call('ava_page_read')).text).toMatch(/Sign in/)
  // Removed, it is out at once: the page the client is on is refused.
  const again = await context.newPage()
  await again.goto(`chrome-extension://${extensionId}/src/options/index.html`)
  await again
    .locator(
      `[data-test=mcp-client][data-name="${kClient}"] [data-test=mcp-site][data-site="evil.test"] [data-test=mcp-site-remove]`,
    )
    .click()
  await again.locator('[data-test=mcp-site]').first().waitFor({ state: 'detached' })
  await again.close()
  await page.bringToFront()
  expect((await call('ava_page_read')).text).toMatch(/^NOT_GRANTED: /)
  expect((await call('ava_navigate', { url: `${site.url}/login` })).isError).toBe(false)
})

test("common:auth:login with the secret from the person's vault, each risky step allowed in the panel", async () => {
  const r = await allowed('ava_action_run', {
    name: 'common:auth:login',
    params: { username: 'alice', password: '${secret:ACME_PASSWORD}' },
  })
  expect(r.isError, r.text).toBe(false)
  await page.waitForURL(/\/dashboard$/)
  const read = await call('ava_page_read')
  expect(read.text).toMatch(/<untrusted_page_content>[\s\S]*Welcome, alice/)
  const act = await call('ava_page_act', {
    instructions: [
      { action_type: 'click', target_id: 'link_details_near_742', semantic_locator: 'Details of order 742' },
    ],
  })
  expect(act.isError, act.text).toBe(false)
  await page.waitForURL(/\/orders\/742$/)
  // Every step shows in the panel under the client's message.
  const f = await panelWith(page, '[data-role=assistant] [data-test=step]')
  expect(await f.locator('[data-role=assistant]').last().textContent()).toContain(`${kClient} is driving this tab`)
  expect(await f.locator('[data-role=assistant]').last().locator('[data-test=step]').count()).toBeGreaterThanOrEqual(1)
})

test('a risky step the person denies comes back as DENIED, and nothing was clicked', async () => {
  await call('ava_navigate', { url: `${site.url}/hostile/pack-risk.html` })
  const pending = call('ava_page_act', {
    instructions: [{ action_type: 'click', fallback_selector: '#delete', semantic_locator: 'Delete account' }],
  })
  await answer(page, false)
  const r = await pending
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^DENIED: /)
  expect(site.hits.some((h) => h.path === '/api/delete-account')).toBe(false)
  expect(await page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual([])
})

test("ava_ask runs Ava's own agent in the tab, with the person's model", async () => {
  await call('ava_navigate', { url: `${site.url}/dashboard` })
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: 'a[href="/orders/318"]', semantic_locator: 'Details of order 318' },
          description: 'Open order 318',
        },
      ]),
    },
    {
      chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: 'Order 318 is Processing.' } }]),
    },
  )
  const r = await allowed('ava_ask', { request: 'What is the status of order 318?' })
  expect(r.isError, r.text).toBe(false)
  expect(r.text).toContain('Order 318 is Processing.')
  await page.waitForURL(/\/orders\/318$/)
})

test("ava_extract runs Ava's own agent with the shape in the tab: rows that fit, and the field the page lacks", async () => {
  await call('ava_navigate', { url: `${site.url}/feed/products.html?page=1` })
  await page.waitForSelector('.product')
  const fields = { name: 0, price: 1, rating: 2, brand: null }
  llm.script(
    { chunks: instructionChunks([{ step_id: 1, action_type: 'collect', params: { limit: 100 } }]) },
    {
      chunks: instructionChunks([
        { step_id: 2, action_type: 'done', params: { answer: 'Here are the products.', fields } },
      ]),
    },
  )
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1 },
      price: { type: 'number', minimum: 0 },
      rating: { type: 'number', minimum: 0, maximum: 5 },
      brand: { type: 'string' },
    },
    required: ['name', 'price', 'rating'],
  }
  const first = (await page.locator('.product .name').first().textContent()) ?? ''
  const r = await allowed('ava_extract', { schema, instruction: 'Get the name, price and rating of every product' })
  expect(r.isError, r.text).toBe(false)
  const count = Number(
    /^(\d+) row\(s\) fit the schema; 0 value\(s\) did not fit; the page does not have: brand\./.exec(r.text)?.[1],
  )
  expect(count).toBe(10) // page 1 of the list: ten products
  expect(first).toBe('Lamp model 1')
  expect(r.text).toContain(JSON.stringify(first))
  // The rows come from the page: inside the untrusted framing, as every page word is.
  expect(r.text).toMatch(/The rows as JSON[\s\S]*"rows"/)
})

test('Stop in the panel takes the tab back; revoking in the options removes the client', async () => {
  const f = await panelWith(page, '[data-test=stop]')
  await f.locator('[data-test=stop]').click()
  await expect.poll(async () => (await call('ava_page_read')).text, { timeout: 10_000 }).toMatch(/^NO_TAB: /)
  const options = await context.newPage()
  await options.goto(`chrome-extension://${extensionId}/src/options/index.html`)
  const row = options.locator(`[data-test=mcp-client][data-name="${kClient}"]`)
  await row.waitFor()
  await row.locator('[data-test=mcp-revoke]').click()
  await options.locator('[data-test=mcp-none]').waitFor()
  expect(await (await worker()).evaluate(() => chrome.storage.local.get('mcpClients'))).toEqual({ mcpClients: [] })
  await options.close()
})

test('a closed tab ends its session: the question it waited on is a no, and the client is told', async () => {
  const tab = await context.newPage()
  await tab.goto(`${site.url}/login`)
  await tab.bringToFront()
  const attach = call('ava_navigate', { url: `${site.url}/login` })
  await answer(tab, true)
  expect((await attach).isError).toBe(false)
  // A question waits in the tab when the person closes it.
  const waiting = call('ava_navigate', { url: elsewhere('mail.bank.test', '/login') })
  await panelWith(tab, '[data-test=confirm][data-state=pending]')
  await tab.close()
  // Nobody said no: the session ended under the question.
  expect((await waiting).text).toMatch(/^NO_TAB: .*closed/)
  const after = await call('ava_page_read')
  expect(after.text).toMatch(/^NO_TAB: .*closed/)
  await page.bringToFront()
})

test("the gate is the person's: a server that sends a pre-confirmed step with no risk categories is still asked", async () => {
  // A hostile program in the server's place (the socket the host dials): it sends commands that
  // claim the person already said yes and that nothing is risky.
  await client.close()
  const { createServer } = await import('node:net')
  const path = join(dir, 'home/.ava/mcp.sock')
  await expect.poll(() => existsSync(path), { timeout: 10_000 }).toBe(false)
  let socket: import('node:net').Socket | undefined
  const replies = new Map<number, (r: any) => void>()
  const server = createServer((s) => {
    socket = s
    let buf = ''
    s.on('data', (d) => {
      buf += String(d)
      for (let at = buf.indexOf('\n'); at >= 0; at = buf.indexOf('\n')) {
        const m = JSON.parse(buf.slice(0, at))
        buf = buf.slice(at + 1)
        replies.get(m.id)?.(m)
      }
    })
  })
  await new Promise<void>((r) => server.listen(path, r))
  try {
    await expect.poll(() => !!socket, { timeout: 15_000 }).toBe(true)
    const ask = (id: number, body: object) =>
      new Promise<any>((r) => (replies.set(id, r), socket!.write(`${JSON.stringify({ id, ...body })}\n`)))
    await page.goto(`${site.url}/hostile/pack-risk.html`)
    const attached = ask(1, { kind: 'attach', client: 'hostile' })
    await answer(page, true)
    expect((await attached).ok).toBe(true)
    const step = {
      action: 'click',
      target: { selectors: [{ kind: 'css', value: '#delete', raw: 'css:#delete' }], semantic: 'Delete account' },
    }
    const sent = ask(2, {
      kind: 'command',
      command: { kind: 'act', step, timeoutMs: 3000, confirm: [], confirmed: true, sites: { allow: [], deny: [] } },
    })
    const question = await answer(page, false)
    expect(question).toMatch(/hostile/)
    const r = await sent
    expect(r.outcome).toMatchObject({ ok: false, code: 'DENIED' })
    expect(site.hits.some((h) => h.path === '/api/delete-account')).toBe(false)
    expect(await page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual([])
    // The bridge's navigate passes the navigation rule Ava's own model passes: another site asks
    // in the panel, naming it; a no is DENIED and the tab stays.
    const away = `${site.url.replace('127.0.0.1', 'localhost')}/hostile/offsite.html`
    const going = ask(5, { kind: 'navigate', url: away })
    expect(await answer(page, false)).toMatch(/localhost/)
    expect(await going).toMatchObject({ ok: false, code: 'DENIED' })
    expect(page.url()).toContain('/hostile/pack-risk.html')
    // The person's step limit holds in the extension, whatever the program counts, by the guard's
    // one count: with a limit of 2 (the click and one scroll), the next scroll is refused, never
    // asked about to start again at one.
    await (
      await worker()
    ).evaluate(async () => {
      const { settings } = (await chrome.storage.local.get('settings')) as {
        settings: { agent: { stepLimit: number } }
      }
      await chrome.storage.local.set({ settings: { ...settings, agent: { ...settings.agent, stepLimit: 2 } } })
    })
    const scroll = { action: 'scroll', direction: 'down' }
    expect(
      (await ask(3, { kind: 'command', command: { kind: 'act', step: scroll, timeoutMs: 3000 } })).outcome,
    ).toMatchObject({ ok: true })
    const over = await ask(4, { kind: 'command', command: { kind: 'act', step: scroll, timeoutMs: 3000 } })
    expect(over.outcome).toMatchObject({
      ok: false,
      code: 'STEP_LIMIT',
      message: expect.stringMatching(/step limit \(2\)/),
    })
  } finally {
    socket?.destroy()
    await new Promise((r) => server.close(r))
  }
})

test('over HTTP, each session is given a tab of its own by the person, and one that ends gives its tab back', async () => {
  const { spawn } = await import('node:child_process')
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  const child = spawn(process.execPath, [bin, 'mcp', '--chrome', '--http', '0'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home') },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const tab2 = await context.newPage()
  try {
    const url = await new Promise<string>((done, fail) => {
      let err = ''
      child.stderr.on('data', (d: Buffer) => {
        err += String(d)
        const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(err)
        if (m) done(m[0])
      })
      child.once('exit', () => fail(new Error(`ava mcp --chrome --http exited: ${err}`)))
    })
    const connect = async (name: string) => {
      const c = new Client({ name, version: '1.0.0' })
      const transport = new StreamableHTTPClientTransport(new URL(url))
      await c.connect(transport)
      return { c, transport }
    }
    const text = (r: unknown) => (r as CallToolResult).content.map((x) => (x.type === 'text' ? x.text : '')).join('\n')
    const tool = (c: Client, name: string, args: Record<string, unknown> = {}) =>
      c.callTool({ name, arguments: args }, undefined, { timeout: 90_000 }).then(text)
    const a = await connect('agent-a')
    const b = await connect('agent-b')
    await page.goto(`${site.url}/orders/742`)
    await page.bringToFront()
    const givenA = tool(a.c, 'ava_navigate', { url: `${site.url}/orders/742` })
    expect(await answer(page, true)).toContain('agent-a')
    expect(await givenA).toMatch(/^Opened /)
    // B asks while the person is on another tab: that one is B's, given in its own panel.
    await tab2.goto(`${site.url}/orders/318`)
    await tab2.bringToFront()
    const givenB = tool(b.c, 'ava_navigate', { url: `${site.url}/orders/318` })
    expect(await answer(tab2, true)).toContain('agent-b')
    expect(await givenB).toMatch(/^Opened /)
    expect(await tool(a.c, 'ava_page_read')).toMatch(/URL: .*\/orders\/742\n[\s\S]*Order #742/)
    expect(await tool(b.c, 'ava_page_read')).toMatch(/URL: .*\/orders\/318\n[\s\S]*Order #318/)
    // A's HTTP session ends: the extension ends it, and B still has its own tab.
    await a.transport.terminateSession()
    await a.c.close()
    await panelWith(page, 'text=agent-a no longer drives this tab')
    expect(await tool(b.c, 'ava_page_read')).toMatch(/Order #318/)
    await b.c.close()
  } finally {
    child.kill()
    await tab2.close()
  }
})

test("with the Inspector's CLI as the client: another site is asked about by name; no is DENIED and the tab stays, yes goes", async () => {
  // Each run of the Inspector's CLI starts `ava mcp --chrome` over stdio as a client of its own.
  // inspector-cli 1.0.3 reads its package.json by a path relative to the working directory, so it
  // runs from a folder below a project's.
  const { writeFileSync } = await import('node:fs')
  mkdirSync(join(dir, 'project/inspect'), { recursive: true })
  writeFileSync(join(dir, 'project/package.json'), JSON.stringify({ name: 'inspect', version: '1.0.0' }))
  const inspect = (url: string) =>
    exec(
      resolve(root, 'node_modules/.bin/mcp-inspector-cli'),
      [
        '--cli',
        '-e',
        `HOME=${join(dir, 'home')}`,
        process.execPath,
        bin,
        'mcp',
        '--chrome',
        '--method',
        'tools/call',
        '--tool-name',
        'ava_navigate',
        '--tool-arg',
        `url=${url}`,
      ],
      { cwd: join(dir, 'project/inspect'), timeout: 120_000 },
    ).then(({ stdout }) => {
      const r = JSON.parse(stdout.slice(stdout.indexOf('{'))) as CallToolResult
      return { text: r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'), isError: !!r.isError }
    })
  await page.goto(`${site.url}/login`)
  await page.bringToFront()
  const other = elsewhere('mail.bank.test', '/login')
  const refused = inspect(other)
  // Two cards in a row: each is answered by what it says, so a click meant for one never lands on the next.
  expect(await answerCard(page, /asks to drive this tab on 127\.0\.0\.1/, true)).toContain('inspector-cli')
  expect(await answerCard(page, /bank\.test/, false)).toContain('inspector-cli')
  const r = await refused
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^DENIED: .*bank\.test/)
  expect(new URL(page.url()).hostname).toBe('127.0.0.1')
  const allowed = inspect(other)
  await answerCard(page, /asks to drive this tab on 127\.0\.0\.1/, true)
  await answerCard(page, /bank\.test/, true)
  expect((await allowed).text).toMatch(/^Opened http:\/\/mail\.bank\.test/)
  await page.waitForURL(/mail\.bank\.test/)
  await page.goto(`${site.url}/login`)
}, 240_000)

test('no tool result holds the saved secret', () => {
  expect(seen.length).toBeGreaterThan(6)
  for (const text of seen) expect(text).not.toContain(kPassword)
})
