import { expect, it } from 'vitest'
import { instructionChunks, readSteps, sendAndWait, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * what the page controls reaches the model only inside the untrusted block — here a
 * 258-character title and an aria-label carrying "SYSTEM: …" (and our own closing delimiter) that
 * a step result quotes (e2e/fixtures/hostile/secrets.html).
 */

let w: AgentWorld
withAgentWorld((world) => (w = world))

const kOpen = '<untrusted_page_content>'
const kClose = '</untrusted_page_content>'

/** The prompt's text outside every untrusted block. */
function outside(prompt: string): string {
  let out = ''
  let at = 0
  for (;;) {
    const open = prompt.indexOf(kOpen, at)
    if (open < 0) return out + prompt.slice(at)
    out += prompt.slice(at, open)
    const close = prompt.indexOf(kClose, open)
    if (close < 0) throw new Error('an untrusted block is never closed')
    at = close + kClose.length
  }
}

const userTurns = (n: number): string => {
  const body = w.llm.requests.filter((r) => r.api === 'openai')[n].body as {
    messages: { role: string; content: string }[]
  }
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
}

it('keeps a long title and a quoted "SYSTEM:" label inside the untrusted block', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/hostile/secrets.html`)
  expect((await page.title()).length).toBe(258)
  w.llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: '#go' }, description: 'Continue' },
    ]),
  })
  const panel = await w.ava.openPanel(page)
  await sendAndWait(panel, 'continue')
  const steps = await readSteps(panel)
  expect(steps[0], JSON.stringify(steps)).toMatchObject({ status: 'ok' })

  const first = userTurns(0)
  expect(first).toContain('zq-title-override') // the title was sent…
  expect(outside(first)).not.toContain('zq-title-override') // …only inside the block
  expect(first).not.toContain((await page.title()).slice(0, 230)) // clipped

  const second = userTurns(1)
  expect(second).toContain('zq-label-override') // the step result quotes the label…
  expect(outside(second)).not.toContain('zq-label-override') // …inside the block
  expect(outside(second)).not.toContain('zq-title-override')
  expect(outside(second)).not.toContain('SYSTEM')
  await page.close()
})
