// A long answer streams without freezing the panel, and is kept whole up to a documented cap.
//How fast is the bench's business (bench/agent.ts, case long_answer_64k); these
// tests assert what a person sees and what is stored.
import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { kMaxAnswerChars } from '../../src/core/chat'
import { sendAndWait, withAgentWorld, type Ava, pressSend } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import { longMarkdownAnswer } from '../support/long-answer'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

type Stored = { messages: { role: string; text: string; hint?: string }[] }

async function storedAnswer(): Promise<{ text: string; hint?: string }> {
  const h = (await ava.storage('local'))[`history:${new URL(site.url).origin}`] as Stored
  return h.messages.filter((m) => m.role === 'assistant').at(-1)!
}

async function freshPanel(page: Page): Promise<Frame> {
  await page.goto(`${site.url}/about`)
  const panel = await ava.openPanel(page)
  if (await panel.locator('[data-test=clear]').count()) {
    // The panel's click guard acts on a click a moment after it lands (src/panel/visibility.ts):
    // wait until the chat is empty, or the old answer is taken for the new one.
    await panel.click('[data-test=clear]')
    await panel.locator('[data-test=clear]').waitFor({ state: 'detached' })
  }
  return panel
}

it('streams a 64 KB answer to the end, draws all of it, and stores it whole', async () => {
  const page = await ava.context.newPage()
  const panel = await freshPanel(page)
  const answer = longMarkdownAnswer()
  llm.script({ text: answer }) // 12-character deltas
  await sendAndWait(panel, 'explain the orders page at length', { timeout: 55_000 })
  // The stored history is the truth a reopened panel loads: the answer as streamed, nothing lost.
  expect((await storedAnswer()).text).toBe(answer)
  const last = panel.locator('[data-role=assistant]').last()
  // Every part's table and its last words reach the screen (drawn a frame at a time).
  await expect.poll(() => last.locator('table').count(), { timeout: 20_000 }).toBe(answer.split('| Item |').length - 1)
  await expect
    .poll(() => last.locator('h2').last().textContent())
    .toBe(`Part ${answer.split('## Part').length - 1}: what the page offers`)
  // Markdown without gaps: every inline link keeps its text, every ```json fence its block.
  const links = last.locator('a[href^="https://example.com/help/returns"]')
  expect(await links.count()).toBe(answer.match(/\]\(https:\/\/example\.com\/help\/returns\?order=\d+\)/g)!.length)
  expect(new Set(await links.allTextContents())).toEqual(new Set(['the returns guide']))
  expect(await last.locator('pre code.language-json').count()).toBe(answer.split('```json\n').length - 1)
  await page.close()
})

it('cuts an answer past the cap, keeps what fits, and says so in the panel', async () => {
  const page = await ava.context.newPage()
  const panel = await freshPanel(page)
  const answer = longMarkdownAnswer(kMaxAnswerChars + 20_000)
  llm.script({ text: answer, chunks: answer.match(/[\s\S]{1,400}/g)! })
  await sendAndWait(panel, 'explain everything, at even greater length', { timeout: 55_000 })
  const stored = await storedAnswer()
  expect(stored.text).toBe(answer.slice(0, kMaxAnswerChars))
  expect(stored.hint).toBe('ANSWER_CUT')
  expect(await panel.locator('[data-role=assistant]').last().locator('[data-test=hint]').textContent()).toBe(
    `The answer was longer than ${kMaxAnswerChars.toLocaleString('en')} characters; the rest is not shown.`,
  )
  await page.close()
})

it('shows the text streamed so far to a panel opened in the middle of the answer', async () => {
  const page = await ava.context.newPage()
  const panel = await freshPanel(page)
  const answer = longMarkdownAnswer(6_000)
  // Slow enough that the panel is reloaded well before the end.
  llm.script({ text: answer, chunks: answer.match(/[\s\S]{1,60}/g)!, chunkDelayMs: 40 })
  await pressSend(panel, 'explain slowly')
  await expect.poll(() => panel.locator('[data-role=assistant] h2').count()).toBeGreaterThan(0)
  await page.reload()
  const again = await ava.openPanel(page)
  await again.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  expect((await storedAnswer()).text).toBe(answer)
  await expect
    .poll(() => again.locator('[data-role=assistant]').last().locator('blockquote').count())
    .toBe(answer.split('\n> ').length - 1)
  await page.close()
})
