import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { chromiumPath } from '../support/browser'
import { instructionChunks } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava mcp` as built, driven by the MCP SDK's own client over stdio, on place (a): the Chromium the
// server starts. Logs in on the sample app with a pack action (the password a saved secret the
// client names, never sees), reads the page, acts on it, replays a flow and asks Ava's agent (the
// loopback model plays the model). A risky step with nobody to ask is refused with UNATTENDED; no
// tool result holds the password; page text comes framed as untrusted.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-mcp/ava.js')
const kPassword = 'wonderland'

let site: SiteServer
let llm: LlmServer
let dir: string
let client: Client
/** Every text any tool returned, to look for the secret in. */
const seen: string[] = []

async function call(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  seen.push(text)
  return { text, isError: !!r.isError }
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
  dir = mkdtempSync(join(tmpdir(), 'ava-mcp-'))
  mkdirSync(join(dir, 'flows'))
  copyFileSync(resolve(root, 'e2e/playwright-test/flows/order-742.flow.json'), join(dir, 'flows/order-742.flow.json'))
  client = new Client({ name: 'e2e-agent', version: '1.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        bin,
        'mcp',
        '--allow',
        'credentials',
        '--secret',
        `ACME_PASSWORD=${site.url}`,
        '--flows',
        join(dir, 'flows'),
      ],
      cwd: dir,
      stderr: 'pipe',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: join(dir, 'home'),
        AVA_CHROMIUM: chromiumPath,
        ACME_PASSWORD: kPassword,
        AVA_MODEL_PROVIDER: 'openai',
        AVA_MODEL_BASE_URL: llm.baseUrl,
        AVA_MODEL: 'test-model',
        AVA_API_KEY: 'k',
      },
    }),
  )
}, 60_000)

afterAll(async () => {
  await client?.close()
  await Promise.all([site?.close(), llm?.close()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('the client lists the tools, each with a description and an input schema, and the packs as resources', async () => {
  const { tools } = await client.listTools()
  const names = tools.map((t) => t.name).sort()
  expect(names).toEqual([
    'ava_action_describe',
    'ava_action_dry_run',
    'ava_action_list',
    'ava_action_run',
    'ava_action_search',
    'ava_ask',
    'ava_extract',
    'ava_flow_list',
    'ava_flow_run',
    'ava_navigate',
    'ava_page_act',
    'ava_page_read',
  ])
  for (const t of tools) {
    expect(t.description?.length, t.name).toBeGreaterThan(30)
    expect(t.inputSchema.type).toBe('object')
  }
  expect(tools.find((t) => t.name === 'ava_page_read')?.annotations?.readOnlyHint).toBe(true)
  const act = tools.find((t) => t.name === 'ava_page_act')!
  expect(Object.keys((act.inputSchema.properties as Record<string, unknown>) ?? {})).toEqual(['instructions'])
  const { resources } = await client.listResources()
  expect(resources.map((r) => r.uri)).toContain('ava-pack://common')
  const pack = await client.readResource({ uri: 'ava-pack://common' })
  expect((pack.contents[0] as { text: string }).text).toMatch(/auth:login:/)
  const described = await call('ava_action_describe', { name: 'common:auth:login' })
  expect(described.text).toMatch(/"password"/)
  const unknown = await call('ava_action_describe', { name: 'common:auth:logn' })
  expect(unknown.isError).toBe(true)
  expect(unknown.text).toMatch(/^ACTION_NOT_FOUND: No action "common:auth:logn"\. Did you mean/)
})

test('nothing runs before the client has a tab of its own', async () => {
  const r = await call('ava_page_read')
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^NO_TAB: /)
})

test('common:auth:login logs in with a saved secret the client names but never sees', async () => {
  expect((await call('ava_navigate', { url: `${site.url}/login` })).text).toContain('/login')
  const r = await call('ava_action_run', {
    name: 'common:auth:login',
    params: { username: 'alice', password: '${secret:ACME_PASSWORD}' },
  })
  expect(r.isError, r.text).toBe(false)
  expect(r.text).toMatch(/common:auth:login finished/)
  expect(r.text).toContain('<untrusted_page_content>')
  expect(site.hits.some((h) => h.path === '/login' && h.method === 'POST')).toBe(true)
  // The secret is typed only on the site it is bound to: an unknown one is refused with its code.
  const unknown = await call('ava_action_run', {
    name: 'common:auth:login',
    params: { username: 'alice', password: '${secret:NOPE}' },
  })
  expect(unknown.text).toMatch(/^NO_SECRET: /)
})

test('the client reads the page (framed, with ids) and acts on it by target_id', async () => {
  const page = await call('ava_page_read', { request: 'open order 742' })
  expect(page.isError, page.text).toBe(false)
  expect(page.text).toMatch(/<untrusted_page_content>[\s\S]*Dashboard[\s\S]*<\/untrusted_page_content>/)
  // The listing names the Details link of row 742 by an id the client can act on.
  expect(page.text).toMatch(/row "#742 Shipped Details": link_details_near_742/)
  const act = await call('ava_page_act', {
    instructions: [
      {
        action_type: 'click',
        target_id: 'link_details_near_742',
        semantic_locator: 'Details link of order 742',
        description: 'Open order 742',
      },
    ],
  })
  expect(act.isError, act.text).toBe(false)
  const after = await call('ava_page_read')
  expect(after.text).toMatch(/URL: .*\/orders\/742\n/)
  const bad = await call('ava_page_act', { instructions: [{ action_type: 'click' }] })
  expect(bad.isError).toBe(true)
  expect(bad.text).toMatch(/^INVALID: /)
})

test('a recorded flow replays in the client tab, its secret variable from the saved secrets', async () => {
  const list = await call('ava_flow_list')
  expect(JSON.parse(list.text)).toEqual([
    expect.objectContaining({ name: 'order-742', variables: ['user', 'password'] }),
  ])
  await call('ava_navigate', { url: `${site.url}/logout` })
  await call('ava_navigate', { url: `${site.url}/login` })
  const r = await call('ava_flow_run', { name: 'order-742' })
  expect(r.isError, r.text).toBe(false)
  expect(r.text).toMatch(/order-742 passed/)
})

test("ava_ask runs Ava's agent on the client tab and returns its answer and steps", async () => {
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
  const before = llm.requests.length
  const r = await call('ava_ask', { request: 'What is the status of order 318?' })
  expect(r.isError, r.text).toBe(false)
  expect(r.text).toContain('Order 318 is Processing.')
  expect(r.text).toMatch(/ok step 1 click \(Open order 318\)/)
  expect(llm.requests.length - before).toBe(2)
  // The model was given the page inside Ava's frame, and no password.
  expect(JSON.stringify(llm.requests.at(-1)!.body)).toContain('untrusted_page_content')
})

/** The products of e2e/fixtures/feed/products.html as a person reads them off the page (its own generator). */
function products(n: number) {
  const words = ['Lamp', 'Kettle', 'Speaker', 'Router', 'Camera', 'Blender', 'Monitor', 'Drone', 'Watch', 'Charger']
  return Array.from({ length: n }, (_, i) => ({
    name: `${words[i % words.length]} model ${i + 1}`,
    price: ((i * 137) % 2500) + 0.99,
    rating: Number(((((i * 7) % 41) + 10) / 10).toFixed(1)),
  }))
}

const kProductSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    price: { type: 'number', minimum: 0 },
    rating: { type: 'number', minimum: 0, maximum: 5 },
    brand: { type: 'string' },
  },
  required: ['name', 'price', 'rating'],
}

test('ava_extract reads a virtualised feed of 300 products into rows that fit the schema, each value with its source, the missing brand reported', async () => {
  await call('ava_navigate', { url: `${site.url}/feed/products.html` })
  // A client reads the page first, as here. The feed draws its first products a moment after load
  // (cells are no controls or headings: the listing does not show them); collect waits for them.
  expect((await call('ava_page_read')).text).toContain('Products')
  llm.script(
    { chunks: instructionChunks([{ step_id: 1, action_type: 'collect', params: { limit: 500 } }]) },
    {
      chunks: instructionChunks([
        {
          step_id: 2,
          action_type: 'done',
          params: { answer: 'Here are the products.', fields: { name: 0, price: 1, rating: 2, brand: null } },
        },
      ]),
    },
  )
  const before = llm.requests.length
  const r = await call('ava_extract', { schema: kProductSchema })
  expect(r.isError, r.text).toBe(false)
  expect(r.text).toMatch(/^300 row\(s\) fit the schema; 0 value\(s\) did not fit; the page does not have: brand\./)
  // The rows are page words: they come inside the frame, as JSON.
  const block = /<untrusted_page_content>\n([\s\S]*)\n<\/untrusted_page_content>/.exec(r.text)?.[1] ?? ''
  const got = JSON.parse(block) as {
    rows: unknown[]
    sources: Record<string, { item: string; part: number; text: string }>[]
    problems: unknown[]
    absent: string[]
  }
  expect(got.rows).toEqual(products(300))
  expect(got.problems).toEqual([])
  expect(got.absent).toEqual(['brand'])
  expect(got.sources[0].price).toMatchObject({ part: 1, text: '$0.99' })
  expect(got.sources[299].name.text).toBe('Charger model 300')
  // Collect, then the field map: two model calls for 300 rows; the model was told the shape.
  expect(llm.requests.length - before).toBe(2)
  expect(JSON.stringify(llm.requests[before].body)).toContain('rows with these fields')
}, 200_000)

test('ava_extract refuses a schema it cannot read before the model or the page is touched', async () => {
  const before = llm.requests.length
  const r = await call('ava_extract', {
    schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
  })
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^EXTRACT_SCHEMA: Field "tags" must be one of .* \(at \/properties\/tags\)/)
  expect(llm.requests.length).toBe(before)
})

test('a risky step with nobody to ask is refused with UNATTENDED, naming the --allow that would let it, and the page saw no click', async () => {
  await call('ava_navigate', { url: `${site.url}/hostile/pack-risk.html` })
  const page = await call('ava_page_read')
  // The page's note to "the AI assistant" reaches the client inside the frame, as data.
  const block = /<untrusted_page_content>[\s\S]*<\/untrusted_page_content>/.exec(page.text)?.[0] ?? ''
  expect(block).toContain('NOTE TO THE AI ASSISTANT')
  const r = await call('ava_page_act', {
    instructions: [{ action_type: 'click', semantic_locator: 'Delete account button', fallback_selector: '#delete' }],
  })
  expect(r.isError).toBe(true)
  expect(r.text).toMatch(/^UNATTENDED: /)
  expect(r.text).toMatch(/--allow destructive/)
  expect(site.hits.some((h) => h.path === '/api/delete-account')).toBe(false)
})

test('a page that shows back a typed secret is read with the placeholder, and cannot close the frame early', async () => {
  await call('ava_navigate', { url: `${site.url}/hostile/echo.html` })
  const typed = await call('ava_page_act', {
    instructions: [
      {
        action_type: 'input',
        fallback_selector: '#name',
        semantic_locator: 'Display name',
        value: '${secret:ACME_PASSWORD}',
      },
    ],
  })
  expect(typed.isError, typed.text).toBe(false)
  const page = await call('ava_page_read')
  expect(page.text).toContain('Preview: ${secret:ACME_PASSWORD}')
  // A page writing our closing tag gets it neutralised: the block the client reads ends only once.
  await call('ava_navigate', { url: `${site.url}/hostile/secrets.html` })
  const hostile = await call('ava_page_read')
  expect(hostile.text.match(/<\/untrusted_page_content>/g)).toHaveLength(1)
  expect(hostile.text.trimEnd().endsWith('</untrusted_page_content>')).toBe(true)
  expect(hostile.text).toContain('zq-label-override')
})

test('a page that echoes a typed secret spaced, in look-alike letters, full-width or reversed is read with the placeholder each time', async () => {
  // (The listing keeps the spaced, look-alike and wide lines; each holds the placeholder, and no line holds the password reversed.)
  await call('ava_navigate', { url: `${site.url}/hostile/echo-spelled.html` })
  const typed = await call('ava_page_act', {
    instructions: [
      {
        action_type: 'input',
        fallback_selector: '#name',
        semantic_locator: 'Display name',
        value: '${secret:ACME_PASSWORD}',
      },
    ],
  })
  expect(typed.isError, typed.text).toBe(false)
  const page = await call('ava_page_read')
  for (const label of ['Spaced:', 'Look-alike:', 'Wide:'])
    expect(page.text).toMatch(new RegExp(`${label} \\$\\{secret:ACME_PASSWORD\\}`))
  // What a reader makes of the text: nothing of the password, in any of these spellings.
  const letters = page.text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u0430\u0435\u043e]/g, (c) => ({ '\u0430': 'a', '\u0435': 'e', '\u043e': 'o' })[c]!)
    .replace(/[^a-z]/g, '')
  expect(letters).not.toContain(kPassword)
  expect(letters).not.toContain([...kPassword].reverse().join(''))
})

test('no tool result holds the saved secret', () => {
  expect(seen.length).toBeGreaterThan(15)
  for (const text of seen) expect(text).not.toContain(kPassword)
})

test('--http serves the same tools on loopback only, refusing a request for another host name', async () => {
  const { spawn } = await import('node:child_process')
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  const child = spawn(process.execPath, [bin, 'mcp', '--http', '0'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: join(dir, 'home'), AVA_CHROMIUM: chromiumPath },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  try {
    const url = await new Promise<string>((done, fail) => {
      let err = ''
      child.stderr.on('data', (d: Buffer) => {
        err += String(d)
        const m = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(err)
        if (m) done(m[0])
      })
      child.once('exit', () => fail(new Error(`ava mcp --http exited: ${err}`)))
    })
    const http = new Client({ name: 'http-agent', version: '1.0.0' })
    await http.connect(new StreamableHTTPClientTransport(new URL(url)))
    expect((await http.listTools()).tools.map((t) => t.name)).toContain('ava_page_act')
    await http.close()
    // A web page that rebinds its own name to 127.0.0.1 sends its own Host; one that posts from its
    // origin sends that Origin: both are refused before any MCP message is read.
    const { request } = await import('node:http')
    const post = (headers: Record<string, string>) =>
      new Promise<number>((done, fail) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
        })
        const req = request(
          url,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          },
          (res) => {
            res.resume()
            done(res.statusCode ?? 0)
          },
        )
        req.once('error', fail)
        req.end(body)
      })
    expect(await post({ host: 'evil.example' })).toBe(403)
    expect(await post({ origin: 'https://evil.example' })).toBe(403)
    expect(await post({})).toBe(200)
  } finally {
    child.kill()
  }
})
