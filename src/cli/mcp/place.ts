// Where `ava mcp` acts. Place (a): a Chromium it starts itself through playwright-core (headless,
// as `ava run`); each MCP session gets a browser context of its own (its own cookies and storage)
// with one tab, which the client opens with ava_navigate. The site lists hold there for every
// navigation of the session's context, whatever tool or script carries it. The tools see a place
// only through McpPlace, so the person's own Chrome (place (b), mcp/chrome.ts) stands behind the
// same tools.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FlowPort } from '../../core/flows'
import type { SitePolicy } from '../../core/offsite'
import type { PageCommand, PageCommandKind, PageOutcome, SendCommand } from '../../core/page/command'
import type { BrowserPort } from '../../core/registry'
import type { PortExtras } from '../../core/page/channel'
import { domainAllowed } from '../../core/settings'
import { urlHost } from '../../core/host'
import {
  kBrowserArgs,
  kNavigationTimeoutMs,
  kViewport,
  pageBrowserPort,
  pageFlowPort,
  pageSender,
  kPageScript,
} from '../playwright-page'

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
  /** Ends what this place holds: a session's tab (and context), or, for the place a server was started with, the browser. */
  close(): Promise<void>
  /**
   * A place for one more MCP session (a new `mcp-session-id` over HTTP) sharing this one's
   * browser: a tab of its own, and in a Chromium of Ava's own a browser context of its own, so
   * two sessions share neither a page nor cookies. `client` names the session's client.
   */
  session?(client?: () => string): McpPlace
  /** Why the session has no tab any more (the person stopped or revoked it, or closed the tab), for the client's next call. */
  gone?(): string | undefined
  /** The last navigation the site lists stopped since it was last asked, and clears it: the call that caused it reports BLOCKED. */
  takeBlocked?(): string | undefined
  /**
   * The place fills `${secret:…}` itself from the person's vault (place (b)): the server passes the
   * placeholders through untouched and never holds a value.
   */
  secretsInPlace?: boolean
  /** Ask Ava where the place has an Ava of its own (place (b): the extension's agent and model). */
  ask?(request: string, signal: AbortSignal, shape?: Record<string, unknown>): Promise<import('./agent').AskReport>
}

type PwPage = import('playwright-core').Page
type PwBrowser = import('playwright-core').Browser
type PwContext = import('playwright-core').BrowserContext

/** The tab a client drives on a Playwright page; `outside` says why a page may not be touched (the site lists), or null. */
export function tabOf(page: () => PwPage, outside: (url: string) => string | null = () => null): McpTab {
  const sender = (<K extends PageCommandKind>(command: PageCommand<K>) => {
    // A page the lists forbid is neither read nor acted on, however the tab got there (a redirect
    // the route cannot see lands before it is turned back).
    const why = outside(page().url())
    if (why) return Promise.resolve({ ok: false, code: 'BLOCKED', message: why } as PageOutcome<K>)
    return pageSender(page())(command)
  }) as SendCommand
  return {
    send: sender,
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
  const name =
    client
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 60) || 'client'
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

/**
 * Place (a): a Chromium of our own, started on the first ava_navigate. `sites` are the server's
 * `--allow-site`/`--deny-site` lists: a top-level load of any page of the session's context (its
 * tab, or a window the page opened) that they forbid is stopped before a request leaves, and the
 * call that caused it fails with BLOCKED. `session`: where the first session keeps its last page and
 * storage for the next server of the same client (a client that starts a server per call).
 */
export function chromiumPlace(o: {
  executablePath: string
  headed: boolean
  sites?: SitePolicy
  session?: () => PlaceSession | undefined
}): McpPlace {
  const sites = o.sites ?? { allow: [], deny: [] }
  const listed = sites.allow.length > 0 || sites.deny.length > 0
  const outside = (url: string): string | null => {
    if (!listed || !/^https?:/i.test(url) || domainAllowed(url, { allowDomains: sites.allow, denyDomains: sites.deny }))
      return null
    return `Ava did not open ${urlHost(url) ?? url.slice(0, 100)}: this server's --allow-site/--deny-site lists forbid it. Nothing there was loaded or read; the tab shows the browser's "blocked" page.`
  }
  let browser: Promise<PwBrowser> | undefined
  const launch = () =>
    (browser ??= import('playwright-core').then(({ chromium }) =>
      chromium.launch({ executablePath: o.executablePath, headless: !o.headed, args: kBrowserArgs }),
    ))

  function sessionPlace(persist?: () => PlaceSession | undefined): McpPlace {
    let context: PwContext | undefined
    let kept: PlaceSession | undefined
    let page: PwPage | undefined
    let tab: McpTab | undefined
    let blocked: string | undefined
    /** Writes the client's last page and the context's cookies and storage for the next server. */
    async function keep(ctx: PwContext, url: string): Promise<void> {
      if (!kept || !/^https?:/.test(url)) return
      try {
        mkdirSync(kept.dir, { recursive: true, mode: 0o700 })
        writeFileSync(
          join(kept.dir, 'last-page.json'),
          `${JSON.stringify({ url, at: Date.now() } satisfies LastPage)}\n`,
          { mode: 0o600 },
        )
        writeFileSync(join(kept.dir, 'state.json'), JSON.stringify(await ctx.storageState()), { mode: 0o600 })
      } catch {
        // A read-only home, or a context closing under us, only costs the next server its page.
      }
    }
    /** The lists hold for every top-level load in the context, whoever starts it: a tool, a click, a script, the agent. */
    async function hold(c: PwContext): Promise<void> {
      if (!listed) return
      await c.route('**/*', (route, request) => {
        let top = false
        try {
          top = request.isNavigationRequest() && !request.frame().parentFrame()
        } catch {
          // A service worker's request has no frame: it loads no page.
        }
        const why = top ? outside(request.url()) : null
        if (!why) return route.fallback()
        blocked = why
        return route.abort('blockedbyclient')
      })
      // A redirect is not routed again (playwright-core routes a request's first URL only): a page
      // that lands outside the lists is turned back to a blank page at once, and reported.
      c.on('page', (p) =>
        p.on('framenavigated', (f) => {
          if (f !== p.mainFrame()) return
          const why = outside(f.url())
          if (!why) return
          blocked = why
          void p.goto('about:blank').catch(() => undefined)
        }),
      )
    }
    async function open(url: string): Promise<McpTab> {
      if (kPageScript === undefined)
        throw new Error('the page script is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js mcp`')
      if (!page || page.isClosed()) {
        if (!context) {
          const browser = await launch()
          kept = persist?.()
          // The cookies and storage the client's last server left: a site's session cookie (which a
          // browser profile would drop on restart) keeps the client logged in across servers.
          const state = kept && existsSync(join(kept.dir, 'state.json')) ? join(kept.dir, 'state.json') : undefined
          const c = await browser
            .newContext({ viewport: kViewport, storageState: state })
            .catch(() => browser.newContext({ viewport: kViewport }))
          await hold(c)
          // Every document the tab opens gets the page code, as the extension's content script does.
          await c.addInitScript({ content: kPageScript })
          context = c
        }
        page = await context.newPage()
        const current = page
        const ctx = context
        tab = tabOf(() => current, outside)
        // The page the tab is on, after whatever moved it (a navigate, a click that loads a page).
        current.on('load', () => void keep(ctx, current.url()))
      }
      await page.goto(url, { timeout: kNavigationTimeoutMs })
      return tab!
    }
    return {
      tab: () => (page && !page.isClosed() ? tab : undefined),
      open,
      takeBlocked() {
        const b = blocked
        blocked = undefined
        return b
      },
      async resume(signal) {
        const s = persist?.()
        const last = s && readLast(s.dir)
        if (
          !s ||
          !last ||
          Date.now() - last.at > kResumeWindowMs ||
          !s.mayOpen(last.url) ||
          outside(last.url) ||
          signal.aborted
        )
          return undefined
        try {
          const t = await open(last.url)
          // Read it as the last server had: the page issues its ids on a reading, and a listing's ids
          // are the element's words, so the ids the client was given name the same elements again.
          await t.send({ kind: 'read', request: '', settle: true }, signal)
          s.note(`reopened ${last.url}, where this client's last server left its tab`)
          return t
        } catch (e) {
          // A page that will not open again is no tab: the call says NO_TAB, and ava_navigate starts afresh.
          s.note(
            `could not reopen ${last.url} (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the client starts with ava_navigate`,
          )
          await page?.close().catch(() => undefined)
          return undefined
        }
      },
      async close() {
        const c = context
        context = undefined
        if (c && page && !page.isClosed()) await keep(c, page.url())
        page = undefined
        await c?.close().catch(() => undefined)
      },
    }
  }

  // The first session keeps its page for the next server; an HTTP server's further sessions live
  // as long as it does and keep nothing.
  const first = sessionPlace(o.session)
  return {
    ...first,
    session: () => sessionPlace(),
    async close() {
      await first.close()
      const b = browser
      browser = undefined
      await (await b?.catch(() => undefined))?.close().catch(() => undefined)
    },
  }
}
