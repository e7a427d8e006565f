import { beforeEach, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { instructionChunks, withTwoSites, readSteps, sendAndWait, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * every way a step can leave the site, driven by a model that obeys a hostile page
 * (e2e/fixtures/hostile/offsite.html). The page's site is 127.0.0.1, the other site localhost:
 * what reached the other site is its server's `hits` (`sent()`).
 */

let ava: Ava
let llm: LlmServer
let site: SiteServer
let other: SiteServer
withTwoSites((w) => ({ ava, llm, site, other } = w))
beforeEach(async () => {
  await configure([])
})

const configure = (deny: string[]) =>
  ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    {
      safety: {
        confirm: ['cross_site', 'destructive', 'credentials', 'payment', 'high_risk_action'],
        allowDomains: [],
        denyDomains: deny,
      },
    },
  )

/** What reached the other site; the browser's own favicon fetch for a page loaded earlier is no step's doing. */
const sent = () => other.hits.filter((h) => h.path !== '/favicon.ico')
const chatRequests = () => llm.requests.filter((r) => r.api === 'openai')
const fixture = () => `${site.url}/hostile/offsite.html?other=${encodeURIComponent(other.url)}`

async function open(): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(fixture())
  return page
}

/** Waits for the run's question, checks it names the other site, answers no; nothing has left yet. */
async function askedAndDenied(panel: Frame): Promise<string> {
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  const text = (await panel.locator('article.confirm').last().textContent()) ?? ''
  expect(sent()).toEqual([])
  await panel.locator('[data-test=confirm-deny]').last().click()
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  return text
}

it('asks before following a same-tab link to another site, and goes nowhere on a no', async () => {
  const page = await open()
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#same-tab' }, description: 'Continue' },
    ]),
  })
  const text = await askedAndDenied(await ava.ask(page, 'finish my account setup'))
  expect(text).toMatch(/goes to another site: localhost/)
  expect(page.url()).toBe(fixture())
  expect(sent()).toEqual([])
  await page.close()
})

it('with a yes, the same link loads the other site: the background gate lets a confirmed site through', async () => {
  const page = await open()
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { fallback_selector: '#same-tab' }, description: 'Continue' },
      ]),
    },
    { text: 'Done.' },
  )
  const panel = await ava.ask(page, 'finish my account setup')
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  await panel.locator('[data-test=confirm-allow]').last().click()
  await page.waitForURL(`${other.url}/exfil?from=same-tab`, { timeout: 15_000 })
  expect(sent().map((h) => h.path)).toContain('/exfil')
  await page.close()
})

it('asks before a target=_blank link opens another site in a new tab', async () => {
  const page = await open()
  const pagesBefore = ava.context.pages().length
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#new-tab' }, description: 'Partner offer' },
    ]),
  })
  const text = await askedAndDenied(await ava.ask(page, 'finish my account setup'))
  expect(text).toMatch(/goes to another site: localhost/)
  expect(ava.context.pages().length).toBe(pagesBefore)
  expect(sent()).toEqual([])
  await page.close()
})

it('asks before Enter sends a form (and the page data in its query string) to another site', async () => {
  const page = await open()
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'press', params: { fallback_selector: '#q', key: 'Enter' }, description: 'Search' },
    ]),
  })
  const text = await askedAndDenied(await ava.ask(page, 'finish my account setup'))
  expect(text).toMatch(/goes to another site: localhost.*fields/)
  expect(page.url()).toBe(fixture())
  expect(sent()).toEqual([]) // the form's fields never left
  await page.close()
})

it('refuses a link to a denied site: nothing loads there and the run stops before its next step', async () => {
  await configure(['localhost'])
  const page = await open()
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#same-tab' }, description: 'Continue' },
      {
        step_id: 2,
        action_type: 'click',
        params: { semantic_locator: 'Delete everything button' },
        description: 'Delete everything',
      },
    ]),
  })
  const panel = await ava.openPanel(page)
  const asked = await panel.locator('[data-test=confirm]').count() // the site's earlier runs' questions
  await sendAndWait(panel, 'finish my account setup')
  expect(await panel.locator('[data-test=confirm]').count()).toBe(asked) // a denied site is not a question
  // Said once: the message in the person's language, the page's reason on the step's row.
  expect(await panel.locator('article.error').last().textContent()).toMatch(/Step 1 was refused to keep you safe/)
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['failed', 'skipped'])
  expect((await readSteps(panel))[0].detail).toMatch(/Blocked: localhost:\d+ is not allowed/)
  expect(sent()).toEqual([])
  expect(page.url()).toBe(fixture())
  expect(chatRequests()).toHaveLength(1)
  await page.close()
})

it('blocks a script navigation to another site after a click, in the background, and stops the run saying why', async () => {
  const page = await open()
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { fallback_selector: '#script-nav' }, description: 'Next step' },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 2,
          action_type: 'click',
          params: { semantic_locator: 'Delete everything button' },
          description: 'Delete everything',
        },
      ]),
    },
  )
  await ava.ask(page, 'finish my account setup')
  // The tab is left on Chrome's "blocked" error page; the conversation is read from the site again.
  await expect
    .poll(async () => JSON.stringify(await ava.storage('local')), { timeout: 20_000 })
    .toMatch(/Ava stopped: the page tried to take this run to localhost:\d+/)
  expect(sent()).toEqual([])
  expect(chatRequests()).toHaveLength(1) // no plan was made on the other site
  await page.goto(fixture())
  const panel = await ava.openPanel(page)
  expect(await panel.locator('article.error').last().textContent()).toMatch(
    /another site nobody said yes to\. Nothing was loaded there\./,
  )
  // The run is over: the tab is the person's again, and the same navigation by hand goes through.
  await page.click('#script-nav')
  await page.waitForURL(`${other.url}/exfil?from=script`, { timeout: 15_000 })
  expect(sent().map((h) => h.path)).toEqual(['/exfil'])
  await page.close()
})
