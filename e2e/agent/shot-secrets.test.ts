/**
 * A secret Ava typed is hidden in the picture wherever the page draws it again (docs/security.md,
 * "Pictures"): pages written for this test copy a vault value, as it is typed, into a div (spaced,
 * look-alike letters), another field (upper case, zero-width characters between the letters), two
 * spans, and a canvas. The echoes are black in the screenshot the model gets; a canvas Ava cannot
 * read means no picture at all, and the model is told why. The listing is redacted alike.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { launchAva, sendAndWait, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let page: Page

const kSecret = 'Pecan7-Copper42'

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startSiteServer()])
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
    vision: 'on',
  })
  await ava.saveSecrets({ nick: { value: kSecret, sites: [new URL(site.url).origin] } })
  page = await ava.context.newPage()
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

/** The images of an OpenAI-format request, decoded. */
function imagesOf(body: any): PNG[] {
  const out: PNG[] = []
  for (const m of body.messages ?? []) {
    if (!Array.isArray(m.content)) continue
    for (const part of m.content)
      if (part.type === 'image_url')
        out.push(PNG.sync.read(Buffer.from(/^data:[^;]+;base64,(.*)$/s.exec(part.image_url.url)![1], 'base64')))
  }
  return out
}
const textOf = (body: any): string =>
  (body.messages ?? [])
    .map((m: any) => (typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join('')))
    .join('\n')
/** The letters and digits a reader makes out of a text: width, case, zero-width and the Cyrillic look-alikes of this page folded. */
const readerLetters = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(
      /[\u0430\u0435\u043e\u0440\u0441\u0445]/g,
      (c) => ({ '\u0430': 'a', '\u0435': 'e', '\u043e': 'o', '\u0440': 'p', '\u0441': 'c', '\u0445': 'x' })[c]!,
    )
    .replace(/[^a-z0-9]/g, '')

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const i = (png.width * Math.round(y) + Math.round(x)) * 4
  return [png.data[i], png.data[i + 1], png.data[i + 2]]
}
const isBlack = ([r, g, b]: number[]) => r < 16 && g < 16 && b < 16
const boxOf = (sel: string) =>
  page.$eval(
    sel,
    (el) => el.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number },
  )

/** The model types the secret the person named, asks for a picture, then is done. */
function typeThenLook() {
  llm.script(
    {
      text: JSON.stringify([
        {
          step_id: 1,
          action_type: 'input',
          params: { fallback_selector: '#nick', semantic_locator: 'Nickname field', value: '${secret:nick}' },
          description: 'Type the nickname',
        },
        { step_id: 2, action_type: 'screenshot', params: {}, description: 'Look at the page' },
      ]),
    },
    { text: JSON.stringify([{ step_id: 3, action_type: 'done', params: { answer: 'Done.' } }]) },
  )
}

it('blacks out a typed secret the page copies into a div, another field and split spans, in any spelling; the rest of the page stays readable', async () => {
  await page.goto(`${site.url}/shot/echo.html`)
  await page.bringToFront()
  typeThenLook()
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'type ${secret:nick} as my nickname and check how it looks')
  await expect.poll(() => page.$eval('#echo', (el) => el.textContent!.length)).toBeGreaterThan(10)
  const follow = llm.requests.filter((r) => r.api === 'openai')[1]
  expect(follow, 'a second request, after the steps').toBeTruthy()
  const images = imagesOf(follow.body)
  expect(images).toHaveLength(1)
  const png = images[0]
  const scale = png.width / (await page.evaluate(() => innerWidth))
  for (const sel of ['#echo', '#copy', '#split']) {
    const b = await boxOf(sel)
    for (const fx of [0.05, 0.3, 0.6, 0.9])
      expect(isBlack(pixel(png, (b.x + b.width * fx) * scale, (b.y + b.height / 2) * scale)), `${sel} at ${fx}`).toBe(
        true,
      )
  }
  // The page's own words, which hold no secret, are not covered.
  const plain = await boxOf('#plain')
  expect(isBlack(pixel(png, (plain.x + plain.width * 0.9) * scale, (plain.y + plain.height / 2) * scale))).toBe(false)
  // The listing that went with it is redacted the same way, look-alike letters included.
  expect(readerLetters(textOf(follow.body))).not.toContain(readerLetters(kSecret))
  expect(readerLetters(textOf(follow.body))).not.toContain('pecan7')
}, 90_000)

it('sends no picture when the page draws the typed secret into a canvas, and tells the model why', async () => {
  await page.goto(`${site.url}/shot/canvas.html`)
  await page.bringToFront()
  typeThenLook()
  const panel = await ava.openPanel(page)
  await sendAndWait(panel, 'type ${secret:nick} on the badge and check how it looks')
  const follow = llm.requests.filter((r) => r.api === 'openai')[1]
  expect(follow, 'a second request, after the steps').toBeTruthy()
  expect(imagesOf(follow.body)).toHaveLength(0)
  expect(textOf(follow.body)).toMatch(
    /No screenshot could be taken: a secret typed on this page could be drawn where Ava cannot black it out \(canvas/,
  )
}, 90_000)
