import { expect, it } from 'vitest'
import { instructionChunks, sendAndWait, withAgentWorld, type Ava, pressSend } from '../support/ava'
import { answerPlanCard, approvePlanCard } from '../support/plan-card'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const lastAnswer = (panel: import('playwright-core').Frame) =>
  panel.locator('[data-role=assistant] [data-test=text]').last().textContent()

it('/run runs a built-in pack action in the page, with no LLM, across the login navigation', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await ava.openPanel(page)
  await pressSend(panel, '/run common:auth:login --username alice --password wonderland')
  // The plan card first (every element it will act on), then, as the gate every step passes:
  // typing a saved password asks.
  await approvePlanCard(panel)
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  await panel.locator('[data-test=confirm-allow]').last().click()
  await page.waitForURL(`${site.url}/dashboard`, { timeout: 20_000 })
  expect(await page.textContent('#greeting')).toBe('Welcome, alice')
  const after = await ava.panel(page)
  await expect
    .poll(() => lastAnswer(after), { timeout: 15_000 })
    .toMatch(/^✓ common:auth:login finished in \d+\.\d s\.$/)
  expect(await after.textContent('[data-test=messages]')).not.toContain('wonderland')
  expect(await after.locator('[data-role=user]').last().textContent()).toBe(
    '/run common:auth:login --username "alice" --password ***',
  )
  expect(llm.requests).toHaveLength(0)
  await page.close()
})

it('/run with a wrong password fails on the pack’s verify, said in the UI language with the engine’s words behind Details', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ ui: { version: 1, language: 'zh-CN' } }))
  try {
    const panel = await ava.openPanel(page)
    await pressSend(panel, '/run common:auth:login --username alice --password not-her-password')
    await approvePlanCard(panel)
    await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
    await panel.locator('[data-test=confirm-allow]').last().click()
    // The form posts and comes back with an error: the panel returns on the new document.
    await page.waitForURL(/error/, { timeout: 20_000 })
    const after = await ava.panel(page)
    const answer = after.locator('[data-role=assistant]').last()
    await expect
      .poll(() => answer.locator('[data-test=text]').textContent(), { timeout: 15_000 })
      .toMatch(/^✗ common:auth:login：提交后仍停留在登录表单/)
    expect(await answer.getAttribute('data-kind')).toBe('error')
    expect(await answer.locator('[data-test=details]').textContent()).toMatch(/VERIFY_FAILED — Still on the login form/)
  } finally {
    await (await ava.worker()).evaluate(() => chrome.storage.local.set({ ui: { version: 1, language: 'en' } }))
    await page.close()
  }
})

it('/run of a pack action aimed at "Delete account" asks first; denied, the delete never runs', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/pack-risk.html`)
  const hitsBefore = site.hits.length
  const panel = await ava.openPanel(page)
  await pressSend(panel, '/run elementplus:dialog:open --trigger "Delete account"')
  // The request left the box as it went, though its answer comes only when the command ends.
  await panel.locator('[data-test=confirm][data-state=pending]').first().waitFor()
  expect(await panel.inputValue('[data-test=input]')).toBe('')
  // The question first is its plan card, which shows the element it would open: denied, nothing runs.
  expect(await answerPlanCard(panel, { allow: false })).toMatch(/Delete account/)
  await expect.poll(() => lastAnswer(panel), { timeout: 15_000 }).toMatch(/^✗/)
  expect(await page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual([])
  expect(site.hits.slice(hitsBefore).filter((h) => h.path.startsWith('/api/'))).toEqual([])
  await page.close()
})

it('a request refused as too long comes back into the box, whole, with the reason', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await ava.openPanel(page)
  const pasted = 'log in as alice. ' + 'x'.repeat(4_100)
  await pressSend(panel, pasted)
  await expect
    .poll(() => panel.locator('[data-test=error]').last().textContent(), { timeout: 10_000 })
    .toMatch(/4,?000/)
  expect(await panel.inputValue('[data-test=input]')).toBe(pasted)
  expect(llm.requests).toHaveLength(0)
  await page.close()
})

it('/actions, /describe and /dry-run answer in the chat; a secret param is masked in the plan', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, '/actions common')
  expect(await lastAnswer(panel)).toContain('common:auth:login')
  await sendAndWait(panel, '/describe common:auth:login')
  expect(await lastAnswer(panel)).toMatch(/\bpassword\s+string, required, secret/)
  await sendAndWait(panel, '/dry-run common:auth:login --username alice --password hunter2-secret')
  const plan = await lastAnswer(panel)
  expect(plan).toContain('alice')
  expect(plan).not.toContain('hunter2-secret')
  expect(plan).toContain('***')
  await sendAndWait(panel, '/frobnicate')
  expect(await lastAnswer(panel)).toMatch(/Unknown command \/frobnicate/)
  expect(await page.inputValue('#username')).toBe('') // a dry run touches nothing
  await page.close()
})

it('answers action.* messages from the panel, in the panel’s tab; a run asked for by a message has nobody to answer its questions', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await ava.openPanel(page)
  const found = (await panel.evaluate(() =>
    chrome.runtime.sendMessage({ ava: 1, name: 'ui→bg:action', req: { type: 'action.search', query: 'login' } }),
  )) as { ok: boolean; res: { name: string }[] }
  expect(found.ok).toBe(true)
  expect(found.res.map((a) => a.name)).toContain('common:auth:login')
  const ran = (await panel.evaluate(() =>
    chrome.runtime.sendMessage({
      ava: 1,
      name: 'ui→bg:action',
      req: {
        type: 'action.run',
        action: 'common:auth:login',
        params: { username: 'bob', password: 'builder', submit: false },
      },
    }),
  )) as { ok: boolean; res: { success: boolean; error?: { code: string; message: string } } }
  // The one guard (docs/security.md, "Every door, one rule"): the login types a password into the
  // panel's tab, which asks; a bare message has nobody to answer, so it is refused before its
  // first step, naming where Ava can ask. Nothing was typed.
  expect(ran).toMatchObject({
    ok: true,
    res: {
      success: false,
      error: {
        code: 'UNATTENDED',
        message: expect.stringMatching(new RegExp(`${new URL(site.url).host}[\\s\\S]*/run in the panel`)),
      },
    },
  })
  expect(await page.inputValue('#username')).toBe('')
  expect(await page.inputValue('#password')).toBe('')
  await page.close()
})

/** A model that logs in through the login pack with the vault's alice_pw, on the login page. */
async function askLoginWithSavedSecret() {
  // Bound to the site, as a password manager keeps a login.
  await ava.saveSecrets({ alice_pw: { value: 'wonderland', sites: [new URL(site.url).origin] } })
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'run_action',
        params: { action: 'common:auth:login', args: { username: 'alice', password: '${secret:alice_pw}' } },
        description: 'Log in',
      },
      { step_id: 2, action_type: 'done', params: { answer: 'Logged in.' } },
    ]),
  })
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/login`)
  const panel = await ava.ask(page, 'log in as alice')
  return { page, panel }
}

it('the model can call a pack action with a saved secret, which it never sees', async () => {
  const { page, panel } = await askLoginWithSavedSecret()
  // Typing a saved secret into a page is asked first, naming the secret and the site.
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  expect(await panel.locator('article.confirm').last().textContent()).toContain(
    `common:auth:login types the saved secret alice_pw into a field on ${new URL(site.url).origin}`,
  )
  expect(await page.inputValue('#password')).toBe('')
  await panel.locator('[data-test=confirm-allow]').last().click()
  await page.waitForURL(`${site.url}/dashboard`, { timeout: 20_000 })
  const req = JSON.stringify(llm.requests[0].body)
  expect(req).toContain('common:auth:login') // the relevant action was offered to the model
  for (const r of llm.requests) expect(JSON.stringify(r.body)).not.toContain('wonderland')
  await page.close()
})

it('a pack action fed a saved secret does nothing when the person says no', async () => {
  const { page, panel } = await askLoginWithSavedSecret()
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  const posts = site.hits.filter((h) => h.method === 'POST').length
  await panel.locator('[data-test=confirm-deny]').last().click()
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  expect(await page.inputValue('#username')).toBe('')
  expect(await page.inputValue('#password')).toBe('')
  expect(site.hits.filter((h) => h.method === 'POST').length).toBe(posts)
  expect(page.url()).toBe(`${site.url}/login`)
  await page.close()
})
