// The panel's streamed markdown (src/panel/markdown.ts) in real Chromium: DOMPurify
// needs a faithful DOM (happy-dom lets markup through that Chromium's parser would not), so the
// module is bundled and run in a page. Finished blocks are drawn once; the text drawn block by
// block, however it arrived, ends as the whole text rendered at once.
import { afterAll, beforeAll, expect, it } from 'vitest'
import fc from 'fast-check'
import { build } from 'esbuild'
import { resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../support/browser'
import { longMarkdownAnswer } from '../support/long-answer'

let browser: Browser
let page: Page

beforeAll(async () => {
  const out = await build({
    stdin: {
      contents: `import { createMarkdownView, renderMarkdown } from './src/panel/markdown'; Object.assign(window, { createMarkdownView, renderMarkdown })`,
      resolveDir: resolve(import.meta.dirname, '../..'),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
  })
  browser = await launchBrowser()
  page = await browser.newPage()
  await page.setContent('<!doctype html><body></body>')
  await page.addScriptTag({ content: out.outputFiles[0].text })
})
afterAll(async () => {
  await browser?.close()
})

/** Draws `text` as it arrives in pieces of `sizes` (cycled); returns the HTML, and the whole text rendered at once. */
function drawn(text: string, sizes: number[]): Promise<{ streamed: string; whole: string; steps: number }> {
  return page.evaluate(
    ({ text, sizes }) => {
      const w = window as any
      const root = document.createElement('div')
      const view = w.createMarkdownView(root)
      let steps = 0
      for (let at = 0, i = 0; at < text.length; i++) {
        at += sizes[i % sizes.length]
        view.set(text.slice(0, at))
        while (view.step()) steps++
      }
      // Blank text between blocks is all that may differ (the sanitiser can drop a block whole).
      const tidy = (html: string) => html.replace(/>\s+</g, '><').trim()
      return { streamed: tidy(root.innerHTML), whole: tidy(w.renderMarkdown(text)), steps }
    },
    { text, sizes },
  )
}

/** Markdown as a model writes it: blocks of several kinds, blank lines between some. */
const block = fc.oneof(
  fc.constantFrom(
    '# Title',
    '## Part two',
    'Plain words and **bold** and `code`.',
    'A [link](https://example.com/x).',
    '> quoted\n> more',
    '---',
    'Setext\n====',
  ),
  fc.constantFrom(
    '- one\n- two',
    '1. first\n2. second',
    '3. third',
    '- [x] done',
    '```ts\nconst a = 1\n\nconst b = 2\n```',
    '    indented code',
    '| a | b |\n| - | -: |\n| 1 | 2 |',
    'line one\nline two',
    '<b>bold</b> html',
  ),
  fc.string({ minLength: 1, maxLength: 30 }),
)
const doc = fc
  .array(fc.tuple(block, fc.constantFrom('\n', '\n\n', '\n\n\n', '\r\n\r\n')), { minLength: 1, maxLength: 12 })
  .map((bs) => bs.map(([b, sep]) => b + sep).join(''))

it('ends as the whole text rendered at once, however the text arrived', async () => {
  await fc.assert(
    fc.asyncProperty(
      doc,
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
      async (text, sizes) => {
        const { streamed, whole } = await drawn(text, sizes)
        expect(streamed).toBe(whole)
      },
    ),
    { numRuns: 100, interruptAfterTimeLimit: 40_000 },
  )
})

it('draws a long answer that arrives at once in several short steps', async () => {
  const text = longMarkdownAnswer(32 * 1024)
  const { streamed, whole, steps } = await drawn(text, [text.length])
  expect(streamed).toBe(whole)
  expect(steps).toBeGreaterThan(4) // at most a 4 KB slice per step
})

it('keeps the finished blocks it drew, and starts over for another text', async () => {
  const kept = await page.evaluate(() => {
    const w = window as any
    const root = document.createElement('div')
    const view = w.createMarkdownView(root)
    view.update('# Title\n\nFirst paragraph.\n\nSecond')
    const heading = root.querySelector('h1')
    view.update('# Title\n\nFirst paragraph.\n\nSecond paragraph, longer.')
    const same = root.querySelector('h1') === heading
    const paragraphs = [...root.querySelectorAll('p')].map((p) => p.textContent)
    view.update('# Another\n\ntext')
    return { same, paragraphs, after: [...root.children].map((e) => e.textContent) }
  })
  expect(kept).toEqual({
    same: true,
    paragraphs: ['First paragraph.', 'Second paragraph, longer.'],
    after: ['Another', 'text'],
  })
})
