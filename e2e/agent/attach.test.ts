/**
 * Files the person attaches in the panel, through the built extension: picked with
 * the attach button's native file chooser, shown as chips, sent with the request; the scripted
 * model names one in an `upload` step and the page's own file input receives its exact bytes.
 * The model is told the name, never the bytes; a step naming a file nobody attached fails saying
 * what is attached.
 */
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { instructionChunks, launchAva, readSteps, sendAndWait, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startFixtureServer, type FixtureServer } from '../executor/server'

let ava: Ava
let llm: LlmServer
let site: FixtureServer

// The page reads what its input got, as an application form's preview would.
const kPage = `<!doctype html><meta charset="utf-8"><title>Apply</title>
<label>Your CV <input type="file" id="cv"></label>
<pre id="out"></pre>
<script>
  document.getElementById('cv').addEventListener('change', async (e) => {
    const f = e.target.files[0]
    const bytes = new Uint8Array(await f.arrayBuffer())
    window.__got = { name: f.name, type: f.type, size: f.size, hex: [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('') }
    document.getElementById('out').textContent = await f.text()
  })
</script>`

// Text in two scripts, and bytes that are no UTF-8 at all: every byte must arrive as it was.
const kContent = Buffer.concat([Buffer.from('Ava 简历 ✓\n'), Buffer.from([0, 1, 0xfe, 0xff, 0x80])])

beforeAll(async () => {
  ;[ava, llm, site] = await Promise.all([launchAva(), startLlmServer(), startFixtureServer()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
  site.page('/apply.html', kPage)
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), site?.close()])
})

const upload = (value: string) => ({
  step_id: 1,
  action_type: 'upload',
  params: { semantic_locator: 'Your CV file field', value },
  description: 'Upload the CV',
})

/** Attaches a file as a person does: the attach button, then the browser's own file chooser. */
async function attach(
  page: Page,
  panel: Frame,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await panel.click('[data-test=attach]')
  await (await chooser).setFiles(file)
}

it('a file attached in the panel reaches the page’s file input byte for byte; the model sees only its name', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/apply.html'))
  const panel = await ava.openPanel(page)
  await attach(page, panel, { name: 'cv.txt', mimeType: 'text/plain', buffer: kContent })
  await expect
    .poll(() => panel.locator('[data-test=attachment]').allTextContents())
    .toEqual([expect.stringMatching(new RegExp(`^cv\\.txt\\s+${kContent.length} B\\s*✕\\s*$`))])

  llm.script(
    { chunks: instructionChunks([upload('cv.txt')]) },
    { chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: 'Uploaded.' } }]) },
  )
  await sendAndWait(panel, 'upload my CV')

  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok'])
  expect(await page.evaluate(() => (window as any).__got)).toEqual({
    name: 'cv.txt',
    type: 'text/plain',
    size: kContent.length,
    hex: kContent.toString('hex'),
  })
  expect(await page.textContent('#out')).toContain('Ava 简历 ✓')
  // The chips went with the request; the model was told the name and size, never the bytes.
  expect(await panel.locator('[data-test=attachment]').count()).toBe(0)
  const sent = JSON.stringify(llm.requests.map((r) => r.body))
  expect(sent).toContain(`\\"cv.txt\\" (text/plain, ${kContent.length} B)`)
  expect(sent).not.toContain(kContent.toString('base64'))
  // Nor does the run's saved state hold them, and its files are gone from session storage once it ended.
  await expect
    .poll(async () => JSON.stringify(await ava.storage('session')).includes(kContent.toString('base64')))
    .toBe(false)
  await page.close()
})

it('the attached file outlives a service worker restart in the middle of the run', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/apply.html'))
  const panel = await ava.openPanel(page)
  await attach(page, panel, { name: 'cv.txt', mimeType: 'text/plain', buffer: kContent })
  llm.script(
    // The first reply checks the page, then stalls: the worker is stopped while it streams.
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'verify', params: { assertion: 'Page shows "Your CV"' } },
        { step_id: 2, action_type: 'verify', params: { assertion: '"never reached"' } },
      ]),
      chunkDelayMs: 1_500,
    },
    {
      chunks: instructionChunks([
        upload('cv.txt'),
        { step_id: 4, action_type: 'done', params: { answer: 'Uploaded.' } },
      ]),
    },
  )
  // Not the first test's request, which the cache would replay with no model at all. The site's
  // history holds the earlier tests' runs: this run's message is the one after them.
  const before = await panel.locator('[data-role=assistant]').count()
  await pressSend(panel, 'put my CV into the application')
  const mine = panel.locator('[data-role=assistant]').nth(before).locator('[data-test=step]').first()
  await expect.poll(() => mine.getAttribute('data-status'), { timeout: 10_000 }).toBe('ok')
  // The bytes wait in session storage beside the run, for a worker that starts afresh.
  expect(JSON.stringify(await ava.storage('session'))).toContain(kContent.toString('base64'))
  await ava.stopWorker()
  await expect
    .poll(() => page.evaluate(() => (window as any).__got?.hex), { timeout: 20_000 })
    .toBe(kContent.toString('hex'))
  // It was the worker that started afresh (its memory empty) that uploaded them.
  expect(await (await ava.panel(page)).textContent('[data-test=messages]')).toMatch(/background was restarted/)
  await page.close()
})

it('an upload step naming a file that was not attached fails, listing what was', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/apply.html'))
  const panel = await ava.openPanel(page)
  await attach(page, panel, { name: 'cover letter.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') })
  llm.script({ chunks: instructionChunks([upload('resume.pdf')]) })
  await sendAndWait(panel, 'upload my resume')
  const steps = await readSteps(panel)
  expect(steps.map((s) => s.status)).toEqual(['failed'])
  expect(steps[0].detail).toBe(
    'No attached file is named "resume.pdf". Attached: "cover letter.pdf". Write one of these names as the upload step\'s value.',
  )
  expect(await page.evaluate(() => (window as any).__got)).toBeUndefined()
  await page.close()
})

it('a file over the limit is refused in the panel, and a chip can be removed', async () => {
  const page = await ava.context.newPage()
  await page.goto(site.url('/apply.html'))
  const panel = await ava.openPanel(page)
  await attach(page, panel, { name: 'scan.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) })
  await expect
    .poll(() => panel.textContent('[data-test=attach-error]'))
    .toBe('“scan.png” is 10.0 MB; a file may be at most 10.0 MB. It was not attached.')
  expect(await panel.locator('[data-test=attachment]').count()).toBe(0)
  await attach(page, panel, { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') })
  await expect.poll(() => panel.locator('[data-test=attachment]').count()).toBe(1)
  await panel.click('[data-test=attachment-remove]')
  await expect.poll(() => panel.locator('[data-test=attachment]').count()).toBe(0)
  await page.close()
})
