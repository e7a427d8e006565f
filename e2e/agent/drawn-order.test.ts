import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * What the person sees where (docs/security.md, "What the person approved is what runs"): a button
 * that says only "Go", "→" or "OK" is judged with the words drawn beside it, found where the
 * layout draws them — moved by flex `order`, a reversed row or absolute placement — not where
 * the DOM keeps them (e2e/fixtures/hostile/drawn-order.html).
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const done = (page: Page) => page.evaluate(() => (window as unknown as { __done: string[] }).__done)

for (const which of ['order', 'reverse', 'absolute']) {
  it(`${which}: a bare button drawn beside "Delete my account" asks, and says what is beside it`, async () => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/drawn-order.html`)
    llm.script({
      chunks: [
        JSON.stringify([
          {
            step_id: 1,
            action_type: 'click',
            params: { fallback_selector: `button[data-case=${which}]` },
            description: 'Go on',
          },
          { step_id: 2, action_type: 'done', params: { answer: 'Done.' } },
        ]),
      ],
    })
    const panel = await ava.ask(page, `go on (${which})`)
    const card = panel.locator('[data-test=confirm][data-state=pending]')
    await card.waitFor({ timeout: 30_000 })
    expect(await card.textContent()).toMatch(/Delete my account/)
    expect(await done(page)).toEqual([])
    await card.locator('[data-test=confirm-deny]').click()
    await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
    expect(await done(page)).toEqual([])
    await page.close()
  })
}

it('the "Go" the layout draws beside "Download my data" is clicked with no question', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/drawn-order.html`)
  llm.script({
    chunks: [
      JSON.stringify([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: 'button[data-case=order-harmless]' },
          description: 'Download',
        },
        { step_id: 2, action_type: 'done', params: { answer: 'Done.' } },
      ]),
    ],
  })
  const panel = await ava.ask(page, 'download my data')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  expect(await done(page)).toEqual(['order-harmless'])
  await page.close()
})
