/**
 * drag (docs/agent.md, "Screenshots"): the pointer pressed at the path's first point, moved along
 * it with the button held, released at its last; a signature pad counts the moves, a slider made of
 * divs follows the pointer; a first point not on the element drags nothing.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { okOf, run, startHarness, state, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const box = (page: Page, sel: string) =>
  page.$eval(sel, (el) => {
    const r = el.getBoundingClientRect()
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height }
  })

test('a stroke on a canvas, and a slider dragged to three quarters', async () => {
  const page = await h.open('/drag.html')
  const pad = await box(page, '#pad')
  const path = [0.1, 0.3, 0.5, 0.7, 0.9].map((f, i) => ({
    x: pad.x + pad.width * f,
    y: pad.y + pad.height * (i % 2 ? 0.2 : 0.8),
  }))
  okOf(await run(page, { action: 'drag', target: { selectors: ['css:#pad'] }, path }))
  expect(await state(page)).toMatchObject({ points: 4, strokes: 1 })
  const knob = await box(page, '#knob')
  const track = await box(page, '#track')
  const start = { x: knob.x + 12, y: knob.y + 12 }
  okOf(
    await run(page, {
      action: 'drag',
      target: { selectors: ['css:#knob'] },
      path: [start, { x: track.x + track.width * 0.5, y: start.y }, { x: track.x + track.width * 0.75, y: start.y }],
    }),
  )
  expect((await state(page)).volume).toBe(75)
})

test('a first point that is not on the element drags nothing', async () => {
  const page = await h.open('/drag.html')
  const track = await box(page, '#track')
  const out = await run(page, {
    action: 'drag',
    target: { selectors: ['css:#pad'] },
    path: [
      { x: track.x + 100, y: track.y + 6 },
      { x: track.x + 200, y: track.y + 6 },
    ],
  })
  expect(out.ok).toBe(false)
  expect(await state(page)).toMatchObject({ points: 0, strokes: 0 })
})
