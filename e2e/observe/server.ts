/**
 * A tiny loopback static server for fixture pages (port 0 on 127.0.0.1). Two instances give two
 * origins (http://127.0.0.1:<a> and http://localhost:<b>) for cross-origin frame tests.
 * `/vendor/*` serves the Vue and Element Plus browser builds from node_modules; `/hang` never
 * answers, for long-poll readiness tests; generated pages can be registered by path.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import type { AddressInfo } from 'node:net'

export const fixturesDir = resolve(import.meta.dirname, '../fixtures/observe')
const nodeModules = resolve(import.meta.dirname, '../../node_modules')
const vendor: Record<string, string> = {
  'vue.js': resolve(nodeModules, 'vue/dist/vue.global.prod.js'),
  'element-plus.js': resolve(nodeModules, 'element-plus/dist/index.full.min.js'),
  'element-plus.css': resolve(nodeModules, 'element-plus/dist/index.css'),
}
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
}

export interface StaticServer {
  /** `http://127.0.0.1:<port>` (or `http://localhost:<port>` when asked for). */
  origin: string
  url(path: string): string
  /** Serves `body` as HTML at `path` (generated pages). */
  page(path: string, body: string): void
  close(): Promise<void>
}

export async function startServer(
  opts: { host?: '127.0.0.1' | 'localhost'; root?: string } = {},
): Promise<StaticServer> {
  const root = opts.root ?? fixturesDir
  const pages = new Map<string, string>()
  const hanging = new Set<ServerResponse>()
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    if (path.startsWith('/hang')) {
      // A long poll that never answers; closed when the server closes.
      hanging.add(res)
      res.on('close', () => hanging.delete(res))
      return
    }
    if (pages.has(path)) return send(res, 200, types['.html'], pages.get(path)!)
    let file: string
    if (path.startsWith('/vendor/')) file = vendor[path.slice('/vendor/'.length)] ?? ''
    else {
      file = resolve(root, '.' + (path.endsWith('/') ? path + 'index.html' : path))
      if (!file.startsWith(root + sep)) file = ''
    }
    if (!file) return send(res, 404, 'text/plain', 'not found')
    try {
      send(res, 200, types[extname(file)] ?? 'application/octet-stream', await readFile(file))
    } catch {
      send(res, 404, 'text/plain', 'not found')
    }
  }
  const server: Server = createServer((req, res) => void handler(req, res))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const port = (server.address() as AddressInfo).port
  const origin = `http://${opts.host ?? '127.0.0.1'}:${port}`
  return {
    origin,
    url: (path) => origin + (path.startsWith('/') ? path : '/' + path),
    page: (path, body) => void pages.set(path.startsWith('/') ? path : '/' + path, body),
    close: () =>
      new Promise<void>((ok) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections?.()
        server.close(() => ok())
      }),
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
  res.end(body)
}
