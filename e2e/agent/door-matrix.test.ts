/**
 * The door matrix of the doors where a person answers (docs/security.md, "Every door, one rule"),
 * in the built extension: the same risky steps sent by Ava's own model (the loopback model plays
 * it), by a pack action the model calls, and by the person's own `/run`, answered Allow and Deny
 * in the panel. One situation, one answer: a Deny ends the step as DENIED ("You said no"), never
 * "Cancelled by you" from one door and something else from another; nothing reached the site.
 * The command-line doors, where nobody answers, are in e2e/cli/door-matrix.test.ts.
 */
import type { Frame, Locator, Page } from 'playwright-core'
import { beforeEach, expect, it } from 'vitest'
import { instructionChunks, withTwoSites, readSteps, type Ava, pressSend } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let other: SiteServer
withTwoSites((w) => ({ ava, llm, site, other } = w))
beforeEach(async () => {
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    // The same step question at every door: `/run` shows its plan only where a step would ask before
    // it starts (the plan card every plan gets first is e2e/agent/every-plan.test.ts).
    { agent: { stepLimit: 20, useCache: false }, safety: { skipOwnCommands: false, showPlans: 'asking' } },
  )
})

type Door = 'agent' | 'pack' | '/run'

const deleted = (page: Page) => page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)

/** Sends the destructive click through `door` on a fresh page; the panel it asks in. */
async function destructive(door: Door): Promise<{ page: Page; panel: Frame; replies: number }> {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/pack-risk.html`)
  if (door === '/run') {
    const panel = await ava.openPanel(page)
    // The site's conversation goes on from the doors before: `/run`'s reply is the next one.
    const replies = await panel.locator('[data-role=assistant]').count()
    await pressSend(panel, '/run elementplus:dialog:open --trigger "Delete account"')
    return { page, panel, replies }
  }
  const step =
    door === 'agent'
      ? { step_id: 1, action_type: 'click', params: { fallback_selector: '#delete' }, description: 'Delete account' }
      : {
          step_id: 1,
          action_type: 'run_action',
          params: { action: 'elementplus:dialog:open', args: { trigger: 'Delete account' } },
          description: 'Delete account',
        }
  llm.script({ chunks: instructionChunks([step]) })
  return { page, panel: await ava.ask(page, 'delete my account'), replies: 0 }
}

/** Clicks until `done` says it took: a panel just shown refuses clicks a moment (its click guard). */
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

/** The pending card's question, then the answer given and shown. */
async function answer(panel: Frame, allow: boolean): Promise<string> {
  const pending = panel.locator('[data-test=confirm][data-state=pending]').last()
  await pending.waitFor({ timeout: 20_000 })
  const question = (await pending.locator('[data-test=confirm-question]').textContent()) ?? ''
  const shown = panel.locator(`[data-test=confirm][data-state=${allow ? 'allowed' : 'denied'}]`)
  const before = await shown.count()
  await clickUntil(
    panel.locator(`[data-test=confirm][data-state=pending] [data-test=confirm-${allow ? 'allow' : 'deny'}]`).last(),
    async () => (await shown.count()) === before + 1,
  )
  return question
}

/** What the door said when it ended: the step's detail for the model's run, `/run`'s reply (the conversation's `replies`-th). */
async function ending(panel: Frame, door: Door, replies = 0): Promise<string> {
  if (door === '/run') {
    const reply = panel.locator('[data-role=assistant]').nth(replies)
    await expect
      .poll(async () => (await reply.textContent()) ?? '', { timeout: 20_000 })
      .toMatch(/said no|failed|done|finished|ran/i)
    return (await reply.textContent()) ?? ''
  }
  await expect.poll(async () => (await readSteps(panel)).at(-1)?.status ?? '', { timeout: 20_000 }).toMatch(/ok|failed/)
  return (await readSteps(panel)).at(-1)!.detail
}

it('a destructive click from the model, a pack and /run: Deny is DENIED ("you said no") at every door, nothing done; Allow does it once', async () => {
  const questions = new Set<string>()
  for (const door of ['agent', 'pack', '/run'] as const) {
    for (const allow of [false, true]) {
      const { page, panel, replies } = await destructive(door)
      questions.add((await answer(panel, allow)).replace(/^.*?(“|")/, '$1'))
      await expect.poll(() => deleted(page), { timeout: 15_000 }).toEqual(allow ? ['account'] : [])
      if (!allow) {
        const said = await ending(panel, door, replies)
        expect(said, door).toMatch(/said no/i)
        expect(said, door).not.toMatch(/cancelled by you/i)
        // Said once: the label is not doubled in the refusal.
        expect(said, door).not.toMatch(/Delete account\W+Delete account/)
      } else {
        // The run ends before its page is closed (the pack goes on waiting for its dialog): a run
        // still going would say "the tab was closed" in the site's conversation, which the next
        // door's panel shows as its last reply.
        const stop = panel.locator('[data-test=stop]')
        await expect
          .poll(
            async () => {
              if (!(await stop.isVisible().catch(() => false))) return true
              await stop.click({ timeout: 1_000 }).catch(() => undefined)
              return false
            },
            { timeout: 15_000, interval: 600 },
          )
          .toBe(true)
      }
      await page.waitForTimeout(300)
      expect(await deleted(page)).toEqual(allow ? ['account'] : [])
      await page.close()
    }
  }
  // The same question at every door.
  expect(questions.size, [...questions].join('\n')).toBe(1)
})

it('a cross-site navigation by the model asks naming the site; Deny is DENIED and the tab stays; Allow goes', async () => {
  for (const allow of [false, true]) {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/pack-risk.html`)
    const before = other.hits.filter((h) => h.path === '/doors/offers.html').length
    llm.script({
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'navigate',
          params: { url: `${other.url}/doors/offers.html` },
          description: 'Open the offers',
        },
      ]),
    })
    const panel = await ava.ask(page, 'show me the partner offers')
    const pending = panel.locator('[data-test=confirm][data-state=pending]').last()
    await pending.waitFor({ timeout: 20_000 })
    expect(await pending.locator('[data-test=confirm-question]').textContent()).toContain('localhost')
    const went = () => other.hits.filter((h) => h.path === '/doors/offers.html').length > before
    // Allow takes the tab (and its panel) to the other site: the yes shows there, in the hits.
    if (allow) await clickUntil(pending.locator('[data-test=confirm-allow]'), async () => went())
    else await answer(panel, false)
    if (!allow) {
      const said = await ending(panel, 'agent')
      expect(said).toMatch(/said no/i)
      expect(other.hits.filter((h) => h.path === '/doors/offers.html').length).toBe(before)
      expect(page.url()).toContain('/hostile/pack-risk.html')
    } else expect(went()).toBe(true)
    await page.close()
  }
})

it('a password form through a pack the model calls: asked before its first step; Deny is DENIED with nothing typed, Allow signs in', async () => {
  // Bound to the site, as a password manager keeps a login.
  await ava.saveSecrets({ alice_pw: { value: 'wonderland', sites: [new URL(site.url).origin] } })
  for (const allow of [false, true]) {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/login`)
    const before = site.hits.filter((h) => h.path === '/login' && h.method === 'POST').length
    llm.script({
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'run_action',
          params: { action: 'common:auth:login', args: { username: 'alice', password: '${secret:alice_pw}' } },
          description: 'Log in',
        },
      ]),
    })
    const panel = await ava.ask(page, 'log me in')
    const pending = panel.locator('[data-test=confirm][data-state=pending]').last()
    await pending.waitFor({ timeout: 20_000 })
    // The question comes before the action's first step: nothing is typed while it waits.
    expect(await page.inputValue('#username')).toBe('')
    expect(await pending.locator('[data-test=confirm-question]').textContent()).toContain('alice_pw')
    const signedIn = () => site.hits.filter((h) => h.path === '/login' && h.method === 'POST').length > before
    if (allow) {
      // Allow (each question, as a person would): the login signs in; the panel goes with the page.
      await expect
        .poll(
          async () => {
            if (signedIn()) return true
            await panel
              .locator('[data-test=confirm][data-state=pending] [data-test=confirm-allow]')
              .last()
              .click({ timeout: 500 })
              .catch(() => undefined)
            return signedIn()
          },
          { timeout: 20_000, interval: 600 },
        )
        .toBe(true)
    } else {
      await answer(panel, false)
      const said = await ending(panel, 'agent')
      expect(said).toMatch(/you said no/i)
      expect(said).toMatch(/not started/)
      expect(await page.inputValue('#username')).toBe('')
      expect(await page.inputValue('#password')).toBe('')
      expect(signedIn()).toBe(false)
    }
    await page.close()
  }
})
