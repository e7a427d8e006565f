import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { withAgentWorld, type AgentWorld, pressSend } from '../support/ava'
import { openPopup, sendFrom } from '../manage/helpers'

/**
 * A pack action approved once as a whole (docs/plan-approval.md): a `/run` of an
 * action that asks before it starts asks with one card listing every element its steps will act
 * on, as drawn and in order; one yes runs it with no further question (the delete it holds
 * included), and a page that puts a look-alike in the third element's place after the yes stops
 * the action at that step and asks again.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kPack = `namespace: notes
version: 1.0.0
description: Chores on the notes page.
actions:
  notes:tidy:
    description: Select all notes, archive them, and delete the selection.
    risk: high
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

/** Answers the newest question once it is pending, and returns its text. */
async function answer(panel: Frame, allow: boolean): Promise<string> {
  await cards(panel, 'pending').first().waitFor()
  const card = cards(panel).nth((await cards(panel).count()) - 1)
  expect(await card.getAttribute('data-state')).toBe('pending')
  const text = (await card.textContent()) ?? ''
  await card.locator(allow ? '[data-test=confirm-allow]' : '[data-test=confirm-deny]').click()
  await expect.poll(() => card.getAttribute('data-state')).not.toBe('pending')
  return text
}

async function run(panel: Frame): Promise<() => Promise<void>> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, '/run notes:notes:tidy')
  return () => panel.locator('[data-role=assistant]').nth(before).waitFor({ timeout: 30_000 })
}

it('/run of a pack action asks once with its elements as drawn; a look-alike swapped in as the third stops it there and asks', async () => {
  const popup = await openPopup(w.ava)
  const installed = await sendFrom<{ res: { ok: boolean } }>(popup, 'popup→bg:packs.install', {
    text: kPack,
    origin: 'pasted',
  })
  expect(installed.res.ok).toBe(true)
  await popup.close()

  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/agent/plan.html`)
  const panel = await w.ava.openPanel(page)
  const before = await cards(panel).count()
  let done = await run(panel)
  const plan = await answer(panel, true)
  expect(plan).toMatch(
    /1\. click: button “Select all” on [^;]+; 2\. click: button “Archive” on [^;]+; 3\. click: button “Delete selected” on /,
  )
  await expect.poll(() => clicks(page)).toEqual(['s1', 's2', 's3'])
  await done()
  expect(await cards(panel).count()).toBe(before + 1)

  // Approved, then the page swaps the third element for a look-alike before it runs: asked again there.
  await page.evaluate(() => {
    const g = window as unknown as { __clicks: string[]; __swap: boolean }
    g.__clicks = []
    g.__swap = true
  })
  done = await run(panel)
  await answer(panel, true)
  const again = await answer(panel, false)
  await done()
  expect(again).toMatch(/not the element you approved/i)
  expect(again).toContain('Delete selected')
  expect(await clicks(page)).toEqual(['s1', 's2'])
  expect(await cards(panel).count()).toBe(before + 3)
  await page.close()
})
