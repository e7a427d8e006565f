import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { parse as parseRecording } from '@puppeteer/replay'
import { toDevTools, type Flow } from '../../src/core/flows'
import { validatePack } from '../../src/core/registry'
import { launchAva, type Ava } from '../support/ava'
import { startFixtureServer, type FixtureServer } from '../executor/server'
import { centre, fillAndSave } from './harness'
import { ambiguous, redesigned, withoutSave } from './pages'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { answerPlanCard, approvePlanCard } from '../support/plan-card'

// The built extension in Chromium: the person records from the panel while driving the page with
// mouse and keyboard, saves the flow, and replays it from the panel on changed pages.

let ava: Ava
let server: FixtureServer
let llm: LlmServer

beforeAll(async () => {
  ;[ava, server, llm] = await Promise.all([launchAva(), startFixtureServer(), startLlmServer()])
  server.page('/plain-redesigned.html', redesigned())
  server.page('/plain-ambiguous.html', ambiguous())
  server.page('/plain-without-save.html', withoutSave())
})
afterAll(async () => {
  await ava?.close()
  await server?.close()
  await llm?.close()
})

async function open(path: string): Promise<{ page: Page; panel: Frame }> {
  const page = await ava.context.newPage()
  await page.goto(server.url(path))
  await page.waitForFunction(() => (window as any).__state !== undefined)
  const panel = await ava.openPanel(page)
  await panel.waitForSelector('[data-test=recordbar]')
  return { page, panel }
}

async function record(page: Page, panel: Frame, act: () => Promise<void>, name: string): Promise<void> {
  await panel.click('[data-test=record]')
  await panel.waitForSelector('[data-test=recording]')
  await act()
  await page.waitForTimeout(300)
  await panel.click('[data-test=record]')
  await panel.waitForSelector('[data-test=flow-draft]')
  await panel.fill('[data-test=flow-name]', name)
  await panel.click('[data-test=flow-save]')
  await panel.waitForSelector('[data-test=flow-saved]')
}

/** Replays a saved flow from the panel; `answer` is given to the question its risky step asks in the chat. */
async function replay(
  panel: Frame,
  name: string,
  asks: Record<string, string> = {},
  answer?: 'allow' | 'deny',
): Promise<{ success: boolean; steps: { level: string; alternative: string }[] }> {
  await panel.waitForSelector('[data-test=flow-select]')
  const id = await panel.locator('[data-test=flow-select] option', { hasText: name }).first().getAttribute('value')
  await panel.selectOption('[data-test=flow-select]', id!)
  for (const [k, v] of Object.entries(asks)) await panel.fill(`[data-test=flow-ask-${k}]`, v)
  await panel.click('[data-test=flow-replay]')
  // Its plan card first (every element it will act on, as drawn): a no leaves the page untouched.
  if (answer === 'deny') {
    await answerPlanCard(panel, { allow: false })
    await expect.poll(() => panel.textContent('[data-test=flow-error-line]')).toContain('was not replayed')
    return { success: false, steps: [] }
  }
  await approvePlanCard(panel)
  const result = panel.locator('[data-test=flow-result]')
  // `allow`: any question a step still asks (one the plan did not show) is allowed too.
  if (answer === 'allow')
    await expect
      .poll(
        async () => {
          const pending = panel.locator('[data-test=confirm][data-state=pending] [data-test=confirm-allow]')
          if (await pending.count())
            await pending
              .last()
              .click({ timeout: 1_000 })
              .catch(() => undefined)
          return result.count()
        },
        { timeout: 30_000, interval: 600 },
      )
      .toBeGreaterThan(0)
  await result.waitFor({ timeout: 30_000 })
  const steps = await result.locator('[data-test=flow-step]').evaluateAll((els) =>
    els.map((e) => ({
      level: e.getAttribute('data-level') ?? '',
      alternative: e.getAttribute('data-alternative') ?? '',
    })),
  )
  return { success: (await result.getAttribute('data-success')) === 'true', steps }
}

async function savedFlows(): Promise<Record<string, { flow: Flow; action: string }>> {
  return ((await ava.storage('local'))['flows.saved'] ?? {}) as Record<string, { flow: Flow; action: string }>
}

describe('record from the panel, replay from the panel', () => {
  test('a recording on the plain page becomes a flow and a valid pack action', async () => {
    const { page, panel } = await open('/plain.html')
    await record(page, panel, () => fillAndSave(page), 'Sign up')
    const flows = await savedFlows()
    const entry = flows['recorded:flow:sign-up']
    expect(entry.flow.steps.map((s) => s.action)).toEqual(['fill', 'fill', 'select', 'check', 'click'])
    const packs = (await ava.storage('local'))['packs.user'] as Record<string, { text: string }>
    const check = validatePack(packs.recorded.text)
    expect(check.issues.filter((i) => i.severity === 'error')).toEqual([])
    expect(Object.keys(check.pack!.actions)).toEqual(['flow:sign-up'])
    await page.close()
  })

  test('a menu that opens on hover is recorded as a hover before the click, and replays', async () => {
    const { page, panel } = await open('/plain.html')
    await record(
      page,
      panel,
      async () => {
        await page.hover('#menu')
        await page.click('#submenu a')
      },
      'Open laptops',
    )
    const entry = Object.values(await savedFlows()).find((e) => e.flow.metadata.name === 'Open laptops')!
    expect(entry.flow.steps.map((s) => s.action)).toEqual(['hover', 'click'])
    expect(entry.flow.steps[0].element_snapshot?.text ?? '').toMatch(/^Products/)
    await page.close()

    // On a fresh page the pointer is nowhere near the menu: the replay hovers it, then clicks.
    const fresh = await open('/plain.html')
    const r = await replay(fresh.panel, 'Open laptops')
    expect(r.success).toBe(true)
    expect(await fresh.page.evaluate(() => location.hash)).toBe('#laptops')
    expect(await fresh.page.evaluate(() => (window as any).__state.hovered)).toBeGreaterThanOrEqual(1)
    await fresh.page.close()
  })

  test('a button that only restyles on hover is recorded as a click alone', async () => {
    const { page, panel } = await open('/plain.html')
    await page.evaluate(() => {
      const save = document.getElementById('save')!
      save.addEventListener('mouseenter', () => save.classList.add('is-hovered'))
    })
    await record(page, panel, () => page.click('#save'), 'Just save')
    const entry = Object.values(await savedFlows()).find((e) => e.flow.metadata.name === 'Just save')!
    expect(entry.flow.steps.map((s) => s.action)).toEqual(['click'])
    await page.close()
  })

  test('after a redesign the replay passes and each step reports the selector level that matched', async () => {
    const { page, panel } = await open('/plain-redesigned.html')
    const r = await replay(panel, 'Sign up')
    expect(r.success).toBe(true)
    expect(r.steps).toEqual(Array(5).fill({ level: 'role', alternative: '0' }))
    expect(await page.evaluate(() => (window as any).__state)).toMatchObject({
      user: 'alice',
      country: 'jp',
      subscribe: true,
      saved: 1,
    })
    await page.close()
  })

  test('with two identical Save buttons the replay stops at that step and clicks neither', async () => {
    const { page, panel } = await open('/plain-ambiguous.html')
    const r = await replay(panel, 'Sign up')
    expect(r.success).toBe(false)
    expect(await panel.locator('[data-test=flow-step].failed').textContent()).toContain('AMBIGUOUS')
    expect((await page.evaluate(() => (window as any).__state)).saved).toBe(0)
    await page.close()
  })

  test('when the target is gone, the configured model repairs that one step and the fix is offered for review', async () => {
    await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
    llm.script({ text: '{"selector": {"type": "role", "value": "role:button[name=\\"Double me\\"]"}}' })
    const { page, panel } = await open('/plain-without-save.html')
    const r = await replay(panel, 'Sign up')
    expect(r.success).toBe(true)
    expect(r.steps.at(-1)).toMatchObject({ alternative: '-1' }) // -1: the repaired selector
    expect(llm.requests).toHaveLength(1) // one call, for that step only
    expect(JSON.stringify(llm.requests[0].body)).toContain('Candidates')
    await panel.waitForSelector('[data-test=heal] [data-test=heal-accept]')
    expect(await panel.textContent('[data-test=heal-diff]')).toContain('Double me')
    await page.close()
  })

  test('a password typed while recording is never written: not in storage, the pack, the history or the DevTools export', async () => {
    const { page, panel } = await open('/ep-login.html')
    await record(
      page,
      panel,
      async () => {
        await page.mouse.click(...(await centre(page, 'input[name=username]')))
        await page.keyboard.type('alice', { delay: 5 })
        await page.mouse.click(...(await centre(page, 'input[name=password]')))
        await page.keyboard.type('wonderland', { delay: 5 })
        await page.mouse.click(...(await centre(page, 'button.el-button--primary')))
        await page.getByText('Welcome, alice').waitFor()
      },
      'EP login',
    )
    const entry = (await savedFlows())['recorded:flow:ep-login']
    expect(entry.flow.variables.password).toEqual({
      secret: true,
      value: '${prompt:Password}',
      description: 'Password',
    })
    const everything = JSON.stringify([await ava.storage('local'), await ava.storage('session')])
    expect(everything).not.toContain('wonderland')
    const exported = JSON.stringify(toDevTools(entry.flow))
    expect(exported).not.toContain('wonderland')
    expect(parseRecording(JSON.parse(exported)).steps.length).toBeGreaterThan(3)
    await page.close()

    // Replayed with the password asked for in the panel: used once, still written nowhere. The
    // replay asks first in the chat, with its plan card, as a person's pack run does.
    const denied = await open('/ep-login.html')
    expect((await replay(denied.panel, 'EP login', { password: 'wonderland' }, 'deny')).success).toBe(false)
    expect(await denied.panel.locator('[data-test=confirm]').last().getAttribute('data-state')).toBe('denied')
    expect(await denied.page.getByText('Welcome, alice').count()).toBe(0)
    await denied.page.close()
    const again = await open('/ep-login.html')
    const r = await replay(again.panel, 'EP login', { password: 'wonderland' }, 'allow')
    expect(r.success).toBe(true)
    await again.page.getByText('Welcome, alice').waitFor()
    expect(JSON.stringify([await ava.storage('local'), await ava.storage('session')])).not.toContain('wonderland')
    await again.page.close()
  })
})
