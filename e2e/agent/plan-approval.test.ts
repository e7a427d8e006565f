import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { instructionChunks, withAgentWorld, type AgentWorld, pressSend } from '../support/ava'

/**
 * One approval for a whole plan (docs/plan-approval.md): a remembered plan that
 * needs the person's review lists every element it will act on, as drawn and in order; one yes
 * runs it with no further question, and a step whose element is not the one approved (the page
 * put a look-alike in its place after the yes) stops the plan there and asks again.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kRequest = 'clean up my notes'
const clicks = (page: Page) => page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)
const cards = (panel: Frame, state?: string) =>
  panel.locator(state ? `[data-test=confirm][data-state=${state}]` : '[data-test=confirm]')

async function send(panel: Frame): Promise<() => Promise<void>> {
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, kRequest)
  return () =>
    panel.locator('[data-role=assistant]').nth(before).locator('[data-test=usage]').waitFor({ timeout: 30_000 })
}

/** Answers the one pending question, once it is there, and returns its text. */
async function answer(panel: Frame, allow: boolean): Promise<string> {
  await cards(panel, 'pending').first().waitFor()
  const card = cards(panel).nth((await cards(panel).count()) - 1)
  expect(await card.getAttribute('data-state')).toBe('pending')
  const text = (await card.textContent()) ?? ''
  await card.locator(allow ? '[data-test=confirm-allow]' : '[data-test=confirm-deny]').click()
  await expect.poll(() => card.getAttribute('data-state')).not.toBe('pending')
  return text
}

async function forgetReview(): Promise<void> {
  await (
    await w.ava.worker()
  ).evaluate(async (request) => {
    const all = (await chrome.storage.local.get('instructionCache')).instructionCache as Record<
      string,
      { request: string; reviewedAt?: number }
    >
    for (const e of Object.values(all)) if (e.request === request) delete e.reviewedAt
    await chrome.storage.local.set({ instructionCache: all })
  }, kRequest)
}

it('one approval runs an unchanged plan; a look-alike swapped in as the third element stops it there and asks', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/agent/plan.html`)
  w.llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#s1' }, description: 'Select all' },
      { step_id: 2, action_type: 'click', params: { fallback_selector: '#s2' }, description: 'Archive' },
      { step_id: 3, action_type: 'click', params: { fallback_selector: '#s3' }, description: 'Delete selected' },
      { step_id: 4, action_type: 'done', params: { answer: 'Cleaned up.' } },
    ]),
  })
  const panel = await w.ava.openPanel(page)

  // The model's run: "Delete selected" asks on its own; the plan is remembered, page-shaped.
  let done = await send(panel)
  await answer(panel, true)
  await done()
  expect(await clicks(page)).toEqual(['s1', 's2', 's3'])
  const planned = w.llm.requests.length

  // The replay: one question lists every element as drawn, in order, and nothing more is asked.
  await page.evaluate(() => ((window as unknown as { __clicks: string[] }).__clicks = []))
  const asked = await cards(panel).count()
  done = await send(panel)
  const plan = await answer(panel, true)
  await done()
  expect(plan).toMatch(/Select all[\s\S]*Archive[\s\S]*Delete selected/)
  expect(await clicks(page)).toEqual(['s1', 's2', 's3'])
  expect(await cards(panel).count()).toBe(asked + 1)
  expect(w.llm.requests.length).toBe(planned)

  // Approved, then the page swaps the third target for a look-alike before it runs.
  await forgetReview()
  await page.evaluate(() => ((window as unknown as { __clicks: string[] }).__clicks = []))
  await page.evaluate(() => ((window as unknown as { __swap: boolean }).__swap = true))
  done = await send(panel)
  await answer(panel, true)
  const again = await answer(panel, false)
  await done()
  expect(again).toMatch(/not the element you approved/i)
  expect(again).toContain('Delete selected')
  expect(await clicks(page)).toEqual(['s1', 's2'])
  expect(await cards(panel).count()).toBe(asked + 3)
  await page.close()
})
