import { afterAll, beforeAll, expect, it } from 'vitest'
import { instructionChunks, launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { loginPlan } from '../support/plans'

/**
 * A run survives its worker being stopped without anything waking the worker: the
 * panel is closed (its port would reconnect and wake it) and the test never touches the worker
 * after stopping it (ava.worker() would open an extension page). Only the run's alarm is left
 * (src/background/wake.ts); the run must go on from the page as it is and log in.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  // No questions: nobody is there to answer them while the worker is away.
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    { agent: { stepLimit: 20, useCache: false }, safety: { confirm: [], allowDomains: [], denyDomains: [] } },
  )
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

it('resumes a run whose worker was stopped, with no panel and no page event to wake it', async () => {
  const [open, user, ...rest] = loginPlan(site.url).slice(0, 4)
  // The first reply streams slowly: the worker is stopped after its first step, mid-reply. The
  // resumed run reads the page and asks again; the second reply finishes the login.
  llm.script(
    { chunks: instructionChunks([open, user]), chunkDelayMs: 3_000 },
    { chunks: instructionChunks([user, ...rest]) },
  )

  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panel = await ava.ask(page, 'log in as alice')
  // Closed by the person before the run leaves this page: the next page opens no panel, so no
  // panel port is left to reconnect to a new worker (a hidden frame's would).
  await panel.click('[data-test=close]')
  await expect
    .poll(() => site.hits.some((h) => h.path === '/login' && h.method === 'GET'), { timeout: 20_000 })
    .toBe(true)
  await page.waitForURL(`${site.url}/login`)
  await page.waitForSelector('ava-root[data-ava-ready]', { state: 'attached' })
  expect(page.frames().filter((f) => f.url().includes('/src/panel/'))).toEqual([])
  await ava.stopWorker()
  const stoppedAt = Date.now()

  await page.waitForURL(`${site.url}/dashboard`, { timeout: 75_000 })
  expect(site.hits.some((h) => h.path === '/login' && h.method === 'POST' && h.at > stoppedAt)).toBe(true)
  await expect.poll(() => page.textContent('#greeting'), { timeout: 10_000 }).toBe('Welcome, alice')
  await page.close()
}, 120_000)
