/**
 * Shared setup of the executor's e2e tests: one headless Chromium and one fixture server per
 * file, pages opened with the executor bundle injected, and helpers that run commands in the page
 * and read the page's own state (`window.__state`).
 */
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import type { ExecOutcome } from '../../src/core/exec'
import type { DomCommand } from '../../src/dom/executor'
import { parsedTarget } from '../../src/core/page/command'
import type { Instruction } from '../../src/core/instruction/schema'
import { inject } from './bundle'
import { startFixtureServer, type FixtureServer } from './server'

export interface Harness {
  browser: Browser
  server: FixtureServer
  open(path: string): Promise<Page>
  close(): Promise<void>
}

export async function startHarness(): Promise<Harness> {
  const [browser, server] = await Promise.all([launchBrowser(), startFixtureServer()])
  const pages: Page[] = []
  return {
    browser,
    server,
    async open(path) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      pages.push(page)
      page.on('pageerror', (e) => console.error(`[page error] ${path}: ${e.message}`))
      await page.goto(server.url(path))
      // Vue apps mount on load; wait for the state they publish.
      await page.waitForFunction(() => (window as any).__state !== undefined)
      await inject(page)
      return page
    },
    async close() {
      await Promise.all(pages.map((p) => p.close().catch(() => undefined)))
      await Promise.all([browser.close(), server.close()])
    },
  }
}

/** A DomCommand as a test writes it: selectors as text, parsed in core as the channel does. */
export type TestCommand = DomCommand extends infer C
  ? C extends DomCommand
    ? Omit<C, 'target'> & { target?: { targetId?: string; selectors?: string[]; semantic?: string } }
    : never
  : never

/** Runs one DomCommand in the page. */
export function run(page: Page, cmd: TestCommand, timeoutMs = 5_000): Promise<ExecOutcome> {
  // A DomCommand is plain data here (no `element`); typed loosely for Playwright's serializer.
  const arg: [unknown, number] = [cmd.target ? { ...cmd, target: parsedTarget(cmd.target) } : cmd, timeoutMs]
  return page.evaluate(([c, t]) => (window as any).__avaExec.runCommand(c, { timeoutMs: t }), arg)
}

/** Runs one instruction in the page, as the background sends it. */
export function exec(
  page: Page,
  instruction: { action_type: Instruction['action_type']; params: Instruction['params']; description?: string },
  timeoutMs = 5_000,
): Promise<ExecOutcome> {
  const arg: [unknown, number] = [instruction, timeoutMs]
  return page.evaluate(
    ([i, t]) => (window as any).__avaExec.executeInstruction({ step_id: 1, ...(i as object) }, { timeoutMs: t }),
    arg,
  )
}

/** The page's own state, as plain data. */
export function state<T = any>(page: Page): Promise<T> {
  return page.evaluate(() => JSON.parse(JSON.stringify((window as any).__state)))
}

/** Asserts success and returns it typed, with the failure in the message when it is not. */
export function okOf(out: ExecOutcome): Extract<ExecOutcome, { ok: true }> {
  if (!out.ok) throw new Error(`expected success, got ${out.code}: ${out.message}`)
  return out
}

export interface Found {
  ok: boolean
  code?: string
  mark?: string | null
  candidates: Array<{ label: string; score: number; weak?: boolean; why?: string }>
  why?: string
  ms: number
}

/** Runs the ladder in the page and names what it found by its `data-m` mark (or its closest marked ancestor). */
export function locate(page: Page, semantic: string, timeoutMs = 2_000, allowText = false): Promise<Found> {
  return page.evaluate(
    async ([s, t, a]) => {
      const t0 = performance.now()
      const r = await (window as any).__avaExec.locate({ semantic: s }, { timeoutMs: t, allowText: a })
      const ms = performance.now() - t0
      const mark =
        r.ok === false
          ? undefined
          : (r.el.closest('[data-m]')?.getAttribute('data-m') ??
            r.el.querySelector('[data-m]')?.getAttribute('data-m') ??
            null)
      return { ok: r.ok !== false, code: r.code, mark, candidates: r.candidates ?? [], why: r.why, ms }
    },
    [semantic, timeoutMs, allowText] as const,
  )
}
