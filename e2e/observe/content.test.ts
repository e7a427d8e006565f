// Content sections and the attention model in real Chromium, where boxes and
// font sizes are real. The expected scores are worked out here from the seed's formula and the
// boxes the page reports, not taken from the engine.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { observeBundle } from './bundle'
import { startServer, type StaticServer } from './server'

let browser: Browser
let server: StaticServer

beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchBrowser(), startServer()])
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

const kViewport = { width: 1280, height: 800 }

interface Section {
  tag: string
  text: string
  attention: number
  bounds: { x: number; y: number; width: number; height: number }
}

async function sections(path: string, html: string): Promise<{ page: Page; content: Section[] }> {
  server.page(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Content</title></head><body style="margin:0;font:16px sans-serif">${html}</body></html>`,
  )
  const page = await browser.newPage({ viewport: kViewport })
  await page.goto(server.url(path), { waitUntil: 'load' })
  await page.addScriptTag({ content: await observeBundle() })
  const content = await page.evaluate(() => (window as any).__avaObserve.observe().content as Section[])
  return { page, content }
}

/** position 0.35, area 0.25, font size 0.15, tag 0.25, with a first-screen bonus. */
function expectedAttention(b: Section['bounds'], fontSize: number, maxFont: number, tagScore: number): number {
  const { width: vw, height: vh } = kViewport
  const diag = Math.hypot(vw, vh)
  const distance = Math.hypot(b.x + b.width / 2 - vw / 2, b.y + b.height / 2 - vh / 2)
  const onFirstScreen = b.y < vh && b.y + b.height > 0
  const position = Math.min(1, Math.max(0, 1 - distance / (2 * diag)) + (onFirstScreen ? 0.2 : 0))
  const area = Math.sqrt(Math.min(1, (b.width * b.height) / (vw * vh)))
  return 0.35 * position + 0.25 * area + 0.15 * (fontSize / maxFont) + 0.25 * tagScore
}

describe('content sections', () => {
  test('blocks a person cannot see are left out; the rest are ranked by the four dimensions', async () => {
    const { page, content } = await sections(
      '/attention.html',
      '<h1 style="font-size:40px;margin:0">Quarterly report</h1>' +
        '<p style="margin:0">The lead paragraph of the report, on the first screen.</p>' +
        '<p style="display:none">Hidden by display</p>' +
        '<p style="visibility:hidden">Hidden by visibility</p>' +
        '<p style="opacity:0">Hidden by opacity</p>' +
        '<p style="position:absolute;left:-9999px">Parked off the page</p>' +
        '<div style="height:0;overflow:hidden"><p>Clipped away by its container</p></div>' +
        '<div style="height:3000px"></div>' +
        '<p style="margin:0">A paragraph far below the first screen.</p>',
    )
    const texts = content.map((s) => s.text)
    expect(texts).toEqual([
      'Quarterly report',
      'The lead paragraph of the report, on the first screen.',
      'A paragraph far below the first screen.',
    ])

    const [h1, lead, far] = content
    expect(h1.tag).toBe('h1')
    expect(h1.bounds.y).toBe(0)
    // Font sizes from the page: the h1 is the largest text, so it sets the scale.
    expect(h1.attention).toBeCloseTo(expectedAttention(h1.bounds, 40, 40, 1), 3)
    expect(lead.attention).toBeCloseTo(expectedAttention(lead.bounds, 16, 40, 0.6), 3)
    expect(far.attention).toBeCloseTo(expectedAttention(far.bounds, 16, 40, 0.6), 3)
    expect(far.bounds.y).toBeGreaterThan(3000)
    expect(h1.attention).toBeGreaterThan(lead.attention)
    expect(lead.attention).toBeGreaterThan(far.attention)
    await page.close()
  })

  test('fifty sections are kept; past the blocks around the viewport only the nearest fifty headings are scored', async () => {
    const paragraphs = Array.from(
      { length: 600 },
      (_, i) => `<p style="margin:0;font-size:12px">Line ${i} of the log.</p>`,
    ).join('')
    const headings = Array.from({ length: 250 }, (_, i) => `<h3>Archive ${i}</h3>`).join('')
    // Both pinned headings are drawn on the first screen in large type; only where they come in
    // document order differs. Blocks scored: the first 200 paragraphs (the viewport is at the
    // top), then the 50 nearest headings outside them: the first pinned one is the first of those,
    // the second comes after 250 more.
    const pinned = (label: string, top: number) =>
      `<h2 style="position:absolute;top:${top}px;left:600px;font-size:30px;margin:0">${label}</h2>`
    const { page, content } = await sections(
      '/many-blocks.html',
      paragraphs + pinned('Pinned heading one', 100) + headings + pinned('Pinned heading two', 200),
    )
    expect(content).toHaveLength(50)
    const texts = content.map((s) => s.text)
    expect(texts[0]).toBe('Pinned heading one')
    expect(texts).not.toContain('Pinned heading two')
    // Sorted by attention, highest first.
    const scores = content.map((s) => s.attention)
    expect(scores).toEqual([...scores].sort((x, y) => y - x))
    await page.close()
  })

  test('on a page scrolled far down, the sections are the ones on screen, not the top of the document', async () => {
    const lines = Array.from(
      { length: 2000 },
      (_, i) => `<p id="l${i}" style="margin:0">Line ${i} of the transcript.</p>`,
    ).join('')
    const page = await browser.newPage({ viewport: kViewport })
    server.page(
      '/scrolled.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Transcript</title></head><body style="margin:0;font:16px sans-serif">${lines}</body></html>`,
    )
    await page.goto(server.url('/scrolled.html'), { waitUntil: 'load' })
    await page.evaluate(() => document.getElementById('l1500')!.scrollIntoView({ block: 'start' }))
    await page.addScriptTag({ content: await observeBundle() })
    const { content, scrollY, onScreen } = await page.evaluate(() => ({
      content: (window as any).__avaObserve.observe().content as Section[],
      scrollY: window.scrollY,
      // The lines wholly on screen, measured here rather than by the engine.
      onScreen: Array.from(document.querySelectorAll('p'))
        .filter((p) => p.getBoundingClientRect().top >= 0 && p.getBoundingClientRect().bottom <= innerHeight)
        .map((p) => p.textContent),
    }))
    expect(scrollY).toBeGreaterThan(20_000)
    expect(onScreen.length).toBeGreaterThan(30)
    const texts = content.map((s) => s.text)
    expect(texts).toHaveLength(50)
    expect(texts).toEqual(expect.arrayContaining(onScreen))
    // The rest are the lines just around the screen (bounds are in document coordinates).
    for (const s of content) {
      expect(s.bounds.y).toBeGreaterThanOrEqual(scrollY - kViewport.height)
      expect(s.bounds.y).toBeLessThan(scrollY + 2 * kViewport.height)
    }
    await page.close()
  })
})
