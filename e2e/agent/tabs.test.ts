import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { instructionChunks, launchAva, readSteps, type Ava } from '../support/ava'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startSiteServer, type SiteServer } from '../support/site-server'

/**
 * The run's tabs (docs/agent.md, "Tabs") in the built extension: a comparison across three shop
 * pages on three loopback origins, answered from what Ava read in the tabs it opened and grouped;
 * a tab on another site that asks before it is read; a tab Ava did not open that it may not close.
 * The model is scripted; where its answer depends on the pages, it reads them from the prompt Ava
 * sent (`from`), as a model would.
 */

interface Offer {
  shop: string
  product: string
  price: string
  was: string
  delivery: string
}

const kOffers: Offer[] = [
  { shop: 'Velo Haus', product: 'Trekking bike lock, 1.2 m', price: '39.90', was: '49.90', delivery: '2–3 days' },
  { shop: 'RadMarkt', product: 'Trekking bike lock, 1.2 m', price: '34.50', was: '44.00', delivery: '4–6 days' },
  { shop: 'CycleCorner', product: 'Trekking bike lock, 1.2 m', price: '41.00', was: '41.00', delivery: 'next day' },
]

/** A product page as shops build them: header and search, breadcrumbs, gallery, price box, tabs, reviews, footer. */
function shopPage(o: Offer): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${o.product} | ${o.shop}</title>
<style>
body{font-family:sans-serif;margin:0;color:#222} header,footer{background:#f4f4f4;padding:12px 24px}
nav a{margin-right:14px} main{display:grid;grid-template-columns:1fr 1fr;gap:32px;padding:24px}
.gallery div{height:240px;background:#ddd;border-radius:8px} .price{font-size:28px;font-weight:bold}
.was{text-decoration:line-through;color:#888;margin-left:8px} .box{border:1px solid #ddd;padding:16px;border-radius:8px}
</style></head><body>
<header><strong>${o.shop}</strong>
<form role="search" action="/search"><input name="q" aria-label="Search the shop" placeholder="Search"><button>Search</button></form>
<nav aria-label="Categories"><a href="/bikes">Bikes</a><a href="/parts">Parts</a><a href="/accessories">Accessories</a><a href="/sale">Sale</a></nav>
<a href="/account">My account</a> <a href="/cart">Cart (0)</a></header>
<nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/accessories">Accessories</a></li><li>Locks</li></ol></nav>
<main>
<section class="gallery" aria-label="Product images"><div role="img" aria-label="${o.product}, front"></div>
<button aria-label="Next image">›</button></section>
<section class="box" aria-labelledby="ttl">
<h1 id="ttl">${o.product}</h1>
<p>Sold by ${o.shop} · ★★★★☆ <a href="#reviews">128 reviews</a></p>
<p><span class="price" data-test="price">Price: €${o.price}</span>${o.was !== o.price ? `<span class="was">€${o.was}</span>` : ''}</p>
<p>Delivery: ${o.delivery}</p>
<label>Quantity <select name="qty"><option>1</option><option>2</option><option>3</option></select></label>
<button type="button">Add to cart</button> <button type="button" aria-label="Add to wish list">♡</button>
</section>
</main>
<section id="reviews" aria-label="Reviews"><h2>Reviews</h2>
<article><h3>Solid lock</h3><p>Heavy, but it does the job.</p></article>
<article><h3>Good value</h3><p>Fits my frame with the bracket.</p></article></section>
<footer><a href="/help">Help</a> <a href="/returns">Returns</a> <a href="/imprint">Imprint</a></footer>
</body></html>`
}

function serve(html: string, host = '127.0.0.1'): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
  return new Promise((resolve) =>
    server.listen(0, host, () =>
      resolve({ url: `http://${host}:${(server.address() as AddressInfo).port}/product/lock-120`, server }),
    ),
  )
}

let ava: Ava
let llm: LlmServer
let site: SiteServer
let shops: { url: string; server: Server }[]
let partner: { url: string; server: Server }

beforeAll(async () => {
  ;[ava, llm, site, shops, partner] = await Promise.all([
    launchAva(),
    startLlmServer(),
    startSiteServer(),
    Promise.all(kOffers.map((o) => serve(shopPage(o)))),
    // Another site: localhost is not 127.0.0.1 (docs/security.md, "Leaving the site").
    serve(
      shopPage({
        shop: 'Partner Deals',
        product: 'Members-only lock offer',
        price: '19.99',
        was: '29.99',
        delivery: '1 day',
      }),
      'localhost',
    ),
  ])
  await ava.configure(
    { provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' },
    {
      safety: {
        confirm: ['cross_site', 'destructive', 'credentials', 'payment', 'high_risk_action'],
        allowDomains: [],
        denyDomains: [],
      },
    },
  )
}, 60_000)
afterAll(async () => {
  await Promise.all([
    ava?.close(),
    llm?.close(),
    site?.close(),
    ...[...(shops ?? []), partner].filter(Boolean).map((s) => new Promise((r) => s.server.close(r))),
  ])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

const kPace = 40 // ms between streamed chunks: a model writing a step at a time
const chatText = (i: number) =>
  (llm.requests.filter((r) => r.api === 'openai')[i]?.body.messages as { role: string; content: unknown }[])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n')

/** The run's tab group as the browser has it: its title and the addresses of its tabs. */
async function groups(): Promise<{ title: string; urls: string[] }[]> {
  return (await ava.worker()).evaluate(async () => {
    const out: { title: string; urls: string[] }[] = []
    for (const g of await chrome.tabGroups.query({})) {
      const tabs = await chrome.tabs.query({ groupId: g.id })
      out.push({ title: g.title ?? '', urls: tabs.map((t) => t.url ?? '') })
    }
    return out
  })
}

async function start(): Promise<Page> {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/`)
  return page
}

/** Waits for the newest run to end (its usage is written last) and returns its answer text. */
async function answerOf(panel: import('playwright-core').Frame): Promise<string> {
  const last = panel.locator('[data-role=assistant]').last()
  await last.locator('[data-test=usage]').waitFor({ timeout: 60_000 })
  return (await last.textContent()) ?? ''
}

it('compares three offers in three tabs it opens and groups, answers from what it read, and closes them when asked', async () => {
  const page = await start()
  const urls = shops.map((s) => s.url)
  let checkGroup!: () => void
  const grouped = new Promise<void>((r) => (checkGroup = r))
  llm.script(
    {
      chunkDelayMs: kPace,
      chunks: instructionChunks([
        ...urls.map((url, i) => ({
          step_id: i + 1,
          action_type: 'open_tab',
          params: { url },
          description: `Open offer ${i + 1}`,
        })),
        ...urls.map((_, i) => ({
          step_id: 4 + i,
          action_type: 'read_tab',
          params: { tab: i + 2 },
          description: `Read offer ${i + 1}`,
        })),
      ]),
    },
    {
      // The second turn waits while the test looks at the tab group, then answers from the pages
      // Ava read: each read tab's block names its tab and carries its price.
      holdUntil: grouped,
      chunkDelayMs: kPace,
      from: (body) => {
        const text = (body.messages as { content: unknown }[])
          .map((m) => (typeof m.content === 'string' ? m.content : ''))
          .join('\n')
        const read = [...text.matchAll(/Page of tab (\d+), read by step \d+:\nTitle: ([^\n]*)[\s\S]*?€(\d+\.\d\d)/g)]
        const best = read.sort((a, b) => Number(a[3]) - Number(b[3]))[0]
        const answer = best
          ? `The cheapest is ${best[2].split(' | ')[1]} at €${best[3]} (tab ${best[1]}).`
          : 'I could not read the offers.'
        return JSON.stringify([
          ...[2, 3, 4].map((tab, i) => ({ step_id: i + 1, action_type: 'close_tab', params: { tab } })),
          { step_id: 4, action_type: 'done', params: { answer } },
        ])
      },
    },
  )
  const panel = await ava.ask(
    page,
    `Which of these three offers for the bike lock is cheapest? ${urls.join(' ')} — close the offer tabs when you are done.`,
  )
  // The three tabs open beside the run's, kept together in one named group with it.
  await expect
    .poll(async () => (await groups()).find((g) => g.title.startsWith('Ava:'))?.urls ?? [], { timeout: 30_000 })
    .toEqual([`${site.url}/`, ...urls])
  // Playwright learns of each new tab and its address a moment after Chrome's tab group has it.
  await expect.poll(() => ava.context.pages().filter((p) => urls.includes(p.url())).length, { timeout: 15_000 }).toBe(3)
  // Before the second turn: it carries the run's tabs with their titles, and each page read inside
  // the untrusted block.
  await expect.poll(() => llm.requests.filter((r) => r.api === 'openai').length, { timeout: 30_000 }).toBe(2)
  const second = chatText(1)
  for (const [i, o] of kOffers.entries()) {
    expect(second).toContain(`Tab ${i + 2} (opened by you): ${o.product} | ${o.shop} — 127.0.0.1`)
    const at = second.indexOf(`Price: €${o.price}`)
    expect(at, o.shop).toBeGreaterThan(second.lastIndexOf('<untrusted_page_content>', at))
    expect(second.lastIndexOf('</untrusted_page_content>', at)).toBeLessThan(
      second.lastIndexOf('<untrusted_page_content>', at),
    )
  }
  checkGroup()
  const answer = await answerOf(panel)
  expect(answer).toContain('The cheapest is RadMarkt at €34.50 (tab 3).')
  // Closed when asked: the three offer tabs are gone, the person's own tab is still there.
  await expect.poll(() => ava.context.pages().filter((p) => urls.includes(p.url())).length, { timeout: 15_000 }).toBe(0)
  expect(page.isClosed()).toBe(false)
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(Array(9).fill('ok'))
  await page.close()
})

it('asks before reading a tab of another site the person named, and reads nothing of it on a no', async () => {
  const theirs = await ava.context.newPage()
  await theirs.goto(partner.url)
  const page = await start()
  llm.script(
    {
      chunkDelayMs: kPace,
      chunks: instructionChunks([
        { step_id: 1, action_type: 'read_tab', params: { tab: 2 }, description: 'Read the partner offer' },
      ]),
    },
    { text: 'Done.' },
  )
  const panel = await ava.ask(page, 'Is the Members-only lock offer | Partner Deals a good deal?')
  // The first prompt lists the named tab; its title is the page's words, inside the block.
  await expect.poll(() => llm.requests.filter((r) => r.api === 'openai').length, { timeout: 30_000 }).toBe(1)
  expect(chatText(0)).toMatch(/Tab 2 \(named by the person\): Members-only lock offer \| Partner Deals — localhost/)
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 30_000 })
  expect(await panel.locator('article.confirm').last().textContent()).toMatch(/another site: localhost/)
  await panel.locator('[data-test=confirm-deny]').last().click()
  await answerOf(panel)
  expect((await readSteps(panel)).map((s) => s.status)).toEqual(['failed'])
  // Nothing of the other site's page reached the model: no later turn, no price.
  expect(llm.requests.filter((r) => r.api === 'openai')).toHaveLength(1)
  expect(chatText(0)).not.toContain('19.99')
  await Promise.all([page.close(), theirs.close()])
})

it('with a yes, reads the other site’s tab: its page comes back inside the untrusted block', async () => {
  const theirs = await ava.context.newPage()
  await theirs.goto(partner.url)
  const page = await start()
  llm.script(
    {
      chunkDelayMs: kPace,
      chunks: instructionChunks([
        { step_id: 1, action_type: 'read_tab', params: { tab: 2 }, description: 'Read the partner offer' },
      ]),
    },
    { chunkDelayMs: kPace, text: 'It costs €19.99.' },
  )
  const panel = await ava.ask(page, 'How much is the Members-only lock offer | Partner Deals?')
  await panel.waitForSelector('[data-test=confirm][data-state=pending]', { timeout: 30_000 })
  await panel.locator('[data-test=confirm-allow]').last().click()
  expect(await answerOf(panel)).toContain('It costs €19.99.')
  // The page read comes back to the model, and wherever its price is, it is inside the block.
  const sent = llm.requests.filter((r) => r.api === 'openai').map((_, i) => chatText(i))
  const withPrice = sent.filter((t) => t.includes('Price: €19.99'))
  expect(withPrice.length, `${sent.length} requests, none with the read page`).toBeGreaterThan(0)
  for (const text of withPrice) {
    const at = text.indexOf('Price: €19.99')
    expect(at).toBeGreaterThan(text.lastIndexOf('<untrusted_page_content>', at))
    expect(text.lastIndexOf('</untrusted_page_content>', at)).toBeLessThan(
      text.lastIndexOf('<untrusted_page_content>', at),
    )
  }
  // Reading is not switching: the steps and the person stay in the tab the request was made in.
  expect(theirs.url()).toBe(partner.url)
  await Promise.all([page.close(), theirs.close()])
})

it('never closes a tab it did not open: the run’s own, or one the person named', async () => {
  const theirs = await ava.context.newPage()
  await theirs.goto(shops[0].url)
  const page = await start()
  llm.script(
    {
      chunkDelayMs: kPace,
      chunks: instructionChunks([
        { step_id: 1, action_type: 'close_tab', params: { tab: 2 }, description: 'Close the lock offer' },
      ]),
    },
    {
      chunkDelayMs: kPace,
      chunks: instructionChunks([
        { step_id: 1, action_type: 'close_tab', params: { tab: 1 }, description: 'Close this tab' },
      ]),
    },
  )
  const panel = await ava.ask(page, `Close my ${kOffers[0].product} | ${kOffers[0].shop} tab`)
  await answerOf(panel)
  expect(await panel.locator('article.error').last().textContent()).toMatch(
    /Step 1 was refused: tab 2 is not one Ava opened/,
  )
  const panel2 = await ava.ask(page, 'Close this tab')
  await answerOf(panel2)
  expect(await panel2.locator('article.error').last().textContent()).toMatch(
    /Step 1 was refused: tab 1 is not one Ava opened/,
  )
  expect(theirs.isClosed()).toBe(false)
  expect(page.isClosed()).toBe(false)
  await Promise.all([page.close(), theirs.close()])
})
