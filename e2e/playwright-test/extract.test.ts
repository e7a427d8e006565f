import { afterAll, beforeAll, expect, test } from 'vitest'
import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromiumPath, distDir } from '../support/browser'
import { instructionChunks } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

// `ava.extract(schema, instruction)` of the Playwright fixture (docs/extraction.md), run by
// `npx playwright test` through the package entry: a zod schema, rows typed from it, read from a
// virtualised feed of 300 products by Ava's agent against a scripted model, compared with the
// page's own data; the brand the schema asks for and the page lacks is reported, not invented.

const root = resolve(import.meta.dirname, '../..')
const dir = resolve(root, `.ava-out/pwtest-extract-${process.pid}`)

let site: SiteServer
let llm: LlmServer
let output = ''
let report: { suites: { title: string; specs: { tests: { results: { status: string }[] }[] }[] }[] }

beforeAll(async () => {
  ;[site, llm] = await Promise.all([startSiteServer(), startLlmServer()])
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'extract.spec.ts'),
    `import { test, expect } from 'ava-assistant/playwright'
import { z } from 'zod'
test.use({ avaProvider: { provider: 'openai', baseUrl: ${JSON.stringify(llm.baseUrl)}, apiKey: 'k', model: 'test-model' } })
const Product = z.object({ name: z.string(), price: z.number().min(0), rating: z.number().max(5), brand: z.string().optional() })
test('extract', async ({ page, ava }) => {
  await page.goto(${JSON.stringify(`${site.url}/feed/products.html`)})
  const r = await ava.extract(Product, 'Get the name, price and rating of every product', { timeout: 120_000 })
  const first: string = r.rows[0].name
  // @ts-expect-error a row has only the schema's fields
  r.rows[0].colour
  const truth = (await page.evaluate(() => (window as any).__products)) as { name: string; price: number; rating: number }[]
  expect(truth).toHaveLength(300)
  expect(r.rows).toEqual(truth.map((p) => ({ name: p.name, price: Number(p.price.toFixed(2)), rating: Number(p.rating.toFixed(1)) })))
  expect(first).toBe(truth[0].name)
  expect(r.sources[1].price).toEqual({ item: 'data-id=sku-2', part: 1, text: '$137.99' })
  expect(r.absent).toEqual(['brand'])
  expect(r.problems).toEqual([])
})
`,
  )
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `export default { testDir: '.', testMatch: '*.spec.ts', workers: 1, retries: 0, timeout: 150_000, outputDir: './results',
  reporter: [['json', { outputFile: './report.json' }]], use: { headless: true, avaTrace: 'off' } }\n`,
  )
  llm.script(
    { chunks: instructionChunks([{ step_id: 1, action_type: 'collect', params: { limit: 500 } }]) },
    {
      chunks: instructionChunks([
        {
          step_id: 2,
          action_type: 'done',
          params: { answer: 'The products.', fields: { name: 0, price: 1, rating: 2, brand: null } },
        },
      ]),
    },
  )
  await new Promise<void>((done) => {
    execFile(
      process.execPath,
      [resolve(root, 'node_modules/@playwright/test/cli.js'), 'test', '-c', join(dir, 'playwright.config.ts')],
      { cwd: root, env: { ...process.env, AVA_DIST: distDir, AVA_CHROMIUM: chromiumPath, CI: '' }, timeout: 180_000 },
      (_e, stdout, stderr) => {
        output = `${stdout}\n${stderr}`
        done()
      },
    )
  })
  report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as typeof report
}, 200_000)

afterAll(async () => {
  await Promise.all([site?.close(), llm?.close()])
  rmSync(dir, { recursive: true, force: true })
})

test('ava.extract returns the 300 products typed from the zod schema, each with its source, the brand reported', () => {
  const suite = report.suites.find((s) => s.title === 'extract.spec.ts')
  expect(suite, output).toBeTruthy()
  expect(suite!.specs[0].tests[0].results[0].status, output).toBe('passed')
})
