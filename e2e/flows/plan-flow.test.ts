import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import type { Flow } from '../../src/core/flows'
import { instructionChunks, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * A flow approved once as a whole (docs/plan-approval.md): a flow made from an
 * agent run replays from the panel after one card that lists every element its steps will act on,
 * as drawn and in order; one yes replays it with no further question (the delete it holds
 * included), and a page that puts a look-alike in the third element's place after the yes stops
 * the replay at that step and asks again.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kName = 'Notes tidy'
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

async function replay(panel: Frame): Promise<void> {
  await panel.waitForSelector('[data-test=flow-select]')
  const id = await panel.locator('[data-test=flow-select] option', { hasText: kName }).first().getAttribute('value')
  await panel.selectOption('[data-test=flow-select]', id!)
  await panel.click('[data-test=flow-replay]')
}

/** The saved flow forgets it was approved, so the next replay asks for the plan again. */
async function forgetReview(): Promise<void> {
  await (
    await w.ava.worker()
  ).evaluate(async (name) => {
    const all = (await chrome.storage.local.get('flows.saved'))['flows.saved'] as Record<
      string,
      { flow: { metadata: { name: string } }; reviewedAt?: number }
    >
    for (const e of Object.values(all)) if (e.flow.metadata.name === name) delete e.reviewedAt
    await chrome.storage.local.set({ 'flows.saved': all })
  }, kName)
}

it('a flow replays after one approval of its elements; a look-alike swapped in as the third stops it there and asks', async () => {
  const url = `${w.site.url}/agent/plan.html`
  w.llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#s1' }, description: 'Select all' },
      { step_id: 2, action_type: 'click', params: { fallback_selector: '#s2' }, description: 'Archive' },
      { step_id: 3, action_type: 'click', params: { fallback_selector: '#s3' }, description: 'Delete selected' },
      { step_id: 4, action_type: 'done', params: { answer: 'Cleaned up.' } },
    ]),
  })
  const page = await w.ava.context.newPage()
  await page.goto(url)
  await w.ava.ask(page, 'clean up my notes')
  let panel = await w.ava.panel(page)
  // "Delete selected" asks on its own in the model's run.
  await answer(panel, true)
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  expect(await clicks(page)).toEqual(['s1', 's2', 's3'])

  await panel.click('[data-test=flow-from-run]')
  await panel.waitForSelector('[data-test=flow-draft]')
  await panel.fill('[data-test=flow-name]', kName)
  await panel.click('[data-test=flow-save]')
  await panel.waitForSelector('[data-test=flow-saved]')
  const saved = async () =>
    Object.values(
      ((await w.ava.storage('local'))['flows.saved'] ?? {}) as Record<string, { flow: Flow; reviewedAt?: number }>,
    ).find((s) => s.flow.metadata.name === kName)!
  expect((await saved()).flow.metadata.page_shaped?.length).toBeGreaterThan(0)

  // A fresh page: one card lists the three elements as drawn, with their site; one yes replays it all.
  await page.reload()
  panel = await w.ava.openPanel(page)
  const before = await cards(panel).count()
  await replay(panel)
  const plan = await answer(panel, true)
  expect(plan).toMatch(/Notes tidy/)
  expect(plan).toMatch(
    /1\. Select all: button “Select all” on [^;]+; 2\. Archive: button “Archive” on [^;]+; 3\. Delete selected: button “Delete selected” on /,
  )
  await expect.poll(() => clicks(page)).toEqual(['s1', 's2', 's3'])
  await expect.poll(async () => (await saved()).reviewedAt).toBeGreaterThan(0)
  expect(await cards(panel).count()).toBe(before + 1)

  // Approved, then the page swaps the third element for a look-alike before it runs: asked again there.
  await page.reload()
  panel = await w.ava.openPanel(page)
  await forgetReview()
  await page.evaluate(() => ((window as unknown as { __swap: boolean }).__swap = true))
  const asked = await cards(panel).count()
  await replay(panel)
  await answer(panel, true)
  const again = await answer(panel, false)
  expect(again).toMatch(/not the element you approved/i)
  expect(again).toContain('Delete selected')
  await panel.locator('[data-test=flow-result][data-success=false]').waitFor()
  expect(await clicks(page)).toEqual(['s1', 's2'])
  expect(await cards(panel).count()).toBe(asked + 2)
  await page.close()
})
