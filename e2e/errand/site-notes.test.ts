/**
 * Site notes (docs/agent.md, "Site notes") in the built extension: a note the person keeps for
 * one site reaches the model's prompt for a request on that site, as the person's words outside
 * the untrusted page block, and never for a request on another site.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { instructionChunks, launchAva, sendAndWait, type Ava } from '../support/ava'
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
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    { agent: { stepLimit: 20, useCache: false } },
  )
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), other?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

const kNote = 'use the business account, never express shipping'

/** The first user message of the last request the model got. */
function firstUserTurn(): string {
  const body = llm.requests.filter((r) => r.api === 'openai').at(-1)!.body as {
    messages: { role: string; content: string }[]
  }
  return body.messages.find((m) => m.role === 'user')!.content
}

it("a site's note reaches the prompt for that site only, outside the untrusted block", async () => {
  // The person writes the note in the options, as they would.
  const options = await ava.context.newPage()
  await options.goto(`chrome-extension://${ava.extensionId}/src/options/index.html`)
  await options.fill('[data-test=note-site]', site.url)
  await options.fill('[data-test=note-text]', kNote)
  await options.click('[data-test=note-add]')
  await options.locator('[data-test=note]').filter({ hasText: kNote }).waitFor()
  // A note with no words is refused with the sentence for its code, and nothing is kept.
  await options.fill('[data-test=note-text]', '   ')
  await options.click('[data-test=note-add]')
  await expect
    .poll(() => options.locator('[data-test=errand-error] [data-test=failure-text]').textContent())
    .toBe('That note cannot be kept: write some words, and the site as shop.example or https://shop.example.')
  expect(await options.locator('[data-test=note]').count()).toBe(1)
  await options.close()

  for (const [server, expected] of [
    [site, true],
    [other, false],
  ] as const) {
    llm.script({ chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: 'Noted.' } }]) })
    const page = await ava.context.newPage()
    await page.goto(`${server.url}/`)
    await sendAndWait(await ava.openPanel(page), 'order more paper')
    const turn = firstUserTurn()
    expect(turn.includes(kNote), `${server.url}: ${turn.slice(-600)}`).toBe(expected)
    if (expected) {
      // After the page's block and inside none (the run's tab list, page titles, is a block of its own after the request).
      const at = turn.indexOf(`The person's own notes for ${new URL(site.url).origin}`)
      const before = turn.slice(0, at)
      expect(at).toBeGreaterThan(turn.indexOf('</untrusted_page_content>'))
      expect(before.split('<untrusted_page_content>').length).toBe(before.split('</untrusted_page_content>').length)
    }
    await page.close()
  }
})
