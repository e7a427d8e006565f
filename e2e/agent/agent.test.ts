import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { allowAll, instructionChunks, launchAva, readSteps, sendAndWait, type Ava } from '../support/ava'
import { kPlanCardText, sendApprovingPlan } from '../support/plan-card'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let other: SiteServer

beforeAll(async () => {
  ;[ava, llm, site, other] = await Promise.all([
    launchAva(),
    startLlmServer(),
    startSiteServer(),
    startSiteServer({ host: 'localhost' }),
  ])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), other?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

const done = (answer: string) => ({ step_id: 99, action_type: 'done', params: { answer } })
const chatRequests = () => llm.requests.filter((r) => r.api === 'openai')

/** After a run that navigated: the panel of the page it ended on, once the run has finished. */
async function waitIdle(page: Page) {
  const panel = await ava.panel(page, { timeout: 20_000 })
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  return panel
}

it('carries one request across three page loads, feeding each step’s result back, until done', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'navigate', params: { url: '/login' }, description: 'Open sign-in' },
        {
          step_id: 2,
          action_type: 'input',
          params: { fallback_selector: '#username', semantic_locator: 'username', value: 'bob' },
        },
        {
          step_id: 3,
          action_type: 'input',
          params: { fallback_selector: '#password', semantic_locator: 'password', value: 'builder' },
        },
        {
          step_id: 4,
          action_type: 'click',
          params: { fallback_selector: '#login-btn', semantic_locator: 'Log in button' },
          description: 'Log in',
        },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 5,
          action_type: 'click',
          params: { fallback_selector: 'a[href="/orders/742"]', semantic_locator: 'Details of order 742' },
          description: 'Open order 742',
        },
      ]),
    },
    {
      chunks: instructionChunks([
        { step_id: 6, action_type: 'verify', params: { assertion: 'Shows "Order #742" and "Shipped"' } },
        done('Order **#742** has shipped.'),
      ]),
    },
  )
  await ava.ask(page, 'log in as bob and tell me the status of order 742')
  const arrived = page.waitForURL(`${site.url}/orders/742`, { timeout: 30_000 })
  await allowAll(page, arrived, (p) => ava.panel(p))
  await arrived
  const panel = await waitIdle(page)
  await expect
    .poll(async () => (await readSteps(panel)).map((s) => s.status))
    .toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok'])
  // The chat is continuous: the request, the steps and the answer are all on the detail page.
  expect(await panel.locator('[data-role=user]').last().textContent()).toContain('order 742')
  expect(await panel.locator('[data-role=assistant] strong').last().textContent()).toBe('#742')
  // Three LLM calls; the later ones saw the earlier results and the new page.
  expect(chatRequests()).toHaveLength(3)
  const second = JSON.stringify(chatRequests()[1].body)
  expect(second).toContain('OK step 4 click (Log in)')
  expect(second).toContain('Dashboard')
  expect(second).not.toContain('builder') // the password typed never goes back to the model
  await page.close()
})

it('after a click whose form POST answers slowly, the next plan is made on the page it leads to, not on the one it left', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login?delay=1500`)
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'input',
          params: { fallback_selector: '#username', semantic_locator: 'username', value: 'bob' },
        },
        {
          step_id: 2,
          action_type: 'input',
          params: { fallback_selector: '#password', semantic_locator: 'password', value: 'builder' },
        },
        {
          step_id: 3,
          action_type: 'click',
          params: { fallback_selector: '#login-btn', semantic_locator: 'Log in button' },
          description: 'Log in',
        },
      ]),
    },
    { chunks: instructionChunks([done('You are signed in.')]) },
  )
  await ava.ask(page, 'log in as bob')
  const arrived = page.waitForURL(`${site.url}/dashboard`, { timeout: 30_000 })
  await allowAll(page, arrived, (p) => ava.panel(p))
  await arrived
  await waitIdle(page)
  expect(chatRequests()).toHaveLength(2)
  // The turn after the click: its results and the page read after them.
  const messages = (chatRequests()[1].body as { messages: { content: string }[] }).messages
  const turn = messages[messages.length - 1].content
  expect(turn).toContain('OK step 3 click (Log in)')
  expect(turn).toContain('Title: Dashboard · Acme Portal')
  expect(turn).not.toContain('Sign in')
  await page.close()
})

it('replays the same request with no LLM call, repairs a step that broke with one call, then replays freely again', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/agent/save.html`)
  const plan = [
    { step_id: 1, action_type: 'click', params: { fallback_selector: '#save-btn' }, description: 'Save' },
    { step_id: 2, action_type: 'verify', params: { assertion: 'Shows "Saved at"' } },
    done('Saved.'),
  ]
  llm.script({ chunks: instructionChunks(plan) })
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'save my profile')
  expect(chatRequests()).toHaveLength(1)
  expect(await page.evaluate(() => (window as any).__saves)).toBe(1)

  await sendApprovingPlan(panel, 'Save my profile!')
  expect(chatRequests()).toHaveLength(1) // replayed: zero requests to the LLM
  expect(await page.evaluate(() => (window as any).__saves)).toBe(2)
  expect(await panel.locator('[data-test=usage]').last().textContent()).toBe('replayed, 0 tokens')
  // Before it replayed, its one plan card listed the element it clicks, as drawn (every plan shows its card).
  const shown = panel.locator('[data-test=confirm][data-state=allowed]').filter({ hasText: kPlanCardText })
  expect(await shown.count()).toBe(1)
  expect(await shown.textContent()).toMatch(/1\. Save: button “[^”]*Save[^”]*” on /)

  // The page changes: the button's id is not what the cached plan says any more.
  await page.evaluate(() => (document.querySelector('#save-btn')!.id = 'save-button'))
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'click',
        params: { fallback_selector: '#save-button', semantic_locator: 'Save button' },
      },
    ]),
  })
  await sendApprovingPlan(panel, 'save my profile')
  expect(chatRequests()).toHaveLength(2) // one request, for that step only
  expect(JSON.stringify(chatRequests()[1].body)).toContain('#save-btn')
  expect(await page.evaluate(() => (window as any).__saves)).toBe(3)
  // The repaired plan is kept only once the person accepts it (e2e/agent/cache-review.test.ts).
  await panel.locator('[data-test=confirm][data-state=pending] [data-test=confirm-allow]').last().click()

  await sendApprovingPlan(panel, 'save my profile')
  expect(chatRequests()).toHaveLength(2) // the repaired entry replays with none
  expect(await page.evaluate(() => (window as any).__saves)).toBe(4)
  await page.close()
})

it('asks the model again with the candidates when a description fits two elements, and goes on with its pick', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  await page.fill('#username', 'alice')
  await page.fill('#password', 'wonderland')
  await page.click('#login-btn')
  await page.waitForURL(`${site.url}/dashboard`)
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { semantic_locator: 'Details link' },
          description: 'Open the details',
        },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: 'a[href="/orders/318"]', semantic_locator: 'Details of order 318' },
        },
      ]),
    },
    { chunks: instructionChunks([done('Order 318 is processing.')]) },
  )
  await ava.ask(page, 'open the details of the processing order')
  await page.waitForURL(`${site.url}/orders/318`, { timeout: 20_000 })
  await waitIdle(page)
  const repair = JSON.stringify(chatRequests()[1].body)
  expect(repair).toContain('Candidate elements')
  expect(repair.match(/Details/g)!.length).toBeGreaterThanOrEqual(2)
  await page.close()
})

it('stops at the confirmation when a page talks the model into taking the saved password elsewhere', async () => {
  const secret = 'correct-horse-battery-staple'
  await (await ava.worker()).evaluate((s) => chrome.storage.local.set({ vault: { password: s } }), secret)
  const page = await ava.context.newPage()
  await page.route('**/agent/hostile.html', async (route) => {
    const res = await route.fetch()
    await route.fulfill({ response: res, body: (await res.text()).replace('STEAL_URL', `${other.url}/login`) })
  })
  await page.goto(`${site.url}/agent/hostile.html`)
  // A model that obeys the page.
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'navigate', params: { url: `${other.url}/login` }, description: 'Go to verification' },
      { step_id: 2, action_type: 'input', params: { fallback_selector: '#password', value: '${secret:password}' } },
    ]),
  })
  const panel = await ava.ask(page, 'what does this page say?')
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  expect(await panel.locator('article.confirm').last().textContent()).toMatch(/goes to another site/)
  await panel.locator('[data-test=confirm-deny]').last().click()
  await waitIdle(page)
  expect(page.url()).toBe(`${site.url}/agent/hostile.html`)
  expect(other.hits).toEqual([]) // nothing was sent to the other site
  for (const r of llm.requests) expect(JSON.stringify(r.body)).not.toContain(secret)
  const steps = await readSteps(panel)
  expect(steps.at(-1)!.status).toBe('skipped')
  await page.close()
})

it('renders model output as sanitised markdown: scripts and event handlers are inert', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  llm.script({
    text: 'Here you go: **bold** <img src=x onerror="parent.__pwned=1;window.__pwned=1"> <script>window.__pwned=2</script> <a href="javascript:window.__pwned=3">link</a> [ok](https://example.com)',
  })
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'say something')
  const md = panel.locator('[data-role=assistant] [data-test=text]').last()
  expect(await md.locator('img, script').count()).toBe(0)
  expect(await md.locator('a').first().getAttribute('href')).toBeNull()
  expect(await md.locator('a').last().getAttribute('href')).toBe('https://example.com')
  expect(await panel.evaluate(() => (window as any).__pwned)).toBeUndefined()
  expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
  await page.close()
})

it('survives the service worker being stopped mid-run: the run goes on and the history is intact', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  llm.script(
    // The first reply types the username, then stalls: the worker is stopped while it streams.
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'input', params: { fallback_selector: '#username', value: 'alice' } },
        { step_id: 2, action_type: 'verify', params: { assertion: '"never reached"' } },
      ]),
      chunkDelayMs: 1_500,
    },
    {
      chunks: instructionChunks([
        { step_id: 3, action_type: 'input', params: { fallback_selector: '#password', value: 'wonderland' } },
        done('Both fields are filled in.'),
      ]),
    },
  )
  const panel = await ava.ask(page, 'fill in the sign-in form for alice')
  await expect.poll(() => page.inputValue('#username'), { timeout: 10_000 }).toBe('alice')
  await ava.stopWorker()
  await expect.poll(() => page.inputValue('#password'), { timeout: 20_000 }).toBe('wonderland')
  const after = await waitIdle(page)
  expect(await after.locator('[data-role=user]').last().textContent()).toBe('fill in the sign-in form for alice')
  expect(await after.textContent('[data-test=messages]')).toMatch(/background was restarted/)
  expect(await after.textContent('[data-test=messages]')).toMatch(/Both fields are filled in/)
  expect(chatRequests().length).toBe(2)
  void panel
  await page.close()
})

/**
 * Scripts a model that does what the listing says of keyed lines: in the line "K …: btn_x_", the id
 * is btn_x_near_K. It finds the line whose text matches `line`, and clicks the id there that starts
 * with `idPrefix` by target_id alone. Returns the line it read.
 */
function clickFromListedLine(line: RegExp, idPrefix: string, description: string): () => string {
  let read = ''
  llm.script({
    from: (body) => {
      const prompt = String(body.messages.at(-1).content)
      read = prompt.split('\n').find((l) => line.test(l)) ?? ''
      const key = read.split(' ')[0]
      const short = read.split(' ').find((t) => t.startsWith(idPrefix)) ?? idPrefix
      const id = short.endsWith('_') ? `${short}near_${key}` : short
      return JSON.stringify([
        { step_id: 1, action_type: 'click', params: { target_id: id }, description },
        done('Done.'),
      ])
    },
  })
  return () => read
}

it("a model that reads a product card's keyed line writes the whole id, and the step acts on that product", async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/agent/shop.html`)
  // The cards are no table: the line of the card that names the red mug leads with its text.
  const line = clickFromListedLine(/^\S+ "Red mug\b/, 'btn_add_to_cart_', 'Add the red mug to the cart')
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'add the red mug to the cart')
  expect(line()).toMatch(/^\S+ "Red mug[^"]*": btn_add_to_cart_ btn_save_$/)
  expect(await page.evaluate(() => (window as any).__cart)).toEqual(['Red mug'])
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok'])
  await page.close()
})

it('a model that reads a keyed table row writes the whole id, and the step hits that row', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/agent/orders.html`)
  const line = clickFromListedLine(/^\S+ "[^"]*Order 742\b/, 'btn_archive_', 'Archive order 742')
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'archive order 742')
  expect(line()).toMatch(/^\S+ "[^"]*Order 742[^"]*": .*btn_archive_ /)
  expect(await page.evaluate(() => (window as any).__archived)).toEqual([742])
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok'])
  await page.close()
})

// The page is read again only once it has settled, and "settled" includes the network: the
// background counts the tab's in-flight requests (webRequest) and tells the page as the count
// changes (no polling). A click that starts three requests of 1–1.4 s holds the next read until
// they have answered, so the model plans on the loaded report, not on "Loading…" (without the
// count, the silent DOM would let the page be read 500 ms after the click).
it('holds the read after a click until the requests it started have answered', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/agent/report.html`)
  const panel = await ava.openPanel(page)
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { fallback_selector: '#load' }, description: 'Load the report' },
      ]),
      chunkDelayMs: 100,
    },
    { chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: 'The report has 42 rows.' } }]) },
  )
  await sendAndWait(panel, 'load the report and tell me how many rows it has', { timeout: 40_000 })
  expect(chatRequests()).toHaveLength(2)
  const secondPrompt = JSON.stringify(chatRequests()[1].body.messages.at(-1))
  expect(secondPrompt).toContain('Report ready: 42 rows')
  expect(secondPrompt).not.toContain('Loading…')
  const fetched = site.hits.filter((h) => h.path === '/slow-data')
  expect(fetched).toHaveLength(3)
  // The read came after the requests had answered (the last one takes 1.4 s).
  expect(chatRequests()[1].at - fetched[0].at).toBeGreaterThanOrEqual(1_400)
  await page.close()
})
