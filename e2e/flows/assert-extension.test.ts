import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import type { Flow } from '../../src/core/flows'
import { launchAva, type Ava } from '../support/ava'
import { startFixtureServer, type FixtureServer } from '../executor/server'
import { centre } from './harness'
import { approvePlanCard } from '../support/plan-card'

// "Check this" through the built extension: record from the panel, Alt+click what
// should be there, save, and replay from the panel — passing as recorded, and failing with the
// expected-vs-actual message on a page whose Save reports an error instead.

let ava: Ava
let server: FixtureServer

beforeAll(async () => {
  ;[ava, server] = await Promise.all([launchAva(), startFixtureServer()])
})
afterAll(async () => {
  await ava?.close()
  await server?.close()
})

async function open(path: string): Promise<{ page: Page; panel: Frame }> {
  const page = await ava.context.newPage()
  await page.goto(server.url(path))
  await page.waitForFunction(() => (window as any).__state !== undefined)
  const panel = await ava.openPanel(page)
  await panel.waitForSelector('[data-test=recordbar]')
  return { page, panel }
}

async function replay(panel: Frame): Promise<{ success: boolean; failed: string; details: string[] }> {
  await panel.waitForSelector('[data-test=flow-select]')
  const id = await panel
    .locator('[data-test=flow-select] option', { hasText: 'Save and check' })
    .first()
    .getAttribute('value')
  await panel.selectOption('[data-test=flow-select]', id!)
  await panel.click('[data-test=flow-replay]')
  await approvePlanCard(panel)
  const result = panel.locator('[data-test=flow-result]')
  await result.waitFor({ timeout: 30_000 })
  const failed = (await result.locator('[data-test=flow-step].failed').allTextContents()).join('\n')
  return {
    success: (await result.getAttribute('data-success')) === 'true',
    failed,
    details: await result.locator('[data-test=flow-step-detail]').allTextContents(),
  }
}

describe('check this, from the panel', () => {
  test('Alt+click records a check; the panel shows it, saves it, and its replay checks the page', async () => {
    const { page, panel } = await open('/plain.html')
    await panel.click('[data-test=record]')
    await panel.waitForSelector('[data-test=flow-check-hint]')
    await page.mouse.click(...(await centre(page, '#user')))
    await page.keyboard.type('alice')
    await page.mouse.click(...(await centre(page, '#save')))
    await page.keyboard.down('Alt')
    await page.mouse.click(...(await centre(page, '#status')))
    await page.keyboard.up('Alt')
    await page.waitForTimeout(300) // the recorder's events reach the background one message each
    await panel.click('[data-test=record]')
    await panel.waitForSelector('[data-test=flow-draft]')
    expect(await panel.locator('[data-test=draft-check]').allTextContents()).toEqual(['Saved 1 times'])
    expect(await panel.locator('[data-test=flow-no-checks]').count()).toBe(0)
    await panel.fill('[data-test=flow-name]', 'Save and check')
    await panel.click('[data-test=flow-save]')
    await panel.waitForSelector('[data-test=flow-saved]')
    const saved = ((await ava.storage('local'))['flows.saved'] ?? {}) as Record<string, { flow: Flow }>
    expect(saved['recorded:flow:save-and-check'].flow.steps.map((s) => [s.action, s.params])).toEqual([
      ['fill', { value: '${user_name}' }],
      ['click', {}],
      ['verify', { text: 'Saved 1 times' }],
    ])
    expect((await page.evaluate(() => (window as any).__state)).saved).toBe(1)
    await page.close()

    const again = await open('/plain.html')
    const ok = await replay(again.panel)
    expect(ok).toMatchObject({ success: true, failed: '' })
    expect(ok.details).toEqual(['Checked: css:#status shows "Saved 1 times"'])
    await again.page.close()

    const broken = await open('/plain.html')
    await broken.page.evaluate(() => {
      document.getElementById('save')!.onclick = () =>
        void (document.getElementById('status')!.textContent = 'Error: not saved')
    })
    const bad = await replay(broken.panel)
    expect(bad.success).toBe(false)
    // The person reads the code's sentence from the locale table; the page's English is behind Details.
    const sentence = await broken.panel
      .locator('[data-test=flow-step].failed [data-test=flow-step-failure]')
      .evaluate((el) => el.firstChild?.textContent?.trim())
    expect(sentence).toBe('Step 3 failed: the page does not show what was expected.')
    expect(bad.failed).toContain(
      'VERIFY_FAILED: Check failed: expected css:#status to show "Saved 1 times", but it shows "Error: not saved".',
    )
    await broken.page.close()
  })

  test('a draft without a check is flagged before it is saved', async () => {
    const { page, panel } = await open('/plain.html')
    await panel.click('[data-test=record]')
    await panel.waitForSelector('[data-test=recording]')
    await page.mouse.click(...(await centre(page, '#save')))
    await page.waitForTimeout(300)
    await panel.click('[data-test=record]')
    await panel.waitForSelector('[data-test=flow-draft]')
    expect(await panel.locator('[data-test=flow-no-checks]').textContent()).toContain('checks nothing')
    await panel.click('[data-test=flow-discard]')
    await page.close()
  })
})
