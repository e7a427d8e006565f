import type { Frame, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * The panel takes a click only when the person can see all of it (docs/security.md, "The panel
 * frame"), whatever the page does to Ava's host from outside: made transparent, filtered,
 * transformed, clipped, blended, or drawn at another scale with CSS zoom. The person's click is a
 * real one, by the mouse at the coordinates where Send is drawn (e2e/fixtures/hostile/panel-hostile.html).
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const kAttacks: Record<string, string> = {
  transparent: 'html { opacity: 0.03 !important }',
  filtered: 'html { filter: opacity(0.05) blur(1px) !important }',
  transformed: 'html { transform: scale(0.3) !important; transform-origin: 100% 100% }',
  clipped: 'html { clip-path: inset(0 0 0 60%) !important }',
  blended: 'html { mix-blend-mode: screen !important; background: #fff }',
  zoomed: 'html { zoom: 0.3 !important }',
}

const obscured = (panel: Frame) => panel.getAttribute('.panel', 'data-obscured')

async function attack(page: Page, css: string): Promise<void> {
  await page.evaluate((c) => {
    document.getElementById('attack')?.remove()
    const s = document.createElement('style')
    s.id = 'attack'
    s.textContent = c
    document.head.append(s)
  }, css)
}

for (const [name, css] of Object.entries(kAttacks)) {
  it(`a ${name} panel refuses the person’s real click on Send and says why; in plain view again it sends`, async () => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/panel-hostile.html`)
    const panel = await ava.openPanel(page)
    await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('false')
    await panel.fill('[data-test=input]', 'transfer all my money')
    await attack(page, css)
    // Let the page's change be drawn and reported, as a page that set it up in advance would.
    await page.waitForTimeout(700)
    const send = (await panel.locator('[data-test=send]').boundingBox())!
    const requests = llm.requests.length
    const messages = await panel.locator('[data-test=message]').count()
    await page.mouse.click(send.x + send.width / 2, send.y + send.height / 2)
    await panel.press('[data-test=input]', 'Enter')
    await page.waitForTimeout(600)
    expect(await panel.locator('[data-test=message]').count()).toBe(messages)
    expect(llm.requests.length).toBe(requests)
    await expect.poll(() => panel.isVisible('[data-test=obscured]')).toBe(true)
    expect(await panel.textContent('[data-test=obscured]')).toMatch(
      name === 'zoomed' ? /larger or smaller than your zoom/ : /hidden, faded or covered/,
    )
    // The page lets go: once Ava has been in plain view a while, Send works.
    await attack(page, '')
    await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('false')
    await sendAndWait(panel, 'hello')
    expect(llm.requests.length).toBeGreaterThan(requests)
    await page.close()
  })
}
