import { expect, it } from 'vitest'
import { readSteps, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * A listed id whose control the page re-rendered stands in only for the same record
 * (docs/executor.md, "Re-rendered controls"): an approvals pane that moves from a $12.40 lunch to
 * a $9,800 wire while the model thinks keeps an "Approve" in the same place, and the step that was
 * written for the lunch must not approve the wire (e2e/fixtures/hostile/rerender-record.html).
 */
/** The listing's id of the Approve button, as a model that reads the listing writes target_id. */
const idIn = (body: any): string => String(body.messages.at(-1).content).match(/\bbtn_approve\w*/)?.[0] ?? ''

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

it('an Approve re-rendered for another record is not clicked; the step fails as stale', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/rerender-record.html`)
  let approve = ''
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  const done = { step_id: 2, action_type: 'done', params: { answer: 'Done.' } }
  llm.script(
    {
      holdUntil: held,
      from: (body) => {
        approve = idIn(body)
        return JSON.stringify([
          {
            step_id: 1,
            action_type: 'click',
            params: { target_id: approve },
            description: 'Approve the lunch expense',
          },
          done,
        ])
      },
    },
    { text: JSON.stringify([{ ...done, step_id: 1, params: { answer: 'The pane moved on; nothing approved.' } }]) },
  )
  const before = llm.requests.length
  const panel = await ava.ask(page, 'approve the $12.40 lunch expense')
  // The model has read the page (its listing names the lunch's Approve); the page moves on.
  await expect.poll(() => llm.requests.length, { timeout: 30_000 }).toBeGreaterThan(before)
  expect(idIn(llm.requests.at(-1)!.body)).not.toBe('')
  await page.evaluate(() => (window as unknown as { __next(): void }).__next())
  release()
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 60_000 })
  const steps = await readSteps(panel)
  expect(steps[0]?.status, JSON.stringify(steps)).not.toBe('ok')
  expect(await page.evaluate(() => (window as unknown as { __approved: string[] }).__approved)).toEqual([])
  await page.close()
})
