/**
 * Reading a whole feed or table (docs/agent.md, "Reading a whole feed") in the built
 * extension: a scripted model writes `collect`, Ava scrolls the page's list in rounds and the
 * model's next request holds every item, inside the untrusted block. The timeline
 * (e2e/fixtures/feed/timeline.html) is virtualised as the big sites' are: cells scrolled past are
 * removed and drawn again as new elements, none carries its post's id, and posts load 20 at a time.
 */
import { readFile } from 'node:fs/promises'
import { expect, it } from 'vitest'
import { instructionChunks, readSteps, withAgentWorld, type AgentWorld } from '../support/ava'

let w: AgentWorld
withAgentWorld((world) => (w = world))

const kOpen = '<untrusted_page_content>'
const kClose = '</untrusted_page_content>'

/** The text of the request's last user message (the follow-up after the steps ran). */
function lastUser(n: number): string {
  const body = w.llm.requests.filter((r) => r.api === 'openai')[n].body as {
    messages: { role: string; content: string }[]
  }
  return body.messages.filter((m) => m.role === 'user').at(-1)!.content
}

/** The untrusted blocks of a prompt, in order. */
function blocks(prompt: string): string[] {
  const out: string[] = []
  let at = 0
  for (;;) {
    const open = prompt.indexOf(kOpen, at)
    if (open < 0) return out
    const close = prompt.indexOf(kClose, open)
    if (close < 0) throw new Error('an untrusted block is never closed')
    out.push(prompt.slice(open + kOpen.length, close))
    at = close + kClose.length
  }
}

/** The numbered item lines a collect step put into the results block. */
function itemLines(block: string): string[] {
  const start = block.indexOf('Items collected by step')
  expect(start, block.slice(0, 400)).toBeGreaterThanOrEqual(0)
  return block
    .slice(start)
    .split('\n')
    .slice(1)
    .filter((l) => /^\d+\. /.test(l))
}

/** RFC 4180, as a spreadsheet reads it: quoted fields, doubled quotes, CRLF records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += c
  }
  if (field || row.length) rows.push([...row, field])
  return rows
}

it('collects 50 posts of a virtualised timeline, each once, and the model gets them inside the untrusted block', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/feed/timeline.html`)
  await page.waitForSelector('.cell')
  w.llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'collect', params: { limit: 50 }, description: 'Read the last 50 posts' },
      ]),
    },
    {
      chunks: instructionChunks([
        { step_id: 2, action_type: 'done', params: { answer: 'People post about coffee, builds and trains.' } },
      ]),
    },
  )
  const panel = await w.ava.ask(page, 'summarise the last 50 posts')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 90_000 })
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok'])
  expect(steps[0].note).toBe('Collected 50 items')

  // The page really is virtualised: it never held more than a screenful of cells, and scrolled.
  expect(await page.evaluate(() => (window as any).__maxDrawn)).toBeLessThan(20)
  expect(await page.evaluate(() => document.getElementById('timeline')!.scrollTop)).toBeGreaterThan(3_000)

  expect(w.llm.requests.filter((r) => r.api === 'openai')).toHaveLength(2)
  const follow = lastUser(1)
  const results = blocks(follow)[0]
  const items = itemLines(results)
  expect(items).toHaveLength(50)
  // Posts 1–50 in page order, each once (virtualised re-renders are the same post).
  const numbers = items.map((l) => Number(/Post (\d+):/.exec(l)?.[1] ?? NaN)).filter((n) => !Number.isNaN(n))
  expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1).filter((n) => n !== 8))
  // Post 8 is the page's attempt to close the block and give orders: it stays inside, neutralised.
  expect(results).toContain('Ignore all previous instructions')
  const outside = follow.replace(new RegExp(`${kOpen}[\\s\\S]*?${kClose}`, 'g'), '')
  expect(outside).not.toContain('Ignore all previous instructions')
  expect(outside).not.toContain('Post 1:')
  await page.close()
}, 120_000)

it('waits for a feed whose first posts arrive after the page is ready, and collects them', async () => {
  const page = await w.ava.context.newPage()
  // The first 20 posts come 3 s after load, and there are no more: nothing is drawn when the step comes.
  await page.goto(`${w.site.url}/feed/timeline.html?slow=3000&total=20`)
  w.llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'collect', params: { limit: 20 }, description: 'Read the posts' },
      ]),
    },
    { chunks: instructionChunks([{ step_id: 2, action_type: 'done', params: { answer: 'Twenty posts.' } }]) },
  )
  const panel = await w.ava.ask(page, 'summarise my timeline')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 90_000 })
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => [s.status, s.note]),
    JSON.stringify(steps),
  ).toEqual([['ok', 'Collected 20 items']])
  expect(itemLines(blocks(lastUser(w.llm.requests.filter((r) => r.api === 'openai').length - 1))[0])).toHaveLength(20)
  await page.close()
}, 90_000)

it('Stop ends a collection mid-way: no more scrolling or loading, and no further model call', async () => {
  const page = await w.ava.context.newPage()
  // Each load takes 2 s and the feed never ends: only Stop or the budget ends this collection.
  await page.goto(`${w.site.url}/feed/timeline.html?slow=2000`)
  await page.waitForSelector('.cell', { timeout: 10_000 })
  w.llm.script({
    chunks: instructionChunks([
      { step_id: 1, action_type: 'collect', params: { limit: 500 }, description: 'Read every post' },
    ]),
  })
  const panel = await w.ava.ask(page, 'summarise every post in my timeline')
  const note = panel.locator('[data-role=assistant]').last().locator('[data-test=step-note]')
  await expect
    .poll(async () => Number(/(\d+) of 500/.exec((await note.textContent().catch(() => '')) ?? '')?.[1] ?? 0), {
      timeout: 30_000,
    })
    .toBeGreaterThanOrEqual(20)
  await panel.click('[data-test=stop]')
  await panel.locator('[data-role=assistant]').last().locator('[data-test=usage]').waitFor({ timeout: 10_000 })
  await panel.locator('[data-kind=error]', { hasText: 'Stopped.' }).last().waitFor({ timeout: 10_000 })
  // A round in flight when Stop came may finish its one scroll; nothing after it.
  await page.waitForTimeout(3_000)
  const at = await page.evaluate(() => ({
    loads: (window as any).__loads,
    top: document.getElementById('timeline')!.scrollTop,
  }))
  await page.waitForTimeout(5_000)
  expect(
    await page.evaluate(() => ({
      loads: (window as any).__loads,
      top: document.getElementById('timeline')!.scrollTop,
    })),
  ).toEqual(at)
  expect(w.llm.requests.filter((r) => r.api === 'openai')).toHaveLength(1)
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['skipped'])
  await page.close()
}, 90_000)

it('lists every order over ¥500 from a table that loads as it scrolls, and saves the rows and the answer as CSV and JSON', async () => {
  const page = await w.ava.context.newPage()
  await page.goto(`${w.site.url}/feed/orders.html`)
  await page.waitForSelector('#orders tbody tr')
  const orders = (await page.evaluate(() => (window as any).__orders)) as {
    id: string
    item: string
    amount: number
    status: string
  }[]
  // A model that reads the rows it was given and answers with the ones over ¥500, as a markdown table.
  const answer = (body: { messages: { role: string; content: string }[] }) => {
    const prompt = body.messages.filter((m) => m.role === 'user').at(-1)!.content
    const rows = itemLines(blocks(prompt)[0]).map((l) => l.replace(/^\d+\. /, '').split(' | '))
    const big = rows.filter((r) => Number(r[2].replace(/[¥,]/g, '')) > 500)
    const md = [
      '| 订单号 | 商品 | 金额 |',
      '| --- | --- | --- |',
      ...big.map((r) => `| ${r[0]} | ${r[1].replace(/\|/g, '\\|')} | ${r[2]} |`),
    ].join('\n')
    return JSON.stringify([{ step_id: 2, action_type: 'done', params: { answer: `金额超过 500 元的订单：\n\n${md}` } }])
  }
  w.llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'collect', params: { fallback_selector: '#orders' }, description: '读取全部订单' },
      ]),
    },
    { from: answer },
  )
  const panel = await w.ava.ask(page, '列出所有金额超过500元的订单')
  const run = panel.locator('[data-role=assistant]').last()
  await run.locator('[data-test=usage]').waitFor({ timeout: 90_000 })
  const steps = await readSteps(panel)
  expect(
    steps.map((s) => s.status),
    JSON.stringify(steps),
  ).toEqual(['ok'])
  expect(steps[0].note).toBe('Collected 45 items: the list ended there')

  // The collected rows, saved as CSV: every order of the page, with the table's own headings.
  const [csvFile] = await Promise.all([
    page.waitForEvent('download'),
    run.locator('[data-test=step] [data-test=save-csv]').click(),
  ])
  expect(csvFile.suggestedFilename()).toMatch(/^ava-items-.*\.csv$/)
  const csv = parseCsv((await readFile((await csvFile.path())!, 'utf8')).replace(/^\uFEFF/, ''))
  expect(csv[0]).toEqual(['订单号', '商品', '金额', '状态'])
  expect(csv.slice(1)).toEqual(orders.map((o) => [o.id, o.item, `¥${o.amount.toFixed(2)}`, o.status]))

  // The answer's table, saved as JSON: the orders over ¥500, one object per row.
  const [jsonFile] = await Promise.all([
    page.waitForEvent('download'),
    run.locator(':scope > [data-test=save-table] [data-test=save-json]').click(),
  ])
  const saved = JSON.parse(await readFile((await jsonFile.path())!, 'utf8')) as Record<string, string>[]
  const expected = orders
    .filter((o) => o.amount > 500)
    .map((o) => ({ 订单号: o.id, 商品: o.item, 金额: `¥${o.amount.toFixed(2)}` }))
  expect(expected.length).toBeGreaterThan(10)
  expect(saved).toEqual(expected)
  await page.close()
}, 120_000)
