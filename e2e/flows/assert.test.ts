import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import {
  parseFlow,
  replayFlow,
  validateFlow,
  type FlowPort,
  type FlowSelectors,
  type FlowStep,
  type StepOutcome,
} from '../../src/core/flows'
import { centre, startFlowHarness, startRecorder, state, stopRecorder, type FlowHarness } from './harness'
import { injectFlows } from './bundle'

// In real Chromium: every kind of check on the fixture app's plain page, a failing
// check naming what was expected and what is there, extract / go_back / tab across real documents,
// and "check this" picked with Alt+click while recording.

let h: FlowHarness
beforeAll(async () => {
  h = await startFlowHarness()
  const shell = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`
  h.server.page(
    '/assert-orders.html',
    shell(
      'Orders',
      '<h1>Orders</h1><a href="/assert-order-742.html">Order 742</a> <a href="/assert-order-742.html" target="_blank" id="receipt">Receipt</a>',
    ),
  )
  h.server.page(
    '/assert-order-742.html',
    shell('Order 742', '<h1>Order #742</h1><p>Status: <b id="status">Shipped</b></p>'),
  )
})
afterAll(() => h.close())

const css = (value: string): FlowSelectors => ({ primary: { type: 'css', value: `css:${value}` }, fallback: [] })
const meta = { name: 'checks', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' as const }
const flow = (steps: Omit<FlowStep, 'step_id'>[], variables = {}) =>
  parseFlow({ version: '1.0', metadata: meta, variables, steps: steps.map((s, i) => ({ step_id: i + 1, ...s })) })

/**
 * A FlowPort on a whole browser context, as the extension's and `ava run`'s are: a step whose
 * document goes away under it (a Back, a link) is done once the next document has loaded, the
 * page code is injected into every new document, and `tab` moves to another page of the context.
 */
function contextPort(first: Page): FlowPort & { page(): Page } {
  let page = first
  return {
    page: () => page,
    async runStep(step, opts) {
      for (let attempt = 0; ; attempt++) {
        try {
          await injectFlows(page)
          return (await page.evaluate(
            ([s, o]) => (window as any).__avaFlows.runFlowStep(s, o) as Promise<StepOutcome>,
            [step, opts] as const,
          )) as StepOutcome
        } catch (e) {
          if (!/Execution context was destroyed|navigat/i.test(String(e)) || attempt > 2) throw e
          await page.waitForLoadState('load')
          // As the senders do (mayNavigate): a step that navigates did its job; any other goes to the new page.
          if (['click', 'dblclick', 'press', 'go_back'].includes(step.action))
            return { ok: true, level: null, alternative: 0, resolveMs: 0, actMs: 0, detail: 'The page navigated' }
        }
      }
    },
    navigate: async (url) => void (await page.goto(url)),
    url: async () => page.url(),
    async switchTab(to) {
      // A tab a click opened may reach the context a moment after the click's answer.
      if (to.index === undefined && to.url === undefined && page.context().pages().length === 1)
        await page.context().waitForEvent('page', { timeout: 10_000 })
      const pages = page.context().pages()
      const next =
        to.index !== undefined
          ? pages[to.index]
          : to.url !== undefined
            ? pages.find((p) => p.url().includes(to.url!.replaceAll('*', '')))
            : pages[pages.length - 1]
      if (!next) throw new Error('no such tab')
      page = next
      await page.waitForLoadState('load')
      return { url: page.url() }
    },
  }
}

describe('checks that hold', () => {
  test('text, url, every state, value and count, after the actions they check; extract returns', async () => {
    const page = await h.open('/plain.html')
    const f = flow([
      { action: 'fill', params: { value: 'alice' }, selectors: css('#user') },
      { action: 'check', params: {}, selectors: css('#subscribe') },
      { action: 'click', params: {}, selectors: css('#save') },
      { action: 'verify', params: { text: 'Saved 1 times' } },
      { action: 'expect', params: { text: 'saved 1' }, selectors: css('#status') },
      { action: 'verify', params: { url: '*/plain.html' } },
      { action: 'verify', params: { state: 'checked' }, selectors: css('#subscribe') },
      { action: 'verify', params: { state: 'unchecked' }, selectors: css('input[value=free]') },
      { action: 'verify', params: { state: 'disabled' }, selectors: css('#locked') },
      { action: 'verify', params: { state: 'enabled' }, selectors: css('#save') },
      { action: 'verify', params: { state: 'visible' }, selectors: css('#save') },
      { action: 'verify', params: { state: 'hidden' }, selectors: css('#ghost') },
      { action: 'verify', params: { state: 'hidden' }, selectors: css('#no-such-thing') },
      { action: 'verify', params: { value: 'alice' }, selectors: css('#user') },
      { action: 'verify', params: { count: 2 }, selectors: css('#items li') },
      { action: 'extract', params: { name: 'status' }, selectors: css('#status') },
      { action: 'extract', params: { name: 'link', attribute: 'href' }, selectors: css('#next-link') },
    ])
    const r = await replayFlow(f, { port: contextPort(page), navigateToStart: false })
    expect(r.error).toBeUndefined()
    expect(r.returns).toEqual({ status: 'Saved 1 times', link: '#next' })
    expect(r.steps.find((s) => s.step_id === 7)?.detail).toBe('Checked: "Subscribe to news" is checked')
    expect((await state(page)).saved).toBe(1)
  })

  test('a check that is false at first holds once the page shows it (the late button of the fresh page)', async () => {
    const page = await h.open('/plain.html')
    const r = await replayFlow(flow([{ action: 'verify', params: { text: 'Late button' } }]), {
      port: contextPort(page),
      navigateToStart: false,
    })
    expect(r.error).toBeUndefined()
  })
})

describe('checks that fail', () => {
  test('the replay fails with VERIFY_FAILED, naming what was expected and what is there', async () => {
    const page = await h.open('/plain.html')
    const cases: [Omit<FlowStep, 'step_id'>, string][] = [
      [
        { action: 'verify', params: { value: 'bob' }, selectors: css('#user') },
        'Check failed: expected "User name" to have the value "bob", but it is "alice".',
      ],
      [
        { action: 'verify', params: { state: 'checked' }, selectors: css('#subscribe') },
        'Check failed: expected "Subscribe to news" to be checked, but it is unchecked.',
      ],
      [
        { action: 'verify', params: { state: 'enabled' }, selectors: css('#locked') },
        'Check failed: expected "Locked" to be enabled, but it is disabled.',
      ],
      [
        { action: 'verify', params: { count: 3 }, selectors: css('#items li') },
        'Check failed: expected 3 visible element(s) matching css:#items li, but there are 2.',
      ],
      [
        { action: 'verify', params: { url: '*/dashboard' } },
        `Check failed: expected the address to match "*/dashboard", but it is "${h.server.url('/plain.html')}".`,
      ],
      [
        { action: 'verify', params: { state: 'visible' }, selectors: css('#no-such-thing') },
        'Check failed: expected css:#no-such-thing to be visible, but no element matches the selectors.',
      ],
    ]
    for (const [check, message] of cases) {
      const r = await replayFlow(
        flow([
          { action: 'fill', params: { value: 'alice' }, selectors: css('#user') },
          check,
          { action: 'click', params: {}, selectors: css('#save') },
        ]),
        { port: contextPort(page), navigateToStart: false },
      )
      expect(r.success).toBe(false)
      expect(r.error).toMatchObject({ step_id: 2, code: 'VERIFY_FAILED', message })
      // The step after a failed check never ran.
      expect(r.steps.map((s) => s.status)).toEqual(['ok', 'failed'])
    }
    expect((await state(page)).saved).toBe(0)
  })

  test('a missing text quotes the page as it is', async () => {
    const page = await h.browser.newPage()
    await page.goto(h.server.url('/assert-order-742.html'))
    const r = await replayFlow(flow([{ action: 'verify', params: { text: 'Delivered' } }]), {
      port: contextPort(page),
      navigateToStart: false,
    })
    expect(r.error?.message).toBe(
      'Check failed: expected the page to show "Delivered", but it shows "Order #742 Status: Shipped".',
    )
  })
})

describe('go_back, tab and extract across documents', () => {
  test('a link, a check on the next page, Back, a check on the first; then a new tab and a check there', async () => {
    const page = await h.browser.newPage()
    await page.goto(h.server.url('/assert-orders.html'))
    const port = contextPort(page)
    const f = flow([
      {
        action: 'click',
        params: {},
        selectors: { primary: { type: 'role', value: 'role:link[name="Order 742"]' }, fallback: [] },
      },
      { action: 'verify', params: { url: '*/assert-order-742.html' } },
      { action: 'extract', params: { name: 'status' }, selectors: css('#status') },
      { action: 'go_back', params: {} },
      { action: 'verify', params: { text: 'Orders' } },
      { action: 'verify', params: { url: '*/assert-orders.html' } },
      { action: 'click', params: {}, selectors: css('#receipt') },
      { action: 'tab', params: {} },
      { action: 'verify', params: { text: 'Order #742' } },
      { action: 'tab', params: { index: 0 } },
      { action: 'expect', params: { url: '*/assert-orders.html' } },
      { action: 'done', params: { text: 'Order 742 is shipped' } },
    ])
    expect(validateFlow(f).warnings).toEqual([])
    const r = await replayFlow(f, { port, navigateToStart: false })
    expect(r.error).toBeUndefined()
    expect(r).toMatchObject({ success: true, returns: { status: 'Shipped' }, done: 'Order 742 is shipped' })
    expect(port.page()).toBe(page)
    expect(page.context().pages().length).toBeGreaterThan(1)
  })

  test('go_back with nowhere to go fails and says so', async () => {
    const page = await h.browser.newPage()
    await page.setContent('<p>only page</p>')
    const r = await replayFlow(flow([{ action: 'go_back', params: {} }]), {
      port: contextPort(page),
      navigateToStart: false,
    })
    expect(r.error).toMatchObject({
      code: 'STEP_FAILED',
      message: 'There is no earlier page in this tab to go back to.',
    })
  })
})

describe('a step the page has no action for', () => {
  test('is refused with INVALID and names the step, never run as a wait', async () => {
    const page = await h.browser.newPage()
    await page.setContent('<p id="here">here</p>')
    await injectFlows(page)
    // A run step is the replayer's own: one that reached the page ran as "wait for visible" before.
    const step = { step_id: 1, action: 'run', params: { action: 'a:b:c' }, selectors: css('#here') } as FlowStep
    const out = (await page.evaluate(
      ([s]) => (window as any).__avaFlows.runFlowStep(s, { timeoutMs: 2_000 }) as Promise<StepOutcome>,
      [step] as const,
    )) as StepOutcome
    expect(out).toMatchObject({ ok: false, code: 'INVALID', acted: false })
    expect((out as { message: string }).message).toContain('A run step has no action to run in the page')
  })
})

describe('"check this" while recording (Alt+click)', () => {
  test('records the text, state and value of what was picked, without the page seeing the click; the replay checks them', async () => {
    const page = await h.open('/plain.html')
    await startRecorder(page)
    await page.mouse.click(...(await centre(page, '#user')))
    await page.keyboard.type('alice')
    await page.mouse.click(...(await centre(page, '#save')))
    const altClick = async (sel: string) => {
      await page.keyboard.down('Alt')
      await page.mouse.click(...(await centre(page, sel)))
      await page.keyboard.up('Alt')
    }
    await altClick('#status')
    await altClick('#save')
    await altClick('#subscribe')
    await altClick('#user')
    // Picking Save and the box did not press or tick them.
    expect(await state(page)).toMatchObject({ saved: 1, subscribe: false })
    const { flow: recorded } = await stopRecorder(page, 'Save and check')
    expect(recorded.steps.map((s) => [s.action, s.params])).toEqual([
      ['fill', { value: '${user_name}' }],
      ['click', {}],
      ['verify', { text: 'Saved 1 times' }],
      ['verify', { text: 'Save' }],
      ['verify', { state: 'unchecked' }],
      ['verify', { value: 'alice' }],
    ])
    expect(validateFlow(recorded).warnings).toEqual([])

    const again = await h.open('/plain.html')
    const ok = await replayFlow(recorded, { port: contextPort(again), navigateToStart: false })
    expect(ok.error).toBeUndefined()

    // The same flow on a page whose Save now fails: the click still works, the check catches it.
    const broken = await h.open('/plain.html')
    await broken.evaluate(() => {
      document.getElementById('save')!.onclick = () =>
        void (document.getElementById('status')!.textContent = 'Error: not saved')
    })
    const bad = await replayFlow(recorded, { port: contextPort(broken), navigateToStart: false })
    expect(bad.error).toMatchObject({
      step_id: 3,
      code: 'VERIFY_FAILED',
      message: 'Check failed: expected css:#status to show "Saved 1 times", but it shows "Error: not saved".',
    })
  })
})
