/**
 * A run's record saved from the panel (docs/run-record.md, "Export"): after a run with a question
 * to the person, a screenshot sent to the model and a failed step, the panel's Record (HTML) and
 * Record (JSON) buttons save one file each; the HTML opens in Chromium with no network and no
 * script and shows the question and its answer, the failure with its code and the picture; a saved
 * secret the run typed, and that the page echoes back, is in neither file in any form.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { chromium, type Browser, type Frame, type Page } from 'playwright-core'
import { baseArgs, chromiumPath } from '../support/browser'
import { instructionChunks, launchAva, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
let page: Page
let viewer: Browser

const kSecret = 'Quartz5-Lantern93'

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
  await ava.saveSecrets({ code: { value: kSecret, sites: [new URL(site.url).origin] } })
  page = await ava.context.newPage()
  viewer = await chromium.launch({ executablePath: chromiumPath, args: baseArgs })
}, 120_000)
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close(), viewer?.close()])
})

/** Every form a secret can leak in: plain, spaced, reversed, percent-encoded, base64 at each alignment. */
function leaks(text: string, secret: string): string[] {
  const lower = text.toLowerCase()
  const b64 = (pad: number) => Buffer.from('\0'.repeat(pad) + secret).toString('base64')
  const forms = [
    secret,
    secret.split('').join(' '),
    [...secret].reverse().join(''),
    encodeURIComponent(secret),
    b64(0).replace(/=+$/, ''),
    b64(1).slice(4, -4),
    b64(2).slice(4, -4),
  ]
  return forms.filter((f) => lower.includes(f.toLowerCase()))
}

async function save(panel: Frame, button: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 20_000 }),
    panel.locator('[data-role=assistant]').last().locator(`[data-test=${button}]`).click(),
  ])
  return readFileSync((await download.path())!, 'utf8')
}

it('a record saved after a run with a question, a screenshot and a failure opens offline and shows them, with no secret in it', async () => {
  await page.goto(`${site.url}/login`)
  await page.bringToFront()
  // The page echoes what is typed into the user name field, spaced out, as a hostile page may.
  await page.evaluate(() => {
    const echo = document.createElement('p')
    echo.id = 'echo'
    document.body.append(echo)
    document
      .querySelector('#username')!
      .addEventListener(
        'input',
        (e) => (echo.textContent = `Hello ${[...(e.target as HTMLInputElement).value].join(' ')}`),
      )
  })
  llm.script(
    {
      chunks: instructionChunks([
        {
          step_id: 1,
          action_type: 'input',
          params: { fallback_selector: '#username', value: '${secret:code}' },
          description: 'Type the code',
        },
        { step_id: 2, action_type: 'ask', params: { question: 'Which account should I use?' }, description: 'Ask' },
      ]),
    },
    {
      chunks: instructionChunks([
        {
          step_id: 3,
          action_type: 'click',
          params: { fallback_selector: '#no-such-button' },
          description: 'Press the missing button',
        },
      ]),
    },
    // The AI fallback for the missing element has no fix either.
    { text: '[]' },
  )
  const panel = await ava.ask(page, 'sign in with ${secret:code}')
  const card = panel.locator('[data-test=ask]')
  await card.waitFor({ timeout: 30_000 })
  // As e2e/agent/ask.test.ts does: the run is waiting on the question before it is answered.
  await page.waitForTimeout(1_500)
  await card.locator('[data-test=ask-input]').fill('the savings one')
  await card.locator('[data-test=ask-send]').click()
  await panel
    .locator('[data-role=assistant]')
    .last()
    .locator('[data-test=usage]')
    .waitFor({ timeout: 60_000 })
    .catch(async (e) => {
      throw new Error(
        `${e}\n${(await panel.locator('[data-test=message]').allInnerTexts()).join('\n---\n')}\n${llm.requests.length} model calls`,
      )
    })
  expect(await page.locator('#echo').textContent()).toContain(kSecret.split('').join(' '))

  // The record is written just after the run's usage: Save tries until it is there.
  let html = ''
  await expect
    .poll(
      async () => {
        html = await save(panel, 'export-html').catch(() => '')
        return html.includes('data-kind="failure"')
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  const json = await save(panel, 'export-json')
  const rec = JSON.parse(json)
  expect(rec).toMatchObject({ request: 'sign in with ${secret:code}', status: 'failed', verdict: { done: false } })
  const kinds = rec.events.map((e: { kind: string }) => e.kind)
  expect(kinds).toContain('question')
  expect(rec.events).toContainEqual(
    expect.objectContaining({ kind: 'question', type: 'ask', answer: 'the savings one' }),
  )
  expect(rec.events).toContainEqual(
    expect.objectContaining({ kind: 'step', status: 'failed', code: 'ELEMENT_NOT_FOUND' }),
  )
  expect(rec.shots.length).toBeGreaterThanOrEqual(1)

  for (const [name, text] of [
    ['html', html],
    ['json', json],
  ]) {
    expect(leaks(text, kSecret), name).toEqual([])
    for (const m of text.matchAll(/"data": "([A-Za-z0-9+/=]+)"|base64,([A-Za-z0-9+/=]+)"/g))
      expect(leaks(Buffer.from(m[1] ?? m[2], 'base64').toString('latin1'), kSecret), `${name} picture`).toEqual([])
  }

  // Opened where nothing can be fetched and no script runs, it shows the question, the failure and the picture.
  const context = await viewer.newContext({ javaScriptEnabled: false, offline: true })
  const view = await context.newPage()
  const requests: string[] = []
  view.on('request', (r) => void (r.url().startsWith('data:') || r.url() === 'about:blank' || requests.push(r.url())))
  await view.setContent(html)
  expect(await view.locator('li[data-kind=question]').allInnerTexts()).toContainEqual(
    expect.stringContaining('the savings one'),
  )
  expect(await view.locator('li[data-kind=step][data-status=failed]').innerText()).toContain('ELEMENT_NOT_FOUND')
  const img = view.locator('li[data-kind=model] img').first()
  await expect
    .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth), { timeout: 15_000 })
    .toBeGreaterThan(0)
  expect(requests).toEqual([])
  await context.close()
}, 180_000)
