// Where `ava mcp` acts. Place (a): a Chromium it starts itself through playwright-core (headless,
// as `ava run`), one tab that the client opens with ava_navigate. The tools see a place only
// through McpPlace, so the person's own Chrome (place (b), docs/mcp.md) can stand behind the same
// tools later.
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
type PwBrowser = import('playwright-core').Browser

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

/** Place (a): a Chromium of our own, started on the first ava_navigate. */
export function chromiumPlace(o: { executablePath: string; headed: boolean }): McpPlace {
  let browser: Promise<PwBrowser> | undefined
  let page: PwPage | undefined
  let tab: McpTab | undefined
  return {
    tab: () => (page && !page.isClosed() ? tab : undefined),
    async open(url) {
      if (typeof __AVA_PAGE_SCRIPT__ !== 'string') throw new Error('the page script is built into bin/ava.js: run `npm run build:cli`, then `node bin/ava.js mcp`')
      if (!page || page.isClosed()) {
        browser ??= import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: o.executablePath, headless: !o.headed, args: kBrowserArgs }))
        const context = await (await browser).newContext({ viewport: kViewport })
        // Every document the tab opens gets the page code, as the extension's content script does.
        await context.addInitScript({ content: __AVA_PAGE_SCRIPT__ })
        page = await context.newPage()
        const current = page
        tab = tabOf(() => current)
      }
      await page.goto(url, { timeout: kNavigationTimeoutMs })
      return tab!
    },
    async close() {
      const b = browser
      browser = undefined
      await (await b?.catch(() => undefined))?.close().catch(() => undefined)
    },
  }
}
