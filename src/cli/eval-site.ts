// The pages of `ava eval`'s suite, served on 127.0.0.1 by the command itself (docs/eval.md): each
// task's pages under /t/<id>/, its forms posted to /submit/<id>, and the browser builds of the
// component libraries its widget pages load under /vendor/. What the pages saw is the checker's.
import { createServer, type Server } from 'node:http'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { EvalObservation, EvalTask } from './eval-tasks'

/** URL → the package file (only these are served from node_modules). */
const kVendor: Record<string, [string, string]> = {
  'vue.js': ['vue', 'dist/vue.global.prod.js'],
  'element-plus.js': ['element-plus', 'dist/index.full.min.js'],
  'element-plus.css': ['element-plus', 'dist/index.css'],
  'antd.js': ['ant-design-vue', 'dist/antd.min.js'],
  'antd-reset.css': ['ant-design-vue', 'dist/reset.css'],
  'dayjs.js': ['dayjs', 'dayjs.min.js'],
  ...Object.fromEntries(
    ['advancedFormat', 'customParseFormat', 'localeData', 'quarterOfYear', 'weekOfYear', 'weekYear', 'weekday'].map(
      (p) => [`dayjs-${p}.js`, ['dayjs', `plugin/${p}.js`] as [string, string]],
    ),
  ),
}

/** Where a package's file is, looking where Node would look from here; undefined when it is not installed. */
function vendorFile(pkg: string, file: string): string | undefined {
  const require = createRequire(import.meta.url)
  for (const dir of require.resolve.paths(pkg) ?? []) {
    const p = join(dir, pkg, file)
    if (existsSync(p)) return p
  }
  return undefined
}

/** Whether the component libraries a task's pages load are installed beside Ava (they are in its repository, not in its npm package). */
export function missingLibraries(task: EvalTask): string[] {
  return (task.needs ?? []).filter((pkg) => !Object.values(kVendor).some(([p, f]) => p === pkg && vendorFile(p, f)))
}

export interface EvalSite {
  url: string
  /** What the task's pages saw since `reset(id)`. */
  observe(id: string): Omit<EvalObservation, 'answer' | 'asked'>
  reset(id: string): void
  close(): Promise<void>
}

export async function startEvalSite(tasks: readonly EvalTask[]): Promise<EvalSite> {
  const byId = new Map(tasks.map((t) => [t.id, t]))
  const seen = new Map<string, { posted: Record<string, string>[]; visited: string[] }>()
  const of = (id: string) => seen.get(id) ?? (seen.set(id, { posted: [], visited: [] }), seen.get(id)!)
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const send = (status: number, type: string, body: string | Buffer) =>
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body)
    const vendor = /^\/vendor\/([\w.-]+)$/.exec(url.pathname)
    if (vendor) {
      const entry = kVendor[vendor[1]]
      const file = entry && vendorFile(...entry)
      return file
        ? send(200, file.endsWith('.css') ? 'text/css' : 'text/javascript', readFileSync(file))
        : send(404, 'text/plain', 'not installed')
    }
    const submit = /^\/submit\/([\w-]+)$/.exec(url.pathname)
    if (submit && req.method === 'POST') {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString('utf8')))
      req.on('end', () => {
        const fields: Record<string, string> = {}
        for (const [k, v] of new URLSearchParams(body)) fields[k] = k in fields ? `${fields[k]},${v}` : v
        of(submit[1]).posted.push(fields)
        send(
          200,
          'text/html; charset=utf-8',
          '<!doctype html><title>Saved</title><h1>Saved</h1><p role="status">Saved.</p>',
        )
      })
      return
    }
    const t = /^\/t\/([\w-]+)\/([\w-]*)$/.exec(url.pathname)
    const task = t && byId.get(t[1])
    if (!t || !task || task.pages[t[2]] === undefined)
      return send(404, 'text/html; charset=utf-8', '<!doctype html><title>Not found</title><h1>Not found</h1>')
    of(task.id).visited.push(url.pathname + url.search)
    send(200, 'text/html; charset=utf-8', task.pages[t[2]])
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    observe: (id) => structuredClone(of(id)),
    reset: (id) => void seen.set(id, { posted: [], visited: [] }),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
