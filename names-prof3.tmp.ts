import { build } from 'esbuild'
import { launchBrowser } from './e2e/support/browser'
import { startServer } from './e2e/observe/server'
import { elementPlusPage } from './bench/lib/observe-pages'
const bundle = async (entry: string) => (await build({ entryPoints: [entry], bundle: true, format: 'iife', globalName: '__avaObserve', target: 'chrome120', write: false, logLevel: 'silent' })).outputFiles[0].text
const server = await startServer()
server.page('/ep.html', elementPlusPage())
const browser = await launchBrowser()
const p = await browser.newPage({ viewport: { width: 1280, height: 800 } })
await p.goto(server.url('/ep.html'), { waitUntil: 'load' })
await p.waitForSelector('.el-table__row')
await p.addScriptTag({ content: await bundle(process.argv[2]) })
await p.evaluate(() => { for (let k = 0; k < 10; k++) (window as any).__avaObserve.observe() })
const cdp = await p.context().newCDPSession(p)
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 50 }); await cdp.send('Profiler.start')
await p.evaluate(() => { for (let k = 0; k < 60; k++) (window as any).__avaObserve.observe() })
const { profile } = await cdp.send('Profiler.stop') as any
const self = new Map<string, number>()
const dt = profile.timeDeltas as number[]
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]))
profile.samples.forEach((id: number, i: number) => { const n: any = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0)) })
console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${(v / 1000).toFixed(1)}ms ${k}`).join('\n'))
await browser.close(); await server.close()
