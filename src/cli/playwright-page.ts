// Ava's ports onto a Playwright page: the page script the extension injects (built into bin/ava.js),
// the command sender, the flow port and the registry's BrowserPort, and the browser they run in.
// `ava run`, `ava action run`, `ava mcp` and `ava eval` all drive a page through these.
import { existsSync } from 'node:fs'
import { readFile as readFileAsync } from 'node:fs/promises'
import { basename, extname, resolve } from 'node:path'
import { type FlowPort } from '../core/flows'
import { createChannelFlowPort, createChannelPort, type PortExtras } from '../core/page/channel'
import {
  navigatedOutcome,
  type PageCommand,
  type PageCommandKind,
  type PageOutcome,
  type SendCommand,
  type UploadFile,
} from '../core/page/command'
import { type BrowserPort } from '../core/registry'
import { urlMatches } from '../core/glob'
import { troubleshootingPage } from '../core/failure'
import { renderEn } from '../core/locales/render'
import { sleep } from '../core/sleep'
import { readEnvironment } from '../core/environment'

/** Chromium flags for CI machines (no sandbox as root, no GPU, no background traffic). */
export const kBrowserArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
export const kViewport = { width: 1280, height: 800 }
/** The page global the page script defines (kPageGlobal in scripts/page-script.mjs). */
const kGlobal = '__avaRun'
/** A page slower than this to load fails the run instead of hanging CI. */
export const kNavigationTimeoutMs = 30_000

/** How long the pages must have sent nothing, and the longest wait, before the browser closes. */
const kQuietMs = 500
const kSettleMaxMs = 5_000

/**
 * The context's requests in flight. A run's last step may start one (a button whose handler
 * posts): the browser closes only once every page has been quiet a moment (or after
 * kSettleMaxMs), so what the step sent reaches the site rather than dying with the browser.
 */
export function trackTraffic(context: import('playwright-core').BrowserContext): { settled(): Promise<void> } {
  const inflight = new Set<unknown>()
  let last = Date.now()
  context.on('request', (r) => {
    inflight.add(r)
    last = Date.now()
  })
  const done = (r: unknown) => {
    inflight.delete(r)
    last = Date.now()
  }
  context.on('requestfinished', done)
  context.on('requestfailed', done)
  return {
    async settled() {
      // Quiet from now on: a handler that posts a moment after the last step is waited for too.
      last = Math.max(last, Date.now())
      const until = Date.now() + kSettleMaxMs
      while (Date.now() < until && (inflight.size > 0 || Date.now() - last < kQuietMs)) await sleep(50)
    },
  }
}

// ---------------------------------------------------------------------------------------------
// The page script

/** src/dom/recorder/page-api.ts as one IIFE publishing kGlobal, inlined by scripts/build-cli.mjs. */
declare const __AVA_PAGE_SCRIPT__: string | undefined

/** The page script, or undefined when this code runs unbundled (tests import the sources). */
export const kPageScript: string | undefined = typeof __AVA_PAGE_SCRIPT__ === 'string' ? __AVA_PAGE_SCRIPT__ : undefined

// ---------------------------------------------------------------------------------------------
// Ports onto a Playwright page

export type PwPage = import('playwright-core').Page

function isContextLoss(e: unknown): boolean {
  return /Execution context was destroyed|navigat|Target closed|frame was detached/i.test(
    String((e as Error)?.message ?? e),
  )
}

/** A command that lost its document is sent to the next one this many more times. */
const kContextRetries = 2

/** How long the next command waits for the document a step's navigation is loading. */
const kNextDocumentMs = 10_000

/**
 * Pages whose last command started a navigation, and the wait for the document it loads. Kept per
 * page, not per sender: the flows' port makes a sender for each command.
 */
const leaving = new WeakMap<PwPage, Promise<void>>()

/**
 * A step that starts a navigation (a link to a slow page) answers while its document is still
 * there. The next command must go to the next document: sent at once it would run in the leaving
 * one, lose its context there, and a click would be taken for one that navigated — a pass for a
 * click that never happened. As the extension's sender does (nextDocument), wait for the commit
 * and the load first. Listening starts now, before the navigation can commit.
 */
function expectNextDocument(page: PwPage): void {
  const main = page.mainFrame()
  const next = page
    .waitForEvent('framenavigated', { predicate: (f) => f === main, timeout: kNextDocumentMs })
    .then(() => page.waitForLoadState('load', { timeout: kNavigationTimeoutMs }))
    // A navigation the page cancelled (a download, a 204) leaves the document as it is.
    .catch(() => undefined)
  leaving.set(page, next)
}

/**
 * The page channel on a Playwright page (src/core/page/command.ts): each command is answered by
 * the same receiver the extension's content script runs, injected as the page global.
 */
export function pageSender(page: PwPage): SendCommand {
  return async <K extends PageCommandKind>(command: PageCommand<K>): Promise<PageOutcome<K>> => {
    const pending = leaving.get(page)
    if (pending) {
      leaving.delete(page)
      await pending
    }
    for (let attempt = 0; ; attempt++) {
      try {
        const out = (await page.evaluate(
          ([c, g]) =>
            (window as unknown as Record<string, { receive: (c: unknown) => Promise<unknown> }>)[g].receive(c),
          [command, kGlobal] as const,
        )) as PageOutcome<K>
        // A link to a new tab was not clicked (a script's click meets the popup blocker): the
        // carrier opens it, as the extension's background does, and the run stays on this page.
        const openTab = out.ok && 'openTab' in out ? out.openTab : undefined
        if (typeof openTab === 'string')
          await page
            .context()
            .newPage()
            .then((p) => p.goto(openTab, { timeout: kNavigationTimeoutMs }))
        if (out.ok && 'navigating' in out && out.navigating) expectNextDocument(page)
        return out
      } catch (e) {
        const message = String((e as Error)?.message ?? e)
          .replace(/^page\.evaluate: (?:[A-Z]\w*Error: )*/, '')
          .split('\n')[0]
        if (!isContextLoss(e)) return { ok: false, code: 'NOT_ACTIONABLE', message }
        // The document went away under the command: a click that navigates did its job; any other
        // command goes to the next document once it has loaded, as the extension's sender does.
        await page.waitForLoadState('load', { timeout: kNavigationTimeoutMs }).catch(() => undefined)
        const navigated = navigatedOutcome(command)
        if (navigated) return navigated
        if (attempt >= kContextRetries)
          return {
            ok: false,
            code: 'ELEMENT_STALE',
            message: `The page navigated ${attempt + 1} times while this step ran; it did not settle long enough to finish.`,
          }
      }
    }
  }
}

async function goto(page: PwPage, url: string): Promise<void> {
  await page.goto(new URL(url, page.url()).href, { timeout: kNavigationTimeoutMs })
}

/** How long a `tab` step waits for its tab to appear (a click's new tab comes a moment later). */
const kTabWaitMs = 5_000

/**
 * The flows' port on a Playwright page, and on the other pages of its context: a `tab` step moves
 * the run to the page the previous steps opened (`context.on('page')`), the n-th page of the
 * context, or the first whose address matches. `page()` is the one the run is on now.
 */
export function pageFlowPort(
  first: PwPage,
  gate: Pick<PortExtras, 'guard' | 'secrets'> = {},
): FlowPort & { page(): PwPage; close(): void } {
  let page = first
  let moved = false
  const context = first.context()
  const opened: PwPage[] = []
  const onPage = (p: PwPage) => void opened.push(p)
  context.on('page', onPage)
  const send = (<K extends PageCommandKind>(command: PageCommand<K>) => pageSender(page)(command)) as SendCommand
  const port = createChannelFlowPort(send, { ...gate, navigate: (url) => goto(page, url) })
  async function find(to: { index?: number; url?: string }, signal: AbortSignal): Promise<PwPage | undefined> {
    const deadline = Date.now() + kTabWaitMs
    for (;;) {
      const live = context.pages()
      // A port made after the tab opened (the fixture's ava.step runs one step per port) saw no
      // page event: there the newest other page of the context is the one the previous step opened.
      const newest = !moved && live.length > 1 && live.at(-1) !== page ? live.at(-1) : undefined
      const hit =
        to.index !== undefined
          ? live[to.index]
          : to.url !== undefined
            ? live.find((p) => urlMatches(p.url(), to.url!))
            : (opened.filter((p) => !p.isClosed() && p !== page).at(-1) ?? newest)
      if (hit || Date.now() > deadline || signal.aborted) return hit
      // Not there yet: the next page of the context, or a navigation that changes an address.
      await Promise.race([
        context.waitForEvent('page', { timeout: 250 }).catch(() => undefined),
        sleep(250, signal).catch(() => undefined),
      ])
    }
  }
  return {
    ...port,
    page: () => page,
    close: () => void context.off('page', onPage),
    async switchTab(to, signal) {
      const next = await find(to, signal)
      if (!next) {
        const what =
          to.index !== undefined
            ? `no tab ${to.index} (there are ${context.pages().length})`
            : to.url !== undefined
              ? `no tab at ${to.url} (tabs: ${context
                  .pages()
                  .map((p) => p.url())
                  .join(', ')})`
              : 'the previous step opened no tab'
        throw new Error(`${what} after ${kTabWaitMs / 1000} s.`)
      }
      // Taken: a later `tab` without index or url means a tab opened after this one.
      opened.splice(0, opened.indexOf(next) + 1)
      page = next
      moved = true
      await page.bringToFront()
      await page.waitForLoadState('load', { timeout: kNavigationTimeoutMs })
      return { url: page.url() }
    },
  }
}

/** Types of the files people upload most; others go without one, as a file chooser may send them. */
const kMimeTypes: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
}

/** The registry's BrowserPort on a Playwright page; `gate`: the guard and bound secrets of `ava mcp` (none for `ava run`). */
export function pageBrowserPort(page: PwPage, gate: Pick<PortExtras, 'guard' | 'secrets'> = {}): BrowserPort {
  const port = createChannelPort(pageSender(page), {
    ...gate,
    navigate: (url) => goto(page, url),
    // An upload step's `path` is read here, relative to where `ava run` was started.
    readFile: (path) => readUpload(resolve(path)),
    // version_global: a fixed function reads a property path in the page's main world.
    async readGlobal(path) {
      return page.evaluate((keys) => {
        let o: unknown = globalThis
        for (const k of keys) o = o == null ? undefined : (o as Record<string, unknown>)[k]
        return typeof o === 'string' || typeof o === 'number' ? o : undefined
      }, path)
    },
  })
  // The wait fallback: Playwright knows the document's load state.
  port.waitForLoad = async (state, timeoutMs) => {
    await page.waitForLoadState(state, { timeout: timeoutMs })
  }
  return port
}

/** The browser to start, or why there is none (before playwright's own, longer message). */
export function chromiumPath(a: { browser?: string }): { path: string } | string {
  const path = a.browser ?? readEnvironment(process.env).values.AVA_CHROMIUM ?? '/usr/bin/chromium'
  if (existsSync(path)) return { path }
  const from = a.browser ? '--browser' : process.env.AVA_CHROMIUM ? 'AVA_CHROMIUM' : 'the default path'
  return `no Chromium at ${path} (from ${from}). Install it (Debian/Ubuntu: sudo apt-get install chromium) or point at one with --browser <path> or AVA_CHROMIUM. ${renderEn({ key: 'failure.docs', params: { page: troubleshootingPage('no-chromium') } })}`
}

export async function readUpload(path: string): Promise<UploadFile> {
  const ext = extname(path).slice(1).toLowerCase()
  return { name: basename(path), mimeType: kMimeTypes[ext], base64: (await readFileAsync(path)).toString('base64') }
}
