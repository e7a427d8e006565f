import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { expect, it } from 'vitest'
import { withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * A point or a drag is judged by what is drawn where it lands and along its way (docs/security.md,
 * "What the person approved is what runs"), on a page that says "delete" only in its drawing
 * (e2e/fixtures/hostile/point-drag.html): a point on a canvas painted "Erase all my data", and a
 * drag of a knob whose slider says "Slide to permanently delete your account" beside its track or
 * only in the track's background picture. Each asks; denied, nothing runs.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

type Box = { x: number; y: number; width: number; height: number }
const done = (page: Page) => page.evaluate(() => (window as unknown as { __done: string[] }).__done)

/** The model's reply: points in the screenshot it was sent, from boxes in the page. */
function pointing(vw: number, plan: (at: (b: Box, fx: number, fy: number) => [number, number]) => object[]) {
  return {
    from: (body: any) => {
      let width = 0
      for (const m of body.messages ?? [])
        for (const part of Array.isArray(m.content) ? m.content : [])
          if (part.type === 'image_url')
            width = PNG.sync.read(Buffer.from(part.image_url.url.replace(/^data:[^,]*,/, ''), 'base64')).width
      const s = width / vw
      return JSON.stringify(
        plan((b, fx, fy) => [Math.round((b.x + b.width * fx) * s), Math.round((b.y + b.height * fy) * s)]),
      )
    },
  }
}

const cases: [
  string,
  RegExp,
  (at: (b: Box, fx: number, fy: number) => [number, number], boxes: Record<string, Box>) => object,
][] = [
  [
    'a point on a canvas painted "Erase all my data"',
    /cannot read/,
    (at, b) => ({
      step_id: 1,
      action_type: 'click',
      params: { x: at(b.erase, 0.5, 0.5)[0], y: at(b.erase, 0.5, 0.5)[1] },
      description: 'Click there',
    }),
  ],
  [
    'a drag of a knob whose label is beside the track',
    /permanently delete your account/,
    (at, b) => ({
      step_id: 1,
      action_type: 'drag',
      params: { path: [at(b.beside, 0.06, 0.5), at(b.beside, 0.5, 0.5), at(b.beside, 0.97, 0.5)] },
      description: 'Slide it',
    }),
  ],
  [
    'a drag of a knob whose label is only in the track’s picture',
    /cannot read/,
    (at, b) => ({
      step_id: 1,
      action_type: 'drag',
      params: { path: [at(b.pictured, 0.06, 0.5), at(b.pictured, 0.5, 0.5), at(b.pictured, 0.97, 0.5)] },
      description: 'Slide it',
    }),
  ],
]

const drag = (track: Box, at: (b: Box, fx: number, fy: number) => [number, number]) => ({
  step_id: 1,
  action_type: 'drag',
  params: { path: [at(track, 0.06, 0.5), at(track, 0.5, 0.5), at(track, 0.97, 0.5)] },
  description: 'Slide it',
})

for (const [name, says, step] of cases) {
  it(`${name} asks first; denied, nothing runs`, async () => {
    await ava.configure({
      provider: 'openai',
      baseUrl: llm.baseUrl,
      apiKey: 'k',
      model: 'test-model',
      structuredOutput: 'off',
      vision: 'on',
    })
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/point-drag.html`)
    const box = async (sel: string) => (await page.locator(sel).boundingBox())!
    const boxes = {
      erase: await box('#erase'),
      beside: await box('#beside .track'),
      pictured: await box('#pictured .track'),
    }
    const vw = await page.evaluate(() => innerWidth)
    llm.script(
      pointing(vw, (at) => [step(at, boxes), { step_id: 2, action_type: 'done', params: { answer: 'Done.' } }]),
    )
    const panel = await ava.ask(page, `do it: ${name}`)
    const card = panel.locator('[data-test=confirm][data-state=pending]')
    await card.waitFor({ timeout: 30_000 })
    expect(await card.textContent()).toMatch(says)
    expect(await done(page)).toEqual([])
    await card.locator('[data-test=confirm-deny]').click()
    await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
    expect(await done(page)).toEqual([])
    await page.close()
  })
}

it('a drag of a slider labelled "Volume" beside its track runs with no question', async () => {
  await ava.configure({
    provider: 'openai',
    baseUrl: llm.baseUrl,
    apiKey: 'k',
    model: 'test-model',
    structuredOutput: 'off',
    vision: 'on',
  })
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/hostile/point-drag.html`)
  const track = (await page.locator('#volume .track').boundingBox())!
  const vw = await page.evaluate(() => innerWidth)
  llm.script(pointing(vw, (at) => [drag(track, at), { step_id: 2, action_type: 'done', params: { answer: 'Done.' } }]))
  const panel = await ava.ask(page, 'turn the volume up')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
  // The conversation of this site holds the questions of the cases before; none is pending now.
  expect(await panel.locator('[data-test=confirm][data-state=pending]').count()).toBe(0)
  expect(await done(page)).toEqual(['volume'])
  await page.close()
})
