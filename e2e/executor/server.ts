/**
 * Loopback static server for the executor's fixture app: `e2e/fixtures/components/**` plus the
 * browser builds of the real component libraries from node_modules under `/vendor/...`, so the
 * pages run Element Plus and Ant Design Vue exactly as published. Port 0 on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import type { AddressInfo } from 'node:net'

export const fixturesDir = resolve(import.meta.dirname, '../fixtures/components')
const nodeModules = resolve(import.meta.dirname, '../../node_modules')

/** URL → file; only these vendor files are served, nothing else of node_modules. */
const kVendor: Record<string, string> = {
  'vue.js': 'vue/dist/vue.global.prod.js',
  'element-plus.js': 'element-plus/dist/index.full.min.js',
  'element-plus.css': 'element-plus/dist/index.css',
  'antd.js': 'ant-design-vue/dist/antd.min.js',
  'antd-reset.css': 'ant-design-vue/dist/reset.css',
  'dayjs.js': 'dayjs/dayjs.min.js',
  // The locate bench's pages (bench/locate): libraries with other DOM styles than the two above.
  'bootstrap.css': 'bootstrap/dist/css/bootstrap.min.css',
  'bootstrap.js': 'bootstrap/dist/js/bootstrap.bundle.min.js',
  'naive-ui.js': 'naive-ui/dist/index.prod.js',
  // Form libraries and editors as their docs load them in a page (issue: descriptors in words).
  'jquery.js': 'jquery/dist/jquery.min.js',
  'select2.js': 'select2/dist/js/select2.min.js',
  'select2.css': 'select2/dist/css/select2.min.css',
  'react.js': 'react/umd/react.production.min.js',
  'react-dom.js': 'react-dom/umd/react-dom.production.min.js',
  'mui.js': '@mui/material/umd/material-ui.production.min.js',
  'react-hook-form.js': 'react-hook-form/dist/index.umd.js',
  'quill.js': 'quill/dist/quill.js',
  'jquery-ui.js': 'jquery-ui/dist/jquery-ui.min.js',
  'jquery-ui.css': 'jquery-ui/dist/themes/base/jquery-ui.min.css',
  'quill.snow.css': 'quill/dist/quill.snow.css',
  // Steps that check their effect (e2e/agent/steps.test.ts): a jQuery plugin that rewrites its field on blur.
  'bootstrap-datepicker.js': 'bootstrap-datepicker/dist/js/bootstrap-datepicker.min.js',
  'bootstrap-datepicker.css': 'bootstrap-datepicker/dist/css/bootstrap-datepicker3.min.css',
  // Ant Design Vue's UMD build reads these dayjs plugins from globals (dayjs_plugin_*).
  ...Object.fromEntries(
    ['advancedFormat', 'customParseFormat', 'localeData', 'quarterOfYear', 'weekOfYear', 'weekYear', 'weekday'].map(
      (p) => [`dayjs-${p}.js`, `dayjs/plugin/${p}.js`],
    ),
  ),
}

const kTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.yaml': 'text/yaml',
}

export interface FixtureServer {
  origin: string
  url(path: string): string
  /** Serves generated HTML at `path` (bench pages). */
  page(path: string, html: string): void
  close(): Promise<void>
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const pages = new Map<string, string>()
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    if (pages.has(path)) return send(res, 200, kTypes['.html'], pages.get(path)!)
    let file = ''
    if (path.startsWith('/vendor/')) {
      const rel = kVendor[path.slice('/vendor/'.length)]
      if (rel) file = resolve(nodeModules, rel)
    } else {
      file = resolve(fixturesDir, '.' + (path.endsWith('/') ? `${path}index.html` : path))
      if (!file.startsWith(fixturesDir + sep)) file = ''
    }
    if (!file) return send(res, 404, 'text/plain', 'not found')
    try {
      send(res, 200, kTypes[extname(file)] ?? 'application/octet-stream', await readFile(file))
    } catch {
      send(res, 404, 'text/plain', 'not found')
    }
  }
  const server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    url: (path) => origin + (path.startsWith('/') ? path : `/${path}`),
    page: (path, html) => void pages.set(path.startsWith('/') ? path : `/${path}`, html),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections?.()
        server.close(() => ok())
      }),
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  // Vendor files are large and never change during a run: let the browser keep them.
  res.writeHead(status, {
    'content-type': type,
    'cache-control': type === kTypes['.html'] ? 'no-store' : 'max-age=3600',
  })
  res.end(body)
}
