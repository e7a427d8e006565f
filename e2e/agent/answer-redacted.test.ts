import { expect, it } from 'vitest'
import { instructionChunks, sendAndWait, withAgentWorld, type AgentWorld } from '../support/ava'

/**
 * The model's answer passes the one redactor (docs/security.md, "The answer is redacted like the
 * page"): a vault value the model echoes back — spaced out in its prose, reversed in its `done`
 * answer — is hidden in the panel and in what the run keeps, whatever the page told it.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kCode = 'VAULT-7Q3X-91KD'
const folded = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '')

it('hides a secret the model echoes in its answer, in the panel and in the kept history', async () => {
  await w.ava.saveSecrets({ otp: { value: kCode } })
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/agent/save.html`)
  w.llm.script({
    chunks: [
      'The code is V A U L T - 7 Q ',
      '3 X - 9 1 K D. ',
      ...instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: 'Backwards: DK19-X3Q7-TLUAV.' } }]),
    ],
  })
  const panel = await w.ava.openPanel(page)
  await sendAndWait(panel, 'what is my code?')
  const shown = (await panel.locator('[data-role=assistant]').last().textContent()) ?? ''
  expect(shown).toContain('[redacted]')
  const kept = JSON.stringify(await w.ava.storage('local'))
  expect(kept).toContain('Backwards')
  for (const text of [shown, kept.replace(kCode, '')])
    for (const part of ['7q3x91kd', 'dk19x3q7', 'vault7q3x']) expect(folded(text)).not.toContain(part)
  await page.close()
})
