import type { Page } from 'playwright-core'
import type { Ava } from '../support/ava'

/** The popup page opened as a tab (a real popup cannot be driven); it is then the active tab. */
export async function openPopup(ava: Ava): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(`chrome-extension://${ava.extensionId}/src/popup/index.html`)
  await page.waitForSelector('[data-test=pack]')
  return page
}

export async function openOptions(ava: Ava): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(`chrome-extension://${ava.extensionId}/src/options/index.html`)
  await page.waitForSelector('[data-test=settings-form]')
  return page
}

/** Sends one protocol message from an extension page, as its store would. */
export function sendFrom<T>(page: Page, name: string, req: unknown): Promise<T> {
  return page.evaluate(([n, r]) => chrome.runtime.sendMessage({ ava: 1, name: n, req: r }), [
    name,
    req,
  ] as const) as Promise<T>
}

/** Pastes text into the import box the way a person would (one input event). */
export async function paste(popup: Page, text: string): Promise<void> {
  await popup.click('[data-test=tab-import]')
  await popup.fill('[data-test=import-text]', text)
}

/**
 * Chromium keeps an unpacked extension switched off after it reloads unless developer mode is
 * on ("Turn on developer mode to use this extension"); anyone who loads Ava unpacked has it on,
 * so turn it on the way a person does, on chrome://extensions.
 */
export async function enableDeveloperMode(ava: Ava): Promise<void> {
  const page = await ava.context.newPage()
  await page.goto('chrome://extensions')
  const toggle = page.locator('extensions-manager extensions-toolbar #devMode')
  await toggle.waitFor()
  if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click()
  for (let i = 0; (await toggle.getAttribute('aria-checked')) !== 'true'; i++) {
    if (i > 50) throw new Error('Developer mode did not turn on')
    await page.waitForTimeout(100)
  }
  await page.close()
}
