/**
 * Data in the shape asked for (docs/extraction.md) in the built extension, through the panel's
 * `/extract` door: a scripted model collects and answers with one field map, and Ava reads every
 * product with it, checks each value with the schema, and offers the rows as typed JSON. The
 * catalogue (e2e/fixtures/feed/products.html) is a virtualised feed of 300 products and the same
 * products as a list of three pages; it has no brand, which the schema asks for.
 * No virtual-list library is installed in node_modules: the feed virtualises by hand, as the
 * timeline fixture does (cells scrolled past are removed and drawn again).
 */
import { readFile } from 'node:fs/promises'
import type { Frame, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { instructionChunks, readSteps, withAgentWorld, type AgentWorld } from '../support/ava'

let w: AgentWorld
withAgentWorld((world) => (w = world))

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    price: { type: 'number', minimum: 0 },
    rating: { type: 'number', minimum: 0, maximum: 5 },
    brand: { type: 'string' },
  },
  required: ['name', 'price', 'rating'],
}
const request = `/extract ${JSON.stringify(schema)} Get the name, price and rating of every product`
const fields = { name: 0, price: 1, rating: 2, brand: null }

/** The products as a person reads them off the page: prices and ratings to the digits shown. */
async function truth(page: Page) {
  const products = (await page.evaluate(() => (window as any).__products)) as {
    name: string
    price: number
    rating: number
  }[]
  return products.map((p) => ({ name: p.name, price: Number(p.price.toFixed(2)), rating: Number(p.rating.toFixed(1)) }))
}

async function savedRows(page: Page, panel: Frame): Promise<unknown[]> {
  const run = panel.locator('[data-role=assistant]').last()
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    run.locator('[data-test=extraction] [data-test=save-json]').click(),
  ])
  expect(file.suggestedFilename()).toMatch(/^ava-rows-.*\.json$/)
  return JSON.parse(await readFile((await file.path())!, 'utf8')) as unknown[]
}

async function ended(panel: Frame) {
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 150_000 })
}

it('extracts a virtualised feed of 300 products to the schema exactly, with two model calls, and says the brand is not there', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/feed/products.html`)
  await page.waitForSelector('.product')
  w.llm.script(
    { chunks: instructionChunks([{ step_id: 1, action_type: 'collect', params: { limit: 500 } }]) },
    {
      chunks: instructionChunks([
        { step_id: 2, action_type: 'done', params: { answer: 'Here are the products.', fields } },
      ]),
    },
  )
  const panel = await w.ava.ask(page, request)
  await ended(panel)
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['ok'])
  // The feed really is virtualised: it never held more than a screenful of products.
  expect(await page.evaluate(() => (window as any).__maxDrawn)).toBeLessThan(30)

  const expected = await truth(page)
  expect(expected).toHaveLength(300)
  expect(await savedRows(page, panel)).toEqual(expected)
  // Collect, then the field map: no model call per row, and nothing re-asked.
  expect(w.llm.requests.filter((r) => r.api === 'openai')).toHaveLength(2)
  // The model saw the items' parts inside the page block.
  const second = JSON.stringify(w.llm.requests.filter((r) => r.api === 'openai')[1].body)
  expect(second).toContain('Lamp model 1 | $0.99 | ★ 1.0')

  const run = panel.locator('[data-role=assistant]').last()
  expect(await run.locator('[data-test=extract-count]').textContent()).toContain('300 rows')
  expect(await run.locator('[data-test=extract-absent]').textContent()).toContain('brand')
  expect(await run.locator('[data-test=extract-problem]').count()).toBe(0)
  await page.close()
}, 200_000)

it('extracts a product list of three pages, collecting each page and following its Next link', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/feed/products.html?page=1`)
  await page.waitForSelector('.product')
  const next = { action_type: 'click', params: { fallback_selector: 'a#next' }, description: 'Next page' }
  w.llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'collect', params: { limit: 100 } },
        { step_id: 2, ...next },
      ]),
    },
    {
      chunks: instructionChunks([
        { step_id: 3, action_type: 'collect', params: { limit: 100 } },
        { step_id: 4, ...next },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 5, action_type: 'collect', params: { limit: 100 } }]) },
    {
      chunks: instructionChunks([{ step_id: 6, action_type: 'done', params: { answer: 'All three pages.', fields } }]),
    },
  )
  await w.ava.ask(page, request)
  // Each Next takes the panel's document with it; the panel comes back on the next page with the chat.
  await expect.poll(() => page.url(), { timeout: 120_000 }).toContain('page=3')
  await expect
    .poll(
      async () => {
        const f = await w.ava.openPanel(page).catch(() => undefined)
        return !!f && (await f.locator('[data-role=assistant]').last().locator('[data-test=usage]').count()) > 0
      },
      { timeout: 120_000 },
    )
    .toBe(true)
  const panelNow = await w.ava.openPanel(page)
  expect((await readSteps(panelNow)).map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
  const expected = await truth(page)
  expect(expected).toHaveLength(30)
  expect(await savedRows(page, panelNow)).toEqual(expected)
  const run = panelNow.locator('[data-role=assistant]').last()
  expect(await run.locator('[data-test=extract-absent]').textContent()).toContain('brand')
  await page.close()
}, 200_000)

it('refuses a schema it cannot extract to in the panel, saying what is wrong, with no model call', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/feed/products.html?page=1`)
  await page.waitForSelector('.product')
  const panel = await w.ava.openPanel(page)
  await panel.fill(
    '[data-test=input]',
    '/extract {"type":"object","properties":{"tags":{"type":"array"}}} get the tags',
  )
  await panel.click('[data-test=send]')
  const error = panel.locator('[data-test=error]')
  await expect
    .poll(() => error.textContent().catch(() => ''), { timeout: 20_000 })
    .toContain('Field "tags" must be one of')
  expect(await error.textContent()).toContain('Ava cannot extract rows to that schema')
  expect(w.llm.requests.filter((r) => r.api === 'openai')).toHaveLength(0)
  await page.close()
}, 60_000)
