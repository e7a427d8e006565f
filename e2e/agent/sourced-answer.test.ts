/**
 * Answers that show their sources (docs/sourced-answers.md) in the built extension: the scripted model
 * answers from the shop page with one claim that names the listed element it read and one number
 * the page never showed; the panel marks the first as read from that element and flags the
 * invented number, and the claim without a source says so.
 */
import { expect, it } from 'vitest'
import { withAgentWorld, type AgentWorld } from '../support/ava'

let w: AgentWorld
withAgentWorld((world) => (w = world))

/**
 * An id the listing gave the Blue mug card's Save button, read off the prompt as a model reads
 * it: a keyed line `20 "Blue mug ¥20": btn_add_to_cart_ btn_save_` writes btn_save_near_20.
 */
function blueMugId(body: { messages: { role: string; content: string }[] }): string {
  const prompt = body.messages.filter((m) => m.role === 'user').at(-1)!.content
  const keyed = /^\s*(\S+) "Blue mug[^"\n]*": [^\n]*\b(btn_save_)(?=\s|$)/m.exec(prompt)
  if (keyed) return `${keyed[2]}near_${keyed[1]}`
  const whole = /\b(btn_save_near_\S+)/.exec(prompt.slice(prompt.indexOf('Blue mug')))
  if (whole) return whole[1]
  throw new Error(`no id of the Blue mug card in the prompt:\n${prompt.slice(0, 4000)}`)
}

it('marks a claim read from a listed element and flags a number the page never showed', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/agent/shop.html`)
  await page.waitForSelector('.card')
  let source = ''
  w.llm.script({
    from: (body) => {
      source = blueMugId(body)
      return JSON.stringify([
        {
          step_id: 1,
          action_type: 'done',
          params: {
            answer: 'The Blue mug costs ¥20, and 3,400 of them were sold last week.',
            claims: [
              { text: 'The Blue mug costs ¥20.', sources: [source] },
              { text: '3,400 of them were sold last week.', sources: [] },
            ],
          },
        },
      ])
    },
  })
  const panel = await w.ava.ask(page, 'how much is the blue mug and how many were sold?')
  const answer = panel.locator('[data-role=assistant]').last()
  await answer.locator('[data-test=usage]').waitFor({ timeout: 90_000 })

  const unread = answer.locator('[data-test=unread]')
  await expect.poll(() => unread.textContent()).toContain('3,400')
  // ¥20 was on the page: only the invented number is flagged.
  expect(await unread.textContent()).not.toContain('20')

  const claims = answer.locator('[data-test=claim]')
  expect(await claims.count()).toBe(2)
  expect(await claims.nth(0).getAttribute('data-status')).toBe('sourced')
  expect(await claims.nth(0).textContent()).toContain(source)
  expect(await claims.nth(1).getAttribute('data-status')).toBe('unsourced')
  expect(await claims.nth(1).textContent()).toContain('no source on the page')

  // Hovering the sourced claim outlines its element on the page, and only it; leaving clears it.
  const outlines = page.locator('[data-ava-ui="observe-overlay"] > div')
  await claims.nth(0).hover()
  await expect.poll(() => outlines.count()).toBe(1)
  expect(await outlines.first().textContent()).toBe(source)
  await claims.nth(1).hover()
  await expect.poll(() => outlines.count()).toBe(0)
  await page.close()
}, 120_000)
