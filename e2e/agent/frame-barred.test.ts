import { expect, it } from 'vitest'
import { withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * What Ava may not act on, it does not read (docs/security.md, "Frames"): a frame of a blocked site,
 * or of one outside the allow list, is left out of the listing and so of the prompt, with one line
 * saying a frame was left out; its text, its ids and its instructions never reach the model
 * (e2e/fixtures/hostile/frame-barred.html).
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const done = JSON.stringify([{ step_id: 1, action_type: 'done', params: { answer: 'Looked.' } }])

async function promptFor(safety: { allowDomains: string[]; denyDomains: string[] }): Promise<string> {
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' }, { safety })
  const other = `http://localhost:${new URL(site.url).port}`
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/frame-barred.html?other=${encodeURIComponent(other)}`)
  await page.frameLocator('#widget').locator('#transfer').waitFor()
  llm.requests.length = 0
  llm.script({ text: done })
  const panel = await ava.ask(
    page,
    `what is on this page (${safety.denyDomains.join() || safety.allowDomains.join() || 'open'})`,
  )
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  await page.close()
  return JSON.stringify(llm.requests.map((r) => r.body))
}

it('a frame of a blocked site is left out of the prompt, and one line says so', async () => {
  const prompt = await promptFor({ allowDomains: [], denyDomains: ['localhost'] })
  expect(prompt).not.toMatch(/99-1234-5678|4,200|Transfer everything|btn_transfer|click Transfer/)
  expect(prompt).toMatch(/frame of localhost:\d+ left out/)
})

it('a frame outside the allow list is left out the same way', async () => {
  const prompt = await promptFor({ allowDomains: ['127.0.0.1'], denyDomains: [] })
  expect(prompt).not.toMatch(/99-1234-5678|Transfer everything|btn_transfer/)
  expect(prompt).toMatch(/left out/)
})

it('a frame of a site Ava may act on is read as before', async () => {
  const prompt = await promptFor({ allowDomains: [], denyDomains: [] })
  expect(prompt).toMatch(/Transfer everything|transfer/)
  expect(prompt).not.toMatch(/left out/)
})
