// While an answer streams, the panel keeps its newest words in view, unless the person scrolled up
// to read: then it leaves them where they are (src/panel/App.vue). Also checks that
// the provider's stream, read directly (src/background/llm.ts), still reports the token usage.
import { expect, it } from 'vitest'
import type { Frame } from 'playwright-core'
import { withAgentWorld, type Ava, pressSend } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import { longMarkdownAnswer } from '../support/long-answer'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

/** How far the message list is from its bottom, in pixels. */
const fromBottom = (panel: Frame) =>
  panel.locator('[data-test=messages]').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
const shownChars = (panel: Frame) =>
  panel
    .locator('[data-role=assistant]')
    .last()
    .locator('[data-test=text]')
    .evaluate((el) => el.textContent?.length ?? 0)

it('follows a streaming answer at the bottom, stays where the person scrolled up to, and reports its tokens', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/about`)
  const panel = await ava.openPanel(page)
  if (await panel.locator('[data-test=clear]').count()) {
    // The panel's click guard acts on a click a moment after it lands (src/panel/visibility.ts):
    // wait until the chat is empty, or the old answer is taken for the new one.
    await panel.click('[data-test=clear]')
    await panel.locator('[data-test=clear]').waitFor({ state: 'detached' })
  }
  const answer = longMarkdownAnswer(24 * 1024)
  // Slow enough that the answer is still arriving when the person scrolls: 240 pieces, 25 ms apart.
  const chunks = answer.match(/[^]{1,100}/g)!
  llm.script({ chunks, chunkDelayMs: 25 })
  await pressSend(panel, 'explain the orders page at length')
  const list = panel.locator('[data-test=messages]')

  // Overflowing, and followed to the bottom.
  await expect.poll(() => list.evaluate((el) => el.scrollHeight > 2 * el.clientHeight), { timeout: 20_000 }).toBe(true)
  await expect.poll(() => fromBottom(panel)).toBeLessThanOrEqual(24)

  // The person scrolls up to read; the answer goes on arriving below without moving them.
  await list.evaluate((el) => el.scrollTo({ top: 0 }))
  const charsWhenScrolled = await shownChars(panel)
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  await expect.poll(() => shownChars(panel)).toBeGreaterThan(charsWhenScrolled)
  expect(await list.evaluate((el) => el.scrollTop)).toBe(0)

  // Back at the bottom, the next message is followed again.
  await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  llm.script({ text: longMarkdownAnswer(8 * 1024) })
  await pressSend(panel, 'and the returns page?')
  await panel.locator('[data-role=assistant]').nth(1).locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  await expect.poll(() => fromBottom(panel)).toBeLessThanOrEqual(24)

  // The test server counts 100 input tokens and a quarter of the answer's characters as output.
  const usage = await panel.locator('[data-role=assistant]').first().locator('[data-test=usage]').textContent()
  expect(usage).toContain(`${(100 + Math.ceil(answer.length / 4)).toLocaleString('en')} tokens`)
  await page.close()
})
