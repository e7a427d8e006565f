/**
 * A hover menu through the built extension ("How it is measured"): the scripted model
 * names a menu item of an Element Plus el-dropdown that opens on hover; Ava moves to the trigger,
 * the menu opens, and the page's own command handler records the item.
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

it('the agent picks an item from an Element Plus hover menu, named "in the menu"', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/reveal-ep.html'))
  await page.waitForFunction(() => (window as any).__state !== undefined)
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { semantic_locator: '更多操作菜单里的打印' } },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: '已打印。' } }]) },
  )
  const panel = await ava.ask(page, '打印')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok'])
  expect(await page.evaluate(() => (window as any).__state.command)).toBe('print')
  await page.close()
})
