/**
 * A sign-in with a second step, built as real ones are: a password form posted to the server, then
 * a page that asks for the six-digit code "sent to your phone" (`autocomplete="one-time-code"`,
 * numeric, maxlength 6), then the account. The session moves on by cookie and 303 redirects, so
 * each step is a new document. The code is fixed for the test, which plays the person who got it.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export const kTwoFactorUser = { username: 'alice', password: 'wonderland', code: '428913' }

export interface TwoFactorSite {
  url: string
  /** Codes posted to /verify, in order: what reached the site, whoever typed it. */
  codes: string[]
  close(): Promise<void>
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

async function form(req: import('node:http').IncomingMessage): Promise<URLSearchParams> {
  let body = ''
  for await (const chunk of req) body += chunk
  return new URLSearchParams(body)
}

export async function startTwoFactorSite(): Promise<TwoFactorSite> {
  const codes: string[] = []
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const session = /(?:^|;\s*)tf=([a-z-]+)/.exec(req.headers.cookie ?? '')?.[1]
    const html = (body: string, title: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(title, body))
    const go = (to: string, cookie?: string) =>
      res
        .writeHead(303, { location: to, ...(cookie ? { 'set-cookie': `tf=${cookie}; Path=/; SameSite=Lax` } : {}) })
        .end()

    if (url.pathname === '/login' && req.method === 'POST') {
      const f = await form(req)
      const ok = f.get('username') === kTwoFactorUser.username && f.get('password') === kTwoFactorUser.password
      return ok ? go('/verify', 'needs-code') : go('/login?error=1')
    }
    if (url.pathname === '/login')
      return html(
        `<main><h1>Sign in to Northwind Bank</h1>
<form method="post" action="/login">
  <label for="username">Username</label> <input id="username" name="username" autocomplete="username">
  <label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password">
  <button type="submit" id="sign-in">Sign in</button>
</form></main>`,
        'Sign in – Northwind Bank',
      )
    if (url.pathname === '/verify' && req.method === 'POST') {
      const code = (await form(req)).get('otp') ?? ''
      codes.push(code)
      return code === kTwoFactorUser.code ? go('/account', 'signed-in') : go('/verify?error=1')
    }
    if (url.pathname === '/verify') {
      if (session !== 'needs-code') return go('/login')
      return html(
        `<main><h1>Two-step verification</h1>
<form method="post" action="/verify">
  <p>We sent a 6-digit verification code to your phone ending in 47.</p>
  ${url.searchParams.get('error') ? '<p role="alert">That code is not right. Try again.</p>' : ''}
  <label for="otp">Verification code</label>
  <input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" pattern="[0-9]*">
  <button type="submit" id="verify">Verify</button>
</form></main>`,
        'Verify it’s you – Northwind Bank',
      )
    }
    if (url.pathname === '/account') {
      if (session !== 'signed-in') return go('/login')
      return html(
        `<main><h1>Welcome, alice</h1><p>Checking account balance: $2,417.09</p>
<nav><a href="/statements">Statements</a> <a href="/logout">Sign out</a></nav></main>`,
        'Account – Northwind Bank',
      )
    }
    res.writeHead(404).end('not found')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    codes,
    close: () =>
      new Promise((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}
