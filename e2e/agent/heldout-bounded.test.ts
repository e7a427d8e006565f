import { expect, it } from 'vitest'
import { instructionChunks, readSteps, sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * Bounded evaluation against XPaths another author would write: on a flat inbox of
 * 500 rows (e2e/fixtures/redteam/flat.html), sibling walks nested in predicates and string-value
 * comparisons cost seconds to minutes of a frozen page, though no whole-document scan is nested.
 * Each fails at once with a clear message; the page's own heartbeat never stops for long.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

it.each([
  '//div[. = following-sibling::div/following-sibling::div]',
  '//div[following-sibling::div[. = following-sibling::div]]',
  '//*[. = //*/following::*]',
])('%s on 500 rows fails at once and the page never freezes', async (xpath) => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/redteam/flat.html`)
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: xpath }, description: 'Open the message' },
    ]),
  })
  const panel = await ava.openPanel(page)
  await page.evaluate(() => ((window as unknown as { __maxGap: number }).__maxGap = 0))
  await sendAndWait(panel, `open the repeated message ${xpath.length}`, { timeout: 30_000 })
  const steps = await readSteps(panel)
  expect(steps[0].status).toBe('failed')
  expect(steps[0].detail).toMatch(/would freeze the page/)
  expect(await page.evaluate(() => (window as unknown as { __maxGap: number }).__maxGap)).toBeLessThan(1_000)
  await page.close()
})
