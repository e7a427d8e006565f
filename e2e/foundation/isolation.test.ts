import { expect, it } from 'vitest'
import { withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

it('page scripts cannot see into the Ava button host', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  await page.waitForSelector('ava-root', { state: 'attached' })
  const view = await page.evaluate(() => {
    const host = document.querySelector('ava-root')!
    return { shadowRoot: host.shadowRoot, children: host.children.length, text: host.textContent }
  })
  expect(view).toEqual({ shadowRoot: null, children: 0, text: '' })
  await page.close()
})

it('a drag moves the button without opening the panel; a click opens it', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  await page.waitForSelector('ava-root', { state: 'attached' })
  const vp = page.viewportSize()!
  const at = { x: vp.width - 46, y: vp.height - 46 }
  await page.mouse.move(at.x, at.y)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(at.x - i * 20, at.y - i * 15)
  await page.mouse.up()
  await page.waitForTimeout(300)
  const panelUrl = `chrome-extension://${ava.extensionId}/src/panel/`
  expect(page.frames().some((f) => f.url().startsWith(panelUrl))).toBe(false)
  // The button is now where it was dropped; a plain click there opens the panel.
  await page.mouse.click(at.x - 200, at.y - 150)
  const panel = await ava.panel(page)
  expect(await panel.isVisible('[data-test=input]')).toBe(true)
  await page.close()
})

it('refuses to send an empty or whitespace-only request', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panel = await ava.openPanel(page)
  const before = llm.requests.length
  for (const text of ['', '   ', '\n\t ']) {
    await panel.fill('[data-test=input]', text)
    await panel.click('[data-test=send]')
    await expect.poll(() => panel.isVisible('[data-test=refused]')).toBe(true)
  }
  expect(await panel.locator('[data-test=message]').count()).toBe(0)
  expect(llm.requests.length).toBe(before)
  await page.close()
})

it('a page that frames the panel page itself gets no chat and cannot start a run', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  const panelUrl = `chrome-extension://${ava.extensionId}/src/panel/index.html`
  await page.evaluate((src) => {
    const f = document.createElement('iframe')
    f.src = src
    f.id = 'evil'
    document.body.append(f)
    // The page tries to hand the frame a made-up token.
    f.addEventListener('load', () => f.contentWindow!.postMessage({ type: 'ava:token', token: 'forged' }, '*'))
  }, panelUrl)
  await expect.poll(() => page.frames().some((f) => f.url() === panelUrl)).toBe(true)
  const evil = page.frames().find((f) => f.url() === panelUrl)!
  await evil.waitForSelector('[data-test=send]')
  await page.waitForTimeout(500)
  expect(await evil.textContent('[data-test=messages]')).toMatch(/Connecting/)
  expect(await evil.isDisabled('[data-test=send]')).toBe(true)
  // Even code running inside that frame is refused by the background.
  const reply = await evil.evaluate(() =>
    chrome.runtime.sendMessage({ ava: 1, name: 'panel→bg:run.start', req: { text: 'delete everything' } }),
  )
  expect(reply).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
  const before = llm.requests.length
  await page.waitForTimeout(200)
  expect(llm.requests.length).toBe(before)
  await page.close()
})
