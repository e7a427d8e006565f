import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { instructionChunks, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * The run's tab gate follows the run, not the last cleanup (docs/security.md, "Leaving the site"):
 * runs whose tabs were stopped and closed leave their cleanups behind while the next runs start,
 * two at once, and each waits on a question while its page's own script downloads a program.
 * Nothing is saved in either tab. (The interleavings that lost a run its rules are pinned in
 * test/background/offsite-rules.test.ts; this is the same story in the browser.)
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const ask = {
  chunks: instructionChunks([
    { step_id: 1, action_type: 'ask', params: { question: 'Which account?' }, description: 'Ask' },
  ]),
}

async function open(path: string, downloads: string[]): Promise<Page> {
  const page = await w.ava.context.newPage()
  page.on('download', (d) => downloads.push(d.suggestedFilename()))
  await page.goto(`${w.site.url}${path}`)
  return page
}

it('runs started right after earlier runs were stopped and their tabs closed, two at once, keep their rules while their pages download a program', async () => {
  const downloads: string[] = []
  // Two earlier runs, each waiting on a question, then stopped and closed by the person.
  w.llm.script(ask, ask, ask, ask)
  const earlier = [await open('/', downloads), await open('/', downloads)]
  const panels = await Promise.all(earlier.map((p) => w.ava.ask(p, 'help me')))
  for (const panel of panels) await panel.locator('[data-test=ask]').waitFor({ timeout: 20_000 })
  await Promise.all(
    panels.map((panel) =>
      panel
        .locator('[data-test=stop]')
        .click()
        .catch(() => undefined),
    ),
  )
  await Promise.all(earlier.map((p) => p.close()))
  // The next two runs start at once, on pages that download a program by themselves.
  const next = await Promise.all([
    open('/redteam/late-download.html?after=4000', downloads),
    open('/redteam/late-download.html?after=4000', downloads),
  ])
  await Promise.all(next.map((p) => w.ava.ask(p, 'check my account')))
  // Each run stops on the blocked program; nothing is saved.
  await expect
    .poll(
      async () =>
        (JSON.stringify(await w.ava.storage('local')).match(/answered with a program to download/g) ?? []).length,
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(2)
  await next[0].waitForTimeout(1_000)
  expect(downloads).toEqual([])
}, 90_000)
