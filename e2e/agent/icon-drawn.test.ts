import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * An icon is judged by what it draws, with or above its class names (docs/security.md, "Judged as
 * drawn"): icon-only buttons whose classes say "archive" or "save" but which draw a trash can — an
 * emoji in `::before`, an inline SVG from a common icon set, an SVG image, an icon font's trash
 * glyph — and delete, are asked about, and the question shows the trash can
 * (e2e/fixtures/hostile/icon-drawn.html).
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const pending = '[data-test=confirm][data-state=pending]'
const deleted = (page: Page) => page.evaluate(() => (window as unknown as { __deleted: string[] }).__deleted)

for (const [kind, index] of [
  ['emoji', 0],
  ['svg', 1],
  ['img', 2],
  ['font', 3],
] as const) {
  it(`${kind}: a button classed as harmless that draws a trash can asks, naming what is drawn`, async () => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/icon-drawn.html`)
    let listed: string[] = []
    llm.script({
      from: (body) => {
        const prompt = String(body.messages.at(-1).content)
        // The listing's toolbar buttons, in order, as a model that reads it picks one.
        const ids = (listed = [...prompt.matchAll(/(?:^|\s)(btn_[\p{L}\p{N}_-]*)/gmu)].map((m) => m[1]))
        return JSON.stringify([
          { step_id: 1, action_type: 'click', params: { target_id: ids[index] }, description: 'Archive the message' },
          { step_id: 2, action_type: 'done', params: { answer: 'Done.' } },
        ])
      },
    })
    const panel = await ava.ask(page, `archive this message (${kind})`)
    await panel.waitForSelector(pending, { timeout: 20_000 })
    expect(await panel.locator('article.confirm').last().textContent()).toMatch(/🗑/)
    // The listing names each button by what it draws, not by its class: the model reads "delete".
    expect(listed).toHaveLength(4)
    for (const id of listed) expect(id).toMatch(/delete/)
    expect(await deleted(page)).toEqual([])
    await panel.locator('[data-test=confirm-deny]').last().click()
    await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 30_000 })
    expect(await deleted(page)).toEqual([])
    await page.close()
  })
}
