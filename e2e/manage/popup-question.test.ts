// The popup's Run passes the gate every step passes (docs/packs-ui.md, "Run"): a pack step the
// page judges destructive waits for the person's answer in the popup, in their language, instead
// of running unasked or being refused outright. Deny does nothing; Allow acts on that element.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { launchAva, type Ava } from '../support/ava'
import { fixturesDir, startSiteServer, type SiteServer } from '../support/site-server'
import { openOptions, openPopup, paste } from './helpers'

let ava: Ava
let site: SiteServer
let popup: Page
let account: Page

const deletes = () => site.hits.filter((h) => h.path === '/api/delete-account').length

/** Opens the pack's action in the popup, aimed at the account page, and presses Run. */
async function runClose(): Promise<void> {
  await popup.bringToFront()
  await popup.reload()
  await popup.waitForSelector('[data-test=pack]')
  await popup.locator('[data-test=pack][data-namespace=acct] [data-test=pack-toggle]').click()
  await popup.click('[data-test=action-link][data-action="acct:account:close"]')
  await popup.waitForSelector('[data-test=run-form]')
  const target = await popup.$eval('[data-test=target]', (e) => (e as HTMLSelectElement).selectedOptions[0].textContent)
  expect(target).toContain('/packs/account.html')
  await popup.click('[data-test=run]')
}

beforeAll(async () => {
  ;[ava, site] = await Promise.all([launchAva(), startSiteServer()])
  // This file is about the step question's binding to its element: the Run shows its plan only
  // where a step would ask before it starts (the popup's plan card is e2e/manage/packs.test.ts).
  await ava.configure({}, { safety: { showPlans: 'asking' } })
  popup = await openPopup(ava)
  await paste(popup, readFileSync(resolve(fixturesDir, 'packs/account.yaml'), 'utf8'))
  await popup.waitForSelector('[data-test=diff][data-kind=install]')
  await popup.click('[data-test=install]')
  await popup.waitForFunction(
    () => document.querySelector('[data-test=installed]')?.textContent === 'Installed acct v1.0.0.',
  )
  account = await ava.context.newPage()
  await account.goto(`${site.url}/packs/account.html`)
})
afterAll(async () => {
  await Promise.all([ava?.close(), site?.close()])
})

describe("the popup's Run asks before a destructive step", () => {
  it('Deny: the question names the button, and nothing is clicked', async () => {
    await runClose()
    const question = popup.locator('[data-test=popup-question]')
    await question.waitFor({ timeout: 20_000 })
    expect(await popup.textContent('[data-test=popup-question-text]')).toContain('Delete account')
    await popup.click('[data-test=question-deny]')
    await expect
      .poll(() => popup.getAttribute('[data-test=outcome]', 'data-success'), { timeout: 20_000 })
      .toBe('false')
    expect(await question.count()).toBe(0)
    expect(deletes()).toBe(0)
    expect(await account.textContent('#out')).toBe('')
  })

  it('Allow: the step runs on the element the question showed', async () => {
    await runClose()
    await popup.locator('[data-test=popup-question]').waitFor({ timeout: 20_000 })
    await popup.click('[data-test=question-allow]')
    await expect.poll(() => popup.getAttribute('[data-test=outcome]', 'data-success'), { timeout: 20_000 }).toBe('true')
    await expect.poll(deletes).toBe(1)
    await expect.poll(() => account.textContent('#out')).toBe('Account deleted')
  })

  it('a button replaced while its question is open is not clicked, and the run ends (refused or asked again)', async () => {
    await account.reload()
    const before = deletes()
    await runClose()
    await popup.locator('[data-test=popup-question]').waitFor({ timeout: 20_000 })
    // The page swaps the node under the open question: same look, another element and handler.
    await account.evaluate(() => {
      const old = document.querySelector('#delete')!
      const fresh = old.cloneNode(true) as HTMLButtonElement
      fresh.addEventListener('click', () => void fetch('/api/delete-account', { method: 'POST' }))
      old.replaceWith(fresh)
    })
    await popup.click('[data-test=question-allow]')
    // Either the page refuses the yes (its element is gone) or it asks again about the new one;
    // a second question is answered no. Then the run is over: never left running.
    const settled = await Promise.race([
      popup
        .locator('[data-test=popup-question]')
        .waitFor({ timeout: 20_000 })
        .then(() => 'asked' as const),
      popup.waitForSelector('[data-test=outcome]', { timeout: 20_000 }).then(() => 'ended' as const),
    ])
    if (settled === 'asked') await popup.click('[data-test=question-deny]')
    await expect
      .poll(() => popup.getAttribute('[data-test=outcome]', 'data-success'), { timeout: 20_000 })
      .toBe('false')
    expect(await popup.locator('[data-test=run]').isDisabled()).toBe(false)
    expect(deletes()).toBe(before)
  })

  it('asks in Chinese when Ava speaks Chinese', async () => {
    const options = await openOptions(ava)
    await options.selectOption('[data-test=language]', 'zh-CN')
    await options.click('[data-test=save]')
    await expect
      .poll(async () => ((await ava.storage('local')).ui as { language?: string } | undefined)?.language)
      .toBe('zh-CN')
    await options.close()
    await account.reload()
    await runClose()
    await popup.locator('[data-test=popup-question]').waitFor({ timeout: 20_000 })
    const text = (await popup.textContent('[data-test=popup-question]'))!
    expect(text).toMatch(/[\u4e00-\u9fff]/)
    expect(text).toContain('Delete account') // the page's own words, quoted as they are drawn
    expect(await popup.textContent('[data-test=question-deny]')).not.toBe('Cancel')
    await popup.click('[data-test=question-deny]')
    await expect
      .poll(() => popup.getAttribute('[data-test=outcome]', 'data-success'), { timeout: 20_000 })
      .toBe('false')
    expect(deletes()).toBe(1)
  })
})
