import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'

/**
 * The bundled sample app: a small site with a real server-side login (form POST, cookie, redirect),
 * so a run has to survive real navigations. Also serves any file under e2e/fixtures/.
 */
export const fixturesDir = resolve(import.meta.dirname, '../fixtures')

export const kUsers: Record<string, string> = { alice: 'wonderland', bob: 'builder' }

export interface SiteServer {
  url: string
  hits: { path: string; method: string; at: number }[]
  close(): Promise<void>
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

const page = (
  title: string,
  body: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="/site/site.css"></head><body>${body}</body></html>`

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

export async function startSiteServer(opts: { host?: string } = {}): Promise<SiteServer> {
  const hits: SiteServer['hits'] = []
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    hits.push({ path: url.pathname, method: req.method ?? 'GET', at: Date.now() })
    const cookie = /(?:^|;\s*)session=([a-z]+)/.exec(req.headers.cookie ?? '')?.[1]
    const html = (status: number, body: string, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': types['.html'], ...headers }).end(body)

    // A file as a server sends it: /files/<anything>?name=<file name>&type=<media type>&as=attachment
    // (e2e/agent/served-programs.test.ts): the address need not say what the file is.
    if (url.pathname.startsWith('/files/')) {
      // `delay=<ms>`: a slow server, whose answer comes after the run that clicked has ended.
      const delay = Math.min(Number(url.searchParams.get('delay')) || 0, 10_000)
      if (delay) await new Promise((r) => setTimeout(r, delay))
      const name = url.searchParams.get('name') ?? 'file'
      const as = url.searchParams.get('as')
      // `cd=<header>`: the Content-Disposition exactly as given (an encoded name: e2e/agent/served-names.test.ts).
      const cd = url.searchParams.get('cd')
      res
        .writeHead(200, {
          'content-type': url.searchParams.get('type') ?? 'application/octet-stream',
          ...(cd ? { 'content-disposition': cd } : as ? { 'content-disposition': `${as}; filename="${name}"` } : {}),
        })
        .end('MZ file body')
      return
    }
    // `/redirect?to=<path>`: a 302 to another address of this server (a download that ends on a program's path).
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end()
      return
    }
    // `/dl/<name>`: a file sent as octet-stream with no name: the browser names it after the address.
    if (url.pathname.startsWith('/dl/')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('MZ file body')
      return
    }
    if (url.pathname === '/') {
      html(
        200,
        page(
          'Acme Portal',
          `<header><h1>Acme Portal</h1><nav><a href="/login">Sign in</a> <a href="/about">About</a></nav></header>
<main><p>Welcome to the Acme customer portal. Sign in to see your orders.</p></main>`,
        ),
      )
      return
    }
    if (url.pathname === '/login' && req.method === 'GET') {
      const err = url.searchParams.get('error') ? '<p class="error" role="alert">Wrong username or password.</p>' : ''
      html(
        200,
        page(
          'Sign in · Acme Portal',
          `<main><h1>Sign in</h1>${err}
<form method="post" action="/login${url.searchParams.get('delay') ? `?delay=${Number(url.searchParams.get('delay'))}` : ''}">
  <label for="username">Username</label><input id="username" name="username" autocomplete="username" placeholder="Username">
  <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" placeholder="Password">
  <button type="submit" id="login-btn">Log in</button>
</form></main>`,
        ),
      )
      return
    }
    if (url.pathname === '/login' && req.method === 'POST') {
      let raw = ''
      for await (const c of req) raw += c
      // `?delay=<ms>`: a slow server, so the navigation a click starts commits well after the click.
      const delay = Math.min(Number(url.searchParams.get('delay')) || 0, 10_000)
      if (delay) await new Promise((r) => setTimeout(r, delay))
      const form = new URLSearchParams(raw)
      const user = form.get('username') ?? ''
      if (kUsers[user] && kUsers[user] === form.get('password')) {
        res
          .writeHead(303, { location: '/dashboard', 'set-cookie': `session=${user}; Path=/; HttpOnly; SameSite=Lax` })
          .end()
      } else res.writeHead(303, { location: '/login?error=1' }).end()
      return
    }
    if (url.pathname === '/dashboard') {
      if (!cookie) {
        res.writeHead(303, { location: '/login' }).end()
        return
      }
      html(
        200,
        page(
          'Dashboard · Acme Portal',
          `<header><h1>Dashboard</h1><p id="greeting">Welcome, ${escapeHtml(cookie)}</p><a href="/logout">Log out</a></header>
<main><h2>Recent orders</h2><table><thead><tr><th>Order</th><th>Status</th><th></th></tr></thead><tbody>
<tr><td>#742</td><td>Shipped</td><td><a href="/orders/742">Details</a></td></tr>
<tr><td>#318</td><td>Processing</td><td><a href="/orders/318">Details</a></td></tr></tbody></table></main>`,
        ),
      )
      return
    }
    if (url.pathname.startsWith('/orders/')) {
      const id = escapeHtml(url.pathname.split('/')[2] ?? '')
      html(
        200,
        page(
          `Order ${id}`,
          `<main><h1>Order #${id}</h1><p>Status: ${id === '742' ? 'Shipped' : 'Processing'}</p><a href="/dashboard">Back</a></main>`,
        ),
      )
      return
    }
    if (url.pathname === '/slow-data') {
      // A request that takes its time (`ms`), for readiness: a page is not read while it waits.
      const ms = Math.min(Number(url.searchParams.get('ms')) || 0, 10_000)
      setTimeout(() => res.writeHead(200, { 'content-type': types['.json'] }).end(JSON.stringify({ rows: 14 })), ms)
      return
    }
    if (url.pathname === '/logout') {
      res.writeHead(303, { location: '/', 'set-cookie': 'session=; Path=/; Max-Age=0' }).end()
      return
    }
    // Static fixtures.
    const file = normalize(join(fixturesDir, decodeURIComponent(url.pathname)))
    if (!file.startsWith(fixturesDir)) {
      res.writeHead(403).end()
      return
    }
    try {
      const body = await readFile(file)
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    }
  })
  await new Promise<void>((r) => server.listen(0, opts.host ?? '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
