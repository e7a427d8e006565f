/**
 * One registry of questions (src/background/questions.ts), one answer: the same risky step — a
 * click on a "Delete account" button that deletes at once (e2e/fixtures/hostile/pack-risk.html) —
 * asked about the same way and decided the same way whether the model clicks it, the model calls a
 * pack action aimed at it, or the person types `/run` for that action. Then the setting that lets
 * the person's own commands skip risk questions (docs/settings.md, "Safety"): it skips `/run`'s
 * question, never the model's, and never one about another site's frame.
 */
import type { Frame, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { instructionChunks, launchAva, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let other: SiteServer

const configure = (skipOwnCommands: boolean) =>
  // No cache: each source's step is planned (or run) afresh, never replayed from an earlier trial.
  // This file compares the one step question across doors: `/run` shows its plan only where a step
  // would ask before it starts (the plan card every plan gets first is e2e/agent/every-plan.test.ts).
  ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    { agent: { stepLimit: 20, useCache: false }, safety: { skipOwnCommands, showPlans: 'asking' } },
  )

beforeAll(async () => {
  ;[ava, llm, site, other] = await Promise.all([
    launchAva(),
    startLlmServer(),
    startSiteServer(),
    startSiteServer({ host: 'localhost' }),
  ])
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), other?.close()])
})
beforeEach(async () => {
  llm.requests.length = 0
  llm.script()
  await configure(false)
})

type Source = 'agent' | 'pack' | '/run'
const kRun = '/run elementplus:dialog:open --trigger "Delete account"'

const deleted = (page: Page) => page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)

/** Starts the step from `source` on a fresh page; the panel it shows in. */
async function start(source: Source): Promise<{ page: Page; panel: Frame }> {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/pack-risk.html`)
  if (source === 'agent')
    llm.script({
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { fallback_selector: '#delete' }, description: 'Delete account' },
      ]),
    })
  if (source === 'pack')
    llm.script({
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'run_action',
          params: { action: 'elementplus:dialog:open', args: { trigger: 'Delete account' } },
          description: 'Delete account',
        },
      ]),
    })
  if (source === '/run') {
    const panel = await ava.openPanel(page)
    await pressSend(panel, kRun)
    return { page, panel }
  }
  return { page, panel: await ava.ask(page, 'delete my account') }
}

/** The pending question's card: its title, its question, and the buttons it offers. */
async function card(panel: Frame): Promise<{ title: string; question: string; buttons: string[] }> {
  const c = panel.locator('[data-test=confirm][data-state=pending]').last()
  await c.waitFor({ timeout: 20_000 })
  return {
    title: (await c.locator('strong').textContent()) ?? '',
    question: (await c.locator('[data-test=confirm-question]').textContent()) ?? '',
    buttons: await c.locator('button').allTextContents(),
  }
}

/**
 * Clicks `button` until `done` says it took. A panel that has just appeared refuses clicks until it
 * has been in plain view a moment (its click guard, docs/security.md): a person clicks again.
 */
async function clickUntil(button: Locator, done: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await done()) return true
        await button.click({ timeout: 1_000 }).catch(() => undefined)
        return done()
      },
      { timeout: 15_000, interval: 600 },
    )
    .toBe(true)
}

/** Answers the last pending card and waits until it shows the answer. */
async function answer(panel: Frame, allow: boolean): Promise<void> {
  const shown = panel.locator(`[data-test=confirm][data-state=${allow ? 'allowed' : 'denied'}]`)
  const before = await shown.count()
  await clickUntil(
    panel.locator(`[data-test=confirm][data-state=pending] [data-test=confirm-${allow ? 'allow' : 'deny'}]`).last(),
    async () => (await shown.count()) === before + 1,
  )
}

/** The question without the name of the step it is about (the model's description, or `/run …`). */
const what = (question: string) => question.replace(/^.*?(“|")/, '$1')

it('asks the same question about the same risky step from the model, a pack and /run, and does the same with Allow and with Deny', async () => {
  const seen: Record<string, string> = {}
  for (const source of ['agent', 'pack', '/run'] as const) {
    for (const allow of [false, true]) {
      const { page, panel } = await start(source)
      const c = await card(panel)
      expect(c.title).toBe('Allow this step?')
      expect(c.buttons).toEqual(['Allow', 'Cancel'])
      expect(c.question).toMatch(/Delete account/)
      seen[`${source} ${allow}`] = what(c.question)
      await answer(panel, allow)
      // Allow: the button the question named is clicked, once. Deny: nothing is.
      await expect.poll(() => deleted(page), { timeout: 15_000 }).toEqual(allow ? ['account'] : [])
      await page.waitForTimeout(300)
      expect(await deleted(page)).toEqual(allow ? ['account'] : [])
      // One question per step, whoever asked: nothing else is pending.
      expect(await panel.locator('[data-test=confirm][data-state=pending]').count()).toBe(0)
      await page.close()
    }
  }
  // What the question says about the step is the same words for every source.
  expect(new Set(Object.values(seen)).size, JSON.stringify(seen, null, 1)).toBe(1)
})

it('Stop closes a /run question as a no (the card says so, its buttons gone): nothing is clicked', async () => {
  const { page, panel } = await start('/run')
  await card(panel)
  const denied = await panel.locator('[data-test=confirm][data-state=denied]').count()
  await panel.evaluate(() => chrome.runtime.sendMessage({ ava: 1, name: 'panel→bg:run.stop', req: {} }))
  await expect
    .poll(() => panel.locator('[data-test=confirm][data-state=denied]').count(), { timeout: 15_000 })
    .toBe(denied + 1)
  expect(await deleted(page)).toEqual([])
  await page.close()
})

it('a question whose page was reloaded meanwhile: Allow acts on nothing in the new page, from the model and from /run alike', async () => {
  for (const source of ['agent', '/run'] as const) {
    const { page, panel } = await start(source)
    const c = await card(panel)
    // The page goes away under the open question (a reload: the same address, a new document).
    await page.reload()
    const after = await ava.panel(page, { timeout: 15_000 })
    const pending = after.locator('[data-test=confirm][data-state=pending]').last()
    await pending.waitFor({ timeout: 15_000 })
    expect(await pending.locator('[data-test=confirm-question]').textContent()).toBe(c.question)
    await answer(after, true)
    // The yes was bound to the element its card showed, which left with the old document.
    await page.waitForTimeout(1_000)
    expect(await deleted(page)).toEqual([])
    await page.close()
  }
})

it('a question is answered only in the tab that asked it: Allow in another tab of the same site is refused, saying where', async () => {
  const { page, panel } = await start('/run')
  await card(panel)
  // The same site's conversation, in a second tab: its panel shows the card too.
  const second = await ava.context.newPage()
  await second.goto(`${site.url}/hostile/pack-risk.html`)
  const elsewhere = await ava.openPanel(second)
  const refused = elsewhere.locator('[data-test=error]')
  await clickUntil(
    elsewhere.locator('[data-test=confirm][data-state=pending] [data-test=confirm-allow]').last(),
    async () =>
      /asked in another tab of this site; answer it there/.test(
        (await refused.textContent({ timeout: 200 }).catch(() => '')) ?? '',
      ),
  )
  await page.waitForTimeout(300)
  expect(await deleted(page)).toEqual([])
  expect(await deleted(second)).toEqual([])
  // Still open where it was asked.
  await answer(panel, false)
  expect(await deleted(page)).toEqual([])
  await second.close()
  await page.close()
})

it('with "don’t ask for my own commands" on, /run of the destructive step runs unasked; the model’s same step still asks', async () => {
  await configure(true)
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/pack-risk.html`)
  const panel = await ava.openPanel(page)
  const cards = await panel.locator('[data-test=confirm]').count()
  await pressSend(panel, kRun)
  await expect.poll(() => deleted(page), { timeout: 15_000 }).toEqual(['account'])
  // The run's answer comes (the pack then waits for a dialog this page never opens), with no card.
  await expect
    .poll(() => panel.locator('[data-role=assistant] [data-test=text]').last().textContent(), { timeout: 30_000 })
    .toMatch(/elementplus:dialog:open/)
  expect(await panel.locator('[data-test=confirm]').count()).toBe(cards)
  await page.close()
  for (const source of ['agent', 'pack'] as const) {
    const { page, panel } = await start(source)
    expect((await card(panel)).question).toMatch(/Delete account/)
    await answer(panel, false)
    expect(await deleted(page)).toEqual([])
    await page.close()
  }
})

// Pack and flow selectors reach the top document only (no frame piercing), so a `/run` step cannot
// land in another site's frame; the check on where it acts that it can meet is a form that leaves
// the site, which asks (`cross_site`) whatever the setting says.
it('with the setting on, a /run step that sends a form to another site still asks, naming that site', async () => {
  await configure(true)
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/offsite-save.html?other=${encodeURIComponent(other.url)}`)
  const panel = await ava.openPanel(page)
  await pressSend(panel, '/run elementplus:dialog:open --trigger "Save profile"')
  expect((await card(panel)).question).toMatch(/localhost/)
  await answer(panel, false)
  await page.waitForTimeout(300)
  expect(other.hits.filter((h) => h.path === '/exfil')).toEqual([])
  expect(page.url()).toContain('/hostile/offsite-save.html')
  await page.close()
})
