/**
 * Worded targets on a form-library page, through the built extension: a scripted model (loopback
 * server speaking the OpenAI wire format) names every target in words only, as people do on
 * Select2 forms — the Select2 box by its label, a radio scoped by its fieldset's legend, one of
 * three date-of-birth selects by its part word, a text box by its place below a table, "a
 * checkbox", and a capitalised label that is not a number. The page is the locate corpus's
 * Select2 sign-up form (bench/locate/pages), Select2 and jQuery as published.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { instructionChunks, launchAva, readSteps, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startFixtureServer, type FixtureServer } from '../executor/server'

let ava: Ava
let llm: LlmServer
let site: FixtureServer

const done = (answer: string) => ({ step_id: 99, action_type: 'done', params: { answer } })
const pageFile = resolve(import.meta.dirname, '../../bench/locate/pages/select2-signup.html')

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startFixtureServer()])
  // The page as the corpus has it, plus a record of which of the two look-alike buttons was pressed.
  site.page(
    '/select2-signup.html',
    readFileSync(pageFile, 'utf8').replace(
      '</body>',
      "<script>for (const b of document.querySelectorAll('#b-one,#b-two')) b.addEventListener('click', () => { window.__pressed = b.id })</script></body>",
    ),
  )
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

async function openForm(): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(site.url('/select2-signup.html'))
  await page.waitForSelector('.select2-selection')
  return page
}

const formState = (page: Page) =>
  page.evaluate(() => ({
    country: (document.querySelector('#country') as HTMLSelectElement).value,
    contactEmail: (document.querySelector('#cp1') as HTMLInputElement).checked,
    newsletterEmail: (document.querySelector('#nf1') as HTMLInputElement).checked,
    month: (document.querySelector('#dob-m') as HTMLSelectElement).value,
    day: (document.querySelector('#dob-d') as HTMLSelectElement).value,
    note: (document.querySelector('#note-below') as HTMLInputElement).value,
    email: (document.querySelector('#f7') as HTMLInputElement).value,
    tos: (document.querySelector('#tos') as HTMLInputElement).checked,
    pressed: (window as any).__pressed ?? null,
  }))

it('English: the Select2 box, a radio under its legend, a part of the date, a place, "a checkbox", button ONE', async () => {
  const page = await openForm()
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { semantic_locator: 'the Country dropdown' } },
        { step_id: 2, action_type: 'click', params: { semantic_locator: 'the Japan option' } },
        {
          step_id: 3,
          action_type: 'click',
          params: { semantic_locator: 'the Email radio button under Contact Preference' },
        },
        {
          step_id: 4,
          action_type: 'select',
          params: { semantic_locator: 'the Date of Birth month dropdown', value: 'February' },
        },
        {
          step_id: 5,
          action_type: 'input',
          params: { semantic_locator: 'the Email Address field', value: 'ada@example.test' },
        },
        {
          step_id: 6,
          action_type: 'input',
          params: { semantic_locator: 'the text box below the table', value: 'leave at the door' },
        },
        { step_id: 7, action_type: 'click', params: { semantic_locator: 'a checkbox' } },
        { step_id: 8, action_type: 'click', params: { semantic_locator: 'button ONE' } },
      ]),
    },
    { chunks: instructionChunks([done('Filled in.')]) },
  )
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'fill in the sign-up form')
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'])
  expect(await formState(page)).toMatchObject({
    country: 'Japan',
    contactEmail: true,
    newsletterEmail: false,
    month: 'February',
    day: 'Day',
    email: 'ada@example.test',
    note: 'leave at the door',
    tos: true,
    pressed: 'b-one',
  })
  await page.close()
})

it('Chinese: the year by its part word, a radio by its group, the text box below the table, 一个复选框', async () => {
  const page = await openForm()
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { semantic_locator: 'Contact Preference 里的 Phone 单选按钮' } },
        { step_id: 2, action_type: 'select', params: { semantic_locator: '出生日期的年份下拉框', value: '1991' } },
        { step_id: 3, action_type: 'input', params: { semantic_locator: '表格下面的输入框', value: '放在门口' } },
        { step_id: 4, action_type: 'click', params: { semantic_locator: '一个复选框' } },
      ]),
    },
    { chunks: instructionChunks([done('好了。')]) },
  )
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, '填写注册表单')
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
  const got = await page.evaluate(() => ({
    phone: (document.querySelector('#cp2') as HTMLInputElement).checked,
    year: (document.querySelector('#dob-y') as HTMLSelectElement).value,
    note: (document.querySelector('#note-below') as HTMLInputElement).value,
    tos: (document.querySelector('#tos') as HTMLInputElement).checked,
  }))
  expect(got).toEqual({ phone: true, year: '1991', note: '放在门口', tos: true })
  await page.close()
})
