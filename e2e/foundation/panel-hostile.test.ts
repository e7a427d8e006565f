import type { Frame, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { instructionChunks, sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * "Panel hijack", "Token flood", "Clickjacking": the panel frame against a page that
 * behaves like an attacker (e2e/fixtures/hostile/panel-*.html). The page listens to every window
 * message, takes every frame window it can reach, navigates it to a look-alike or floods it with
 * forged tokens, and fades, moves or covers the panel while the person clicks.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

type Hostile = Window & {
  __seen: { origin: string; data: string; fromFrame: boolean }[]
  __refs: Window[]
  __hijacked: number
  __forged: number
} & Record<string, () => void>

const kButton = { size: 52, margin: 20 } // mirrors src/content/launcher.ts
const panelPrefix = () => `chrome-extension://${ava.extensionId}/src/panel/`
const hostile = (mode = '') => `${site.url}/hostile/panel-hostile.html${mode ? `?mode=${mode}` : ''}`

/** The person clicks the Ava button where it is drawn. */
async function clickAva(page: Page): Promise<void> {
  const vp = page.viewportSize()!
  await page.mouse.click(vp.width - kButton.margin - kButton.size / 2, vp.height - kButton.margin - kButton.size / 2)
}

/** The URLs of the frames the person can see right now. */
async function shownFrames(page: Page): Promise<string[]> {
  const out: string[] = []
  for (const f of page.frames()) {
    if (f === page.mainFrame()) continue
    const el = await f.frameElement().catch(() => null)
    if (el && (await el.isVisible().catch(() => false))) out.push(f.url())
  }
  return out
}

const obscured = (panel: Frame) => panel.getAttribute('.panel', 'data-obscured')

it('the page learns no panel window and no extension origin from any message', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile())
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'hello')
  // Close and open again: the old panel asked its parent for a token on every (re)connection.
  await clickAva(page)
  await clickAva(page)
  const again = await ava.openPanel(page)
  // The panel's ✕ still closes it: the request goes through the background, not the page.
  await again.click('[data-test=close]')
  await expect.poll(() => shownFrames(page)).toEqual([])
  const seen = await page.evaluate(() => {
    const w = window as unknown as Hostile
    return {
      fromFrames: w.__seen.filter((s) => s.fromFrame),
      all: JSON.stringify(w.__seen),
      refs: w.__refs.length,
      frames: window.length,
    }
  })
  expect(seen.fromFrames).toEqual([])
  expect(seen.all).not.toContain(ava.extensionId)
  expect(seen.refs).toBe(0)
  expect(seen.frames).toBe(0)
  await page.close()
})

it('a panel frame navigated to a look-alike is never shown as Ava; what the person types reaches Ava', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile('hijack'))
  const lookalike = `${site.url}/hostile/panel-lookalike.html`
  await page.waitForSelector('ava-root[data-ava-ready]', { state: 'attached' })
  await clickAva(page)
  // The page hijacks any panel window it gets; the real panel must come up regardless.
  const panel = await ava.panel(page)
  await panel.waitForSelector('[data-test=send]:not([disabled])')
  // A page that got the frame's window some other way navigates it while the panel is closed
  // (done here from inside the frame, which is the same navigation of the same frame).
  await clickAva(page)
  await expect.poll(() => shownFrames(page)).toEqual([])
  await panel.evaluate((u) => void (location.href = u), lookalike).catch(() => undefined)
  await expect.poll(() => panel.isDetached() || panel.url() === lookalike).toBe(true)
  // The person opens Ava again: whatever is shown, at any moment, is the extension's panel.
  await clickAva(page)
  const shown = new Set<string>()
  for (let i = 0; i < 20; i++) {
    for (const u of await shownFrames(page)) shown.add(u)
    await page.waitForTimeout(50)
  }
  expect([...shown].filter((u) => !u.startsWith(panelPrefix()))).toEqual([])
  // Ava noticed that its panel document went away and threw that frame out: every look-alike that
  // came up (none, if it was thrown out before its first script ran) has gone again.
  const count = (path: string) => site.hits.filter((h) => h.path === path).length
  await expect
    .poll(() => count('/hostile/lookalike-up') - count('/hostile/lookalike-gone'), { timeout: 10_000 })
    .toBe(0)
  const real = await ava.openPanel(page)
  await real.fill('[data-test=input]', 'my bank password is hunter2')
  await real.click('[data-test=send]')
  await expect.poll(() => llm.requests.some((r) => JSON.stringify(r.body).includes('hunter2'))).toBe(true)
  expect(site.hits.filter((h) => h.path.startsWith('/hostile/steal'))).toEqual([])
  expect(await page.evaluate(() => (window as unknown as Hostile).__hijacked)).toBe(0)
  await page.close()
})

it('forged tokens flooded every 5 ms make no panel message FORBIDDEN, and Stop stops the run', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile('flood'))
  const panel = await ava.openPanel(page)
  const typeAlice = {
    step_id: 1,
    action_type: 'input',
    params: { fallback_selector: '#username', semantic_locator: 'username', value: 'alice' },
    description: 'Type the username',
  }
  const typePassword = {
    step_id: 2,
    action_type: 'input',
    params: { fallback_selector: '#password', semantic_locator: 'password', value: 'pw' },
    description: 'Type the password',
  }
  llm.script({ chunks: instructionChunks([typeAlice, typePassword]), chunkDelayMs: 1_500 })
  const errorsBefore = await panel.locator('article.error').count()
  await panel.fill('[data-test=input]', 'slowly log in')
  await panel.click('[data-test=send]')
  await expect.poll(() => panel.isVisible('[data-test=stop]'), { timeout: 10_000 }).toBe(true)
  // 40 panel messages while the run goes and the flood goes on.
  const codes = await panel.evaluate(async () => {
    const out: string[] = []
    for (let i = 0; i < 40; i++) {
      const r = (await chrome.runtime.sendMessage({ ava: 1, name: 'panel→bg:flow.state', req: {} })) as {
        ok: boolean
        error?: { code: string }
      }
      out.push(r.ok ? 'ok' : (r.error?.code ?? '?'))
      await new Promise((res) => setTimeout(res, 20))
    }
    return out
  })
  expect(codes.filter((c) => c !== 'ok')).toEqual([])
  expect(await page.evaluate(() => (window as unknown as Hostile).__forged)).toBeGreaterThan(40)
  await panel.click('[data-test=stop]')
  const err = panel.locator('article.error').nth(errorsBefore)
  await err.waitFor({ timeout: 15_000 })
  expect(await err.textContent()).toMatch(/Stopped/)
  await page.close()
})

it('a faded, moved or covered panel refuses Send; the host keeps the style Ava gave it', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile())
  const panel = await ava.openPanel(page)

  // Restyling the host (opacity 0, shrunk, inert) is undone at once.
  await page.evaluate(() => (window as unknown as Hostile).__fadeHost())
  const hostState = () =>
    page.evaluate(() => {
      const h = document.querySelector('[data-ava-ui]')!
      const cs = getComputedStyle(h)
      return {
        opacity: cs.opacity,
        transform: cs.transform,
        pointerEvents: cs.pointerEvents,
        inert: h.hasAttribute('inert'),
      }
    })
  await expect.poll(hostState).toEqual({ opacity: '1', transform: 'none', pointerEvents: 'auto', inert: false })
  await expect.poll(() => obscured(panel)).toBe('false')

  // What the page cannot undo — its own opacity, a decoy drawn over Ava that lets clicks through —
  // makes the panel refuse, and say why.
  for (const attack of ['__fadePage', '__cover']) {
    await page.evaluate((a) => (window as unknown as Hostile)[a](), attack)
    await expect.poll(() => obscured(panel)).toBe('true')
    const requests = llm.requests.length
    const messages = await panel.locator('[data-test=message]').count()
    await panel.fill('[data-test=input]', 'transfer all my money')
    // The person clicks Send where it is drawn, and presses Enter.
    await panel.click('[data-test=send]', { force: true })
    await panel.press('[data-test=input]', 'Enter')
    await expect.poll(() => panel.isVisible('[data-test=obscured]')).toBe(true)
    expect(await panel.textContent('[data-test=obscured]')).toMatch(/covered/)
    expect(await panel.locator('[data-test=message]').count()).toBe(messages)
    expect(llm.requests.length).toBe(requests)
    await page.evaluate(() => (window as unknown as Hostile).__restore())
    await expect.poll(() => obscured(panel)).toBe('false')
  }
  // Allow under a decoy does nothing; Deny still answers.
  llm.script({
    chunks: instructionChunks([
      {
        step_id: 1,
        action_type: 'click',
        params: { fallback_selector: '#transfer' },
        description: 'Click Send $5,000',
      },
    ]),
  })
  await panel.fill('[data-test=input]', 'what can I do here?')
  await panel.click('[data-test=send]')
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 15_000 })
  await page.evaluate(() => (window as unknown as Hostile).__cover())
  await expect.poll(() => obscured(panel)).toBe('true')
  await panel.locator('[data-test=confirm-allow]').last().click({ force: true })
  await expect.poll(() => panel.isVisible('[data-test=obscured]')).toBe(true)
  expect(await panel.getAttribute('[data-test=confirm]', 'data-state')).toBe('pending')
  await panel.locator('[data-test=confirm-deny]').last().click({ force: true })
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  expect(await page.evaluate(() => (window as unknown as { __transferred?: boolean }).__transferred)).toBeUndefined()
  await page.evaluate(() => (window as unknown as Hostile).__restore())
  await expect.poll(() => obscured(panel)).toBe('false')

  // In plain view again, Send works.
  const requests = llm.requests.length
  await sendAndWait(panel, 'hello')
  expect(llm.requests.length).toBeGreaterThan(requests)
  await page.close()
})

it('a page that pre-creates <ava-root> and claims the name does not turn Ava off', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/panel-precreated.html`)
  const panel = await ava.openPanel(page)
  const requests = llm.requests.length
  await sendAndWait(panel, 'hello')
  expect(llm.requests.length).toBeGreaterThan(requests)
  // The page's element is still its own: Ava did not take it over, and took no shadow root from it.
  expect(await page.evaluate(() => document.querySelector('ava-root')!.shadowRoot?.textContent)).toBe('not Ava')
  await page.close()
})

it('a page that moves the keyboard to itself gets nothing the person types, and the panel says so', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile())
  const panel = await ava.openPanel(page)
  await panel.waitForSelector('[data-test=send]:not([disabled])')
  await panel.click('[data-test=input]')
  const secret = 'my bank password is hunter2'
  // The page takes the keyboard while the person is typing.
  await page.evaluate(() => (window as unknown as { __stealIn(ms: number): void }).__stealIn(300))
  await page.keyboard.type(secret, { delay: 60 })
  expect(await page.evaluate(() => (window as unknown as { __keys: string }).__keys)).toBe('')
  // Every key is the panel's, but one pressed in the instant the page held the focus, before Ava
  // gave it back, may be nobody's: that is why the panel then asks the person to check what they
  // typed. On a loaded machine that instant can swallow one or two keys; none ever reaches the page.
  const got = await panel.inputValue('[data-test=input]')
  expect(secret.length - got.length).toBeLessThanOrEqual(2)
  expect(isSubsequence(got, secret)).toBe(true)
  // The panel says so until the person clicks into it again.
  await expect.poll(() => panel.isVisible('[data-test=keyboard-taken]')).toBe(true)
  await panel.click('[data-test=input]')
  await expect.poll(() => panel.isVisible('[data-test=keyboard-taken]')).toBe(false)
  await page.close()
})

it('a decoy drawn over the panel as the person clicks Send is caught: the message is not sent', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile())
  const panel = await ava.openPanel(page)
  await panel.waitForSelector('[data-test=send]:not([disabled])')
  await panel.fill('[data-test=input]', 'transfer all my money')
  const box = (await panel.locator('[data-test=send]').boundingBox())!
  const requests = llm.requests.length
  const messages = await panel.locator('[data-test=message]').count()
  // The page draws its decoy and the click lands at once, before any visibility report.
  await page.evaluate(() => (window as unknown as Hostile).__cover())
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  await expect.poll(() => panel.isVisible('[data-test=obscured]')).toBe(true)
  expect(await panel.locator('[data-test=message]').count()).toBe(messages)
  expect(llm.requests.length).toBe(requests)
  // Lifted again: once the panel has been in plain view a while, Send works.
  await page.evaluate(() => (window as unknown as Hostile).__restore())
  await expect.poll(() => obscured(panel)).toBe('false')
  await sendAndWait(panel, 'hello')
  expect(llm.requests.length).toBeGreaterThan(requests)
  await page.close()
})

it('a page that keeps removing the panel cannot keep the person from Stop: the popup stops the run', async () => {
  const page = await ava.context.newPage()
  await page.goto(hostile())
  const panel = await ava.openPanel(page)
  llm.script({ text: 'x'.repeat(3_000), chunkDelayMs: 100 })
  await panel.fill('[data-test=input]', 'tell me a long story')
  await panel.click('[data-test=send]')
  await panel.waitForSelector('[data-test=stop]', { timeout: 10_000 })
  await page.evaluate(() => (window as unknown as { __thrash(ms: number): void }).__thrash(150))
  // Ava gives up on the page rather than rebuild its panel forever, and stays out of it.
  await expect
    .poll(() => page.evaluate(() => !!document.querySelector('[data-ava-ui]')), { timeout: 10_000 })
    .toBe(false)
  const popup = await ava.context.newPage()
  await popup.goto(`chrome-extension://${ava.extensionId}/src/popup/index.html`)
  await popup.waitForSelector('[data-test=run-blocked]', { timeout: 10_000 })
  await popup.click('[data-test=run-stop]')
  await popup.waitForSelector('[data-test=run-stopped]', { timeout: 10_000 })
  expect(await popup.isVisible('[data-test=run-stop]')).toBe(false)
  await popup.close()
  await page.close()
})

/** Whether `part` is `whole` with some characters left out, the rest in order. */
function isSubsequence(part: string, whole: string): boolean {
  let i = 0
  for (const c of whole) if (c === part[i]) i++
  return i === part.length
}
