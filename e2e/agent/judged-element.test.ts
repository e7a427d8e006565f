import { expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { instructionChunks, readSteps, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * What the person approved is what runs, on pages that behave like an attacker:
 * the page changes what sits under a step while the question is open, or during Ava's own pointer
 * events, or draws a "Save" button as "Delete everything". Each must ask (again) or refuse; a
 * click on anything the person did not allow never happens.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const done = (text: string) => ({ step_id: 2, action_type: 'done', params: { text } })
const pending = '[data-test=confirm][data-state=pending]'
const clicked = (page: Page) => page.evaluate(() => (window as unknown as { __clicked: string[] }).__clicked)
const apiHits = (from: number) =>
  site.hits
    .slice(from)
    .filter((h) => h.path.startsWith('/api/'))
    .map((h) => h.path)

async function finished(panel: Frame): Promise<void> {
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
}

/** The listing's id of the "Delete draft" button, as a model that reads the listing writes target_id. */
const targetIdOf = (prompt: string): string => prompt.match(/\bbtn_delete_draft\w*/)?.[0] ?? ''

it.each([
  ['replaced', 'target_id'],
  ['relabelled', 'target_id'],
  ['moved', 'target_id'],
  ['covered', 'target_id'],
  ['replaced', 'selector'],
  ['relabelled', 'selector'],
])(
  'the page %s the allowed element while the question was open (%s): no click on what the person did not allow',
  async (kind, by) => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/swap.html`)
    const hitsBefore = site.hits.length
    let sentId = ''
    llm.script({
      from: (body) => {
        const prompt = String(body.messages.at(-1).content)
        sentId = targetIdOf(prompt)
        const params = by === 'target_id' ? { target_id: sentId } : { fallback_selector: '#draft' }
        return JSON.stringify([
          { step_id: 1, action_type: 'click', params, description: 'Delete the draft' },
          done('Done.'),
        ])
      },
    })
    // A request of its own per case: no cached plan of another case replays here.
    const panel = await ava.ask(page, `delete my draft, ${kind} by ${by}`)
    await panel.waitForSelector(pending, { timeout: 15_000 })
    if (by === 'target_id') expect(sentId).not.toBe('')
    expect(await panel.locator('article.confirm').last().textContent()).toMatch(/Delete draft/)
    await page.evaluate((k) => (window as unknown as { swap: Record<string, () => void> }).swap[k](), kind)
    const questions = await panel.locator('article.confirm').count()
    await panel.locator('[data-test=confirm-allow]').last().click()
    // Asked again about what it is now, or refused: either way, the person says no to anything new.
    const asked = panel.waitForFunction(
      (n) =>
        document.querySelectorAll('article.confirm').length > n &&
        !!document.querySelector('[data-test=confirm][data-state=pending]'),
      questions,
      { timeout: 30_000 },
    )
    const outcome = await Promise.race([asked.then(() => 'asked'), finished(panel).then(() => 'ended')])
    if (outcome === 'asked') {
      await panel.locator('[data-test=confirm-deny]').last().click()
      await finished(panel)
    } else {
      expect((await readSteps(panel))[0].status).not.toBe('ok')
    }
    expect(await clicked(page)).toEqual([])
    expect(apiHits(hitsBefore)).toEqual([])
    await page.close()
  },
)

it.each([['relabelled']])(
  'a pack step (run_action): the page %s the allowed element while the question was open; nothing else is clicked',
  async (kind) => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/swap.html`)
    const hitsBefore = site.hits.length
    // A second answer for the model's look after a failed step.
    llm.script(
      {
        chunks: instructionChunks([
          {
            step_id: 1,
            action_type: 'run_action',
            params: { action: 'elementplus:dialog:open', args: { trigger: 'Delete draft' } },
            description: 'Open the draft',
          },
          done('Done.'),
        ]),
      },
      { chunks: instructionChunks([{ ...done('Stopped.'), step_id: 1 }]) },
    )
    const panel = await ava.ask(page, `open my draft, ${kind} by a pack`)
    await panel.waitForSelector(pending, { timeout: 15_000 })
    expect(await panel.locator('article.confirm').last().textContent()).toMatch(/Delete draft/)
    await page.evaluate((k) => (window as unknown as { swap: Record<string, () => void> }).swap[k](), kind)
    const questions = await panel.locator('article.confirm').count()
    await panel.locator('[data-test=confirm-allow]').last().click()
    const asked = panel.waitForFunction(
      (n) =>
        document.querySelectorAll('article.confirm').length > n &&
        !!document.querySelector('[data-test=confirm][data-state=pending]'),
      questions,
      { timeout: 30_000 },
    )
    if ((await Promise.race([asked.then(() => 'asked'), finished(panel).then(() => 'ended')])) === 'asked') {
      await panel.locator('[data-test=confirm-deny]').last().click()
      await finished(panel)
    }
    expect(await clicked(page)).toEqual([])
    expect(apiHits(hitsBefore)).toEqual([])
    await page.close()
  },
)

it.each([['target_id'], ['selector']])(
  'an allowed element the page left alone is clicked on the yes, once (%s)',
  async (by) => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/swap.html`)
    const hitsBefore = site.hits.length
    llm.script({
      from: (body) => {
        const params =
          by === 'target_id'
            ? { target_id: targetIdOf(String(body.messages.at(-1).content)) }
            : { fallback_selector: '#draft' }
        return JSON.stringify([
          { step_id: 1, action_type: 'click', params, description: 'Delete the draft' },
          done('Done.'),
        ])
      },
    })
    const panel = await ava.ask(page, `delete my draft, untouched, by ${by}`)
    await panel.waitForSelector(pending, { timeout: 15_000 })
    const questions = await panel.locator('article.confirm').count()
    await panel.locator('[data-test=confirm-allow]').last().click()
    await finished(panel)
    expect(await panel.locator('article.confirm').count()).toBe(questions)
    expect(await clicked(page)).toEqual(['Delete draft'])
    expect(apiHits(hitsBefore)).toEqual(['/api/delete-draft'])
    await page.close()
  },
)

it.each([['pointerover'], ['pointerdown']])(
  'a page that turns "Save settings" into "Delete account" on %s does not get the delete clicked',
  async (on) => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/pointer-swap.html?on=${on}`)
    const hitsBefore = site.hits.length
    llm.script({
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { fallback_selector: '#save' }, description: 'Save the settings' },
        done('Saved.'),
      ]),
    })
    const panel = await ava.ask(page, `save my settings (${on})`)
    await finished(panel)
    expect(await clicked(page)).not.toContain('delete')
    expect(apiHits(hitsBefore)).not.toContain('/api/delete-account')
    const steps = await readSteps(panel)
    expect(steps[0].status).not.toBe('ok')
    await page.close()
  },
)

it.each([
  ['#after', '::after'],
  ['#bidi', 'U+202E'],
  ['#css-bidi', 'unicode-bidi: bidi-override'],
  ['#svg', 'an SVG symbol'],
  ['#svg-img', 'an SVG image'],
  ['#overlay', 'an overlay'],
])('a "Save" button drawn as "Delete everything" (%s, %s) asks first; denied, nothing is clicked', async (selector) => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/drawn.html`)
  const hitsBefore = site.hits.length
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { fallback_selector: selector }, description: 'Save the document' },
      done('Saved.'),
    ]),
  })
  const panel = await ava.ask(page, `save the document with ${selector}`)
  await panel.waitForSelector(pending, { timeout: 15_000 })
  // The question names what the person sees.
  expect(await panel.locator('article.confirm').last().textContent()).toMatch(/Delete everything.*may delete something/)
  await panel.locator('[data-test=confirm-deny]').last().click()
  await finished(panel)
  expect(await clicked(page)).toEqual([])
  expect(apiHits(hitsBefore)).toEqual([])
  await page.close()
})
