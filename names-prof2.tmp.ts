import { build } from 'esbuild'
import { launchBrowser } from './e2e/support/browser'
import { startServer } from './e2e/observe/server'
import { elementPlusPage } from './bench/lib/observe-pages'
const bundle = async (entry: string) => (await build({ entryPoints: [entry], bundle: true, format: 'iife', globalName: '__avaObserve', target: 'chrome120', write: false, logLevel: 'silent' })).outputFiles[0].text
const server = await startServer()
server.page('/ep.html', elementPlusPage())
const browser = await launchBrowser()
const codes = [await bundle('/tmp/names-orig/e2e/observe/entry.ts'), await bundle('/work/wt/names/e2e/observe/entry.ts')]
const ps = []
for (const c of codes) {
  const p = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await p.goto(server.url('/ep.html'), { waitUntil: 'load' })
  await p.waitForSelector('.el-table__row')
  await p.addScriptTag({ content: c })
  ps.push(p)
}
for (let round = 0; round < 4; round++) for (const [i, p] of ps.entries()) {
  const t = await p.evaluate(() => { const api = (window as any).__avaObserve; const ts = []; for (let k = 0; k < 30; k++) { const t0 = performance.now(); api.observe(); ts.push(performance.now() - t0) } ts.sort((a, b) => a - b); return [ts[0], ts[15]] })
  console.log(i ? 'new ' : 'orig', t.map((x) => x.toFixed(1)).join(' '))
}
await browser.close(); await server.close()
