/**
 * Native inputs through the built extension ("How it is measured"): a scripted model
 * writes dates, times, numbers and colours as people write them; the page keeps them in its own
 * formats, and an unreadable value comes back to the panel naming the format.
 */
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

const input = (step_id: number, semantic_locator: string, value: string) => ({
  step_id,
  action_type: 'input',
  params: { semantic_locator, value },
})

it('the agent fills date, time, datetime, week, number, range and colour inputs from human values', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/native-inputs.html'))
  llm.script(
    {
      chunks: instructionChunks([
        input(1, 'Birthday date field', '09/27/2018'),
        input(2, 'Meeting time', '下午2点20分'),
        input(3, 'Departure', 'Sept 27 2018 2:20 PM'),
        input(4, 'Sprint week', '2018-W39'),
        input(5, 'Quantity', '1,234'),
        input(6, 'Volume slider', '80'),
        input(7, 'Theme colour', 'red'),
      ]),
    },
    { chunks: instructionChunks([{ step_id: 8, action_type: 'done', params: { answer: 'Filled.' } }]) },
  )
  const panel = await ava.ask(page, 'fill in the form')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'])
  const values = await page.evaluate(() => JSON.parse(JSON.stringify((window as any).__state.values)))
  expect(values).toEqual({
    birthday: '2018-09-27',
    meeting: '14:20',
    departure: '2018-09-27T14:20',
    sprint: '2018-W39',
    quantity: '1234',
    volume: '80',
    theme: '#ff0000',
  })
  await page.close()
})

it('a value nobody can read fails the step with the format the field expects', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/native-inputs.html'))
  llm.script({ chunks: instructionChunks([input(1, 'Birthday', 'the day after the party')]) })
  const panel = await ava.ask(page, 'set my birthday')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  const steps = await readSteps(panel)
  expect(steps[0].status).toBe('failed')
  expect(steps[0].detail).toContain('expected a date such as 2018-09-27')
  await page.close()
})
