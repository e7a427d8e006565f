/**
 * Files the page hands over, through the built extension (docs/agent.md, "Files the page hands
 * over"): an export link on one loopback site whose CSV the run reads and whose rows it uploads to
 * a second site, after a question naming the file and both sites; a PDF invoice whose total the
 * run answers from the file's text (pdf.js in the service worker); and, without the `downloads`
 * permission, a clear message instead of a file.
 *
 * The permission: Chrome's dialog for an optional permission (Options, "Downloaded files",
 * Allow) is browser UI a headless Chromium draws nowhere and no protocol can press. The granted
 * case therefore loads a copy of the built extension whose manifest lists `downloads` among the
 * permissions it holds: the state after the person said yes. The refused case loads the build as
 * it ships, where the permission is optional and not granted.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { distDir } from '../support/browser'
import { instructionChunks, launchAva, readSteps, sendAndWait, type Ava, pressSend } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { tinyPdf } from '../support/tiny-pdf'

const kCsv = 'order,customer,total\nA-100,Dana Wu,120.50\nA-101,Li Na,89.00\n'
const kInvoice = tinyPdf(['ACME Supplies - Invoice INV-2041', 'Subtotal: EUR 1,000.00', 'Total due: EUR 1,234.50'])

/** Two sites on one loopback port (`*.test` maps to 127.0.0.1): the shop that exports, the books that import. */
function startSites(): Promise<{ server: Server; port: number; received: { name: string; text: string }[] }> {
  const received: { name: string; text: string }[] = []
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)
    if (host === 'shop.test' && path === '/orders')
      return html(`<!doctype html><title>Orders</title><h1>Orders</h1><a id="export" href="/export">Export CSV</a>`)
    if (host === 'shop.test' && path === '/export')
      return res
        .writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="orders.csv"' })
        .end(kCsv)
    if (host === 'shop.test' && path === '/billing')
      return html(`<!doctype html><title>Billing</title><a id="inv" href="/invoice/2041">Download invoice</a>`)
    if (host === 'shop.test' && path === '/invoice/2041')
      return res
        .writeHead(200, {
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="INV-2041.pdf"',
        })
        .end(kInvoice)
    if (host === 'books.test' && path === '/import')
      return html(`<!doctype html><title>Import orders</title>
<label>Orders file <input type="file" id="f"></label><pre id="out"></pre>
<script>
  document.getElementById('f').addEventListener('change', async (e) => {
    const f = e.target.files[0]
    const text = await f.text()
    document.getElementById('out').textContent = text
    fetch('/received', { method: 'POST', body: JSON.stringify({ name: f.name, text }) })
  })
</script>`)
    if (host === 'books.test' && path === '/received') {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push(JSON.parse(body))
        res.writeHead(204).end()
      })
      return
    }
    res.writeHead(404).end()
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port, received }),
    ),
  )
}

/** The built extension as it is once the person allowed downloads (see the header). */
function grantedDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ava-dist-downloads-'))
  cpSync(distDir, dir, { recursive: true })
  const path = join(dir, 'manifest.json')
  const m = JSON.parse(readFileSync(path, 'utf8'))
  m.permissions = [...m.permissions, 'downloads']
  m.optional_permissions = m.optional_permissions.filter((p: string) => p !== 'downloads')
  writeFileSync(path, JSON.stringify(m))
  return dir
}

let sites: Awaited<ReturnType<typeof startSites>>
let llm: LlmServer
const url = (host: string, path: string) => `http://${host}:${sites.port}${path}`

beforeAll(async () => {
  ;[sites, llm] = await Promise.all([startSites(), startLlmServer()])
})
afterAll(async () => {
  await llm?.close()
  await new Promise((r) => sites?.server.close(r))
})

const step = (n: number, action_type: string, params: object, description: string) => ({
  step_id: n,
  action_type,
  params,
  description,
})
const said = (i: number) => JSON.stringify(llm.requests.filter((r) => r.api !== 'models')[i]?.body ?? '')

async function pendingQuestion(page: Page, ava: Ava): Promise<{ panel: Frame; text: string }> {
  for (let i = 0; i < 900; i++) {
    const panel = await ava.panel(page).catch(() => null)
    if (panel && (await panel.locator('[data-test=confirm][data-state=pending]').count()))
      return { panel, text: (await panel.locator('article.confirm').last().textContent()) ?? '' }
    await page.waitForTimeout(100)
  }
  throw new Error('No question came')
}

describe('with the downloads permission', () => {
  let ava: Ava
  let dist: string
  beforeAll(async () => {
    dist = grantedDist()
    ava = await launchAva({ dist })
    // No question before a step to another site: the upload's question is asked whatever the list says.
    await ava.configure(
      { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
      { safety: { confirm: [] } },
    )
  })
  afterAll(async () => {
    await ava?.close()
    rmSync(dist, { recursive: true, force: true })
  })

  it('an exported CSV is read, and its rows go to another site only after a question naming the file and both sites', async () => {
    llm.requests.length = 0
    const page = await ava.context.newPage()
    await page.goto(url('shop.test', '/orders'))
    const panel = await ava.openPanel(page)
    llm.script(
      { chunks: instructionChunks([step(1, 'click', { semantic_locator: 'Export CSV link' }, 'Export the orders')]) },
      { chunks: instructionChunks([step(2, 'read_file', { value: 'orders.csv' }, 'Read the export')]) },
      { chunks: instructionChunks([step(3, 'navigate', { url: url('books.test', '/import') }, 'Open the books')]) },
      {
        chunks: instructionChunks([
          step(4, 'upload', { semantic_locator: 'Orders file field', value: 'orders.csv' }, 'Upload the orders'),
        ]),
      },
      { chunks: instructionChunks([step(5, 'done', { answer: 'Uploaded 2 orders.' }, 'Done')]) },
    )
    await pressSend(panel, 'export the orders and import them into the books')

    const { panel: asking, text } = await pendingQuestion(page, ava)
    expect(text).toContain('“orders.csv”')
    expect(text).toContain('downloaded from shop.test')
    expect(text).toContain('to books.test')
    // The model read the file's rows, inside the page block, before it planned the upload.
    await expect.poll(() => said(2), { timeout: 30_000 }).toContain('A-101,Li Na,89.00')
    expect(said(1)).toContain('orders.csv')
    expect(sites.received).toEqual([])
    await asking.locator('[data-test=confirm-allow]').last().click()

    await expect.poll(() => sites.received, { timeout: 20_000 }).toEqual([{ name: 'orders.csv', text: kCsv }])
    const done = await ava.panel(page)
    await expect.poll(async () => (await readSteps(done)).map((s) => s.status), { timeout: 20_000 }).toContain('ok')
    // The run's message named the file when it came.
    await expect
      .poll(() => done.locator('[data-role=assistant]').last().textContent())
      .toMatch(/downloaded “orders\.csv” \(\d+ B\) from shop\.test/)
    await page.close()
  }, 180_000)

  it('a PDF invoice the page hands over is read for its total', async () => {
    llm.requests.length = 0
    const page = await ava.context.newPage()
    await page.goto(url('shop.test', '/billing'))
    const panel = await ava.openPanel(page)
    llm.script(
      { chunks: instructionChunks([step(1, 'click', { semantic_locator: 'Download invoice link' }, 'Download')]) },
      { chunks: instructionChunks([step(2, 'read_file', { value: 'INV-2041.pdf' }, 'Read the invoice')]) },
      { chunks: instructionChunks([step(3, 'done', { answer: 'The total due is EUR 1,234.50.' }, 'Answer')]) },
    )
    await sendAndWait(panel, 'what is the total of the invoice?', { timeout: 120_000 })
    expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok', 'ok'])
    // pdf.js's text of the real PDF, quoted from the page, is what the model answered from.
    const followUp = said(2)
    expect(followUp).toContain('Total due: EUR 1,234.50')
    expect(followUp).toMatch(/untrusted_page_content[\s\S]*INV-2041\.pdf[\s\S]*Total due/)
    await expect.poll(() => panel.locator('[data-role=assistant]').last().textContent()).toContain('EUR 1,234.50')
    await page.close()
  }, 180_000)
})

describe('without it', () => {
  let ava: Ava
  beforeAll(async () => {
    ava = await launchAva()
    await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
  })
  afterAll(async () => {
    await ava?.close()
  })

  it('a step that reads a downloaded file says Ava cannot see downloads and where to allow it', async () => {
    llm.requests.length = 0
    const page = await ava.context.newPage()
    await page.goto(url('shop.test', '/orders'))
    const panel = await ava.openPanel(page)
    llm.script(
      { chunks: instructionChunks([step(1, 'click', { semantic_locator: 'Export CSV link' }, 'Export')]) },
      { chunks: instructionChunks([step(2, 'read_file', { value: 'orders.csv' }, 'Read the export')]) },
    )
    await sendAndWait(panel, 'export the orders and tell me the total', { timeout: 120_000 })
    const steps = await readSteps(panel)
    expect(steps.map((s) => s.status)).toEqual(['ok', 'failed'])
    // The person's sentence (outcome.step.downloadsOff), not only the model's English behind Details.
    await expect
      .poll(async () => (await panel.locator('[data-role=assistant]').allTextContents()).join('\n'), {
        timeout: 20_000,
      })
      .toContain('Ava cannot see files that pages download, because you have not allowed it')
    expect((await panel.locator('[data-role=assistant]').allTextContents()).join('\n')).toContain(
      'open Ava’s options, “Downloaded files”, press Allow',
    )
    await page.close()
  }, 180_000)
})
