import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { instructionChunks, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

/**
 * Served files judged by what the browser will save (docs/security.md, "Leaving the site"): a page
 * written for this test links to what look like statements, and its server names a program in a
 * spelling Chrome decodes before saving (RFC 6266 `filename*`, a `%2E` dot, RFC 2047), sends a
 * `.url` shortcut, or redirects to a `.exe` address sent as octet-stream with no name. During a
 * run nothing is saved and the run says why; a document with a UTF-8 name still downloads.
 */
let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

async function openPage(): Promise<{ page: Page; downloads: string[] }> {
  const page = await ava.context.newPage()
  const downloads: string[] = []
  page.on('download', (d) => downloads.push(d.suggestedFilename()))
  await page.goto(`${site.url}/redteam/served-names.html`)
  return { page, downloads }
}

const clickThenDone = (selector: string) => ({
  chunks: instructionChunks([
    { step_id: 1, action_type: 'click', params: { fallback_selector: selector }, description: 'Get my statement' },
    { step_id: 2, action_type: 'done', params: { answer: 'Done.' } },
  ]),
})

it.each([
  ['#star', "filename*=UTF-8''statement%2Eexe"],
  ['#pct', 'a plain filename with a %2e dot'],
  ['#mime', 'an RFC 2047 name'],
  ['#shortcut', 'a .url shortcut sent as text/plain'],
  ['#redirect', 'a redirect to /dl/setup.exe sent as octet-stream'],
])('%s (%s): nothing is saved, and the run stops saying why', async (selector) => {
  const { page, downloads } = await openPage()
  llm.script(clickThenDone(selector))
  await ava.ask(page, `get my statement ${selector}`)
  await expect
    .poll(async () => JSON.stringify(await ava.storage('local')), { timeout: 20_000 })
    .toMatch(/answered with a program to download/)
  await page.waitForTimeout(500)
  expect(downloads).toEqual([])
  await page.close()
})

it('a document whose name is sent in UTF-8 (filename*) still downloads during a run', async () => {
  const { page, downloads } = await openPage()
  llm.script(clickThenDone('#doc'))
  await ava.ask(page, 'get the invoice')
  await expect.poll(() => downloads, { timeout: 20_000 }).toEqual(['发票.pdf'])
  await page.close()
})
