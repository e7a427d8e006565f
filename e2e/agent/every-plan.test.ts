import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { withAgentWorld, type AgentWorld, pressSend } from '../support/ava'
import { answerPlanCard, approvePlanCard } from '../support/plan-card'
import { openOptions, openPopup, sendFrom } from '../manage/helpers'

/**
 * Every plan gets its card where a person answers (docs/plan-approval.md): a
 * harmless pack action — nothing in it would ask on its own — run with `/run` lists its three
 * elements, as drawn and in order, before it starts; one yes runs it with no further question, and
 * another element put in the third one's place after the yes (same words, a link instead of the
 * button) stops it there and asks. With "only plans with a step that would ask" it runs with no
 * card, as before (chosen in Options, Behaviour); in the Chinese UI the card's lines are Chinese.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kPack = `namespace: reading
version: 1.0.0
description: Chores on the reading list.
actions:
  reading:tidy:
    description: Pin, tag and mark the list read.
    steps:
      - action: click
        args:
          selector: "#s1"
      - action: click
        args:
          selector: "#s2"
      - action: click
        args:
          selector: "#s3"
`

const clicks = (page: Page) => page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)
const cards = (panel: Frame, state?: string) =>
  panel.locator(state ? `[data-test=confirm][data-state=${state}]` : '[data-test=confirm]')

async function run(panel: Frame): Promise<() => Promise<string>> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, '/run reading:reading:tidy')
  return async () => {
    const out = panel.locator('[data-role=assistant]').nth(before)
    await out.waitFor({ timeout: 30_000 })
    return (await out.textContent()) ?? ''
  }
}

async function setSettings(patch: { showPlans?: 'every' | 'asking'; language?: 'en' | 'zh-CN' }): Promise<void> {
  await (
    await w.ava.worker()
  ).evaluate(async (p) => {
    const { settings } = await chrome.storage.local.get('settings')
    const s = settings as { safety: Record<string, unknown> }
    if (p.showPlans) s.safety.showPlans = p.showPlans
    await chrome.storage.local.set({ settings: s })
    if (p.language) await chrome.storage.local.set({ ui: { version: 1, language: p.language } })
  }, patch)
}

async function fresh(): Promise<{ page: Page; panel: Frame }> {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/agent/plan-harmless.html`)
  return { page, panel: await w.ava.openPanel(page) }
}

it('installs the harmless pack', async () => {
  const popup = await openPopup(w.ava)
  const installed = await sendFrom<{ res: { ok: boolean } }>(popup, 'popup→bg:packs.install', {
    text: kPack,
    origin: 'pasted',
  })
  expect(installed.res.ok).toBe(true)
  await popup.close()
})

it('a harmless three-step action shows one card listing its three elements; approved once, it runs with no further question', async () => {
  const { page, panel } = await fresh()
  const before = await cards(panel).count()
  const done = await run(panel)
  const plan = await approvePlanCard(panel)
  expect(plan).toMatch(
    /1\. click: button “Pin” on [^;]+; 2\. click: button “Tag” on [^;]+; 3\. click: button “Mark read” on /,
  )
  await done()
  expect(await clicks(page)).toEqual(['s1', 's2', 's3'])
  expect(await cards(panel).count()).toBe(before + 1)
  await page.close()
})

it('another element in the third one’s place after the yes (same words, a link) stops it at the third step and asks', async () => {
  const { page, panel } = await fresh()
  await page.evaluate(() => ((window as unknown as { __swap: boolean }).__swap = true))
  const before = await cards(panel).count()
  const done = await run(panel)
  await approvePlanCard(panel)
  await cards(panel, 'pending').first().waitFor({ timeout: 30_000 })
  const again = cards(panel).nth(before + 1)
  const text = (await again.textContent()) ?? ''
  expect(text).toMatch(/not the element you approved/i)
  expect(text).toContain('Mark read')
  await again.locator('[data-test=confirm-deny]').click()
  await done()
  expect(await clicks(page)).toEqual(['s1', 's2'])
  expect(await cards(panel).count()).toBe(before + 2)
  await page.close()
})

it('a copy of the third button drawn exactly the same, put in its place after the yes, stops it at the third step and asks', async () => {
  const { page, panel } = await fresh()
  await page.evaluate(() => ((window as unknown as { __swap: string }).__swap = 'clone'))
  const before = await cards(panel).count()
  const done = await run(panel)
  await approvePlanCard(panel)
  await cards(panel, 'pending').first().waitFor({ timeout: 30_000 })
  const again = cards(panel).nth(before + 1)
  expect((await again.textContent()) ?? '').toMatch(/not the element you approved/i)
  await again.locator('[data-test=confirm-deny]').click()
  await done()
  expect(await clicks(page)).toEqual(['s1', 's2'])
  await page.close()
})

it('"only plans with a step that would ask", chosen in Options: the harmless action runs with no card', async () => {
  const options = await openOptions(w.ava)
  expect(await options.inputValue('[data-test=showPlans]')).toBe('every')
  await options.selectOption('[data-test=showPlans]', 'asking')
  await options.click('[data-test=save]')
  await expect
    .poll(async () => ((await w.ava.storage('local')).settings as { safety: { showPlans?: string } }).safety.showPlans)
    .toBe('asking')
  await options.close()
  try {
    const { page, panel } = await fresh()
    const before = await cards(panel).count()
    const done = await run(panel)
    await done()
    await expect.poll(() => clicks(page)).toEqual(['s1', 's2', 's3'])
    expect(await cards(panel).count()).toBe(before)
    await page.close()
  } finally {
    await setSettings({ showPlans: 'every' })
  }
})

it('in the Chinese UI the card’s lines are Chinese; a no leaves the page untouched', async () => {
  await setSettings({ language: 'zh-CN' })
  try {
    const { page, panel } = await fresh()
    const done = await run(panel)
    const plan = await answerPlanCard(panel, { allow: false })
    expect(plan).toMatch(
      /1\. 点击：按钮“Pin”，位于 [^；]+；2\. 点击：按钮“Tag”，位于 [^；]+；3\. 点击：按钮“Mark read”，位于 /,
    )
    expect(plan).not.toMatch(/ on |button|click/)
    await done()
    expect(await clicks(page)).toEqual([])
    await page.close()
  } finally {
    await setSettings({ language: 'en' })
  }
})
