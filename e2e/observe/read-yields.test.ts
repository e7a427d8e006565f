import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchBrowser } from '../support/browser'
import { observeBundle } from './bundle'
import { startServer, type StaticServer } from './server'

/**
 * Reading a page does not block it for a person (docs/page-representation.md, "Reading without
 * blocking"): a read is cut into parts between which the page may run, the walk of the DOM
 * included. Asserted on the structure — how often a read made to yield after every part
 * (`sliceMs` below zero) gives the page its turn — rather than on task lengths, which a loaded
 * machine stretches: a part is a bounded number of elements, so no part can grow with the page.
 */
const kStdtypes = '/usr/share/doc/python3.11/html/library/stdtypes.html'

let browser: Browser
let server: StaticServer
beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchBrowser(), startServer()])
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A documentation page of 1,000 sections and a handful of links: a long walk, little to name. */
function docsPage(sections: number): string {
  const body = Array.from(
    { length: sections },
    (_, i) =>
      `<section id="s${i}"><h3>Method ${i}</h3><p>Returns the <em>value</em> of item ${i}, as <code>int</code>.</p></section>`,
  ).join('')
  return `<!doctype html><html lang="en"><head><title>Reference</title></head><body><nav><a href="#s0">Top</a> <a href="#s500">Middle</a></nav><main>${body}</main></body></html>`
}

/** Reads the page with a yield after every part, counting the page's turns (each `scheduler.yield`). */
async function readCountingTurns(page: Page) {
  await page.addScriptTag({ content: await observeBundle() })
  return page.evaluate(async () => {
    const api = (window as any).__avaObserve
    const scheduler = (window as any).scheduler
    const real = scheduler.yield.bind(scheduler)
    let turns = 0
    scheduler.yield = () => {
      turns++
      return real()
    }
    try {
      const snapshot = await api.observeYielding({}, -1)
      // The same read in one go lists the same page.
      const again = api.observe()
      return {
        turns,
        visited: snapshot.stats.elements as number,
        controls: snapshot.elements.length as number,
        same: api.serialize(snapshot).text === api.serialize(again).text,
      }
    } finally {
      scheduler.yield = real
    }
  })
}

it('a read of a long page gives the page its turn during the walk of the DOM, every few hundred elements', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  server.page('/reference.html', docsPage(1000))
  await page.goto(server.url('/reference.html'))
  const r = await readCountingTurns(page)
  expect(r.visited).toBeGreaterThan(4_000)
  expect(r.controls).toBeLessThan(10)
  // Naming a handful of controls is one part; the walk of 4,000 elements is cut every 256 of them.
  expect(r.turns, JSON.stringify(r)).toBeGreaterThanOrEqual(Math.floor(r.visited / 512))
  expect(r.same).toBe(true)
  await page.close()
})

it.skipIf(!existsSync(kStdtypes))(
  "Python's stdtypes.html is read in parts that do not grow with the page",
  async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.goto(pathToFileURL(kStdtypes).href)
    const r = await readCountingTurns(page)
    expect(r.visited).toBeGreaterThan(10_000)
    expect(r.turns, JSON.stringify(r)).toBeGreaterThanOrEqual(Math.floor(r.visited / 512))
    expect(r.same).toBe(true)
    await page.close()
  },
)
