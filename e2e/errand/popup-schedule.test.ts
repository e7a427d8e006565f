/**
 * A pack action scheduled from the popup (docs/agent.md, "Schedules"): the action's page sends the
 * message the options send, aimed at the tab Run would use, with the form's parameters; the
 * background keeps it. A bad time is refused in the person's words and nothing is kept.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchAva, type Ava } from '../support/ava'
import { fixturesDir, startSiteServer, type SiteServer } from '../support/site-server'
import { openPopup, paste } from '../manage/helpers'
import type { Schedule } from '../../src/core/schedule/model'

let ava: Ava
let site: SiteServer
let popup: Page

beforeAll(async () => {
  ;[ava, site] = await Promise.all([launchAva(), startSiteServer()])
  popup = await openPopup(ava)
  await paste(popup, readFileSync(resolve(fixturesDir, 'packs/account.yaml'), 'utf8'))
  await popup.waitForSelector('[data-test=diff][data-kind=install]')
  await popup.click('[data-test=install]')
  await popup.waitForFunction(
    () => document.querySelector('[data-test=installed]')?.textContent === 'Installed acct v1.0.0.',
  )
  const account = await ava.context.newPage()
  await account.goto(`${site.url}/packs/account.html`)
})
afterAll(async () => {
  await Promise.all([ava?.close(), site?.close()])
})

async function schedules(): Promise<Schedule[]> {
  return Object.values(((await ava.storage('local')).schedules ?? {}) as Record<string, Schedule>)
}

it('schedules the action at the page Run would use; a bad time is refused and nothing kept', async () => {
  await popup.bringToFront()
  await popup.reload()
  await popup.waitForSelector('[data-test=pack]')
  await popup.locator('[data-test=pack][data-namespace=acct] [data-test=pack-toggle]').click()
  await popup.click('[data-test=action-link][data-action="acct:account:close"]')
  await popup.waitForSelector('[data-test=run-form]')
  await popup.click('[data-test=popup-schedule-open]')
  await popup.selectOption('[data-test=popup-schedule-every]', 'hourly')
  await popup.fill('[data-test=popup-schedule-when]', '75')
  await popup.click('[data-test=popup-schedule-add]')
  await expect.poll(() => popup.textContent('[data-test=popup-schedule-error]')).toMatch(/^Ava cannot keep that time/)
  expect(await schedules()).toEqual([])

  await popup.fill('[data-test=popup-schedule-when]', '15')
  await popup.click('[data-test=popup-schedule-add]')
  await popup.locator('[data-test=popup-schedule-said]').waitFor({ timeout: 15_000 })
  const [s] = await schedules()
  expect(s!.target).toMatchObject({
    kind: 'action',
    action: 'acct:account:close',
    url: `${site.url}/packs/account.html`,
  })
  expect(s!.repeat).toEqual({ every: 'hourly', minute: 15 })
})
