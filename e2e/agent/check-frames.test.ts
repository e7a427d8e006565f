import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { allowAll, readSteps, sendAndWait, launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

/**
 * A check looks where the form was (src/background/frame-check.ts): a help desk's form in a
 * cross-origin frame answers on the page its frame loads after the submit, in a frame of a third
 * site nested inside it (e2e/fixtures/frames/check-*.html). The top document never holds the
 * answer; the check finds it where the steps acted, and nowhere else.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
let desk: SiteServer
let status: SiteServer

beforeAll(async () => {
  ;[ava, llm, site, desk, status] = await Promise.all([
    launchAva(),
    startLlmServer(),
    startSiteServer(),
    startSiteServer({ host: 'localhost' }),
    startSiteServer(),
  ])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), desk?.close(), status?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

/** The model's plan: type into the frame's field, send, and check for the ticket. */
function plan(prompt: string): string {
  const ids = [...new Set(prompt.match(/\bframe_\w+/g) ?? [])]
  const message = ids.find((i) => /message/.test(i)) ?? '#message'
  const send = ids.find((i) => /send/.test(i)) ?? '#send'
  const at = (id: string) => (id.startsWith('#') ? { fallback_selector: id } : { target_id: id })
  return JSON.stringify([
    {
      step_id: 1,
      action_type: 'input',
      params: { ...at(message), value: 'My printer jams' },
      description: 'Type the message',
    },
    { step_id: 2, action_type: 'click', params: at(send), description: 'Send the message' },
    {
      step_id: 3,
      action_type: 'verify',
      params: { assertion: 'The page says "Ticket 4711 received"' },
      description: 'Check that the ticket was received',
    },
  ])
}

it('a check finds the answer in a frame nested in the frame where the form was', async () => {
  const page = await ava.context.newPage()
  await page.goto(
    `${site.url}/frames/check-top.html?form=${encodeURIComponent(desk.url)}&inner=${encodeURIComponent(status.url)}`,
  )
  await expect
    .poll(async () => page.frames().some((f) => f.url().includes('check-form.html')), { timeout: 10_000 })
    .toBe(true)
  let prompt = ''
  llm.script({
    from: (body) => {
      prompt = String(body.messages.at(-1).content)
      return plan(prompt)
    },
  })
  const panel = await ava.openPanel(page)
  // Typing into another site's frame asks the person first (cross_site): the person allows it.
  const arrived = sendAndWait(panel, 'send the help desk "My printer jams" and check it was received', {
    timeout: 60_000,
  })
  await allowAll(page, arrived, (p) => ava.panel(p))
  await arrived
  const steps = await readSteps(panel)
  // The form was read in its frame, and the steps reached it there.
  expect(prompt).toMatch(/frame_\w*message/)
  expect(steps.slice(0, 2).map((s) => s.status)).toEqual(['ok', 'ok'])
  // The answer is two frames down, in a frame of a third site: the check looked there.
  expect(steps[2]?.status, JSON.stringify(steps)).toBe('ok')
  expect(status.hits.some((h) => h.path === '/frames/check-status.html')).toBe(true)
  await page.close()
}, 90_000)

it('a check does not take the words from a frame no step acted in', async () => {
  const page = await ava.context.newPage()
  // The status page alone, framed by the top page as any other frame (an advertisement's place):
  // it says "Ticket 4711 received", but no step acted there, so it proves nothing.
  await page.goto(
    `${site.url}/frames/check-top.html?form=${encodeURIComponent(status.url)}&inner=${encodeURIComponent(status.url)}`,
  )
  await page.evaluate(
    (src) => ((document.getElementById('desk') as HTMLIFrameElement).src = src),
    `${status.url}/frames/check-status.html?message=x`,
  )
  await expect
    .poll(async () => page.frames().some((f) => f.url().includes('check-status.html')), { timeout: 10_000 })
    .toBe(true)
  llm.script({
    from: () =>
      JSON.stringify([
        {
          step_id: 1,
          action_type: 'verify',
          params: { assertion: 'The page says "Ticket 4711 received"' },
          description: 'Check that the ticket was received',
        },
      ]),
  })
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'check the ticket was received', { timeout: 60_000 })
  const steps = await readSteps(panel)
  expect(steps[0]?.status, JSON.stringify(steps)).not.toBe('ok')
  await page.close()
}, 90_000)
