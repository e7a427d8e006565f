import { build } from 'esbuild'
import { launchBrowser } from './e2e/support/browser'
import { startServer } from './e2e/observe/server'
import { tablePage, syntheticPage, elementPlusPage } from './bench/lib/observe-pages'
const bundle = async (entry: string) => (await build({ entryPoints: [entry], bundle: true, format: 'iife', globalName: '__avaObserve', target: 'chrome120', write: false, logLevel: 'silent' })).outputFiles[0].text
const A = await bundle('/tmp/names-orig/e2e/observe/entry.ts')
const B = await bundle('/work/wt/names/e2e/observe/entry.ts')
const server = await startServer()
const pages: [string, string, string?][] = [['table-200', tablePage(200)], ['table-1000', tablePage(1000)], ['synthetic-3k', syntheticPage(3000)], ['synthetic-15k', syntheticPage(15000)], ['element-plus', elementPlusPage(), '.el-table__row']]
const browser = await launchBrowser()
const med = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)] }
for (const [name, html, ready] of pages) {
  server.page(`/${name}.html`, html)
  const open = async (code: string) => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await p.goto(server.url(`/${name}.html`), { waitUntil: 'load' })
    if (ready) await p.waitForSelector(ready)
    await p.addScriptTag({ content: code })
    await p.evaluate(() => { for (let i = 0; i < 10; i++) (window as any).__avaObserve.observe() })
    return p
  }
  const pa = await open(A), pb = await open(B)
  const ta: number[] = [], tb: number[] = []
  const one = (p: any) => p.evaluate(() => { const t = performance.now(); (window as any).__avaObserve.observe(); return performance.now() - t })
  for (let i = 0; i < 31; i++) { ta.push(await one(pa)); tb.push(await one(pb)) }
  console.log(name.padEnd(14), "orig", med(ta).toFixed(1), "new", med(tb).toFixed(1), "ratio", (med(tb) / med(ta)).toFixed(2), "min", Math.min(...ta).toFixed(1), Math.min(...tb).toFixed(1))
  await pa.close(); await pb.close()
}
await browser.close(); await server.close()
