// Cross-origin frames in the built extension: the content script inside each frame
// scans it, the background merges it into the listing the model reads, and a step on one of its
// elements runs in that frame. Three origins: the shop on 127.0.0.1, the payment frame on
// localhost, the bank frame inside it on another 127.0.0.1 port.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { allowAll, instructionChunks, launchAva, readSteps, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startServer, type StaticServer } from './server'

let ava: Ava
let llm: LlmServer
let shop: StaticServer
let pay: StaticServer
let bank: StaticServer
let deadUrl: string // a port nobody listens on: the frame shows Chromium's error page, where no content script runs

beforeAll(async () => {
  let dead: StaticServer
  ;[ava, llm, shop, pay, bank, dead] = await Promise.all([
    launchAva(),
    startLlmServer(),
    startServer(),
    startServer({ host: 'localhost' }),
    startServer(),
    startServer(),
  ])
  deadUrl = dead.url('/gone.html')
  await dead.close()
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
  shop.page(
    '/checkout.html',
    `<!doctype html><html><head><title>Checkout</title></head><body><h1>Checkout</h1><button>Back to cart</button>
<iframe name="pay" src="${pay.url('/pay.html')}" style="width:480px;height:260px"></iframe>
<iframe name="dead" src="${deadUrl}" style="width:200px;height:80px"></iframe></body></html>`,
  )
  pay.page(
    '/pay.html',
    `<!doctype html><html><body style="margin:0"><label>Card number <input id="card"></label>
<button id="pay" onclick="document.getElementById('status').textContent = 'Paid with ' + document.getElementById('card').value">Pay now</button>
<p id="status">Unpaid</p><iframe name="bank" src="${bank.url('/approve.html')}" style="width:300px;height:80px"></iframe></body></html>`,
  )
  bank.page(
    '/approve.html',
    `<!doctype html><html><body style="margin:0"><button onclick="this.textContent = 'Approved'">Approve</button></body></html>`,
  )
  pay.page(
    '/elsewhere.html',
    `<!doctype html><html><body style="margin:0"><button onclick="window.__clicked = true">Pay now</button></body></html>`,
  )
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), shop?.close(), pay?.close(), bank?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

const chatRequests = () => llm.requests.filter((r) => r.api === 'openai')
const frameOf = (page: Page, origin: string): Frame => page.frames().find((f) => f.url().startsWith(origin))!

async function openCheckout(): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(shop.url('/checkout.html'))
  // Both frames are loaded, and a beat later their content scripts (document_idle) are in place.
  await expect
    .poll(() => page.frames().filter((f) => f.url().startsWith(pay.origin) || f.url().startsWith(bank.origin)).length)
    .toBe(2)
  await frameOf(page, bank.origin).waitForLoadState('load')
  await page.waitForTimeout(300)
  return page
}

it('lists the frames’ elements under frame_ ids and types and clicks in them, nested frame included; an error-page frame stays restricted', async () => {
  const page = await openCheckout()
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'input',
          params: { target_id: 'frame_pay_input_card_number', value: '4242' },
          description: 'Card number',
        },
        { step_id: 2, action_type: 'click', params: { target_id: 'frame_pay_btn_pay_now' }, description: 'Pay' },
        {
          step_id: 3,
          action_type: 'click',
          params: { target_id: 'frame_pay_frame_bank_btn_approve' },
          description: 'Approve',
        },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 4, action_type: 'done', params: { answer: 'Paid.' } }]) },
  )
  const panel = await ava.openPanel(page)
  const run = sendAndWait(panel, 'pay with card 4242')
  // "Pay now" is a payment: the risk check in the payment frame asks the person first.
  const confirmed = panel.waitForSelector('[data-test=confirm]', { timeout: 20_000 })
  await allowAll(page, run, (p) => ava.panel(p))
  await run
  await confirmed

  const prompt = JSON.stringify(chatRequests()[0].body)
  expect(prompt).toContain('frame_pay_input_card_number')
  expect(prompt).toContain('frame_pay_btn_pay_now')
  expect(prompt).toContain('frame_pay_frame_bank_btn_approve')
  expect(prompt).toMatch(/frame_dead cross_origin_restricted http:\/\/127\.0\.0\.1:\d+\/gone\.html/)
  expect(prompt).not.toContain('cross_origin_restricted ' + pay.url('/pay.html'))
  // Ava's own panel is an extension page: never read, never listed.
  expect(prompt).not.toMatch(/chrome-extension:|src\/panel|btn_send/)

  expect(await frameOf(page, pay.origin).textContent('#status')).toBe('Paid with 4242')
  expect(await frameOf(page, bank.origin).textContent('button')).toBe('Approved')
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok'])

  // One Ava button, in the top document; none in any frame.
  expect(await page.locator('ava-root').count()).toBe(1)
  for (const f of page.frames().filter((f) => f !== page.mainFrame() && /^http/.test(f.url()))) {
    expect(await f.evaluate(() => document.querySelectorAll('ava-root, [data-ava-ui]').length)).toBe(0)
  }
  await page.close()
})

it('refuses a step on a frame that navigated after the page was read, and touches nothing there', async () => {
  const page = await openCheckout()
  llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'click', params: { target_id: 'frame_pay_btn_pay_now' }, description: 'Pay' },
    ]),
    firstByteDelayMs: 3_000,
  })
  const panel = await ava.openPanel(page)
  const run = sendAndWait(panel, 'pay', { timeout: 40_000 })
  // While the model "thinks", the payment frame goes to another page that has a "Pay now" too.
  await expect.poll(() => chatRequests().length, { timeout: 15_000 }).toBe(1)
  expect(JSON.stringify(chatRequests()[0].body)).toContain('frame_pay_btn_pay_now')
  await page.evaluate(
    (url) => ((document.querySelector('iframe[name=pay]') as HTMLIFrameElement).src = url),
    pay.url('/elsewhere.html'),
  )
  await expect.poll(() => frameOf(page, pay.origin).url()).toBe(pay.url('/elsewhere.html'))
  await allowAll(page, run, (p) => ava.panel(p))
  await run

  expect(await frameOf(page, pay.origin).evaluate(() => (window as any).__clicked)).toBeUndefined()
  const steps = await readSteps(panel)
  expect(steps[0].status).toBe('failed')
  expect(steps[0].detail).toMatch(/frame_pay .*has navigated or closed since the page was read/)
  await page.close()
})
