import { build } from 'esbuild'
import { launchBrowser } from './e2e/support/browser'
import { startServer } from './e2e/observe/server'
import { elementPlusPage } from './bench/lib/observe-pages'
const bundle = async (entry: string) => (await build({ entryPoints: [entry], bundle: true, format: 'iife', globalName: '__avaObserve', target: 'chrome120', write: false, logLevel: 'silent' })).outputFiles[0].text
const server = await startServer()
server.page('/ep.html', elementPlusPage())
const browser = await launchBrowser()
for (const entry of ['/tmp/names-orig/e2e/observe/entry.ts', '/work/wt/names/e2e/observe/entry.ts']) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await p.goto(server.url('/ep.html'), { waitUntil: 'load' })
  await p.waitForSelector('.el-table__row')
  await p.addScriptTag({ content: await bundle(entry) })
  const r = await p.evaluate(() => {
    const api = (window as any).__avaObserve
    api.observe()
    let n = 0, pseudo = 0
    const orig = window.getComputedStyle
    ;(window as any).getComputedStyle = function (el: Element, ps?: string) { n++; if (ps) pseudo++; return orig.call(window, el, ps) }
    const s = api.observe()
    window.getComputedStyle = orig
    return { n, pseudo, els: s.elements.length, sheets: document.styleSheets.length }
  })
  console.log(entry, JSON.stringify(r))
}
await browser.close(); await server.close()
