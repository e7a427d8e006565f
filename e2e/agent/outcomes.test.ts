import type { Frame } from 'playwright-core'
import { expect, it } from 'vitest'
import { allowAll, instructionChunks, readSteps, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * One message per outcome, in the UI language. In the Chinese UI a step that finds
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
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'click',
          params: { fallback_selector: '#no-such-button' },
          description: '点击提交按钮',
        },
      ]),
    },
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
  expect(await step.locator('[data-test=step-detail]').textContent()).toMatch(
    /Nothing on the page matches "#no-such-button"/,
  )
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

it('names the launcher in the language picked in Ava, not only the browser’s, and follows a change at once', async () => {
  const { ava, site } = w
  const label = async (page: import('playwright-core').Page) => {
    // The button is in a closed shadow root: read its name as assistive technology does.
    const cdp = await ava.context.newCDPSession(page)
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string } }[]
    }
    await cdp.detach()
    return nodes.filter((n) => n.role?.value === 'button').map((n) => n.name?.value)
  }
  const setLanguage = async (language: string) =>
    (await ava.worker()).evaluate((l) => chrome.storage.local.set({ ui: { version: 1, language: l } }), language)
  await setLanguage('zh-CN')
  const page = await ava.context.newPage()
  try {
    await page.goto(`${site.url}/login`)
    await page.waitForSelector('ava-root[data-ava-ready]', { state: 'attached' })
    // This browser speaks English: chrome.i18n alone would say "Open Ava assistant".
    await expect.poll(() => label(page)).toContain('打开 Ava 助手')
    await setLanguage('en')
    await expect.poll(() => label(page)).toContain('Open Ava assistant')
  } finally {
    await setLanguage('zh-CN')
    await page.close()
  }
})

it('in Chinese, a successful login says each step’s result in Chinese on one line, with no Details on its steps', async () => {
  const { ava, llm, site } = w
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ ui: { version: 1, language: 'zh-CN' } }))
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'navigate', params: { url: '/login' }, description: '打开登录页' },
        {
          step_id: 2,
          action_type: 'input',
          params: { fallback_selector: '#username', value: 'alice' },
          description: '输入用户名',
        },
        {
          step_id: 3,
          action_type: 'input',
          params: { fallback_selector: '#password', value: 'wonderland' },
          description: '输入密码',
        },
        { step_id: 4, action_type: 'click', params: { fallback_selector: '#login-btn' }, description: '点击登录' },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 5,
          action_type: 'verify',
          params: { assertion: 'Shows "Welcome, alice" and "Dashboard"' },
          description: '确认已登录',
        },
        { step_id: 99, action_type: 'done', params: { answer: '已登录。' } },
      ]),
    },
  )
  await ava.ask(page, '以 alice 身份登录')
  const arrived = page.waitForURL(`${site.url}/dashboard`, { timeout: 30_000 })
  await allowAll(page, arrived, (p) => ava.panel(p))
  await arrived
  const panel = await ava.panel(page, { timeout: 20_000 })
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
  const notes = steps.map((s) => s.note)
  expect(notes[0]).toBe(`已打开 ${site.url}/login`)
  expect(notes[1]).toBe('已在 "Username" 中输入 "alice"')
  expect(notes[2]).toMatch(/^已在 "Password" 中输入 "•+"$/) // masked as the English detail masks it
  // The click took its page with it: said either way, in Chinese.
  expect(notes[3]).toMatch(/^(已点击 "Log in"|已完成，页面已跳转)$/)
  expect(notes[4]).toBe('在页面上找到了 "Welcome, alice", "Dashboard"')
  // One line per step: no Details toggle on a step that went well.
  expect(steps.map((s) => s.toggles)).toEqual([0, 0, 0, 0, 0])
  // Nothing English is shown outside the page's own words (its labels and texts, quoted: "…" in
  // the results, “…” in the question before the login) and the URL.
  const shown = (await shownText(panel)).replace(/"[^"]*"|“[^”]*”/g, '').replace(/https?:\S+/g, '')
  expect(shown.match(/\b(?!token\b|Ava\b|alice\b)[A-Za-z]{3,}\b/g) ?? []).toEqual([])
  await page.close()
})
