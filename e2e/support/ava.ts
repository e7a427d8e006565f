import type { Frame, Page } from 'playwright-core'
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings'
import { launchWithExtension, type ExtensionSession } from './browser'

/** The built extension in Chromium, with helpers that act as a person would. */
export interface Ava extends ExtensionSession {
  configure(llm: Partial<Settings['llm']>, rest?: Partial<Omit<Settings, 'llm'>>): Promise<void>
  storage(area: 'local' | 'session'): Promise<Record<string, unknown>>
  openPanel(page: Page): Promise<Frame>
  panel(page: Page, opts?: { timeout?: number }): Promise<Frame>
  ask(page: Page, text: string): Promise<Frame>
}

const kButton = { size: 52, margin: 20 } // mirrors src/content/launcher.ts

export async function launchAva(opts: { headless?: boolean } = {}): Promise<Ava> {
  const s = await launchWithExtension(opts)
  const panelPrefix = `chrome-extension://${s.extensionId}/src/panel/`

  async function panel(page: Page, opts: { timeout?: number } = {}): Promise<Frame> {
    const deadline = Date.now() + (opts.timeout ?? 10_000)
    for (;;) {
      const f = page.frames().find((fr) => fr.url().startsWith(panelPrefix))
      if (f) {
        await f.waitForSelector('[data-test=input]', { timeout: Math.max(1, deadline - Date.now()) })
        return f
      }
      if (Date.now() > deadline) throw new Error('The Ava panel did not appear')
      await page.waitForTimeout(50)
    }
  }

  const ava: Ava = {
    ...s,
    async configure(llm, rest = {}) {
      const settings: Settings = { ...structuredClone(DEFAULT_SETTINGS), ...rest, llm: { ...DEFAULT_SETTINGS.llm, ...llm } }
      await s.worker.evaluate((v) => chrome.storage.local.set({ settings: v }), settings)
    },
    storage: (area) => s.worker.evaluate((a) => chrome.storage[a].get(null), area),
    async openPanel(page: Page) {
      // The button lives in a closed shadow root: a person clicks it where it is drawn.
      await page.waitForSelector('ava-root', { state: 'attached' })
      const vp = page.viewportSize()!
      await page.mouse.click(vp.width - kButton.margin - kButton.size / 2, vp.height - kButton.margin - kButton.size / 2)
      const f = await panel(page)
      await f.waitForSelector('[data-test=send]:not([disabled])')
      return f
    },
    panel,
    async ask(page, text) {
      const f = await ava.openPanel(page)
      await f.fill('[data-test=input]', text)
      await f.click('[data-test=send]')
      return f
    },
  }
  return ava
}

/** The chat's steps as the panel shows them. */
export async function readSteps(f: Frame): Promise<{ status: string; detail: string }[]> {
  return f.$$eval('[data-test=step]', (els) => els.map((e) => ({ status: e.getAttribute('data-status') ?? '', detail: e.querySelector('[data-test=step-detail]')?.textContent ?? '' })))
}

/** Instructions as the LLM would stream them: one array, one element per chunk. */
export function instructionChunks(instructions: object[]): string[] {
  return ['[', ...instructions.map((x, i) => JSON.stringify(x) + (i < instructions.length - 1 ? ',' : '')), ']']
}
