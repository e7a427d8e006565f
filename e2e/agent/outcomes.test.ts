import type { Frame } from 'playwright-core'
import { expect, it } from 'vitest'
import { instructionChunks, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * One message per outcome, in the UI language (issue 17 §4). In the Chinese UI a step that finds
 * nothing fails once: one error message, in Chinese, with the page's English behind "详情"; its
 * Retry button sends the request again and the run goes on.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

/** What a person reads in the chat: every message but their own, with the closed "details" toggles left out. */
const shownText = (panel: Frame) =>
  panel.locator('[data-test=messages]').evaluate((list) => {
    const copy = list.cloneNode(true) as HTMLElement
    for (const el of copy.querySelectorAll('details, [data-role=user]')) el.remove()
    return copy.innerText
  })

it('in Chinese, a failing step shows exactly one error message with no English outside the details, and Retry works', async () => {
  const { ava, llm, site } = w
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ ui: { version: 1, language: 'zh-CN' } }))
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  llm.script(
    { chunks: instructionChunks([{ step_id: 1, action_type: 'click', params: { fallback_selector: '#no-such-button' }, description: '点击提交按钮' }]) },
    // The AI fallback's one extra call finds nothing to do either: the step stays failed.
    { text: '找不到这个按钮。' },
  )
  const panel = await ava.ask(page, '提交表单')
  const errors = panel.locator('[data-test=message][data-kind=error]')
  await errors.first().waitFor({ timeout: 30_000 })
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })

  expect(await errors.count()).toBe(1)
  expect(await errors.locator('[data-test=text]').textContent()).toBe('第 1 步失败：页面上找不到要操作的元素。')
  // The element never existed: nothing says the page changed.
  expect(await shownText(panel)).not.toMatch(/变化/)
  // The page's own English is kept, behind the step's "详情" toggle.
  const step = panel.locator('[data-test=step][data-status=failed]')
  expect(await step.locator('summary').textContent()).toBe('详情')
  expect(await step.locator('[data-test=step-detail]').textContent()).toMatch(/Nothing on the page matches/)
  // No English sentence anywhere a person reads without opening a toggle.
  const shown = await shownText(panel)
  expect(shown.match(/\b(?!token\b|Ava\b)[A-Za-z]{3,}\b/g) ?? []).toEqual([])
  // Durations in seconds, in Chinese.
  expect(await step.locator('.meta').textContent()).toMatch(/^\d+\.\d 秒$/)
  expect(await errors.locator('[data-test=open-options]').count()).toBe(0) // a step failure is not a settings problem

  // Retry sends the same request again.
  llm.script({ chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: '已完成。' } }]) })
  const before = await panel.locator('[data-role=assistant]').count()
  await errors.locator('[data-test=retry]').click()
  await panel.locator('[data-role=assistant]').nth(before).locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  expect(await panel.locator('[data-role=user]').last().textContent()).toBe('提交表单')
  expect(await panel.locator('[data-role=assistant]').last().locator('[data-test=text]').textContent()).toBe('已完成。')
  // The old outcome's buttons go once its request was asked again.
  expect(await errors.locator('[data-test=retry]').count()).toBe(0)
  expect(w.llm.requests.filter((r) => r.api === 'openai').length).toBe(3)
  await page.close()
})
