/**
 * Steps on pages that re-render, repeat and push back, through the built extension
 * with a scripted model on the loopback server: a calendar drawn anew on every click and a pager
 * re-rendered whole (the listed ids must still work), a spinner and a slider moved by repeated
 * clicks and keys (not a loop), native options and a multi-select, a star icon under a webmail
 * row's click area, a right-to-left form whose "Next" lies under Ava's open panel, a terms box
 * that must be scrolled to its end, and bootstrap-datepicker rewriting a typed date.
 */
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { instructionChunks, launchAva, readSteps, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startFixtureServer, type FixtureServer } from '../executor/server'

let ava: Ava
let llm: LlmServer
let site: FixtureServer

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startFixtureServer()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

const done = (answer = 'Done.') => ({ step_id: 99, action_type: 'done', params: { answer } })
const state = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as any).__state)))
/** The id the listing gives the first element whose token matches `re` (ids look like `btn_prev`). */
function listedId(prompt: string, re: RegExp): string {
  for (const m of prompt.matchAll(/(?:^|\s)([a-z]{2,8}_[\p{L}\p{N}_-]*)(?:\[[^\]]*\])?(?:=\S+)?(?: ("[^"]*"))?/gmu))
    if (re.test(`${m[1]} ${m[2] ?? ''}`)) return m[1]
  throw new Error(`No listed id matches ${re} in:\n${prompt.slice(0, 3000)}`)
}
const lastPrompt = (body: any) => String(body.messages.at(-1).content)

async function run(page: Page, request: string): Promise<Frame> {
  const panel = await ava.ask(page, request)
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 60_000 })
  return panel
}

it('listed ids of a calendar and a pager that re-render on every click still act, and the step says so', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-widgets.html'))
  llm.script({
    from: (body) => {
      const prompt = lastPrompt(body)
      const prev = listedId(prompt, /prev\b|"Prev"/i)
      const next = listedId(prompt, /(^|_)next\b|"next"/)
      const click = (step_id: number, target_id: string) => ({ step_id, action_type: 'click', params: { target_id } })
      return JSON.stringify([click(1, prev), click(2, prev), click(3, prev), click(4, next), click(5, next), done()])
    },
  })
  const panel = await run(page, 'go back three months, then two pages forward')
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
  // The second click found the arrow re-rendered, and the step says it used the one in its place.
  expect(steps[1].detail).toMatch(/re-rendered/)
  expect((await state(page)) as { month: number; year: number; page: number }).toMatchObject({
    month: 11,
    year: 2023,
    page: 3,
  })
  expect(await page.textContent('#month')).toBe('December 2023')
  await page.close()
})

it('a spinner clicked five times and a slider moved with ArrowLeft four times are progress, not a loop', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-widgets.html'))
  llm.script({
    from: (body) => {
      const prompt = lastPrompt(body)
      const up = listedId(prompt, /increase/i)
      const vol = listedId(prompt, /volume/i)
      const steps: object[] = []
      for (let i = 1; i <= 5; i++) steps.push({ step_id: i, action_type: 'click', params: { target_id: up } })
      for (let i = 6; i <= 9; i++)
        steps.push({ step_id: i, action_type: 'press', params: { target_id: vol, key: 'ArrowLeft' } })
      return JSON.stringify([...steps, done()])
    },
  })
  const panel = await run(page, 'five guests, and the volume down to 10')
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(Array(9).fill('ok'))
  expect(await state(page)).toMatchObject({ qty: 5, vol: 10 })
  await page.close()
})

it('a toggle clicked back and forth three times is still stopped as a loop', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-widgets.html'))
  const star = { action_type: 'click', params: { semantic_locator: 'Star' } }
  llm.script({ chunks: instructionChunks([1, 2, 3, 4].map((step_id) => ({ step_id, ...star }))) })
  const panel = await run(page, 'star it, unstar it, star it')
  const steps = await readSteps(panel)
  expect(steps.slice(0, 3).map((s) => s.status)).toEqual(['ok', 'ok', 'ok'])
  expect(steps.length === 3 || steps[3].status === 'skipped').toBe(true)
  expect(await panel.textContent('body')).toMatch(/same step three times/)
  await page.close()
})

it('clicks choose native options, a multi-select keeps each choice, and a star under a row’s click area is clicked where it shows', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-widgets.html'))
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'click',
        params: { fallback_selector: '#height' },
        description: 'click the Height dropdown',
      },
      {
        step_id: 2,
        action_type: 'click',
        params: { fallback_selector: '#height option:nth-child(4)' },
        description: "click the option '5ft 11in'",
      },
      { step_id: 3, action_type: 'select', params: { semantic_locator: 'Invite', value: 'Alice' } },
      { step_id: 4, action_type: 'select', params: { semantic_locator: 'Invite', value: 'Bob' } },
      {
        step_id: 5,
        action_type: 'click',
        params: { fallback_selector: '#names option:nth-child(4)' },
        description: 'also invite Darryl',
      },
      { step_id: 6, action_type: 'click', params: { semantic_locator: 'Star' } },
      done(),
    ]),
  })
  const panel = await run(page, 'height 5ft 11in, invite Alice, Bob and Darryl, star the mail')
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok'])
  expect(await page.inputValue('#height')).toBe('5ft 11in')
  expect(await page.$eval('#names', (s) => [...(s as HTMLSelectElement).selectedOptions].map((o) => o.text))).toEqual([
    'Alice',
    'Bob',
    'Darryl',
  ])
  expect(await state(page)).toMatchObject({ starred: true, events: [] })
  await page.close()
})

it('a right-to-left form’s Next under Ava’s open panel: the panel moves out of the way, the click lands, the panel comes back', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-rtl.html'))
  const next = (await page.locator('#next').boundingBox())!
  llm.script({
    chunks: instructionChunks([{ step_id: 1, action_type: 'click', params: { semantic_locator: 'التالي' } }, done()]),
  })
  const panel = await ava.openPanel(page)
  const frame = (await panel.frameElement())!
  const home = (await frame.boundingBox())!
  // The target lies under the open panel, as on the pages where steps failed "covered by ava-root".
  expect(
    next.x + next.width > home.x && next.x < home.x + home.width && next.y > home.y && next.y < home.y + home.height,
  ).toBe(true)
  const seen: { x: number; y: number }[] = []
  let obscured = false
  const watching = (async () => {
    for (let i = 0; i < 300 && !(await page.evaluate(() => (window as any).__state.next > 0)); i++) {
      const b = await frame.boundingBox().catch(() => null)
      if (b) seen.push({ x: b.x, y: b.y })
      obscured ||= (await panel.getAttribute('.panel', 'data-obscured').catch(() => null)) === 'true'
      await page.waitForTimeout(40)
    }
  })()
  const asked = await run(page, 'go to the next step')
  await watching
  expect((await readSteps(asked)).map((s) => s.status)).toEqual(['ok'])
  expect(await state(page)).toEqual({ next: 1 })
  // The person saw it go: somewhere else while the step acted, clear of the target.
  expect(seen.some((p) => Math.abs(p.x - home.x) > 100)).toBe(true)
  // While it moved it took no click (the panel's own protection saw it as not in plain view).
  expect(obscured).toBe(true)
  await expect.poll(async () => (await frame.boundingBox())?.x, { timeout: 10_000 }).toBe(home.x)
  await page.close()
})

it('"scroll to the bottom of the terms" reaches the inner box’s end, so "I accept" can be ticked', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-terms.html'))
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'scroll',
        params: { semantic_locator: 'the terms', direction: 'bottom' },
        description: 'scroll to the bottom of the terms',
      },
      { step_id: 2, action_type: 'click', params: { semantic_locator: 'I accept the terms' } },
      done(),
    ]),
  })
  const panel = await run(page, 'accept the terms')
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok', 'ok'])
  expect(steps[0].detail).toMatch(/at its end/)
  expect(await page.isChecked('#accept')).toBe(true)
  await page.close()
})

it('a date bootstrap-datepicker rewrites on leaving the field is chosen in its calendar; the field holds the date asked for', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-datepicker.html'))
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'input', params: { semantic_locator: 'Arrival date', value: 'September 27, 2018' } },
      done(),
    ]),
  })
  const panel = await run(page, 'arrive on 27 September 2018')
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok'])
  // Left alone, the plugin turns "September 27, 2018" into 27/03/2018 under dd/mm/yyyy.
  expect(await page.inputValue('#arrival')).toBe('27/09/2018')
  expect(steps[0].detail).toMatch(/27\/09\/2018/)
  await page.close()
})

it('a masked phone field: a whole number is kept as the mask shows it; one the mask clears on leaving fails and says so', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/steps-datepicker.html'))
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'input', params: { semantic_locator: 'Phone', value: '555 123 4567' } },
      done(),
    ]),
  })
  let steps = await readSteps(await run(page, 'my phone is 555 123 4567'))
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok'])
  expect(await page.inputValue('#phone')).toBe('(555) 123-4567')
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'input', params: { semantic_locator: 'Phone', value: '555 12' } },
    ]),
  })
  const panel = await run(page, 'my phone is 555 12')
  steps = await readSteps(panel)
  expect(steps.map((s) => s.status)).toEqual(['failed'])
  expect(await page.inputValue('#phone')).toBe('')
  expect(await panel.textContent('body')).toMatch(/did not keep “555 12”/)
  await page.close()
})
