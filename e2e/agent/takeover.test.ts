/**
 * The person takes the wheel (docs/agent.md, "Taking over") in the built extension: a run that
 * reaches a one-time code page hands it to the person instead of guessing, waits while they type
 * the code by hand, and goes on after Resume; Pause stops a run before its next step, and Resume
 * tells the model what changed meanwhile, inside the page block.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { allowAll, instructionChunks, withAgentWorld, type AgentWorld } from '../support/ava'
import { kTwoFactorUser, startTwoFactorSite, type TwoFactorSite } from '../support/two-factor-site'

let w: AgentWorld
withAgentWorld((world) => (w = world))
let bank: TwoFactorSite
beforeAll(async () => void (bank = await startTwoFactorSite()))
afterAll(async () => bank?.close())

const kOpen = '<untrusted_page_content>'
const kClose = '</untrusted_page_content>'

const kBankRequest = 'sign in as alice (password wonderland) and tell me my balance'
const kPauseRequest = 'fill in the sign-in form for alice'

const chatRequests = () => w.llm.requests.filter((r) => r.api === 'openai')

/** The last user turn of model request `n`. */
function lastUser(n: number): string {
  const body = chatRequests()[n].body as { messages: { role: string; content: string }[] }
  return body.messages.filter((m) => m.role === 'user').at(-1)!.content
}

/** The text of the untrusted block that follows `marker` in `prompt`. */
function blockAfter(prompt: string, marker: string): string {
  const at = prompt.indexOf(marker)
  expect(at).toBeGreaterThanOrEqual(0)
  const open = prompt.indexOf(kOpen, at)
  return prompt.slice(open + kOpen.length, prompt.indexOf(kClose, open))
}

/**
 * Clicks a panel control until `done` says it took: the panel takes a click only once it has been
 * fully in view for 500 ms (src/panel/visibility.ts), so a person whose click did nothing clicks again.
 */
async function clickUntil(panel: Frame, selector: string, done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 20 && !(await done()); i++) {
    await panel.click(selector, { timeout: 5_000 }).catch(() => undefined)
    await expect
      .poll(done, { timeout: 2_000 })
      .toBe(true)
      .catch(() => undefined)
  }
  expect(await done()).toBe(true)
}

/** The stored state of the run made for `request`. */
async function runState(request: string): Promise<any> {
  return Object.values(await w.ava.storage('session')).find((v: any) => v?.request === request)
}

it('a run that reaches a one-time code page offers take-over; the person types the code, presses Resume, and the run finishes', async () => {
  const page: Page = await w.ava.context.newPage()
  await page.goto(`${bank.url}/login`)
  w.llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'input', params: { fallback_selector: '#username', value: 'alice' } },
        { step_id: 2, action_type: 'input', params: { fallback_selector: '#password', value: 'wonderland' } },
        { step_id: 3, action_type: 'click', params: { fallback_selector: '#sign-in' }, description: 'Sign in' },
      ]),
    },
    {
      chunks: instructionChunks([
        { step_id: 4, action_type: 'done', params: { answer: 'You are signed in; the balance is $2,417.09.' } },
      ]),
    },
  )
  await w.ava.ask(page, kBankRequest)
  // The sign-in asks first (a password goes with the form): the person allows it.
  const atCode = page.waitForURL(`${bank.url}/verify`, { timeout: 30_000 })
  await allowAll(page, atCode, (p) => w.ava.panel(p))
  await atCode

  // On the code page Ava hands over: no model call, a card that waits, with Resume and Stop.
  const panel = await w.ava.panel(page, { timeout: 20_000 })
  const card = panel.locator('[data-test=takeover]').last()
  await panel.locator('[data-test=takeover][data-state=pending]').waitFor({ timeout: 30_000 })
  expect(await card.getAttribute('data-reason')).toBe('challenge')
  expect(await card.locator('[data-test=takeover-title]').textContent()).toBe('The page asks for a one-time code')
  expect(await card.locator('[data-test=takeover-stop]').count()).toBe(1)
  expect(chatRequests()).toHaveLength(1)
  expect(bank.codes).toEqual([]) // nobody typed a code
  expect((await runState(kBankRequest))?.status).toBe('waiting')

  // The person types the code they were sent, by hand, and submits it.
  await page.click('#otp')
  await page.keyboard.type(kTwoFactorUser.code)
  await page.click('#verify')
  await page.waitForURL(`${bank.url}/account`, { timeout: 20_000 })
  expect(bank.codes).toEqual([kTwoFactorUser.code])

  // The panel comes back on the new page with the card still waiting; Resume hands the page back.
  const again = await w.ava.panel(page, { timeout: 20_000 })
  const waiting = again.locator('[data-test=takeover]').last()
  await again.locator('[data-test=takeover][data-state=pending]').waitFor({ timeout: 20_000 })
  await clickUntil(
    again,
    '[data-test=takeover][data-state=pending] [data-test=takeover-resume]',
    async () => (await waiting.getAttribute('data-state')) === 'answered',
  )
  await expect
    .poll(() => again.locator('[data-role=assistant]').last().locator('[data-test=text]').textContent(), {
      timeout: 40_000,
    })
    .toContain('$2,417.09')
  expect(chatRequests()).toHaveLength(2)
  const follow = lastUser(1)
  expect(follow).toContain('asked for a one-time code')
  const changes = blockAfter(follow, 'What changed on the page')
  expect(changes).toContain(`URL: ${bank.url}/verify -> ${bank.url}/account`)
  expect(changes).toContain('h1: Welcome, alice')
  // The code the person typed went to the site, never to the model.
  expect(JSON.stringify(chatRequests().map((r) => r.body))).not.toContain(kTwoFactorUser.code)
  await page.close()
}, 120_000)

it('Pause stops the run before its next step; Resume tells the model what the person changed', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/login`)
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  w.llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'input', params: { fallback_selector: '#username', value: 'alice' } },
      ]),
    },
    // The second reply waits while the person presses Pause; then it brings two more steps.
    {
      holdUntil: held,
      chunks: instructionChunks([
        {
          step_id: 2,
          action_type: 'input',
          params: { fallback_selector: '#password', value: 'wonderland' },
          description: 'Type the password',
        },
        { step_id: 3, action_type: 'click', params: { fallback_selector: '#login-btn' }, description: 'Log in' },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 4, action_type: 'done', params: { answer: 'Left it for you.' } }]) },
  )
  const panel = await w.ava.ask(page, kPauseRequest)
  await expect.poll(() => page.inputValue('#username'), { timeout: 30_000 }).toBe('alice')
  await expect.poll(() => chatRequests().length, { timeout: 30_000 }).toBe(2)

  const pause = panel.locator('[data-test=pause]')
  await clickUntil(panel, '[data-test=pause]', async () => (await pause.count()) > 0 && (await pause.isDisabled()))
  release()

  // The run stopped before step 2: the model's reply came in full, and none of its steps ran.
  const card = panel.locator('[data-test=takeover]').last()
  await panel.locator('[data-test=takeover][data-state=pending]').waitFor({ timeout: 30_000 })
  expect(await card.getAttribute('data-reason')).toBe('paused')
  await expect.poll(() => chatRequests()[1].endedAt !== undefined, { timeout: 10_000 }).toBe(true)
  const paused = await runState(kPauseRequest)
  expect(paused.status).toBe('waiting')
  expect(paused.executed.map((i: { action_type: string }) => i.action_type)).toEqual(['input'])
  expect(paused.pendingAsk.takeover.pausedBefore).toMatchObject({ index: 1, description: 'Type the password' })
  expect(await page.inputValue('#password')).toBe('')
  expect(w.site.hits.filter((h) => h.method === 'POST')).toEqual([])
  expect(await panel.locator('[data-test=pause]').count()).toBe(0)

  // The person changes the page by hand, then hands it back.
  // As a person does: a click into the field (a script's focus() would be handed back to the panel,
  // which keeps the keyboard from pages that take it), then the keys.
  await page.click('#username', { clickCount: 3 })
  await page.keyboard.type('bob')
  expect(await page.inputValue('#username')).toBe('bob')
  await clickUntil(
    panel,
    '[data-test=takeover][data-state=pending] [data-test=takeover-resume]',
    async () => (await card.getAttribute('data-state')) === 'answered',
  )
  await expect
    .poll(() => panel.locator('[data-role=assistant]').last().locator('[data-test=text]').textContent(), {
      timeout: 40_000,
    })
    .toContain('Left it for you.')
  expect(chatRequests()).toHaveLength(3)
  const follow = lastUser(2)
  expect(follow).toContain('The person paused you before your step 2, which did not run')
  const changes = blockAfter(follow, 'What changed on the page')
  expect(changes).toMatch(/Elements changed \(1\):\n\s+\S*username\S*=alice -> \S*username\S*=bob/)
  // Still nothing of the paused reply ran.
  expect(await page.inputValue('#password')).toBe('')
  expect(w.site.hits.filter((h) => h.method === 'POST')).toEqual([])
  await page.close()
}, 120_000)
