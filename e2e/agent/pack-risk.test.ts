import { expect, it } from 'vitest'
import { instructionChunks, readSteps, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * Pack steps pass the agent's risk gate: a model that obeys a hostile page calls a
 * built-in low-risk action (open a dialog) with its trigger set to a "Delete account" button. The
 * click goes through the registry engine, and the person is asked all the same; denied, the
 * page's delete handler never runs and nothing reaches its server.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

it('a low-risk pack action aimed at "Delete account" asks first; denied, the delete never runs', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/pack-risk.html`)
  const hitsBefore = site.hits.length
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'run_action',
        params: { action: 'elementplus:dialog:open', args: { trigger: 'Delete account' } },
        description: 'Open the settings dialog',
      },
    ]),
  })
  const panel = await ava.ask(page, 'show me my account settings')
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  expect(await panel.locator('article.confirm').last().textContent()).toMatch(/Delete account.*may delete something/)
  await panel.locator('[data-test=confirm-deny]').last().click()
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  expect((await readSteps(panel)).at(-1)!.detail).toMatch(/You said no/)
  expect(await page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)).toEqual([])
  expect(site.hits.slice(hitsBefore).filter((h) => h.path.startsWith('/api/'))).toEqual([])
  await page.close()
})
