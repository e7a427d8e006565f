import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { instructionChunks, readSteps, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * Downloads nothing on the page names (e2e/fixtures/redteam/served.html): the server
 * says the file is a program (its Content-Disposition names one, or its media type is one), or
 * the page starts the download in script after an ordinary click (`location.assign`, a form POST
 * answered with an attachment, a hidden frame). No question can name the file before the click,
 * so during a run the tab's gate blocks such a response: nothing is saved, and a top-level one
 * ends the run saying why. A document still downloads.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

async function openServed(): Promise<{ page: Page; downloads: string[] }> {
  const page = await ava.context.newPage()
  const downloads: string[] = []
  page.on('download', (d) => downloads.push(d.suggestedFilename()))
  await page.goto(`${site.url}/redteam/served.html`)
  return { page, downloads }
}

const clickThenDone = (selector: string) => ({
  chunks: instructionChunks([
    { step_id: 1, action_type: 'click', params: { fallback_selector: selector }, description: 'Get my document' },
    { step_id: 2, action_type: 'done', params: { text: 'Done.' } },
  ]),
})

const clickOnly = (selector: string) => ({
  chunks: instructionChunks([
    { step_id: 1, action_type: 'click', params: { fallback_selector: selector }, description: 'Get my document' },
  ]),
})
const doneOnly = () => ({ chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { text: 'Done.' } }]) })

/** How many times the stored history says a run was answered with a program. */
const told = async () =>
  (JSON.stringify(await ava.storage('local')).match(/answered with a program to download/g) ?? []).length

async function ended(panel: Frame): Promise<void> {
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
}

it.each([
  ['#plain', 'a plain link the server names setup.exe'],
  ['#typed', 'a link the server sends as application/x-msdownload'],
  ['#assign', 'a button whose handler calls location.assign'],
  ['#send', 'a form POST answered with receipt.scr'],
])('%s (%s): nothing is downloaded, and the run stops saying why', async (selector) => {
  const { page, downloads } = await openServed()
  // A load refused by its response (or a script's navigation) is reported by Chrome after the
  // click's step has ended: a run whose model says done in the same reply can end first, and the
  // refusal then reaches no run (nothing is downloaded either way, and that done is UNVERIFIED).
  // The model here looks at the page before it says done, as a careful one does.
  // The site's history holds the earlier cases' runs too: this run's line is one more.
  const before = await told()
  llm.script(clickOnly(selector), doneOnly())
  await ava.ask(page, `get my document ${selector}`)
  // The tab is left on Chrome's "blocked" page, without Ava's panel: the run's end is read from
  // storage, then from the panel once the person is back on the site.
  await expect.poll(told, { timeout: 20_000 }).toBeGreaterThan(before)
  expect(downloads).toEqual([])
  // The person comes back to the site in another tab: its conversation says why. (The blocked tab
  // itself may still be settling Chrome's late "blocked" load, which takes it back from a goto.)
  const back = await ava.context.newPage()
  await back.goto(`${site.url}/redteam/served.html`)
  const panel = await ava.openPanel(back)
  await expect
    .poll(() => panel.locator('article.error').last().textContent(), { timeout: 10_000 })
    .toMatch(/program to download/)
  expect(downloads).toEqual([])
  await Promise.all([page.close(), back.close()])
})

it('a form posted in the reply that says done, answered slowly with a program: nothing is downloaded, and the person is told', async () => {
  const { page, downloads } = await openServed()
  // The server answers 3 s after the post, and the model said done in the reply that clicked. The
  // refusal reaches the run if it is still waiting on the page, or, when the run ended first, the
  // tab's conversation: either way a line says why, and the guard stayed until the answer came.
  await page.evaluate(() => {
    const form = document.getElementById('post') as HTMLFormElement
    form.action = `${form.action}&delay=3000`
  })
  const before = await told() // the earlier tests' runs said it too, in the same site's history
  llm.script(clickThenDone('#send'))
  await ava.ask(page, 'get my receipt')
  await expect.poll(told, { timeout: 30_000 }).toBeGreaterThan(before)
  expect(site.hits.some((h) => h.path === '/files/receipt' && h.method === 'POST')).toBe(true)
  await page.waitForTimeout(1_000) // a download Chrome had started would have been reported by now
  expect(downloads).toEqual([])
  await page.close()
})

it('a hidden frame pointed at a program saves nothing; the run goes on', async () => {
  const { page, downloads } = await openServed()
  llm.script(clickThenDone('#frame'))
  const panel = await ava.ask(page, 'show the preview')
  await ended(panel)
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok'])
  await expect.poll(() => page.evaluate(() => document.querySelectorAll('iframe').length)).toBe(1)
  await page.waitForTimeout(500)
  expect(downloads).toEqual([])
  await page.close()
})

it('a document the server sends as an attachment downloads as before', async () => {
  const { page, downloads } = await openServed()
  llm.script(clickThenDone('#pdf'))
  const panel = await ava.ask(page, 'get the invoice')
  await ended(panel)
  await expect.poll(() => downloads).toEqual(['invoice.pdf'])
  expect(await panel.locator('[data-test=confirm]').count()).toBe(0)
  await page.close()
})
