import { afterAll, beforeAll, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { launchAva, type Ava } from '../support/ava'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { openPopup, paste, sendFrom } from './helpers'
import { answerPopupPlanCard } from '../support/plan-card'

const fixtures = resolve(import.meta.dirname, '../fixtures/packs')
const demo = readFileSync(resolve(fixtures, 'demo.yaml'), 'utf8')
const broken = readFileSync(resolve(fixtures, 'broken.yaml'), 'utf8')

let ava: Ava
let site: SiteServer
let popup: Page

const userPacks = async () =>
  ((await ava.storage('local'))['packs.user'] ?? {}) as Record<
    string,
    { version: string; enabled: boolean; origin: string }
  >
const shownPacks = () =>
  popup.$$eval('[data-test=pack]', (els) =>
    els.map(
      (e) =>
        `${e.querySelector('[data-test=pack-name]')!.textContent} ${e.querySelector('[data-test=pack-version]')!.textContent}`,
    ),
  )

beforeAll(async () => {
  ;[ava, site] = await Promise.all([launchAva(), startSiteServer()])
  popup = await openPopup(ava)
})
afterAll(async () => {
  await Promise.all([ava?.close(), site?.close()])
})

it('shows a broken pack’s errors at their line and column and saves nothing', async () => {
  await paste(popup, broken)
  await popup.waitForSelector('[data-test=issue]')
  const issues = await popup.$$eval('[data-test=issue]', (els) =>
    els.map(
      (e) => `${e.getAttribute('data-line')}:${e.getAttribute('data-col')} ${e.querySelector('code')!.textContent}`,
    ),
  )
  expect(issues).toEqual(['7:17 UNKNOWN_STEP_ACTION', '10:45 UNKNOWN_PARAM'])
  expect(await popup.textContent('[data-test=import-blocked]')).toContain('2')
  expect(await popup.isDisabled('[data-test=install]')).toBe(true)
  // The background refuses it too, whatever the page does.
  const r = await sendFrom<{ ok: boolean; res: { ok: boolean; issues: { line: number }[] } }>(
    popup,
    'popup→bg:packs.install',
    { text: broken, origin: 'pasted' },
  )
  expect(r.res.ok).toBe(false)
  expect(r.res.issues.map((i) => i.line)).toEqual([7, 10])
  expect(await userPacks()).toEqual({})
})

it('installs a pasted pack after showing what it adds, and lists it as the person’s own', async () => {
  await paste(popup, demo)
  await popup.waitForSelector('[data-test=diff][data-kind=install]')
  expect(await popup.$$eval('[data-test=diff-added]', (els) => els.map((e) => e.textContent!.trim()))).toEqual([
    '+ signup:fill',
    '+ signup:old',
    '+ signup:read',
  ])
  // What it can do is listed, as a browser lists an extension's permissions; nothing past clicking,
  // typing and reading on the page, so the one Install click installs it, as before.
  expect(await popup.$$eval('[data-test=capability]', (els) => els.map((e) => e.getAttribute('data-key')))).toEqual([
    'anySite',
    'acts',
    'submits',
    'readsText',
    'takesSecrets',
  ])
  await popup.click('[data-test=install]')
  await expect.poll(() => popup.textContent('[data-test=installed]')).toBe('Installed demo v1.0.0.')
  expect(await popup.locator('[data-test=consent-prompt]').count()).toBe(0)
  expect(await userPacks()).toMatchObject({ demo: { version: '1.0.0', enabled: true, origin: 'pasted' } })

  await popup.click('[data-test=tab-packs]')
  await expect.poll(shownPacks).toContain('demo v1.0.0')
  const card = popup.locator('[data-test=pack][data-namespace=demo]')
  expect(await card.locator('[data-test=pack-actions]').textContent()).toBe('3 actions')
  expect(await card.locator('[data-test=pack-source]').textContent()).toBe('yours')
  expect(await card.locator('[data-test=pack-deprecated]').textContent()).toContain(
    'demo:signup:old is deprecated. Use signup:fill.',
  )
})

it('runs an action from its page on the fixture tab, with a form built from its params', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/packs/signup.html`)
  await popup.bringToFront()
  await popup.reload()
  await popup.waitForSelector('[data-test=pack]')
  await popup.locator('[data-test=pack][data-namespace=demo] [data-test=pack-toggle]').click()
  await popup.click('[data-test=action-link][data-action="demo:signup:fill"]')
  await popup.waitForSelector('[data-test=run-form]')

  // enum → select, boolean → switch, secret → password field
  expect(await popup.$eval('[data-test=param-plan]', (e) => e.tagName)).toBe('SELECT')
  expect(await popup.getAttribute('[data-test=param-newsletter]', 'role')).toBe('switch')
  expect(await popup.getAttribute('[data-test=param-password]', 'type')).toBe('password')
  expect(await popup.textContent('[data-test=action-source]')).toContain('user:demo')

  // The popup is the active tab here, so the form offers the web page used last.
  const target = await popup.$eval('[data-test=target]', (e) => (e as HTMLSelectElement).selectedOptions[0].textContent)
  expect(target).toContain('/packs/signup.html')

  await popup.fill('[data-test=param-name]', 'Ada')
  await popup.selectOption('[data-test=param-plan]', 'pro')
  await popup.check('[data-test=param-newsletter]')
  await popup.fill('[data-test=param-password]', 'hunter2-secret')

  await popup.click('[data-test=dry-run]')
  const plan = await popup.locator('[data-test=plan]').textContent()
  expect(plan).toContain('css:#name')
  expect(plan).not.toContain('hunter2-secret')
  expect(await page.inputValue('#name')).toBe('') // a dry run touches nothing

  await popup.click('[data-test=run]')
  // The person's own Run asks first, here in the popup, with its plan card: every element it will
  // act on as drawn, the button that submits the password included. Then, as the gate every step
  // passes, submitting a password asks (the confirm categories in settings decide; all are on).
  const card = await answerPopupPlanCard(popup)
  expect(card).toMatch(/1\. fill: text box [^;]+; 2\. select: combo box [^;]+;.*5\. click: button “Create account” on /)
  await popup.locator('[data-test=popup-question]').waitFor({ timeout: 20_000 })
  expect(await popup.textContent('[data-test=popup-question-text]')).toContain('submits a form with a password')
  await popup.click('[data-test=question-allow]')
  await expect.poll(() => popup.getAttribute('[data-test=outcome]', 'data-success'), { timeout: 20_000 }).toBe('true')
  expect(await page.textContent('#done')).toBe('Welcome, Ada (pro, newsletter)')
  expect(await page.inputValue('#password')).toBe('hunter2-secret')
  await popup.click('[data-test=back]')
  await page.close()
})

it('updates from a URL with the diff of actions, and warns when going back down', async () => {
  await popup.click('[data-test=tab-import]')
  await popup.fill('[data-test=import-url]', `${site.url}/packs/demo-1.1.0.yaml`)
  await popup.click('[data-test=import-fetch]')
  await popup.waitForSelector('[data-test=diff][data-kind=upgrade]')
  expect(await popup.textContent('[data-test=diff-versions]')).toContain('v1.0.0 → v1.1.0')
  const lines = (sel: string) => popup.$$eval(sel, (els) => els.map((e) => e.textContent!.trim()))
  expect(await lines('[data-test=diff-added]')).toEqual(['+ signup:clear'])
  expect(await lines('[data-test=diff-removed]')).toEqual(['− signup:read'])
  expect(await lines('[data-test=diff-changed]')).toEqual(['~ signup:fill'])
  expect(await popup.locator('[data-test=downgrade]').count()).toBe(0)
  await popup.click('[data-test=install]')
  // The background answers with the update to confirm; nothing is saved before the yes.
  expect(await popup.textContent('[data-test=update-question]')).toContain(
    'This updates your pack demo from v1.0.0 to v1.1.0.',
  )
  expect(await userPacks()).toMatchObject({ demo: { version: '1.0.0' } })
  await popup.click('[data-test=confirm-update]')
  await expect.poll(() => popup.textContent('[data-test=installed]')).toBe('Updated demo from v1.0.0 to v1.1.0.')
  expect(await userPacks()).toMatchObject({ demo: { version: '1.1.0', origin: `${site.url}/packs/demo-1.1.0.yaml` } })

  await popup.fill('[data-test=import-text]', demo)
  await popup.waitForSelector('[data-test=diff][data-kind=downgrade]')
  expect(await popup.textContent('[data-test=downgrade]')).toBe(
    'This is a downgrade: v1.1.0 is installed and this file is v1.0.0.',
  )
  await popup.click('[data-test=tab-packs]')
  expect(await shownPacks()).toContain('demo v1.1.0')
})

it('finds actions by search, and a disabled pack’s actions are gone from the registry', async () => {
  await popup.fill('[data-test=search]', 'sign-up')
  await expect
    .poll(() => popup.$$eval('[data-test=result] code', (els) => els.map((e) => e.textContent)))
    .toEqual(expect.arrayContaining(['demo:signup:fill']))
  await popup.fill('[data-test=search]', '')
  await popup.locator('[data-test=pack][data-namespace=demo] [data-test=pack-enabled]').uncheck()
  await expect.poll(async () => (await userPacks()).demo.enabled).toBe(false)
  const found = await sendFrom<{ res: { name: string }[] }>(popup, 'ui→bg:action', {
    type: 'action.search',
    query: 'sign-up',
  })
  expect(found.res.map((a) => a.name)).toEqual([])
  // Still listed, so it can be turned back on.
  expect(await shownPacks()).toContain('demo v1.1.0')
  await popup.locator('[data-test=pack][data-namespace=demo] [data-test=pack-enabled]').check()
  await expect.poll(async () => (await userPacks()).demo.enabled).toBe(true)
})

it('exports a pack as YAML, deletes it, and brings it back with undo', async () => {
  const [download] = await Promise.all([
    popup.waitForEvent('download'),
    popup.locator('[data-test=pack][data-namespace=demo] [data-test=pack-export]').click(),
  ])
  const { readFile } = await import('node:fs/promises')
  expect(download.suggestedFilename()).toBe('demo.yaml')
  expect(await readFile((await download.path())!, 'utf8')).toBe(
    readFileSync(resolve(fixtures, 'demo-1.1.0.yaml'), 'utf8'),
  )

  await popup.locator('[data-test=pack][data-namespace=demo] [data-test=pack-delete]').click()
  await popup.locator('[data-test=pack][data-namespace=demo] [data-test=pack-delete-confirm]').click()
  await popup.waitForSelector('[data-test=undo-bar]')
  await expect.poll(shownPacks).not.toContain('demo v1.1.0')
  expect(await userPacks()).toEqual({})

  await popup.click('[data-test=undo]')
  await expect.poll(shownPacks).toContain('demo v1.1.0')
  expect(await userPacks()).toMatchObject({ demo: { version: '1.1.0', enabled: true } })
})
