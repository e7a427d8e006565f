import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import type { Flow } from '../../src/core/flows'
import { allowAll, instructionChunks, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * Lossless run → flow: a three-page agent run on the loopback model becomes a flow
 * through the panel's "Save last run as flow", and that flow replays with no model call on a
 * restyled copy of the pages (other ids, classes and layout; the same labels). Each step's
 * selectors were taken when it acted, before its page went away; the run's `run_action` and
 * `verify` steps are in the flow; the saved password is a vault reference, never its value.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kPassword = 'Zebra-Quartz-4417'
const plain = (n: number) => `${w.site.url}/run-to-flow/plain/${n}.html`
const restyled = (n: number) => `${w.site.url}/run-to-flow/restyled/${n}.html`
const chatRequests = () => w.llm.requests.filter((r) => r.api === 'openai')

async function idlePanel(page: Page): Promise<Frame> {
  const panel = await w.ava.panel(page, { timeout: 20_000 })
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  return panel
}

it('saves a three-page run as a flow with the selectors of each moment, and replays it on restyled pages with no model call', async () => {
  const origin = new URL(w.site.url).origin
  await (
    await w.ava.worker()
  ).evaluate(([pw, o]) => chrome.storage.local.set({ vault: { ACME_PW: pw }, vaultSites: { ACME_PW: [o] } }), [
    kPassword,
    origin,
  ] as const)
  // The model's own locators are ids of the plain pages: the restyled copy has none of them.
  w.llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'run_action',
          params: { action: 'common:cookies:dismiss', args: { choice: 'accept' } },
          description: 'Accept the cookies',
        },
        {
          step_id: 2,
          action_type: 'click',
          params: { fallback_selector: '#choose-link', semantic_locator: 'Choose a plan link' },
          description: 'Choose a plan',
        },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 3,
          action_type: 'input',
          params: { fallback_selector: '#fullname', semantic_locator: 'Full name field', value: 'Ada Lovelace' },
          description: 'Full name',
        },
        {
          step_id: 4,
          action_type: 'input',
          params: { fallback_selector: '#email', semantic_locator: 'Email field', value: 'ada@example.com' },
          description: 'Email',
        },
        {
          step_id: 5,
          action_type: 'input',
          params: { fallback_selector: '#pw', semantic_locator: 'Password field', value: '${secret:ACME_PW}' },
          description: 'Password',
        },
        {
          step_id: 6,
          action_type: 'select',
          params: { fallback_selector: '#plan', semantic_locator: 'Plan', value: 'Pro' },
          description: 'Plan',
        },
        {
          step_id: 7,
          action_type: 'click',
          params: { fallback_selector: '#continue-btn', semantic_locator: 'Continue button' },
          description: 'Continue',
        },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 8,
          action_type: 'click',
          params: { fallback_selector: '#receipt-btn', semantic_locator: 'Show receipt button' },
          description: 'Show receipt',
        },
        {
          step_id: 9,
          action_type: 'verify',
          params: { assertion: 'Page shows "Receipt #A-17"' },
          description: 'Receipt shown',
        },
        { step_id: 10, action_type: 'done', params: { answer: 'Signed up for Pro.' } },
      ]),
    },
  )

  const page = await w.ava.context.newPage()
  await page.goto(plain(1))
  await w.ava.ask(page, 'sign me up for the Pro plan as Ada Lovelace, ada@example.com, password ${secret:ACME_PW}')
  const arrived = page.waitForURL(plain(3), { timeout: 30_000 })
  await allowAll(page, arrived, (p) => w.ava.panel(p))
  await arrived
  let panel = await idlePanel(page)
  await expect.poll(() => page.isVisible('#receipt')).toBe(true)
  expect(chatRequests()).toHaveLength(3)

  // Save last run as flow, on the last page: pages 1 and 2 are gone by now.
  await panel.click('[data-test=flow-from-run]')
  await panel.waitForSelector('[data-test=flow-draft]')
  await panel.fill('[data-test=flow-name]', 'Acme sign-up')
  await panel.click('[data-test=flow-save]')
  await panel.waitForSelector('[data-test=flow-saved]')

  const saved = Object.values(((await w.ava.storage('local'))['flows.saved'] ?? {}) as Record<string, { flow: Flow }>)
  const flow = saved.find((s) => s.flow.metadata.name === 'Acme sign-up')!.flow
  const byDescription = (d: string) => flow.steps.find((s) => s.description === d)
  // The pack action the run called is a step of the flow.
  expect(flow.steps[0]).toMatchObject({ action: 'run', params: { action: 'common:cookies:dismiss' } })
  // Selectors and snapshots from the moment each step acted, on pages that no longer exist.
  expect(byDescription('Choose a plan')).toMatchObject({
    action: 'click',
    element_snapshot: { tag: 'a', role: 'link', text: 'Choose a plan' },
  })
  expect(byDescription('Full name')?.element_snapshot).toMatchObject({ tag: 'input', attributes: { name: 'fullname' } })
  expect(byDescription('Plan')).toMatchObject({ action: 'select', element_snapshot: { tag: 'select' } })
  for (const d of ['Choose a plan', 'Full name', 'Email', 'Password', 'Plan', 'Continue', 'Show receipt']) {
    expect(byDescription(d)?.selectors?.primary.value, d).not.toMatch(
      /#(choose-link|fullname|email|pw|plan|continue-btn|receipt-btn)\b/,
    )
  }
  // The password is the vault's name, not its value.
  const pwStep = byDescription('Password')!
  const pwVar = flow.variables[String(pwStep.params.value).slice(2, -1)]
  expect(pwVar).toMatchObject({ secret: true, value: '${secret:ACME_PW}' })
  // The verify step survives as the flow's assertion.
  expect(flow.steps.filter((s) => s.action === 'verify')).toEqual([
    expect.objectContaining({ params: { text: 'Receipt #A-17' } }),
  ])
  const stored = JSON.stringify([
    await w.ava.storage('session'),
    { ...(await w.ava.storage('local')), vault: undefined },
  ])
  expect(stored).not.toContain(kPassword)

  // Replay on the restyled pages: no model call, every step found by what it is, not where it was.
  const before = chatRequests().length
  const page2 = await w.ava.context.newPage()
  await page2.goto(restyled(1))
  panel = await w.ava.openPanel(page2)
  await panel.waitForSelector('[data-test=flow-select]')
  const id = await panel
    .locator('[data-test=flow-select] option', { hasText: 'Acme sign-up' })
    .first()
    .getAttribute('value')
  await panel.selectOption('[data-test=flow-select]', id!)
  await panel.click('[data-test=flow-replay]')
  const replayed = page2.waitForFunction(
    () => location.pathname.endsWith('/restyled/3.html') && document.getElementById('rcpt-x')?.hidden === false,
    undefined,
    { timeout: 25_000 },
  )
  await allowAll(page2, replayed, (p) => w.ava.panel(p))
  await replayed
  // The form was sent once, with every field the replay found on the restyled page.
  expect(w.site.hits.filter((h) => h.method === 'POST' && h.path === '/run-to-flow/restyled/3.html')).toHaveLength(1)
  // Every step ran and passed, the final check included (a failed step is left out of the stats).
  const stats = async () =>
    Object.values(((await w.ava.storage('local'))['flows.saved'] ?? {}) as Record<string, { flow: Flow }>).find(
      (s) => s.flow.metadata.name === 'Acme sign-up',
    )?.flow.stats
  await expect.poll(async () => (await stats())?.runs, { timeout: 20_000 }).toBe(1)
  expect(Object.keys((await stats())!.steps).map(Number)).toEqual(flow.steps.map((s) => s.step_id))
  expect(chatRequests().length).toBe(before)
  const after = JSON.stringify([
    await w.ava.storage('session'),
    { ...(await w.ava.storage('local')), vault: undefined },
  ])
  expect(after).not.toContain(kPassword)
})
