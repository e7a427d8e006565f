// The page is read again only once it has settled, and "settled" includes the network: the
// background counts the tab's in-flight requests (webRequest) and tells the page as the count
// changes (no polling). A click that starts three requests of 1–1.4 s holds the next read until
// they have answered, so the model plans on the loaded report, not on "Loading…" (without the
// count, the silent DOM would let the page be read 500 ms after the click).
import { afterAll, beforeAll, expect, it } from 'vitest'
import { instructionChunks, launchAva, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

it('holds the read after a click until the requests it started have answered', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/agent/report.html`)
  const panel = await ava.openPanel(page)
  llm.script(
    { chunks: instructionChunks([{ step_id: 1, action_type: 'click', params: { fallback_selector: '#load' }, description: 'Load the report' }]), chunkDelayMs: 100 },
    { chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: 'The report has 42 rows.' } }]) },
  )
  await sendAndWait(panel, 'load the report and tell me how many rows it has', { timeout: 40_000 })
  expect(llm.requests).toHaveLength(2)
  const secondPrompt = JSON.stringify(llm.requests[1].body.messages.at(-1))
  expect(secondPrompt).toContain('Report ready: 42 rows')
  expect(secondPrompt).not.toContain('Loading…')
  const fetched = site.hits.filter((h) => h.path === '/slow-data')
  expect(fetched).toHaveLength(3)
  // The read came after the requests had answered (the last one takes 1.4 s).
  expect(llm.requests[1].at - fetched[0].at).toBeGreaterThanOrEqual(1_400)
  await page.close()
})
