import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { chromiumPath } from '../support/browser'
import { startSiteServer, type SiteServer } from '../support/site-server'

// The door matrix of the doors with nobody at them (docs/security.md, "Every door, one rule"):
// the same risky steps — a destructive click, a password form, a cross-site navigation, a secret
// into another site's frame, a program download — sent through `ava run`, `ava action run` and
// `ava mcp` with its own Chromium (the MCP SDK's client), with nobody there to answer and with
// the door's "yes" (--yes, --allow all). One situation, one answer: a step that needs a yes and
// gets none is UNATTENDED, naming the flag that would allow it; nothing reached the site; nothing
// says "by you" (nobody was asked). A pack action that will need a question refuses before its
// first step: nothing typed. The site is 127.0.0.1; "another site" is localhost.
//
// The doors where a person answers (the panel's agent, /run, the popup's Run, the extension's
// bridge) are driven in e2e/agent/door-matrix.test.ts.

const exec = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const bin = resolve(root, '.ava-out/e2e-door-matrix/ava.js')
const kPassword = 'wonderland'

let site: SiteServer
let other: SiteServer
let dir: string

/** The same steps as a pack, so `ava run`, `ava action run` and `ava_action_run` run the very same ones. */
const kPack = `namespace: doors
version: 1.0.0
description: The door matrix's risky steps.
actions:
  account:delete:
    description: Deletes the account.
    steps:
      - action: click
        args: { selector: "css:#delete" }
  account:download:
    description: Downloads the invoice (a program dressed as a document).
    steps:
      - action: click
        args: { selector: "css:#invoice" }
  account:away:
    description: Opens another site.
    params:
      url: { type: string, description: Where to go., required: true }
    steps:
      - action: navigate
        args: { url: "\${params.url}" }
`

async function ava(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(process.execPath, [bin, ...args], {
      cwd: dir,
      env: {
        ...process.env,
        AVA_CHROMIUM: chromiumPath,
        AVA_ACTIONS_PATH: dir,
        AVA_CONFIG: '',
        HOME: join(dir, 'home'),
        ...env,
      },
      timeout: 90_000,
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string }
    return { code: x.code, stdout: x.stdout, stderr: x.stderr }
  }
}

const account = () => `${site.url}/doors/account.html?other=${encodeURIComponent(other.url)}`
const deleted = () => site.hits.filter((h) => h.path === '/api/delete-account').length
const posted = (s: SiteServer) => s.hits.filter((h) => h.path === '/login' && h.method === 'POST').length

/** What a run ended on: its code (the JSON's error.code), or OK. */
function outcome(r: { code: number; stdout: string }): { code: string; message: string } {
  const json = JSON.parse(r.stdout) as { success: boolean; error?: { code: string; message: string } }
  return json.success ? { code: 'OK', message: '' } : { code: json.error!.code, message: json.error!.message }
}

beforeAll(async () => {
  ;[site, other] = (await Promise.all([
    startSiteServer(),
    startSiteServer({ host: 'localhost' }),
    exec(process.execPath, [resolve(root, 'scripts/build-cli.mjs')], {
      cwd: root,
      env: { ...process.env, AVA_CLI_OUTFILE: bin },
    }),
  ])) as [SiteServer, SiteServer, unknown]
  dir = mkdtempSync(join(tmpdir(), 'ava-doors-'))
  writeFileSync(join(dir, 'doors.yaml'), kPack)
}, 120_000)

afterAll(async () => {
  await Promise.all([site?.close(), other?.close()])
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** `ava run <action>` and `ava action run <action>`: the two command-line doors, one rule. */
const kCommands = [
  { door: 'ava run', args: (action: string) => ['run', action], permit: 'running ava run again with --allow' },
  {
    door: 'ava action run',
    args: (action: string) => ['action', 'run', action],
    permit: 'running ava action run again with --allow',
  },
] as const

describe.each(kCommands)('$door', ({ args, permit }) => {
  test('a destructive click with nobody there: UNATTENDED naming --allow destructive, nothing reached the site; with --yes it is done', async () => {
    const before = deleted()
    const r = await ava([...args('doors:account:delete'), '--url', account(), '--json'])
    expect(outcome(r)).toMatchObject({ code: 'UNATTENDED', message: expect.stringContaining(`${permit} destructive`) })
    expect(r.stderr).not.toMatch(/by you/i)
    expect(r.stderr).toMatch(/stopped before a risky step \(destructive\): .*Delete account/)
    expect(r.stderr).not.toMatch(/Delete account Delete account/)
    expect(deleted()).toBe(before)
    const yes = await ava([...args('doors:account:delete'), '--url', account(), '--json', '--yes'])
    expect(outcome(yes).code).toBe('OK')
    await expect.poll(deleted).toBe(before + 1)
  })

  test('a program download with nobody there: UNATTENDED naming --allow', async () => {
    const r = await ava([...args('doors:account:download'), '--url', account(), '--json'])
    expect(outcome(r)).toMatchObject({
      code: 'UNATTENDED',
      message: expect.stringMatching(/invoice\.pdf\.exe[\s\S]*--allow/),
    })
    expect(outcome(await ava([...args('doors:account:download'), '--url', account(), '--json', '--yes'])).code).toBe(
      'OK',
    )
  })

  test('a password form with nobody there: UNATTENDED before the first step, naming --allow credentials, as in ava mcp; nothing typed, nothing sent; --allow credentials lets it', async () => {
    const before = posted(site)
    const login = await ava([
      ...args('common:auth:login'),
      '--url',
      `${site.url}/login`,
      '--param',
      'username=alice',
      '--param',
      `password=${kPassword}`,
      '--json',
    ])
    expect(outcome(login)).toMatchObject({
      code: 'UNATTENDED',
      message: expect.stringContaining(`${permit} credentials`),
    })
    expect(login.stderr).not.toMatch(/by you|cancelled/i)
    expect(posted(site)).toBe(before)
    const allowed = await ava([
      ...args('common:auth:login'),
      '--url',
      `${site.url}/login`,
      '--param',
      'username=alice',
      '--param',
      `password=${kPassword}`,
      '--json',
      '--allow',
      'credentials',
    ])
    expect(outcome(allowed).code).toBe('OK')
    expect(posted(site)).toBe(before + 1)
  })

  test('another site with nobody there: UNATTENDED naming --allow cross_site, as in ava mcp; --allow cross_site lets it', async () => {
    const offers = () => other.hits.filter((h) => h.path === '/doors/offers.html').length
    const before = offers()
    const away = await ava([
      ...args('doors:account:away'),
      '--url',
      account(),
      '--param',
      `url=${other.url}/doors/offers.html`,
      '--json',
    ])
    expect(outcome(away)).toMatchObject({
      code: 'UNATTENDED',
      message: expect.stringContaining(`${permit} cross_site`),
    })
    expect(offers()).toBe(before)
    const allowed = await ava([
      ...args('doors:account:away'),
      '--url',
      account(),
      '--param',
      `url=${other.url}/doors/offers.html`,
      '--json',
      '--allow',
      'cross_site',
    ])
    expect(outcome(allowed).code).toBe('OK')
  })
})

describe('ava mcp with its own Chromium', () => {
  /** One server per answer: nobody there (no --allow), and the door's yes (--allow all). */
  const clients: Record<'nobody' | 'yes', Client> = {} as never

  async function call(
    who: 'nobody' | 'yes',
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<{ code: string; text: string }> {
    const r = (await clients[who].callTool({ name, arguments: args })) as CallToolResult
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
    return { code: r.isError ? (text.match(/^([A-Z_]+):/)?.[1] ?? 'FAILED') : 'OK', text }
  }

  beforeAll(async () => {
    for (const who of ['nobody', 'yes'] as const) {
      const client = new Client({ name: `door-matrix-${who}`, version: '1.0.0' })
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, 'mcp', '--secret', `ACME_PASSWORD=${site.url}`, ...(who === 'yes' ? ['--allow', 'all'] : [])],
          cwd: dir,
          stderr: 'pipe',
          env: {
            PATH: process.env.PATH ?? '',
            HOME: join(dir, 'home'),
            AVA_CHROMIUM: chromiumPath,
            AVA_ACTIONS_PATH: dir,
            ACME_PASSWORD: kPassword,
          },
        }),
      )
      clients[who] = client
    }
  }, 60_000)

  afterAll(async () => {
    await Promise.all(Object.values(clients).map((c) => c?.close()))
  })

  test("what ava_action_search shows as the login's risk is what the guard will decide", async () => {
    const found = JSON.parse((await call('nobody', 'ava_action_search', { query: 'login' })).text) as {
      name: string
      risk: string
      asks?: string[]
    }[]
    expect(found.find((a) => a.name === 'common:auth:login')).toMatchObject({ risk: 'high', asks: ['credentials'] })
  })

  test('a password form with nobody there: UNATTENDED before the first step, naming --allow credentials; nothing typed, nothing sent', async () => {
    await call('nobody', 'ava_navigate', { url: `${site.url}/login` })
    const before = posted(site)
    const r = await call('nobody', 'ava_action_run', {
      name: 'common:auth:login',
      params: { username: 'alice', password: '${secret:ACME_PASSWORD}' },
    })
    expect(r.code).toBe('UNATTENDED')
    expect(r.text).toContain('--allow credentials')
    expect(r.text).not.toMatch(/by you|cancelled/i)
    expect(posted(site)).toBe(before)
    // Not a character typed: the username field is as the page drew it.
    const page = await call('nobody', 'ava_page_read')
    expect(page.text).not.toContain('alice')
    const yes = await call('yes', 'ava_navigate', { url: `${site.url}/login` })
    expect(yes.code).toBe('OK')
    expect(
      (
        await call('yes', 'ava_action_run', {
          name: 'common:auth:login',
          params: { username: 'alice', password: '${secret:ACME_PASSWORD}' },
        })
      ).code,
    ).toBe('OK')
    expect(posted(site)).toBe(before + 1)
  })

  test('a destructive click with nobody there: UNATTENDED naming --allow destructive, the label said once; nothing reached the site', async () => {
    await call('nobody', 'ava_navigate', { url: account() })
    const before = deleted()
    const r = await call('nobody', 'ava_page_act', {
      instructions: [{ action_type: 'click', semantic_locator: 'Delete account', description: 'Delete account' }],
    })
    expect(r.code).toBe('UNATTENDED')
    expect(r.text).toContain('--allow destructive')
    expect(r.text).not.toMatch(/Delete account Delete account/)
    expect(deleted()).toBe(before)
    await call('yes', 'ava_navigate', { url: account() })
    expect(
      (
        await call('yes', 'ava_page_act', {
          instructions: [{ action_type: 'click', semantic_locator: 'Delete account', description: 'Delete account' }],
        })
      ).code,
    ).toBe('OK')
    await expect.poll(deleted).toBe(before + 1)
  })

  test('a cross-site navigation, by ava_navigate, by ava_page_act and by a pack: UNATTENDED naming --allow cross_site, the tab stays', async () => {
    await call('nobody', 'ava_navigate', { url: account() })
    const to = `${other.url}/doors/offers.html`
    const offers = () => other.hits.filter((h) => h.path === '/doors/offers.html').length
    const before = offers()
    for (const r of [
      await call('nobody', 'ava_navigate', { url: to }),
      await call('nobody', 'ava_page_act', {
        instructions: [{ action_type: 'navigate', url: to, description: 'Open the offers' }],
      }),
      await call('nobody', 'ava_action_run', { name: 'doors:account:away', params: { url: to } }),
    ]) {
      expect(r.code, r.text).toBe('UNATTENDED')
      expect(r.text).toContain('--allow cross_site')
    }
    expect(offers()).toBe(before)
    await call('yes', 'ava_navigate', { url: account() })
    expect((await call('yes', 'ava_navigate', { url: to })).code).toBe('OK')
  })

  test("a secret into another site's frame: that frame is not read nor acted on, whoever allowed what; nothing reaches that site", async () => {
    for (const who of ['nobody', 'yes'] as const) {
      await call(who, 'ava_navigate', { url: account() })
      const read = await call(who, 'ava_page_read')
      // With its own Chromium, a frame of another origin is listed as one, its fields never.
      expect(read.text).toMatch(/frame_pay cross_origin_restricted/)
      expect(read.text).not.toMatch(/frame_pay_\w/)
      const r = await call(who, 'ava_page_act', {
        instructions: [
          {
            action_type: 'input',
            semantic_locator: 'Profile note',
            value: '${secret:ACME_PASSWORD}',
            description: 'Type the note',
          },
        ],
      })
      expect(r.code, r.text).toBe('ELEMENT_NOT_FOUND')
      expect(r.text).not.toContain(kPassword)
    }
    expect(other.hits.filter((h) => h.path === '/exfil')).toEqual([])
  })

  test('a program download with nobody there: UNATTENDED naming --allow all', async () => {
    await call('nobody', 'ava_navigate', { url: account() })
    const r = await call('nobody', 'ava_action_run', { name: 'doors:account:download', params: {} })
    expect(r.code, r.text).toBe('UNATTENDED')
    expect(r.text).toMatch(/invoice\.pdf\.exe[\s\S]*--allow all/)
  })
})
