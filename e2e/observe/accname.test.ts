// The one name module (src/dom/words/accname.ts) in Chromium, against every accname case
// (test/dom/observe/accname-cases.ts, after the W3C accname suite's expectations): through the
// locators' entry point and as the label the Observe listing shows. Cases that need stylesheets
// and generated content run only here; happy-dom runs the rest (test/dom/observe/accname.test.ts).
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { observeBundle } from './bundle'
import { kNameCases } from '../../test/dom/observe/accname-cases'

let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.setContent('<!doctype html><html><body></body></html>')
  await page.addScriptTag({ content: await observeBundle() })
})
afterAll(async () => {
  await browser?.close()
})

test.each(kNameCases.map((c) => [`${c.step} ${c.what}`, c] as const))('%s', async (_, c) => {
  const got = await page.evaluate((html) => {
    const api = (window as any).__avaObserve
    document.body.innerHTML = html
    const el = document.querySelector('[data-m="x"]')!
    const name = api.accessibleName(el) as string
    const snap = api.observe()
    const listed = snap.elements.find((e: any) => e.id === api.idOfElement(el))
    document.body.innerHTML = ''
    return { name, listed: listed ? (listed.label as string) : null }
  }, c.html)
  expect(got.name).toBe(c.name)
  if (got.listed !== null) expect(got.listed).toBe(c.name.slice(0, 50))
})
