import type { Frame } from 'playwright-core'
import { expect, it } from 'vitest'
import { sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * The panel decides at the moment of the click (docs/security.md, "The panel frame"): a page that,
 * in one task, fades Ava's panel to nothing, covers it with a layer that lets clicks through, or
 * clips all of it but Send, and slides Send under its own button, gets no message sent when the
 * person clicks that button 0.8 s later — what the visibility observer last said does not count.
 * The person's click is a real one, by the mouse (e2e/fixtures/hostile/panel-vanish.html).
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const obscured = (panel: Frame) => panel.getAttribute('.panel', 'data-obscured')

for (const mode of [
  'fade-and-move',
  'cover-after-host',
  'clip-outside',
  'animate',
  'busy',
  'mask',
  'view-transition',
  'blink',
]) {
  it(`${mode}: a click on the hidden Send is refused, and the panel says why`, async () => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/panel-vanish.html`)
    const panel = await ava.openPanel(page)
    await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('false')
    await panel.fill('[data-test=input]', 'wire my savings to the prize desk')
    const before = (await panel.locator('[data-test=send]').boundingBox())!
    const requests = llm.requests.length
    const messages = await panel.locator('[data-test=message]').count()
    await page.evaluate(
      ([m, s]) => (window as unknown as { __arm(m: string, s: { x: number; y: number }): void }).__arm(m, s),
      [mode, { x: before.x + before.width / 2, y: before.y + before.height / 2 }] as const,
    )
    // The person reads the page and clicks its button, under which Send now lies.
    if (mode !== 'blink') await page.waitForTimeout(800)
    const prize = (await page.locator('#prize').boundingBox())!
    await page.mouse.click(prize.x + prize.width / 2, prize.y + prize.height / 2)
    await expect.poll(() => panel.isVisible('[data-test=obscured]'), { timeout: 10_000 }).toBe(true)
    expect(await panel.textContent('[data-test=obscured]')).toMatch(/hidden, faded|covered|moved|plain view/)
    // Long enough for a held click to have been replayed.
    await page.waitForTimeout(1_000)
    expect(await panel.locator('[data-test=message]').count()).toBe(messages)
    expect(llm.requests.length).toBe(requests)
    // The page lets go: once Ava has been in plain view a while, Send works.
    await page.evaluate(() => {
      document.getElementById('cover')?.remove()
      for (const a of document.getAnimations()) a.cancel()
      document.documentElement.removeAttribute('style')
    })
    await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('false')
    await sendAndWait(panel, 'hello')
    expect(llm.requests.length).toBeGreaterThan(requests)
    await page.close()
  })
}

it('slide: a panel slid under the pointer just before the click takes nothing, and says it had just moved', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/panel-vanish.html`)
  const panel = await ava.openPanel(page)
  await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('false')
  await panel.fill('[data-test=input]', 'wire my savings to the prize desk')
  const send = (await panel.locator('[data-test=send]').boundingBox())!
  const requests = llm.requests.length
  const messages = await panel.locator('[data-test=message]').count()
  await page.evaluate(
    ([s]) => (window as unknown as { __arm(m: string, s: { x: number; y: number }): void }).__arm('slide', s),
    [{ x: send.x + send.width / 2, y: send.y + send.height / 2 }] as const,
  )
  // The person sees the page's button and heads for it; the page slides as the pointer comes.
  const near = (await page.locator('#near').boundingBox())!
  await page.waitForTimeout(700)
  await page.evaluate(() => (window as unknown as { __slide(): void }).__slide())
  await page.waitForTimeout(100)
  await page.mouse.click(near.x + near.width / 2, near.y + near.height / 2)
  // Long enough for a held click to have been replayed: nothing was sent.
  await page.waitForTimeout(1_500)
  expect(await panel.locator('[data-test=message]').count()).toBe(messages)
  expect(llm.requests.length).toBe(requests)
  await expect
    .poll(
      () =>
        panel
          .locator('[data-test=obscured]')
          .getAttribute('data-fault', { timeout: 500 })
          .catch(() => null),
      { timeout: 10_000 },
    )
    .toBe('moved')
  await page.close()
})
