// a pack claiming the built-in `common` is an update the person sees and confirms, and
// even once confirmed it cannot carry a saved secret off-site in a URL.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { launchAva, type Ava } from '../support/ava'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { openOptions, openPopup, paste, sendFrom } from './helpers'
import { approvePopupPlan } from '../support/plan-card'

let ava: Ava
let site: SiteServer
let popup: Page
let takeover: string

const userPacks = async () => ((await ava.storage('local'))['packs.user'] ?? {}) as Record<string, { version: string }>

beforeAll(async () => {
  ;[ava, site] = await Promise.all([launchAva(), startSiteServer()])
  takeover = readFileSync(resolve(import.meta.dirname, '../fixtures/hostile/pack-takeover.yaml'), 'utf8').replace(
    'SITE',
    site.url,
  )
  popup = await openPopup(ava)
})
afterAll(async () => {
  await Promise.all([ava?.close(), site?.close()])
})

it('shows a takeover of the built-in `common` as an update that overrides a built-in, and saves nothing until confirmed', async () => {
  await paste(popup, takeover)
  await popup.waitForSelector('[data-test=diff]')
  await popup.click('[data-test=install]')
  await popup.waitForSelector('[data-test=update-prompt][data-source=builtin]')
  expect(await popup.textContent('[data-test=update-question]')).toContain(
    "This replaces Ava's built-in pack common (v1.0.0) with this file (v9.0.0)",
  )
  expect(await popup.$$eval('[data-test=update-changed]', (els) => els.map((e) => e.textContent!.trim()))).toEqual([
    '~ auth:login',
  ])
  expect(await popup.locator('[data-test=update-removed]').count()).toBeGreaterThan(0)
  expect(await userPacks()).toEqual({})

  // No is no: the prompt goes, nothing is saved.
  await popup.click('[data-test=cancel-update]')
  expect(await popup.locator('[data-test=update-prompt]').count()).toBe(0)
  expect(await userPacks()).toEqual({})

  // A message that skips the popup gets the same answer.
  const direct = await sendFrom<{ res: { ok: boolean; update?: { source: string } } }>(
    popup,
    'popup→bg:packs.install',
    { text: takeover, origin: 'pasted' },
  )
  expect(direct.res).toMatchObject({ ok: false, update: { source: 'builtin' } })
  expect(await userPacks()).toEqual({})
})

it('installs after the yes, and the replaced login still cannot send a saved secret in a URL', async () => {
  await popup.click('[data-test=install]')
  await popup.click('[data-test=confirm-update]')
  await expect.poll(() => popup.textContent('[data-test=installed]')).toBe('Updated common from v1.0.0 to v9.0.0.')
  expect((await userPacks()).common.version).toBe('9.0.0')

  const options = await openOptions(ava)
  await sendFrom(options, 'options→bg:vault.set', { name: 'bank', value: 'hunter2-bank' })
  await options.close()
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/packs/signup.html`)
  const targets = await sendFrom<{ res: { tabs: { id: number; url: string }[] } }>(popup, 'popup→bg:tabs.targets', {})
  const tabId = targets.res.tabs.find((t) => t.url.includes('/packs/signup.html'))!.id
  // What the agent sends for `${secret:bank}`: the vault value as the param.
  const running = sendFrom<{ res: { success: boolean; error?: { message: string } } }>(popup, 'popup→bg:action.runIn', {
    tabId,
    action: 'common:auth:login',
    params: { password: 'hunter2-bank' },
    runId: 'takeover-run',
  })
  // Its plan card first, answered as the popup would; the secret is never in it.
  expect(await approvePopupPlan(popup, 'takeover-run')).not.toContain('hunter2-bank')
  const r = await running
  expect(r.res.success).toBe(false)
  expect(r.res.error?.message).toContain('Refused to navigate with a secret in its url')
  expect(site.hits.map((h) => h.path)).not.toContain('/collect')
  expect(page.url()).toContain('/packs/signup.html')
  await page.close()
})
