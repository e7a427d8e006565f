import type { Frame, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * The panel takes a click only when the person can see all of it, against what
 * another author would do to hide it without touching Ava's host or the root's opacity: a
 * near-opaque layer that clicks pass through, in the top layer (a popover) or as
 * the root's generated content. The person's real click on Send is refused, and the panel says
 * why. (A backdrop blur over it and a fade of every element the page can select leave the panel
 * in plain view: nothing to refuse there.)
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

const kVeil =
  'position:fixed;inset:0;margin:0;max-width:none;max-height:none;width:100vw;height:100vh;border:0;padding:0;pointer-events:none;background:rgba(255,255,255,.96)'
const kAttacks: Record<string, (veil: string) => void> = {
  popover: (veil) => {
    const p = document.createElement('div')
    p.setAttribute('popover', 'manual')
    p.setAttribute('style', veil)
    document.body.append(p)
    ;(p as HTMLElement & { showPopover(): void }).showPopover()
  },
  pseudo: (veil) => {
    const s = document.createElement('style')
    s.textContent = `html::after { content: ""; z-index: 2147483647; ${veil} }`
    document.head.append(s)
  },
}

const obscured = (panel: Frame) => panel.getAttribute('.panel', 'data-obscured')

async function messages(panel: Frame): Promise<number> {
  return panel.locator('[data-test=message]').count()
}

it.each(Object.keys(kAttacks))(
  'a panel hidden by %s refuses the person’s real click on Send and says why',
  async (name) => {
    const page: Page = await ava.context.newPage()
    await page.goto(`${site.url}/hostile/panel-hostile.html`)
    const panel = await ava.openPanel(page)
    await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('false')
    await panel.fill('[data-test=input]', 'transfer all my money')
    const send = (await panel.locator('[data-test=send]').boundingBox())!
    await page.evaluate(kAttacks[name], kVeil)
    await expect.poll(() => obscured(panel), { timeout: 10_000 }).toBe('true')
    const requests = llm.requests.length
    const before = await messages(panel)
    await page.mouse.click(send.x + send.width / 2, send.y + send.height / 2)
    await expect.poll(() => panel.isVisible('[data-test=obscured]'), { timeout: 10_000 }).toBe(true)
    expect(await messages(panel)).toBe(before)
    expect(llm.requests.length).toBe(requests)
    await page.close()
  },
)
