import { expect, it } from 'vitest'
import { instructionChunks, listedOnPage, sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

it('keeps the history of a site across closing the panel and reloading, and clears it on request', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/about-us-page-that-is-not-there`)
  let panel = await ava.openPanel(page)
  if (await panel.locator('[data-test=clear]').count()) {
    // Acted on a moment after it lands (the panel's click guard): wait for the empty chat.
    await panel.click('[data-test=clear]')
    await panel.locator('[data-test=clear]').waitFor({ state: 'detached' })
  }
  llm.script({ text: 'The page says **not found**.' })
  await sendAndWait(panel, 'what does this page say?')
  await page.reload()
  panel = await ava.openPanel(page)
  await expect.poll(() => panel.locator('[data-role=user]').last().textContent()).toBe('what does this page say?')
  expect(await panel.locator('[data-role=assistant] strong').last().textContent()).toBe('not found')
  // Another page of the same site shares the conversation.
  await page.goto(`${site.url}/`)
  panel = await ava.openPanel(page)
  await expect.poll(() => panel.locator('[data-role=user]').count()).toBeGreaterThan(0)
  await panel.click('[data-test=clear]')
  await expect.poll(() => panel.locator('[data-test=message]').count()).toBe(0)
  // Clearing offers Undo for a few seconds before it is final: let the offer pass.
  await panel.locator('[data-test=undo]').waitFor({ state: 'detached', timeout: 15_000 })
  await page.reload()
  panel = await ava.openPanel(page)
  expect(await panel.locator('[data-test=message]').count()).toBe(0)
  await page.close()
})

it('opens a page named in the request while the model is still planning', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  // The model says nothing until the page has opened: the page can only have been opened from the
  // request's own words, while the model was still planning.
  let answer!: () => void
  const held = new Promise<void>((resolve) => (answer = resolve))
  llm.script({
    holdUntil: held,
    chunks: instructionChunks([
      { step_id: 1, action_type: 'navigate', params: { url: `${site.url}/login` } },
      { step_id: 2, action_type: 'done', params: { answer: 'Opened.' } },
    ]),
  })
  await ava.ask(page, `open ${site.url}/login please`)
  await page.waitForURL(`${site.url}/login`, { timeout: 10_000 })
  expect(llm.requests.at(-1)?.endedAt, 'the model had not answered when the page opened').toBeUndefined()
  answer()
  await ava.panel(page).then((f) => f.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor())
  expect(
    site.hits.some((h) => h.path === '/login'),
    JSON.stringify(site.hits),
  ).toBe(true)
  expect(llm.requests).toHaveLength(1)
  expect(site.hits.filter((h) => h.path === '/login')).toHaveLength(1) // the plan's navigate found the page already open
  await page.close()
})

it('follows a link that opens in a new tab, and goes on there', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/agent/newtab.html`)
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: '#open-report', semantic_locator: 'Open the report link' },
        },
      ]),
    },
    {
      chunks: instructionChunks([
        { step_id: 2, action_type: 'verify', params: { assertion: 'Shows "Order #742"' } },
        { step_id: 3, action_type: 'done', params: { answer: 'The report is open.' } },
      ]),
    },
  )
  const opened = ava.context.waitForEvent('page')
  await ava.ask(page, 'open the report')
  const tab = await opened
  await tab.waitForURL(`${site.url}/orders/742`)
  const panel = await ava.panel(tab, { timeout: 15_000 })
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 15_000 })
  expect(await panel.textContent('[data-test=messages]')).toContain('The report is open.')
  const last = JSON.stringify(llm.requests.at(-1)!.body)
  expect(last).toContain('Order #742') // the model saw the new tab's page
  await tab.close()
  await page.close()
})

it('outlines the elements Ava indexed, with their ids, from the panel’s overlay toggle', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await ava.openPanel(page)
  // On, read, off (listedOnPage turns it on and off as a person would).
  const { listed, idOf } = await listedOnPage(panel, page, ['#username', '#login-btn'])
  expect(listed.length).toBeGreaterThanOrEqual(3)
  // Every outline is drawn on an element of the page, each with its own id.
  expect(new Set(listed.map((e) => e.id)).size).toBe(listed.length)
  for (const e of listed) expect(e.at || e.text, `the outline of ${e.id} is on no element`).not.toBe('')
  expect(idOf['#username']).toBe('input_username')
  expect(idOf['#login-btn']).toBe('btn_log_in')
  await expect.poll(() => page.locator('[data-ava-ui="observe-overlay"]').count()).toBe(0)
  expect(await panel.getAttribute('[data-test=overlay]', 'aria-pressed')).toBe('false')
  await panel.click('[data-test=overlay]')
  await expect.poll(() => panel.getAttribute('[data-test=overlay]', 'aria-pressed')).toBe('true')
  await panel.click('[data-test=overlay]')
  await expect.poll(() => page.locator('[data-ava-ui="observe-overlay"]').count()).toBe(0)
  await page.close()
})
