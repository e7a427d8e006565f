import { expect, it } from 'vitest'
import { mkdirSync, writeFileSync } from 'node:fs'
import { PNG } from 'pngjs'
import type { Frame, Page } from 'playwright-core'
import { allowAll, instructionChunks, sendAndWait, withAgentWorld, type AgentWorld } from '../support/ava'
import { loginPlan } from '../support/plans'

/**
 * Typography and layout on every extension page: the 14 px base really applies
 * (Chromium's extension stylesheet sets body { font-size: 75% }), Chinese text is drawn with a
 * Chinese face from our stack, header controls are labelled icons, planning shows a spinner, and
 * clearing the chat can be undone. Screenshots of the panel land in /tmp/look-shots/ for a person
 * to look at; each is also checked to follow the colour scheme and to draw readable content.
 */
let w: AgentWorld
withAgentWorld((world) => (w = world))

const kShots = '/tmp/look-shots'
const kChineseFace = 'Noto Sans CJK SC' // fonts-noto-cjk on these machines; PingFang or YaHei elsewhere

async function setLanguage(language: 'en' | 'zh-CN') {
  await (await w.ava.worker()).evaluate((l) => chrome.storage.local.set({ ui: { version: 1, language: l } }), language)
}

/** The faces Chromium actually drew `selector`'s own text with (DevTools protocol), by glyph count. */
async function facesOf(target: Page | Frame, page: Page, selector: string): Promise<Record<string, number>> {
  const cdp = await page.context().newCDPSession(target)
  try {
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 })
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
    expect(nodeId, `${selector} not found`).toBeGreaterThan(0)
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
    return Object.fromEntries(fonts.map((f) => [f.familyName, f.glyphCount]))
  } finally {
    await cdp.detach()
  }
}

async function typography(target: Page | Frame, page: Page, chineseSelector: string) {
  await target.waitForFunction(
    (sel) => /[\u4e00-\u9fff]/.test(document.querySelector(sel)?.textContent ?? ''),
    chineseSelector,
  )
  const size = await target.evaluate(() => getComputedStyle(document.body).fontSize)
  const faces = await facesOf(target, page, chineseSelector)
  return { size, faces }
}

async function openSite(): Promise<{ page: Page; panel: Frame }> {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/login`)
  return { page, panel: await w.ava.openPanel(page) }
}

it('draws a Chinese request with a Chinese face in the English UI too', async () => {
  // Left to the system's fallback (lang="en"), Han characters come out in a Japanese face here.
  await setLanguage('en')
  const { page, panel } = await openSite()
  w.llm.script({ text: 'OK' })
  await sendAndWait(panel, '有哪些未完成的订单')
  const faces = await facesOf(panel, page, '[data-role=user] [data-test=text]')
  expect(Object.keys(faces)).toEqual([kChineseFace])
  await page.close()
})

it('sets 14 px on body and draws Chinese with a Chinese face on the panel, popup, options and welcome pages', async () => {
  await setLanguage('zh-CN')
  const base = `chrome-extension://${w.ava.extensionId}/src`
  const results: Record<string, { size: string; faces: Record<string, number> }> = {}

  const { page, panel } = await openSite()
  results.panel = await typography(panel, page, '.options-line')
  await page.close()

  for (const [name, path, selector] of [
    ['popup', 'popup/index.html', '[data-test=tab-packs]'],
    ['options', 'options/index.html', 'h1'],
    ['welcome', 'welcome/index.html', 'h1'],
  ] as const) {
    const p = await w.ava.context.newPage()
    await p.goto(`${base}/${path}`)
    results[name] = await typography(p, p, selector)
    await p.close()
  }

  for (const [name, r] of Object.entries(results)) {
    expect(r.size, name).toBe('14px')
    // Every glyph of the Chinese text comes from the Chinese face, none from a Japanese or Korean one.
    expect(Object.keys(r.faces), name).toContain(kChineseFace)
    expect(
      Object.keys(r.faces).filter((f) => /CJK (JP|KR|TC|HK)/.test(f)),
      name,
    ).toEqual([])
  }
  await setLanguage('en')
})

it('labels every header control with a localised name and tooltip, drawn as an icon rather than a glyph', async () => {
  for (const language of ['en', 'zh-CN'] as const) {
    await setLanguage(language)
    const { page, panel } = await openSite()
    w.llm.script({ text: 'Done.' })
    await sendAndWait(panel, 'say done')
    const buttons = await panel.$$eval('header button', (els) =>
      els.map((b) => ({
        label: b.getAttribute('aria-label'),
        title: b.getAttribute('title'),
        text: b.textContent!.trim(),
        svg: !!b.querySelector('svg'),
      })),
    )
    expect(buttons.map((b) => b.label)).toEqual(
      language === 'en'
        ? ['Clear history', 'Outline the elements Ava sees', 'Close']
        : ['清除历史', expect.stringMatching(/[\u4e00-\u9fff]/), '关闭'],
    )
    for (const b of buttons) expect(b).toEqual({ label: b.label, title: b.label, text: '', svg: true })

    const popup = await w.ava.context.newPage()
    await popup.goto(`chrome-extension://${w.ava.extensionId}/src/popup/index.html`)
    const open = popup.locator('[data-test=open-tab]')
    expect(await open.getAttribute('aria-label')).toBe(language === 'en' ? 'Open in a tab' : '在标签页中打开')
    expect(await open.getAttribute('title')).toBe(await open.getAttribute('aria-label'))
    expect(await open.locator('svg path').count()).toBeGreaterThan(0)
    expect((await open.textContent())!.trim()).toBe('')
    await Promise.all([popup.close(), page.close()])
  }
  await setLanguage('en')
})

it('shows a spinner while the model plans', async () => {
  const { page, panel } = await openSite()
  w.llm.script({ text: 'Planned.', firstByteDelayMs: 1_500 })
  await panel.fill('[data-test=input]', 'plan something')
  await panel.click('[data-test=send]')
  const spinner = panel.locator('[data-test=status] [data-test=spinner]')
  await spinner.waitFor({ state: 'visible' })
  const box = await spinner.boundingBox()
  expect(box!.width).toBeGreaterThanOrEqual(10)
  // It turns, unless the person asked for less motion.
  expect(await spinner.evaluate((el) => getComputedStyle(el).animationName)).toBe('ava-spin')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor()
  expect(await panel.locator('[data-test=spinner]').count()).toBe(0)
  await page.close()
})

it('clears the history with Undo for a few seconds before the clearing is final', async () => {
  const { page, panel } = await openSite()
  w.llm.script({ text: 'Kept.' })
  await sendAndWait(panel, 'keep this')
  const count = await panel.locator('[data-test=message]').count()
  expect(count).toBeGreaterThan(0)

  await panel.click('[data-test=clear]')
  await panel.locator('[data-test=undo]').waitFor()
  expect(await panel.locator('[data-test=message]').count()).toBe(0)
  await panel.click('[data-test=undo]')
  await expect.poll(() => panel.locator('[data-test=message]').count()).toBe(count)

  // Not undone this time: the background's history is cleared once the offer ends.
  await panel.click('[data-test=clear]')
  await panel.locator('[data-test=undo]').waitFor()
  await panel.locator('[data-test=undo]').waitFor({ state: 'detached', timeout: 15_000 })
  await page.reload()
  const again = await w.ava.openPanel(page)
  expect(await again.locator('[data-test=message]').count()).toBe(0)
  await page.close()
})

it('says "Saved." beside Save, in view, however far down the form the person is', async () => {
  const options = await w.ava.context.newPage()
  await options.setViewportSize({ width: 900, height: 600 })
  await options.goto(`chrome-extension://${w.ava.extensionId}/src/options/index.html`)
  await options.waitForSelector('[data-test=settings-form]')
  await options.click('[data-test=save]')
  const notice = options.locator('[data-test=notice]')
  await expect.poll(() => notice.textContent()).toBe('Saved.')
  const [n, save] = [(await notice.boundingBox())!, (await options.locator('[data-test=save]').boundingBox())!]
  expect(n.y + n.height).toBeLessThanOrEqual(600)
  expect(Math.abs(n.y + n.height / 2 - (save.y + save.height / 2))).toBeLessThan(save.height)
  await options.close()
})

/** Mean luminance (0 dark … 1 light) and the share of pixels that differ clearly from that mean. */
function toneOf(png: Buffer): { mean: number; inked: number } {
  const { data, width, height } = PNG.sync.read(png)
  const lum: number[] = []
  for (let i = 0; i < width * height * 4; i += 4)
    lum.push((0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]) / 255)
  const mean = lum.reduce((a, b) => a + b, 0) / lum.length
  return { mean, inked: lum.filter((l) => Math.abs(l - mean) > 0.25).length / lum.length }
}

/** A screenshot follows the scheme (a dark page is mostly dark) and draws something (text, controls). */
function expectScheme(png: Buffer, scheme: 'light' | 'dark', name: string) {
  const { mean, inked } = toneOf(png)
  if (scheme === 'dark') expect(mean, `${name} should be dark`).toBeLessThan(0.5)
  else expect(mean, `${name} should be light`).toBeGreaterThan(0.5)
  expect(inked, `${name} should draw text and controls`).toBeGreaterThan(0.002)
}

it('follows the colour scheme on the panel and every extension page, in English and Chinese (screenshots kept for a person)', async () => {
  mkdirSync(kShots, { recursive: true })
  for (const language of ['en', 'zh-CN'] as const) {
    await setLanguage(language)
    for (const scheme of ['light', 'dark'] as const) {
      const page = await w.ava.context.newPage()
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`${w.site.url}/login`)
      const panel = await w.ava.openPanel(page)
      w.llm.script({
        text:
          language === 'en'
            ? 'The dashboard shows **3 open orders**:\n\n- #1042 shipped\n- #1043 packing\n- #1044 awaiting payment'
            : '仪表盘上有 **3 个未完成订单**：\n\n- #1042 已发货\n- #1043 打包中\n- #1044 待付款',
      })
      await sendAndWait(panel, language === 'en' ? 'What orders are open?' : '有哪些未完成的订单？')
      w.llm.script({ text: 'Planning…', firstByteDelayMs: 2_000 })
      await panel.fill('[data-test=input]', language === 'en' ? 'Open the newest order' : '打开最新的订单')
      await panel.click('[data-test=send]')
      await panel.locator('[data-test=spinner]').waitFor()
      const frame = await panel.frameElement()
      const shot = await frame.screenshot()
      writeFileSync(`${kShots}/panel-${language}-${scheme}.png`, shot)
      expectScheme(shot, scheme, `panel ${language} ${scheme}`)
      await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor()
      await page.close()
      // The other pages, at the size a person sees them.
      for (const [name, path, size] of [
        ['welcome', 'welcome/index.html', { width: 900, height: 900 }],
        ['options', 'options/index.html', { width: 900, height: 700 }],
        ['popup', 'popup/index.html', { width: 440, height: 420 }],
      ] as const) {
        const p = await w.ava.context.newPage()
        await p.setViewportSize(size)
        await p.emulateMedia({ colorScheme: scheme })
        await p.goto(`chrome-extension://${w.ava.extensionId}/src/${path}`)
        await p.waitForSelector('h1')
        await p.waitForLoadState('networkidle')
        const pageShot = await p.screenshot()
        writeFileSync(`${kShots}/${name}-${language}-${scheme}.png`, pageShot)
        expectScheme(pageShot, scheme, `${name} ${language} ${scheme}`)
        await p.close()
      }
    }
  }
  await setLanguage('en')
})

// The README's picture (docs/screenshot.png): `AVA_README_SHOT=1` with the e2e command refreshes it.
it.runIf(!!process.env.AVA_README_SHOT)(
  'refreshes the README screenshot: the panel after logging in to the sample app',
  async () => {
    await setLanguage('en')
    const page = await w.ava.context.newPage()
    await page.goto(`${w.site.url}/`)
    const base = w.site.url
    w.llm.script({
      chunks: instructionChunks([
        ...loginPlan(base),
        {
          step_id: 6,
          action_type: 'done',
          params: { answer: 'You are logged in as **alice**; the dashboard shows 2 recent orders.' },
        },
      ]),
      chunkDelayMs: 200,
    })
    await w.ava.ask(page, 'log in as alice')
    const loggedIn = page.waitForURL(`${base}/dashboard`, { timeout: 20_000 })
    await allowAll(page, loggedIn, (p) => w.ava.panel(p))
    await loggedIn
    const panel = await w.ava.panel(page)
    await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
    await page.mouse.move(0, 0)
    await page.screenshot({ path: new URL('../../docs/screenshot.png', import.meta.url).pathname })
    await page.close()
  },
)
