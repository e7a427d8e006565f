import { createServer, type Server } from 'node:http'
import { readFile } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import type { AddressInfo } from 'node:net'

const kPages = resolve(import.meta.dirname, '../fixtures/pages-nobody-wrote')
const kModules = resolve(import.meta.dirname, '../../node_modules')
/** The libraries' own browser builds, from node_modules, as the pages load them. */
const kVendor: Record<string, string> = {
  '/vendor/jquery.js': resolve(kModules, 'jquery/dist/jquery.min.js'),
  '/vendor/jquery-ui.js': resolve(kModules, 'jquery-ui/dist/jquery-ui.min.js'),
  '/vendor/jquery-ui.css': resolve(kModules, 'jquery-ui/dist/themes/base/jquery-ui.min.css'),
}

/** Serves e2e/fixtures/pages-nobody-wrote and the vendor builds above on loopback. */
export async function startNobodyPages(): Promise<{ url(path: string): string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = kVendor[path] ?? resolve(kPages, '.' + path)
    if (!kVendor[path] && !file.startsWith(kPages + sep)) return void res.writeHead(404).end()
    const type = file.endsWith('.js')
      ? 'text/javascript'
      : file.endsWith('.css')
        ? 'text/css'
        : 'text/html; charset=utf-8'
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': type }).end(body),
      () => res.writeHead(404).end(),
    )
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url: (p) => origin + p, close: () => new Promise<void>((ok) => server.close(() => ok())) }
}
