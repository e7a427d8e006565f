// Ava sees the page (docs/agent.md, "Screenshots"): a profile whose model sees images sends one
// marked screenshot with the first planning request, in both wire formats and Ollama's; the marks
// are the listing's ids drawn where the elements are; secret fields are black; a text-only profile
// and a site switched off send none; a point names the element drawn there, through the same gate;
// a canvas is clicked at the point and signed along a path.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Frame, Page } from 'playwright-core'
import { writeFileSync } from 'node:fs'
import { PNG } from 'pngjs'
import { launchAva, sendAndWait, toggleOverlay, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startOllamaServer, type OllamaServer } from '../support/ollama-server'
import { startSiteServer, type SiteServer } from '../support/site-server'
import { openOptions } from '../manage/helpers'

let ava: Ava
let llm: LlmServer
let ollama: OllamaServer
let site: SiteServer
let page: Page

beforeAll(async () => {
  ;[ava, llm, ollama, site] = await Promise.all([launchAva(), startLlmServer(), startOllamaServer(), startSiteServer()])
  page = await ava.context.newPage()
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), ollama?.close(), site?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

type Api = 'openai' | 'anthropic' | 'ollama'
interface Image {
  mediaType: string
  png: PNG
}

/** Every image part of a request body, in the wire format it was sent in, decoded. */
function imagesOf(body: any, api: Api): Image[] {
  const out: Image[] = []
  for (const m of body.messages ?? []) {
    if (api === 'ollama')
      for (const b64 of m.images ?? [])
        out.push({ mediaType: 'image/png', png: PNG.sync.read(Buffer.from(b64, 'base64')) })
    if (!Array.isArray(m.content)) continue
    for (const part of m.content) {
      if (part.type === 'image_url') {
        const [, mediaType, b64] = /^data:([^;]+);base64,(.*)$/s.exec(part.image_url.url)!
        out.push({ mediaType, png: PNG.sync.read(Buffer.from(b64, 'base64')) })
      } else if (part.type === 'image') {
        out.push({ mediaType: part.source.media_type, png: PNG.sync.read(Buffer.from(part.source.data, 'base64')) })
      }
    }
  }
  return out
}

/** All the text a request carried. */
function textOf(body: any): string {
  return (body.messages ?? [])
    .map((m: any) => (typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join('')))
    .join('\n')
}

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const i = (png.width * Math.round(y) + Math.round(x)) * 4
  return [png.data[i], png.data[i + 1], png.data[i + 2]]
}
const isBlack = ([r, g, b]: number[]) => r < 16 && g < 16 && b < 16
/** A mark's colour: saturated, as no pixel of this page's greys and whites is. */
const isMarkColour = ([r, g, b]: number[]) => Math.max(r, g, b) - Math.min(r, g, b) > 60

type Box = { id: string; x: number; y: number; width: number; height: number }
/** The elements the page agent gave ids to, with their boxes in the viewport. */
/**
 * Each listed element's id and box in the viewport, read from the panel's debug overlay as a
 * person would (Ava writes no ids into the page); the overlay is turned off again.
 */
async function listedBoxes(panel: Frame): Promise<Box[]> {
  await toggleOverlay(panel, page, true)
  const boxes = await page.evaluate(() =>
    ([...document.querySelectorAll('[data-ava-ui="observe-overlay"] > div')] as HTMLElement[]).map((box) => {
      const [x, y, width, height] = ['left', 'top', 'width', 'height'].map((k) =>
        parseFloat(box.style.getPropertyValue(k)),
      )
      return { id: box.querySelector('span')?.textContent ?? '', x: x - scrollX, y: y - scrollY, width, height }
    }),
  )
  await toggleOverlay(panel, page, false)
  return boxes
}
async function boxOf(selector: string): Promise<Box> {
  return page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect()
    return { id: el.id, x: r.left, y: r.top, width: r.width, height: r.height }
  })
}
const viewWidth = () => page.evaluate(() => innerWidth)

async function open(query = ''): Promise<void> {
  await page.goto(`${site.url}/vision/pad.html${query}`)
  await page.bringToFront()
}
const done = (answer = 'Looked.') => JSON.stringify([{ step_id: 1, action_type: 'done', params: { answer } }])

for (const provider of ['openai', 'anthropic'] as const) {
  it(`a ${provider} profile's first request carries one screenshot whose marks are the listing's ids, where the elements are, and secret fields black`, async () => {
    await ava.configure({
      provider,
      baseUrl: llm.baseUrl,
      apiKey: 'k',
      model: 'test-model',
      structuredOutput: 'off',
      vision: 'on',
    })
    await open()
    llm.script({ text: done() })
    const panel = await ava.openPanel(page)
    await sendAndWait(panel, 'what does the map show?')
    const request = llm.requests.find((r) => r.api === provider)!
    const images = imagesOf(request.body, provider)
    expect(images).toHaveLength(1)
    const { png, mediaType } = images[0]
    // VISION_DUMP=<dir>: keep the picture, to look at the marks by eye.
    if (process.env.VISION_DUMP) writeFileSync(`${process.env.VISION_DUMP}/${provider}.png`, PNG.sync.write(png))
    expect(mediaType).toBe('image/png')
    const scale = png.width / (await viewWidth())
    const text = textOf(request.body)
    // The buttons are listed and visible: each is boxed in a mark colour, on its left edge, and its
    // id is in the listing the same request carried.
    // (The shadow root's Archive button is listed too; it is checked in its own test below.)
    const boxes = (await listedBoxes(panel)).filter((b) => /^btn_/.test(b.id) && b.id !== 'btn_archive')
    expect(boxes.map((b) => b.id).sort()).toEqual(['btn_approve', 'btn_delete_account', 'btn_reject'])
    for (const b of boxes) {
      expect(text).toMatch(new RegExp(`\\b${b.id}\\b`))
      expect(isMarkColour(pixel(png, (b.x + 1) * scale, (b.y + b.height / 2) * scale)), `${b.id}'s left edge`).toBe(
        true,
      )
      // …and not over its own text: the middle of the button is the button's own grey.
      expect(
        isMarkColour(pixel(png, (b.x + b.width / 2) * scale, (b.y + b.height / 2 + 6) * scale)),
        `${b.id}'s middle`,
      ).toBe(false)
    }
    // Password and masked fields are black through and through; the name field is not.
    for (const sel of ['#password', '#masked']) {
      const b = await boxOf(sel)
      for (let fx = 0.1; fx < 1; fx += 0.2)
        for (let fy = 0.2; fy < 1; fy += 0.3)
          expect(
            isBlack(pixel(png, (b.x + b.width * fx) * scale, (b.y + b.height * fy) * scale)),
            `${sel} at ${fx},${fy}`,
          ).toBe(true)
    }
    const name = await boxOf('#name')
    expect(isBlack(pixel(png, (name.x + name.width / 2) * scale, (name.y + name.height / 2) * scale))).toBe(false)
    // The overlay is gone from the page at once, and the panel says a picture was sent.
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('[data-ava-ui=marks]').length)).toBe(0)
    expect(await panel.locator('[data-kind=info]').last().textContent()).toContain('screenshot')
  }, 60_000)
}

it('a text-only profile (Local, whose usual models do not see; OpenAI-compatible at another address) sends no image; set to see, Ollama images', async () => {
  // An OpenAI-compatible profile at an address that is not OpenAI's: `auto` sends no picture.
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
  })
  await open()
  llm.script({ text: done() })
  await sendAndWait(await ava.openPanel(page), 'what is on this page?')
  expect(imagesOf(llm.requests.find((r) => r.api === 'openai')!.body, 'openai')).toHaveLength(0)

  await ava.configure({ baseUrl: ollama.baseUrl, structuredOutput: 'on' })
  ollama.set({ loadMs: 0, refuseExtensions: false })
  await open()
  ollama.requests.length = 0
  ollama.script(JSON.stringify({ steps: JSON.parse(done()) }))
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'what is on this page?')
  const chat = ollama.requests.find((r) => r.path === '/api/chat')!
  expect(imagesOf(chat.body, 'ollama')).toHaveLength(0)
  expect(JSON.stringify(chat.body)).not.toMatch(/screenshot of the visible part/)

  await ava.configure({ baseUrl: ollama.baseUrl, structuredOutput: 'on', vision: 'on' })
  ollama.requests.length = 0
  ollama.script(JSON.stringify({ steps: JSON.parse(done()) }))
  await page.reload()
  const again = await ava.openPanel(page)
  await sendAndWait(again, 'what is on this page?')
  const seen = ollama.requests.find((r) => r.path === '/api/chat')!
  expect(imagesOf(seen.body, 'ollama')).toHaveLength(1)
}, 60_000)

it('a site switched off for screenshots, and screenshots switched off, send none; a frame from a site switched off is black', async () => {
  const base = {
    provider: 'openai' as const,
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off' as const,
    vision: 'on' as const,
  }
  const run = async () => {
    llm.requests.length = 0
    llm.script({ text: done() })
    await page.reload()
    await sendAndWait(await ava.openPanel(page), 'look at the page')
    return llm.requests.find((r) => r.api === 'openai')!.body
  }
  await open()
  await ava.configure(base, { screenshots: { enabled: true, offSites: ['127.0.0.1'] } })
  expect(imagesOf(await run(), 'openai')).toHaveLength(0)
  await ava.configure(base, { screenshots: { enabled: false, offSites: [] } })
  expect(imagesOf(await run(), 'openai')).toHaveLength(0)

  // The page is captured; the partner frame from "localhost" (switched off) is drawn black.
  const port = new URL(site.url).port
  await open(`?frame=${encodeURIComponent(`http://localhost:${port}/vision/framed.html`)}`)
  await page.frameLocator('iframe').locator('#partner').waitFor()
  await ava.configure(base, { screenshots: { enabled: true, offSites: ['localhost'] } })
  const body = await run()
  const [shot] = imagesOf(body, 'openai')
  expect(shot).toBeTruthy()
  const scale = shot.png.width / (await viewWidth())
  const f = await boxOf('iframe')
  for (const [fx, fy] of [
    [0.2, 0.2],
    [0.5, 0.5],
    [0.8, 0.8],
  ])
    expect(isBlack(pixel(shot.png, (f.x + f.width * fx) * scale, (f.y + f.height * fy) * scale))).toBe(true)
}, 90_000)

it('a denied site is never captured: the run is refused before any model call', async () => {
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model', vision: 'on' },
    { safety: { confirm: [], allowDomains: [], denyDomains: ['127.0.0.1'] } },
  )
  await open()
  llm.script({ text: done() })
  const panel = await ava.openPanel(page)
  await pressSend(panel, 'look at the page')
  await panel.locator('[data-kind=error]').last().waitFor()
  expect(llm.requests.filter((r) => r.api === 'openai')).toHaveLength(0)
})

/** The model's reply computed from its request: points in the screenshot it was sent. */
function pointing(plan: (at: (box: Box, fx: number, fy: number) => [number, number]) => object[]): {
  from: (body: any) => string
} {
  return {
    from: (body) => {
      const [img] = imagesOf(body, 'openai')
      if (!img) return done('No screenshot came.')
      return JSON.stringify(
        plan((b, fx, fy) => [
          Math.round((b.x + b.width * fx) * (img.png.width / vw)),
          Math.round((b.y + b.height * fy) * (img.png.width / vw)),
        ]),
      )
    },
  }
}
let vw = 0

// A viewport wider than the screenshot's 1280 px, scrolled: points map back through the scale and the scroll.
for (const [w, h, scrolled] of [
  [1280, 800, 0],
  [1600, 1000, 60],
] as const)
  it(`clicks a canvas at a point of the screenshot and draws a signature along a path (${w}×${h}, scrolled ${scrolled} px); the canvas pixels show both`, async () => {
    await ava.configure({
      provider: 'openai',
      baseUrl: llm.baseUrl,
      apiKey: 'k',
      model: 'test-model',
      structuredOutput: 'off',
      vision: 'on',
    })
    await page.setViewportSize({ width: w, height: h })
    await open()
    await page.evaluate((y) => scrollTo(0, y), scrolled)
    vw = await viewWidth()
    const map = await boxOf('#map')
    const pad = await boxOf('#pad')
    // "the red one": the square at 170–210 × 40–80 of the 240 × 120 map (1 px border).
    llm.script(
      pointing((at) => [
        {
          step_id: 1,
          action_type: 'click',
          params: { x: at(map, 191 / 242, 61 / 122)[0], y: at(map, 191 / 242, 61 / 122)[1] },
          description: 'Click the red square',
        },
        {
          step_id: 2,
          action_type: 'drag',
          params: {
            path: [at(pad, 0.1, 0.5), at(pad, 0.3, 0.2), at(pad, 0.5, 0.8), at(pad, 0.7, 0.2), at(pad, 0.9, 0.5)],
          },
          description: 'Sign',
        },
        { step_id: 3, action_type: 'done', params: { answer: 'Clicked and signed.' } },
      ]),
    )
    const panel = await ava.openPanel(page)
    const answered = await panel.locator('[data-role=assistant]').count()
    // The conversation may hold questions from before: this run's are the next two cards.
    const asked = await panel.locator('[data-test=confirm]').count()
    await pressSend(panel, 'click the red one on the map, then sign the pad')
    // A canvas draws what Ava cannot read: the point and the path each ask, and the person allows.
    for (let n = 0; n < 2; n++) {
      const card = panel.locator('[data-test=confirm]').nth(asked + n)
      // A run that ended instead of asking says why in its last lines: the failure shows them.
      await card.waitFor({ timeout: 30_000 }).catch(async (e) => {
        const said = await panel.locator('[data-role]').allTextContents()
        throw new Error(`no question ${n + 1}; the conversation ends: ${said.slice(-4).join(' | ')}`, { cause: e })
      })
      expect(await card.textContent()).toMatch(/cannot read/)
      // Allow is taken only once the panel has been in plain view for 500 ms (the screenshot hid it).
      for (let i = 0; i < 20 && (await card.getAttribute('data-state')) === 'pending'; i++) {
        await card
          .locator('[data-test=confirm-allow]')
          .click({ timeout: 1_000 })
          .catch(() => undefined)
        await page.waitForTimeout(250)
      }
    }
    await expect
      .poll(() => panel.locator('[data-role=assistant]').count(), { timeout: 30_000 })
      .toBeGreaterThan(answered)
    await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
    expect(await panel.locator('[data-role=assistant]').last().textContent()).toContain('Clicked and signed.')
    expect(await page.$eval('#map', (c) => (c as HTMLCanvasElement).dataset.clicks)).toBe('1')
    // The click landed inside the red square, within a couple of pixels of the point named.
    const [lx, ly] = (await page.$eval('#map', (c) => (c as HTMLCanvasElement).dataset.last!)).split(',').map(Number)
    expect(Math.abs(lx - 190)).toBeLessThanOrEqual(3)
    expect(Math.abs(ly - 60)).toBeLessThanOrEqual(3)
    const green = await page.$eval('#map', (c) =>
      Array.from((c as HTMLCanvasElement).getContext('2d')!.getImageData(188, 58, 4, 4).data.slice(0, 3)),
    )
    expect(green).toEqual([0, 170, 0])
    // The stroke passes through the path's middle points: dark pixels there, none in the corners.
    const dark = await page.$eval('#pad', (c) => {
      const g = (c as HTMLCanvasElement).getContext('2d')!
      const at = (x: number, y: number) => g.getImageData(x, y, 1, 1).data[0] < 100
      return { mid: at(150, 96), peak: at(90, 24), corner: at(5, 5), strokes: (c as HTMLCanvasElement).dataset.strokes }
    })
    expect(dark).toEqual({ mid: true, peak: true, corner: false, strokes: '1' })
    if (w !== 1280) {
      const [shot] = imagesOf(llm.requests.find((r) => r.api === 'openai')!.body, 'openai')
      expect([shot.png.width, shot.png.height]).toEqual([1280, 800])
    }
    await page.setViewportSize({ width: 1280, height: 800 })
  }, 60_000)

it('a point binds the element drawn there through the same gate: a point on "Delete account" asks first; no does nothing, yes acts on that element', async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
    vision: 'on',
  })
  await open()
  vw = await viewWidth()
  const del = await boxOf('#delete')
  llm.script(
    pointing((at) => [
      {
        step_id: 1,
        action_type: 'click',
        params: { x: at(del, 0.5, 0.5)[0], y: at(del, 0.5, 0.5)[1] },
        description: 'Click there',
      },
    ]),
  )
  const panel = await ava.openPanel(page)
  // The conversation may hold the canvas's questions from before: this one is the next card.
  const before = await panel.locator('[data-test=confirm]').count()
  await pressSend(panel, 'click the third button')
  const card = panel.locator('[data-test=confirm]').nth(before)
  await card.waitFor({ timeout: 30_000 })
  // The question names the element the point found, as drawn.
  expect(await card.textContent()).toContain('Delete account')
  await card.locator('[data-test=confirm-deny]').click()
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 20_000 })
  expect(await page.evaluate(() => document.body.dataset.deleted ?? 'no')).toBe('no')
  // A yes acts on the element the question showed, bound to it, as for a step named by id.
  llm.script(
    pointing((at) => [
      {
        step_id: 1,
        action_type: 'click',
        params: { x: at(del, 0.5, 0.5)[0], y: at(del, 0.5, 0.5)[1] },
        description: 'Click there',
      },
      { step_id: 2, action_type: 'done', params: { answer: 'Deleted.' } },
    ]),
  )
  const asked = await panel.locator('[data-test=confirm]').count()
  await pressSend(panel, 'click the third button again')
  const again = panel.locator('[data-test=confirm]').nth(asked)
  await again.waitFor({ timeout: 30_000 })
  expect(await again.textContent()).toContain('Delete account')
  // Allow is taken only once the panel has been in plain view for 500 ms, and the screenshot just
  // hid it: a person whose click did nothing clicks again.
  for (let i = 0; i < 20 && (await again.getAttribute('data-state')) === 'pending'; i++) {
    await again
      .locator('[data-test=confirm-allow]')
      .click({ timeout: 1_000 })
      .catch(() => undefined)
    await page.waitForTimeout(250)
  }
  await expect.poll(() => page.evaluate(() => document.body.dataset.deleted ?? 'no'), { timeout: 20_000 }).toBe('yes')
}, 90_000)

it("the options page turns screenshots off globally and per site, and the profile's vision setting, in English and Chinese; the next run honours it", async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
  })
  const options = await openOptions(ava)
  expect(await options.locator('label[for=screenshots]').textContent()).toBe('Screenshots for models that see')
  await options.fill('[data-test=screenshotsOff]', '127.0.0.1\nmail.example.com')
  await options.selectOption('[data-test=vision]', 'on')
  await options.click('[data-test=save]')
  await expect.poll(() => options.textContent('[data-test=notice]')).toBe('Saved.')
  const stored = (await ava.storage('local')).settings as { screenshots: unknown; profiles: { vision?: string }[] }
  expect(stored.screenshots).toEqual({ enabled: true, offSites: ['127.0.0.1', 'mail.example.com'] })
  expect(stored.profiles[0].vision).toBe('on')
  // The run on 127.0.0.1 sends no picture.
  await open()
  llm.script({ text: done() })
  await sendAndWait(await ava.openPanel(page), 'look')
  expect(imagesOf(llm.requests.find((r) => r.api === 'openai')!.body, 'openai')).toHaveLength(0)
  // Off for every site, said in Chinese.
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ ui: { version: 1, language: 'zh-CN' } }))
  await options.reload()
  await options.waitForSelector('[data-test=settings-form]')
  expect(await options.locator('label[for=screenshots]').textContent()).toBe('为能看图的模型截图')
  await options.uncheck('[data-test=screenshots]')
  await options.click('[data-test=save]')
  await expect
    .poll(
      async () => ((await ava.storage('local')).settings as { screenshots: { enabled: boolean } }).screenshots.enabled,
    )
    .toBe(false)
  await (await ava.worker()).evaluate(() => chrome.storage.local.set({ ui: { version: 1, language: 'en' } }))
  await options.close()
}, 60_000)

it("marks a shadow root's control and a cross-origin frame's control with the ids the listing gives them", async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
    vision: 'on',
  })
  const port = new URL(site.url).port
  await open(`?frame=${encodeURIComponent(`http://localhost:${port}/vision/framed.html`)}`)
  await page.frameLocator('iframe').locator('#partner').waitFor()
  llm.script({ text: done() })
  await sendAndWait(await ava.openPanel(page), 'what can I do here?')
  const body = llm.requests.find((r) => r.api === 'openai')!.body
  const [shot] = imagesOf(body, 'openai')
  const scale = shot.png.width / (await viewWidth())
  const text = textOf(body)
  // The frame's button is listed under the frame's prefix, and boxed where it is drawn.
  const frameId = /\b(frame_\w+?)_btn_partner_offer\b/.exec(text)?.[1]
  expect(frameId, text.slice(0, 2000)).toBeTruthy()
  const f = await boxOf('iframe')
  const partner = await page
    .frameLocator('iframe')
    .locator('#partner')
    .evaluate((el) => {
      const r = el.getBoundingClientRect()
      return { x: r.left, y: r.top, width: r.width, height: r.height }
    })
  expect(
    isMarkColour(pixel(shot.png, (f.x + partner.x + 1) * scale, (f.y + partner.y + partner.height / 2) * scale)),
  ).toBe(true)
  // The shadow root's button: listed, and boxed on its left edge.
  const drawn = await page.evaluate(() => {
    const r = document.getElementById('shadow-host')!.shadowRoot!.querySelector('button')!.getBoundingClientRect()
    return { x: r.left, y: r.top, width: r.width, height: r.height }
  })
  const near = (a: number, b: number) => Math.abs(a - b) < 1
  const outlined = (await listedBoxes(await ava.panel(page))).find(
    (b) => near(b.x, drawn.x) && near(b.y, drawn.y) && near(b.width, drawn.width) && near(b.height, drawn.height),
  )
  const archive = { ...drawn, id: outlined?.id }
  expect(archive.id).toBeTruthy()
  expect(text).toContain(archive.id!)
  expect(isMarkColour(pixel(shot.png, (archive.x + 1) * scale, (archive.y + archive.height / 2) * scale))).toBe(true)
}, 60_000)
