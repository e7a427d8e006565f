/**
 * Descriptors as people write them, through the built extension: the scripted
 * model names its targets only in words, English and Chinese — role-only, ordinal, a dialog's
 * close "x" — on Element Plus as published; and a description nothing on a settled page fits
 * goes to the model again quickly, with candidates, instead of waiting the step out.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { instructionChunks, launchAva, readSteps, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startFixtureServer, type FixtureServer } from '../executor/server'

let ava: Ava
let llm: LlmServer
let site: FixtureServer

const done = (answer: string) => ({ step_id: 99, action_type: 'done', params: { answer } })
const chatRequests = () => llm.requests.filter((r) => r.api === 'openai')
const state = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify((window as any).__state)))

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startFixtureServer()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

async function openWidgets(): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(site.url('/ep-widgets.html'))
  await page.waitForFunction(() => (window as any).__state !== undefined)
  return page
}

it("Chinese descriptors: a button by its label, the one text field of the open dialog by role alone, and the dialog's close button", async () => {
  const page = await openWidgets()
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { semantic_locator: '新建按钮' } },
        { step_id: 2, action_type: 'input', params: { semantic_locator: '输入框', value: '张三' } },
        { step_id: 3, action_type: 'click', params: { semantic_locator: '对话框的关闭按钮' } },
      ]),
      chunkDelayMs: 300,
    },
    { chunks: instructionChunks([done('已关闭。')]) },
  )
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, '新建一个叫张三的用户，然后关掉对话框')
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok'])
  // Typed into the dialog's field (not the city field behind it), closed by the x, not by 确定.
  expect(await state(page)).toMatchObject({ newName: '张三', city: '', dialogOpen: false, created: [] })
  await page.close()
})

it('English descriptors: an ordinal tab and "the x" of the dialog', async () => {
  const page = await openWidgets()
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { semantic_locator: 'the second tab' } },
        { step_id: 2, action_type: 'click', params: { semantic_locator: '新建' } },
        { step_id: 3, action_type: 'click', params: { semantic_locator: 'the x of the dialog' } },
      ]),
    },
    { chunks: instructionChunks([done('Done.')]) },
  )
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'open the second tab, then open and close the new-user dialog')
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok'])
  expect(await state(page)).toMatchObject({ tab: 'config', dialogOpen: false, created: [] })
  await page.close()
})

it('a description nothing on a settled page fits goes back to the model quickly, with candidates', async () => {
  const page = await openWidgets()
  const before = chatRequests().length
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { semantic_locator: 'Export report button' } },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 1, action_type: 'click', params: { semantic_locator: '计数' } }]) },
    { chunks: instructionChunks([done('Counted.')]) },
  )
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'export the report')
  const [first, repair] = chatRequests().slice(before)
  const body = JSON.stringify(repair.body)
  expect(body).toContain('Candidate elements')
  // Not an empty list: the page's buttons are offered, weakly, by kind and text.
  expect(body).toMatch(/新建|计数|显示提示|更多操作/)
  // The step's own timeout is 10 s; a settled page gives up in about a second.
  expect(repair.at - first.at).toBeLessThan(6_000)
  expect(await state(page)).toMatchObject({ clicks: 1 })
  await page.close()
})
