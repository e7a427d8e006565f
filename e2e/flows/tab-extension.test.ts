import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Frame } from 'playwright-core'
import { launchAva, type Ava } from '../support/ava'
import { startFixtureServer, type FixtureServer } from '../executor/server'
import { approvePlanCard } from '../support/plan-card'

// The `tab` step through the built extension: the panel's Replay clicks a target=_blank
// link (the background opens it: a script's click would meet the popup blocker), stays on its tab
// for the next check, then moves to the new tab with a `tab` step and checks the receipt there.

let ava: Ava
let server: FixtureServer

const shell = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`
const css = (value: string) => ({ primary: { type: 'css', value: `css:${value}` }, fallback: [] })

beforeAll(async () => {
  ;[ava, server] = await Promise.all([launchAva(), startFixtureServer()])
  server.page(
    '/tab-orders.html',
    shell(
      'Orders',
      '<h1>Orders</h1><p id="who">Orders of Ann</p><a href="/tab-receipt.html?order=742" target="_blank" id="receipt">Receipt</a>',
    ),
  )
  server.page('/tab-receipt.html', shell('Receipt', '<h1>Receipt</h1><p id="total">Order 742: 19.90 EUR</p>'))
})
afterAll(async () => {
  await ava?.close()
  await server?.close()
})

async function replay(panel: Frame, name: string): Promise<{ success: boolean; failed: string; details: string[] }> {
  await panel.waitForSelector('[data-test=flow-select]')
  const id = await panel.locator('[data-test=flow-select] option', { hasText: name }).first().getAttribute('value')
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

describe('tab steps from the panel', () => {
  test('a link to a new tab, a check on the first tab, then tab and a check on the receipt', async () => {
    const steps = [
      { action: 'click', params: {}, selectors: css('#receipt') },
      { action: 'verify', params: { text: 'Orders of Ann' } },
      { action: 'tab', params: {} },
      { action: 'verify', params: { url: '*/tab-receipt.html?order=742' } },
      { action: 'expect', params: { text: '19.90 EUR' }, selectors: css('#total') },
    ].map((s, i) => ({ step_id: i + 1, ...s }))
    const flow = {
      version: '1.0',
      metadata: { name: 'Receipt tab', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' },
      variables: {},
      steps,
    }
    const entry = {
      id: 'recorded:flow:receipt-tab',
      namespace: 'recorded',
      action: 'recorded:flow:receipt-tab',
      flow,
      savedAt: Date.now(),
      pending: [],
    }
    await (await ava.worker()).evaluate((e) => chrome.storage.local.set({ 'flows.saved': { [e.id]: e } }), entry)
    const page = await ava.context.newPage()
    await page.goto(server.url('/tab-orders.html'))
    const panel = await ava.openPanel(page)
    await panel.waitForSelector('[data-test=recordbar]')
    const r = await replay(panel, 'Receipt tab')
    expect(r, r.failed).toMatchObject({ success: true, failed: '' })
    // The panel lists what each check saw: the orders on the first tab, then the receipt's address and total.
    expect(r.details).toEqual([
      'Checked: the page shows "Orders of Ann"',
      'Checked: the address matches "*/tab-receipt.html?order=742"',
      'Checked: css:#total shows "19.90 EUR"',
    ])
    // The receipt opened once: the background opened it, the page's own click did not open a second.
    expect(ava.context.pages().filter((p) => p.url().includes('tab-receipt')).length).toBe(1)
  })
})
