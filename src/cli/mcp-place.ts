// Where `ava mcp` acts. Place (a): a Chromium it starts itself through playwright-core (headless,
// as `ava run`), one tab that the client opens with ava_navigate. The tools see a place only
// through McpPlace, so the person's own Chrome (place (b), docs/mcp.md) can stand behind the same
// tools later.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FlowPort } from '../core/flows'
import type { PageCommand, PageCommandKind, SendCommand } from '../core/page/command'
import type { BrowserPort } from '../core/registry'
import type { PortExtras } from '../core/page/channel'
import { kBrowserArgs, kNavigationTimeoutMs, kViewport, pageBrowserPort, pageFlowPort, pageSender } from './run'

/** The tab a client drives, and the ports every tool reaches it through. */
export interface McpTab {
  send: SendCommand
  url(): Promise<string>
  navigate(url: string, signal: AbortSignal): Promise<void>
  /** The registry engine's port, with the call's guard and the bound secrets. */
  browserPort(gate: Pick<PortExtras, 'guard' | 'secrets'>): BrowserPort
  /** The flows' port, likewise; closed when the replay ends. */
  flowPort(gate: Pick<PortExtras, 'guard' | 'secrets'>): FlowPort & { close(): void }
}

export interface McpPlace {
  /** The client's tab; undefined until the client has opened one (nothing runs in another). */
  tab(): McpTab | undefined
  /**
   * The client's tab as a server before this one left it, reopened, when the place keeps such a
   * thing (place (a)'s session); undefined when there is none to reopen.
   */
  resume?(signal: AbortSignal): Promise<McpTab | undefined>
  /** Opens (or reuses) the client's tab on `url`. */
  open(url: string, signal: AbortSignal): Promise<McpTab>
  close(): Promise<void>
  /**
   * The place fills `${secret:…}` itself from the person's vault (place (b)): the server passes the
   * placeholders through untouched and never holds a value.
   */
  secretsInPlace?: boolean
  /** Ask Ava where the place has an Ava of its own (place (b): the extension's agent and model). */
  ask?(request: string, signal: AbortSignal): Promise<import('./mcp-agent').AskReport>
}

type PwPage = import('playwright-core').Page
type PwContext = import('playwright-core').BrowserContext

/** The page script, inlined into bin/ava.js by scripts/build-cli.mjs. */
declare const __AVA_PAGE_SCRIPT__: string | undefined

export function tabOf(page: () => PwPage): McpTab {
  return {
    send: (<K extends PageCommandKind>(command: PageCommand<K>) => pageSender(page())(command)) as SendCommand,
    url: async () => page().url(),
    async navigate(url) {
      await page().goto(new URL(url, page().url()).href, { timeout: kNavigationTimeoutMs })
    },
    browserPort: (gate) => pageBrowserPort(page(), gate),
    flowPort: (gate) => pageFlowPort(page(), gate),
  }
}

/**
 * What a server leaves for the next one of the same client: an MCP client that starts a server per
 * call (the Inspector's CLI, a script) gets each call in a new process, so the page the last call
 * left it on and its cookies and storage (Playwright's storage state) live on disk, only this user
 * may read them, in AVA_HOME/mcp/<client>/ (docs/mcp.md, "One server per call").
 */
export interface PlaceSession {
  /** The folder for this client's last page and storage state. */
  dir: string
  /** The site lists decide whether the last page may be reopened, as they decided when it opened. */
  mayOpen(url: string): boolean
  /** A line for the server's stderr. */
  note(line: string): void
}

/** A last page older than this is not reopened: the client has moved on, and a fresh call starts clean. */
const kResumeWindowMs = 60 * 60 * 1000

/** The folder of a client's session under `home` (AVA_HOME): its name, in letters a file system keeps. */
export function sessionDir(home: string, client: string): string {
  const name = client.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 60) || 'client'
  return join(home, 'mcp', name)
}

interface LastPage {
  url: string
  at: number
}

function readLast(dir: string): LastPage | undefined {
  try {
    const last = JSON.parse(readFileSync(join(dir, 'last-page.json'), 'utf8')) as Partial<LastPage>
    return typeof last.url === 'string' && typeof last.at === 'number' ? { url: last.url, at: last.at } : undefined
  } catch {
    return undefined
  }
}

/** Place (a): a Chromium of our own, started on the first ava_navigate (or on a call that resumes the last page). */
export function chromiumPlace(o: { executablePath: string; headed: boolean; session?: () => PlaceSession | undefined }): McpPlace {
  let context: Promise<PwContext> | undefined
  let page: PwPage | undefined
  let tab: McpTab | undefined
  let session: PlaceSession | undefined

  async function start(): Promise<PwContext> {
    const { chromium } = await import('playwright-core')
    session = o.session?.()
    const browser = await chromium.launch({ executablePath: o.executablePath, headless: !o.headed, args: kBrowserArgs })
    // The cookies and storage the client's last server left: a site's session cookie (which a
    // browser profile would drop on restart) keeps the client logged in across servers.
    const state = session && existsSync(join(session.dir, 'state.json')) ? join(session.dir, 'state.json') : undefined
    const ctx = await browser.newContext({ viewport: kViewport, storageState: state }).catch(() => browser.newContext({ viewport: kViewport }))
    // Every document the tab opens gets the page code, as the extension's content script does.
    await ctx.addInitScript({ content: __AVA_PAGE_SCRIPT__! })
    return ctx
  }
  /** Writes the client's last page and the context's cookies and storage for the next server. */
  async function keep(ctx: PwContext, url: string): Promise<void> {
    if (!session || !/^https?:/.test(url)) return
    try {
      mkdirSync(session.dir, { recursive: true, mode: 0o700 })
      writeFileSync(join(session.dir, 'last-page.json'), `${JSON.stringify({ url, at: Date.now() } satisfies LastPage)}\n`, { mode: 0o600 })
      writeFileSync(join(session.dir, 'state.json'), JSON.stringify(await ctx.storageState()), { mode: 0o600 })
    } catch {
      // A read-only home, or a context closing under us, only costs the next server its page.
    }
  }
  async function ensurePage(): Promise<McpTab> {
    if (typeof __AVA_PAGE_SCRIPT__ !== 'string') throw new Error('the page script is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js mcp`')
    if (page && !page.isClosed()) return tab!
    context ??= start()
    const ctx = await context
    const current = ctx.pages()[0] ?? (await ctx.newPage())
    page = current
    tab = tabOf(() => current)
    // The page the tab is on, after whatever moved it (a navigate, a click that loads a page).
    current.on('load', () => void keep(ctx, current.url()))
    return tab
  }
  return {
    tab: () => (page && !page.isClosed() ? tab : undefined),
    async resume(signal) {
      const s = o.session?.()
      const last = s && readLast(s.dir)
      if (!s || !last || Date.now() - last.at > kResumeWindowMs || !s.mayOpen(last.url) || signal.aborted) return undefined
      const t = await ensurePage()
      try {
        await page!.goto(last.url, { timeout: kNavigationTimeoutMs })
        // Read it as the last server had: the page issues its ids on a reading, and a listing's ids
        // are the element's words, so the ids the client was given name the same elements again.
        await t.send({ kind: 'read', request: '', settle: true }, signal)
      } catch (e) {
        // A page that will not open again is no tab: the call says NO_TAB, and ava_navigate starts afresh.
        s.note(`could not reopen ${last.url} (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the client starts with ava_navigate`)
        await page?.close().catch(() => undefined)
        return undefined
      }
      s.note(`reopened ${last.url}, where this client's last server left its tab`)
      return t
    },
    async open(url) {
      const t = await ensurePage()
      await page!.goto(url, { timeout: kNavigationTimeoutMs })
      return t
    },
    async close() {
      const c = context
      context = undefined
      const ctx = await c?.catch(() => undefined)
      if (ctx && page && !page.isClosed()) await keep(ctx, page.url())
      await ctx?.browser()?.close().catch(() => undefined)
    },
  }
}
