import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { allowAll, instructionChunks, launchAva, readSteps, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { loginPlan } from '../support/plans'

let ava: Ava
let llm: LlmServer
let site: SiteServer

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  site.hits.length = 0
})

describe.each(['openai', 'anthropic'] as const)('"log in as alice" through the %s wire format', (provider) => {
  it('streams the plan, runs each step as it arrives, and really logs in', async () => {
    await ava.configure({
      provider,
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-123',
      model: 'test-model',
      authStyle: provider === 'anthropic' ? 'x-api-key' : 'bearer',
    })
    llm.requireKey('sk-test-123')
    // One instruction per chunk, 400 ms apart: the stream lasts about 2.8 s in all.
    llm.script({ chunks: instructionChunks(loginPlan(site.url)), chunkDelayMs: 400 })

    const page = await ava.context.newPage()
    await page.goto(`${site.url}/`)
    await ava.ask(page, 'log in as alice')

    // Submitting a password form is a risky step: the person allows it in the panel.
    const loggedIn = page.waitForURL(`${site.url}/dashboard`, { timeout: 20_000 })
    await allowAll(page, loggedIn, (p) => ava.panel(p))
    await loggedIn
    await expect.poll(() => page.textContent('#greeting'), { timeout: 10_000 }).toBe('Welcome, alice')

    // The panel reopened on the dashboard and shows every step's result.
    const panel = await ava.panel(page)
    await expect
      .poll(async () => (await readSteps(panel)).map((s) => s.status), { timeout: 10_000 })
      .toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
    const steps = await readSteps(panel)
    expect(steps[1].detail).toContain('alice')
    expect(steps[2].detail).not.toContain('wonderland') // a password is never echoed
    expect(steps[4].detail).toContain('Welcome, alice')

    // The first instruction (opening /login) ran before the LLM finished streaming.
    const req = llm.requests.find((r) => r.api === provider)!
    const loginHit = site.hits.find((h) => h.path === '/login' && h.method === 'GET')!
    await expect.poll(() => req.endedAt, { timeout: 10_000 }).toBeDefined()
    expect(loginHit.at).toBeLessThan(req.endedAt!)
    expect(req.body.stream).toBe(true)
    if (provider === 'anthropic') expect(req.headers['x-api-key']).toBe('sk-test-123')
    else expect(req.headers.authorization).toBe('Bearer sk-test-123')
    // The page was described to the model as untrusted data.
    expect(JSON.stringify(req.body)).toContain('untrusted_page_content')
    await page.close()
  })
})

it('authenticates to Anthropic-compatible proxies with a bearer token', async () => {
  await ava.configure({
    provider: 'anthropic',
    baseUrl: llm.baseUrl,
    apiKey: 'proxy-token',
    model: 'test-model',
    authStyle: 'bearer',
  })
  llm.requireKey('proxy-token')
  llm.script({ text: 'Hello! Nothing to do here.' })
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panel = await ava.ask(page, 'say hello')
  await expect
    .poll(() => panel.locator('[data-role=assistant] [data-test=text]').last().textContent())
    .toBe('Hello! Nothing to do here.')
  const req = llm.requests.find((r) => r.api === 'anthropic')!
  expect(req.headers.authorization).toBe('Bearer proxy-token')
  expect(req.headers['x-api-key']).toBeUndefined()
  await page.close()
})
