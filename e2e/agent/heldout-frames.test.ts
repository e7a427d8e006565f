import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { readSteps, sendAndWait, launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

/**
 * Every site check applies where the step acts, for the other site's form reached
 * as another author hides it (e2e/fixtures/redteam/nest-*.html): two frames down, through a
 * frame of the run's own site; or in a srcdoc or about:blank child the denied site writes into
 * its own frame. With that site denied, nothing is typed there and nothing reaches it.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
let other: SiteServer

beforeAll(async () => {
  ;[ava, llm, site, other] = await Promise.all([
    launchAva(),
    startLlmServer(),
    startSiteServer(),
    startSiteServer({ host: 'localhost' }),
  ])
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    {
      safety: {
        confirm: ['cross_site', 'destructive', 'credentials', 'payment', 'high_risk_action'],
        allowDomains: [],
        denyDomains: ['localhost'],
      },
    },
  )
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), other?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
  other.hits.length = 0
})

async function formFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined
  await expect
    .poll(
      async () => {
        for (const f of page.frames()) if (await f.$('#note').catch(() => null)) found = f
        return !!found
      },
      { timeout: 10_000 },
    )
    .toBe(true)
  return found!
}

it.each(['nested', 'srcdoc', 'blank'])(
  'a denied site’s form reached %s: nothing is typed there and nothing is sent',
  async (mode) => {
    const page = await ava.context.newPage()
    await page.goto(`${site.url}/redteam/nest-top.html?mode=${mode}&other=${encodeURIComponent(other.url)}`)
    const frame = await formFrame(page)
    let prompt = ''
    llm.script({
      from: (body) => {
        prompt = String(body.messages.at(-1).content)
        const ids = [...new Set(prompt.match(/\b[a-z][\w]*_\w+\b/g) ?? [])]
        const note = ids.find((i) => /note/.test(i)) ?? '#note'
        const save = ids.find((i) => /save/.test(i)) ?? '#save'
        const at = (id: string) => (id.startsWith('#') ? { fallback_selector: id } : { target_id: id })
        return JSON.stringify([
          {
            step_id: 1,
            action_type: 'input',
            params: { ...at(note), value: 'card 4111 1111 1111 1111' },
            description: 'Type the profile note',
          },
          { step_id: 2, action_type: 'click', params: at(save), description: 'Save the profile' },
        ])
      },
    })
    const panel = await ava.openPanel(page)
    await sendAndWait(panel, `save my profile (${mode})`)
    const steps = await readSteps(panel)
    expect(steps[0]?.status, prompt).not.toBe('ok')
    // Not read, and said so: the frame's site is named as left out (docs/security.md, "Frames"),
    // and its fields never reach the model.
    expect(prompt).toMatch(/frame of localhost:\d+ left out/)
    expect(prompt).not.toMatch(/card number|frame_\w*note/i)
    expect(await frame.inputValue('#note')).toBe('')
    expect(other.hits.filter((h) => h.path === '/exfil')).toEqual([])
    await page.close()
  },
)
