/**
 * Shared setup of the flows e2e tests in a plain Chromium: the fixture server with the plain page
 * and its variants, the flows bundle injected, recording by driving the page with Playwright's
 * mouse and keyboard, and a FlowPort that replays in a page.
 */
import type { Browser, Page } from 'playwright-core'
import {
  flowFromEvents,
  parseFlow,
  type Flow,
  type FlowPort,
  type RawEvent,
  type StepOutcome,
} from '../../src/core/flows'
import { launchBrowser } from '../support/browser'
import { startFixtureServer, type FixtureServer } from '../executor/server'
import { injectFlows } from './bundle'
import { ambiguous, redesigned, withoutSave } from './pages'

export interface FlowHarness {
  browser: Browser
  server: FixtureServer
  open(path: string): Promise<Page>
  close(): Promise<void>
}

export async function startFlowHarness(): Promise<FlowHarness> {
  const [browser, server] = await Promise.all([launchBrowser(), startFixtureServer()])
  server.page('/plain-redesigned.html', redesigned())
  server.page('/plain-ambiguous.html', ambiguous())
  server.page('/plain-without-save.html', withoutSave())
  const pages: Page[] = []
  return {
    browser,
    server,
    async open(path) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      pages.push(page)
      await page.goto(server.url(path))
      await page.waitForFunction(() => (window as any).__state !== undefined)
      await injectFlows(page)
      return page
    },
    async close() {
      await Promise.all(pages.map((p) => p.close().catch(() => undefined)))
      await Promise.all([browser.close(), server.close()])
    },
  }
}

/** Starts the page recorder; events collect in `window.__events`. */
export async function startRecorder(page: Page): Promise<void> {
  // A string, not a function: tsx (the bench runner) would wrap a callback in a helper the page lacks.
  await page.evaluate(`(() => {
    window.__events = []
    window.__stopRecording = new AbortController()
    window.__avaFlows.startRecording({ emit: (e) => window.__events.push(e), signal: window.__stopRecording.signal })
  })()`)
}

export async function stopRecorder(page: Page, name: string): Promise<{ flow: Flow; events: RawEvent[] }> {
  // Scroll bursts report after a quiet moment; let one finish.
  await page.waitForTimeout(50)
  const events = (await page.evaluate(() => {
    const w = window as any
    w.__stopRecording.abort()
    return w.__events
  })) as RawEvent[]
  return { flow: parseFlow(flowFromEvents(events, { name, source: 'recording' })), events }
}

/** The person's part of the tests: fill the plain form and save it, with mouse and keyboard. */
export async function fillAndSave(page: Page): Promise<void> {
  await page.mouse.click(...(await centre(page, '#user')))
  await page.keyboard.type('alice', { delay: 5 })
  await page.mouse.click(...(await centre(page, '#email')))
  await page.keyboard.type('alice@example.com', { delay: 5 })
  // A person picks from a focused select by typing the option's first letter.
  await page.focus('#country')
  await page.keyboard.press('j')
  await page.mouse.click(...(await centre(page, '#subscribe')))
  await page.mouse.click(...(await centre(page, '#save')))
}

export async function centre(page: Page, selector: string): Promise<[number, number]> {
  const box = await page.locator(selector).boundingBox()
  if (!box) throw new Error(`${selector} has no box`)
  return [box.x + box.width / 2, box.y + box.height / 2]
}

/** Replays in `page` through the injected step runner (what `ava run` does with its own bundle). */
export function pagePort(page: Page): FlowPort {
  return {
    runStep: (step, opts) =>
      page.evaluate(([s, o]) => (window as any).__avaFlows.runFlowStep(s, o) as Promise<StepOutcome>, [
        step,
        opts,
      ] as const),
    navigate: async (url) => void (await page.goto(url)),
    url: async () => page.url(),
  }
}

export function state<T = any>(page: Page): Promise<T> {
  return page.evaluate(() => JSON.parse(JSON.stringify((window as any).__state)))
}
