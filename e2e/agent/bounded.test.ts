/**
 * Bounded evaluation (docs/executor.md, "Bounded evaluation"), in the built extension: a model
 * obeying a page asks for a cubic XPath on a page of 500 elements (e2e/fixtures/hostile/stall.html),
 * which must fail fast with a clear message while the page stays responsive; and Stop must end a
 * run at once even while the page's script is stuck in a command. The bounds here are generous;
 * the real figures are in the report and the bench.
 */
import { expect, it } from 'vitest'
import { instructionChunks, readSteps, sendAndWait, withAgentWorld, type Ava, pressSend } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const kCubic = '//*[count(//*[count(//*)>0])>0]'

it('a cubic XPath on 500 elements fails at once with a clear message, and the page never freezes', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/stall.html`)
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeGreaterThanOrEqual(500)
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: kCubic }, description: 'Find the rows' },
    ]),
  })
  const panel = await ava.openPanel(page)
  await page.evaluate(() => ((window as unknown as { __maxGap: number }).__maxGap = 0))
  const t0 = Date.now()
  await sendAndWait(panel, 'refresh my orders', { timeout: 30_000 })
  const took = Date.now() - t0
  const steps = await readSteps(panel)
  expect(steps[0].status).toBe('failed')
  expect(steps[0].detail).toMatch(/would freeze the page/)
  expect(took).toBeLessThan(8_000)
  console.log(
    `cubic_xpath_run_ms ${took} max_page_gap_ms ${await page.evaluate(() => (window as unknown as { __maxGap: number }).__maxGap)}`,
  )
  // The page's own heartbeat never stopped for long.
  expect(await page.evaluate(() => (window as unknown as { __maxGap: number }).__maxGap)).toBeLessThan(1_000)
  await page.close()
})

it('Stop ends the run at once while the page’s script is stuck in a step', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/stall.html`)
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#freeze' }, description: 'Refresh' },
    ]),
  })
  const panel = await ava.openPanel(page)
  await pressSend(panel, 'refresh my orders')
  await expect.poll(() => site.hits.some((h) => h.path === '/stall-start'), { timeout: 15_000 }).toBe(true)
  // The page's main thread is frozen, and with it input to the panel framed in it (Chromium routes
  // it through the page): the person's Stop is then the toolbar popup's, which no page can reach.
  const popup = await ava.context.newPage()
  await popup.goto(`chrome-extension://${ava.extensionId}/src/popup/index.html`)
  await popup.waitForSelector('[data-test=run-stop]', { timeout: 10_000 })
  const ended = () =>
    ava
      .storage('session')
      .then((all) =>
        Object.values(all).some(
          (r) =>
            (r as { request?: string; status?: string })?.request === 'refresh my orders' &&
            (r as { status?: string }).status === 'stopped',
        ),
      )
  const t0 = Date.now()
  await popup.click('[data-test=run-stop]')
  await expect.poll(ended, { timeout: 12_000, interval: 50 }).toBe(true)
  // The page stays frozen for 10 s from the click; a run that waited for it would end only then.
  expect(Date.now() - t0).toBeLessThan(3_000)
  console.log(`stop_while_page_stuck_ms ${Date.now() - t0}`)
  await popup.close()
  await page.close()
})
