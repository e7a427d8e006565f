/**
 * A file input has no ARIA role, yet people name it as a field ("the CV file field", "CV file
 * input"): those words find it, as its label alone and "upload" do.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
  h.server.page(
    '/cv.html',
    `<!doctype html><meta charset="utf-8"><title>Apply</title>
<label>Your name <input id="name"></label>
<label>Your CV <input type="file" id="cv"></label><script>window.__state = {}</script>`,
  )
})
afterAll(() => h?.close())

test.each(['Your CV file field', 'CV file input', 'Your CV', 'Your CV upload'])(
  '"%s" finds the file input',
  async (semantic) => {
    const page = await h.open('/cv.html')
    const found = await page.evaluate(async (s) => {
      const r = await (window as any).__avaExec.locate({ semantic: s }, { timeoutMs: 1000, allowText: false })
      return r.ok === false ? r.code : r.el.id
    }, semantic)
    expect(found).toBe('cv')
  },
)
