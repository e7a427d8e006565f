// `ava mcp [--http <port>]`: the server of mcp.ts on stdio (what desktop and coding agents start)
// or streamable HTTP on loopback only. A web page cannot reach it through a name of its own that
// resolves to 127.0.0.1 (DNS rebinding), nor post to it from its origin: a request whose Host is not
// our loopback address, or whose Origin is a web page's, is refused before the SDK sees it (the
// SDK's own check is deprecated in favour of such a middleware).
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { siteOrigin } from '../../core/agent/secrets'
import { domainAllowed } from '../../core/settings'
import { kExit, type Io, type Parsed } from '../args'
import { allowListAsker, type Asker, type McpSecret } from './gate'
import { parseAllow } from '../unattended'
import { modelFromEnv } from './agent'
import { chromiumPlace, sessionDir, type McpPlace, type PlaceSession } from './place'
import { chromePlace, kBridgeWaitMs, kNoBrowserMessage } from './chrome'
import { avaHome, installNativeHost, runNativeHost } from './native'
import { createAvaMcpServer, type McpOptions } from './server'
import { kMcpSpec } from './spec'
import { chromiumPath } from '../playwright-page'

const kDefaultStepLimit = 20

/** The native host's source (src/cli/native-host-main.ts), inlined into bin/ava.js by scripts/build-cli.mjs. */
declare const __AVA_NATIVE_HOST__: string | undefined

/**
 * In the person's browser the extension asks the person before a risky step and answers the
 * command with its refusal when they say no: nothing is left for the server to allow.
 */
const kNobody: Asker = { ask: async () => false }

/** `ava mcp install --extension-id <id> [--profile <dir>]`: registers the native host (place (b)). */
function install(parsed: Parsed, io: Io): number {
  const id = parsed.values['extension-id'] as string | undefined
  if (!id) {
    io.err(
      "ava mcp install: give Ava's extension id with --extension-id (chrome://extensions shows it with Developer mode on)",
    )
    return kExit.usage
  }
  if (typeof __AVA_NATIVE_HOST__ !== 'string') {
    io.err(
      'ava mcp install: the native host is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js mcp install`',
    )
    return kExit.failed
  }
  try {
    for (const file of installNativeHost({
      extensionId: id,
      host: __AVA_NATIVE_HOST__,
      profile: parsed.values.profile as string | undefined,
    }))
      io.out(`wrote ${file}`)
  } catch (e) {
    io.err(`ava mcp install: ${(e as Error).message}`)
    return kExit.failed
  }
  io.err(
    'ava mcp install: done. Start `ava mcp --chrome` from your MCP client; Ava asks in the panel before a client drives a tab. `ava doctor` checks the install.',
  )
  return kExit.ok
}

/** `ava native-host`: what Chrome starts for Ava's extension (see mcp/native.ts). Not for people. */
export async function nativeHostCli(): Promise<number> {
  await runNativeHost({ input: process.stdin, output: process.stdout })
  return kExit.ok
}

/** `--secret NAME=https://a.example,https://b.example` → the secret with its value from $NAME, or why not. */
export function parseSecret(raw: string, env: NodeJS.ProcessEnv): McpSecret | string {
  const eq = raw.indexOf('=')
  const name = eq < 0 ? raw : raw.slice(0, eq)
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return `--secret ${raw}: the name may hold letters, digits, _ . and -`
  const sites =
    eq < 0
      ? []
      : raw
          .slice(eq + 1)
          .split(',')
          .map((s) => siteOrigin(s))
  if (!sites.length || sites.some((s) => !s))
    return `--secret ${raw}: give the sites it may be typed on, e.g. --secret ${name}=https://shop.example`
  const value = env[name]
  if (value === undefined || value === '') return `--secret ${name}: the environment variable ${name} is not set`
  return { name, value, sites: sites as string[] }
}

function options(
  parsed: Parsed,
  io: Io,
): (Omit<McpOptions, 'place'> & { http?: number; browser: string; headed: boolean }) | string {
  const v = parsed.values
  const list = (k: string) => (v[k] as string[] | undefined) ?? []
  const allow = parseAllow(list('allow'))
  if (typeof allow === 'string') return allow
  const secrets: McpSecret[] = []
  for (const raw of list('secret')) {
    const s = parseSecret(raw, process.env)
    if (typeof s === 'string') return s
    secrets.push(s)
  }
  const limit = v['step-limit'] === undefined ? kDefaultStepLimit : Number(v['step-limit'])
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) return '--step-limit needs a whole number from 1 to 200'
  let http: number | undefined
  if (v.http !== undefined) {
    http = Number(v.http)
    if (!Number.isInteger(http) || http < 0 || http > 65535) return '--http needs a port number (0 for any free port)'
  }
  // The person's Chrome needs no Chromium of ours.
  const executable = v.chrome ? { path: '' } : chromiumPath({ browser: v.browser as string | undefined })
  if (typeof executable === 'string') return executable
  const llm = modelFromEnv()
  if (typeof llm === 'string') io.err(`ava mcp: ${llm}; ava_ask is unavailable`)
  return {
    asker: allowListAsker(allow),
    stepLimit: limit,
    sites: { allow: list('allow-site'), deny: list('deny-site') },
    secrets,
    flowDirs: (list('flows').length ? list('flows') : ['.ava/flows']).map((d) => resolve(d)),
    llm,
    http,
    browser: executable.path,
    headed: !!v.headed,
  }
}

export async function mcpCli(parsed: Parsed, io: Io): Promise<number> {
  if (parsed.positionals[0] === 'install') return install(parsed, io)
  if (parsed.positionals.length) {
    io.err(`ava mcp: unexpected argument "${parsed.positionals[0]}"\nRun \`ava mcp --help\` for its options.`)
    return kExit.usage
  }
  const o = options(parsed, io)
  if (typeof o === 'string') {
    io.err(`ava mcp: ${o}\nRun \`ava ${kMcpSpec.name} --help\` for its options.`)
    return kExit.usage
  }
  // The client's name, as it introduced itself: the person sees it in the panel (place (b)).
  let client = 'An MCP client'
  let place: McpPlace
  if (parsed.values.chrome) {
    const chrome = await chromePlace({ client: () => client, note: (line) => io.err(`ava mcp: ${line}`) })
    io.err(`ava mcp: waiting for Ava in Chrome on ${chrome.path}`)
    void chrome.connectedWithin(kBridgeWaitMs).then((yes) => yes || io.err(`ava mcp: ${kNoBrowserMessage}`))
    place = chrome
  } else {
    const home = avaHome()
    const session = (): PlaceSession | undefined =>
      parsed.values.isolated
        ? undefined
        : {
            dir: sessionDir(home, client),
            mayOpen: (url) => domainAllowed(url, { allowDomains: o.sites.allow, denyDomains: o.sites.deny }),
            note: (line) => io.err(`ava mcp: ${line}`),
          }
    place = chromiumPlace({ executablePath: o.browser, headed: o.headed, sites: o.sites, session })
  }
  /** A server for one MCP session, in `at`; `named` learns the name its client gives. */
  const make = (at: McpPlace, named: (name: string) => void) => {
    const server = createAvaMcpServer({
      ...o,
      place: at,
      ...(parsed.values.chrome ? { asker: kNobody, secrets: [] } : {}),
    })
    server.server.oninitialized = () => {
      const name = server.server.getClientVersion()?.name
      if (name) named(name)
    }
    return server
  }
  let stop = () => undefined as void
  const closed = new Promise<void>((done) => {
    stop = done
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  if (o.http === undefined) {
    // stdout is the protocol's: every message of ours goes to stderr.
    // The client closing our stdin ends the server (the SDK reports it; a raw stdin listener also
    // fires for the process's other pipes closing, such as the browser's).
    const server = make(place, (name) => (client = name))
    server.server.onclose = () => stop()
    await server.connect(new StdioServerTransport())
    io.err('ava mcp: serving on stdio')
  } else {
    const sessions = new Map<string, StreamableHTTPServerTransport>()
    const http = createServer((req, res) => {
      const port = (http.address() as AddressInfo).port
      const origin = req.headers.origin
      if (
        ![`127.0.0.1:${port}`, `localhost:${port}`].includes(req.headers.host ?? '') ||
        (origin !== undefined && !/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin))
      ) {
        res
          .writeHead(403, { 'content-type': 'text/plain' })
          .end('ava mcp answers only local clients on its loopback address.')
        return
      }
      const id = req.headers['mcp-session-id']
      const known = typeof id === 'string' ? sessions.get(id) : undefined
      const serve = async () => {
        if (known) return known.handleRequest(req, res)
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => void sessions.set(sid, transport),
        })
        // Each session its own tab (and, in a Chromium of our own, its own cookies), closed with it.
        let name = 'An MCP client'
        const mine = place.session?.(() => name) ?? place
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId)
          if (mine !== place) void mine.close()
        }
        await make(mine, (n) => (name = n)).connect(transport)
        await transport.handleRequest(req, res)
      }
      serve().catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String((e as Error)?.message ?? e))
      })
    })
    await new Promise<void>((done) => http.listen(o.http, '127.0.0.1', done))
    io.err(`ava mcp: serving streamable HTTP on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)
    void closed.then(() => http.close())
  }
  await closed
  await place.close()
  return kExit.ok
}
