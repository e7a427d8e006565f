import { expect, it } from 'vitest'
import { instructionChunks, sendAndWait, withAgentWorld, type AgentWorld } from '../support/ava'
import { sendApprovingPlan } from '../support/plan-card'

/**
 * a cached plan that needed a repair is proposed in the chat with Accept / Reject,
 * as a flow's heal is. Until the person accepts, the cache keeps the old steps (the next replay
 * needs the repair again); after Accept, the repaired plan replays with no model call.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const chatRequests = () => w.llm.requests.filter((r) => r.api === 'openai')
const cachedSelectors = async () =>
  Object.values(
    ((await w.ava.storage('local')).instructionCache ?? {}) as Record<
      string,
      { request: string; steps: { params: { fallback_selector?: string } }[] }
    >,
  )
    .filter((e) => e.request === 'save my profile')
    .flatMap((e) => e.steps.map((s) => s.params.fallback_selector ?? ''))

it('writes a repaired plan into the cache only after Accept', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/agent/save.html`)
  w.llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#save-btn' }, description: 'Save' },
      { step_id: 2, action_type: 'done', params: { answer: 'Saved.' } },
    ]),
  })
  const panel = await w.ava.openPanel(page)
  await sendAndWait(panel, 'save my profile')
  expect(await cachedSelectors()).toEqual(['#save-btn'])

  // The page changes under the cached plan: one model call repairs the step, and the chat asks.
  await page.evaluate(() => (document.querySelector('#save-btn')!.id = 'save-button'))
  const repair = {
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'click',
        params: { fallback_selector: '#save-button', semantic_locator: 'Save button' },
      },
    ]),
  }
  w.llm.script(repair)
  await sendApprovingPlan(panel, 'save my profile')
  expect(chatRequests()).toHaveLength(2)
  const card = panel.locator('[data-test=confirm][data-state=pending]').last()
  await card.waitFor()
  expect(await card.textContent()).toContain('save my profile')
  expect(await card.locator('[data-test=confirm-allow]').textContent()).toBe('Accept')
  // Nothing written yet: the cache still holds the old step, so the next replay repairs again.
  expect(await cachedSelectors()).toEqual(['#save-btn'])
  w.llm.script(repair)
  await sendApprovingPlan(panel, 'save my profile')
  expect(chatRequests()).toHaveLength(3)
  expect(await cachedSelectors()).toEqual(['#save-btn'])
  // One question stands for both repairs.
  expect(await panel.locator('[data-test=confirm][data-state=pending]').count()).toBe(1)

  // Accept: the repaired step is the cache's now, and the next replay needs no model call.
  await panel.locator('[data-test=confirm][data-state=pending] [data-test=confirm-allow]').last().click()
  await expect.poll(cachedSelectors).toEqual(['#save-button'])
  await expect.poll(() => panel.locator('[data-test=confirm][data-state=allowed]').count()).toBeGreaterThan(0)
  await sendApprovingPlan(panel, 'save my profile')
  expect(chatRequests()).toHaveLength(3)
  expect(await page.evaluate(() => (window as any).__saves)).toBe(4)
  await page.close()
})
