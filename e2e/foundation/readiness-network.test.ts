import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { instructionChunks, launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'

/**
 * Readiness with the real network counter: the background counts a tab's requests
 * with webRequest (src/background/requests.ts) and tells a settling page; the page is read again
 * only once no more than two are in flight (kAllowPendingRequests). A click starts three fetches
 * of 2 s each and changes nothing in the DOM until they end, so only the count can hold the read:
 * the model's second request must show what the fetches brought.
 */
const kFetchMs = 2_000

let ava: Ava
let llm: LlmServer
let site: Server
let base = ''
const served: { path: string; at: number }[] = []

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title></head><body>
<main><h1>Orders</h1><button id="load" type="button">Load orders</button><p id="out"></p></main>
<script>
document.getElementById('load').addEventListener('click', async () => {
  const parts = await Promise.all([1, 2, 3].map((n) => fetch('/api/slow?part=' + n).then((r) => r.text())))
  document.getElementById('out').textContent = 'Orders loaded: ' + parts.join(', ')
})
</script></body></html>`

beforeAll(async () => {
  site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname === '/api/slow') {
      setTimeout(() => {
        served.push({ path: url.pathname, at: Date.now() })
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`part ${url.searchParams.get('part')}`)
      }, kFetchMs)
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
  })
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  ;[ava, llm] = await Promise.all([launchAva(), startLlmServer()])
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    { agent: { stepLimit: 20, useCache: false } },
  )
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), new Promise((r) => site?.close(r))])
})

it('holds the read after a step until the requests the step started have finished', async () => {
  const click = {
    step_id: 1,
    action_type: 'click',
    params: { semantic_locator: 'Load orders button', fallback_selector: '#load' },
    description: 'Load the orders',
  }
  llm.script({ chunks: instructionChunks([click]) })
  const tab = await ava.context.newPage()
  await tab.goto(`${base}/`)
  await ava.ask(tab, 'load my orders')

  // The run reads the page again after the click and asks the model for what comes next.
  await expect
    .poll(() => llm.requests.filter((r) => r.api === 'openai').length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2)
  const [, next] = llm.requests.filter((r) => r.api === 'openai')
  const prompt = JSON.stringify(next.body.messages)
  expect(prompt).toContain('Orders loaded: part 1, part 2, part 3')
  // Read after the last fetch ended, not after the DOM had been quiet for its half second.
  expect(served).toHaveLength(3)
  expect(next.at).toBeGreaterThanOrEqual(Math.max(...served.map((s) => s.at)))
  await tab.close()
})
