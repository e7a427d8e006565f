import { afterEach, expect, test } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromePlace, type ChromePlace } from '../../src/cli/mcp/chrome'
import { lineReader } from '../../src/cli/mcp/native'

// Place (b)'s server side with the extension played by a socket: each MCP session names itself in
// every request, so the extension keeps each to the tab the person gave it; a Stop for one session
// leaves the other's tab alone; a session that ends tells the extension.

let dir: string | undefined
let place: ChromePlace | undefined
let ext: Socket | undefined
afterEach(async () => {
  ext?.destroy()
  await place?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The extension's side: answers every request, and keeps what it was sent. */
async function extension(path: string) {
  const seen: Record<string, unknown>[] = []
  const socket = connect(path)
  await new Promise((r) => socket.once('connect', r))
  socket.on(
    'data',
    lineReader((m) => {
      const req = m as { id: number; kind: string; session?: string }
      seen.push(req)
      if (req.kind === 'detach') return
      const body =
        req.kind === 'url' ? { ok: true, url: `https://tab-of-${req.session || 'first'}.example/` } : { ok: true }
      socket.write(`${JSON.stringify({ id: req.id, ...body })}\n`)
    }),
  )
  return { socket, seen }
}

test('two sessions name themselves apart; a Stop for one leaves the other its tab; an ended one is detached', async () => {
  dir = mkdtempSync(join(tmpdir(), 'ava-chrome-sessions-'))
  place = await chromePlace({ client: () => 'first', path: join(dir, 'mcp.sock') })
  const { socket, seen } = await extension(place.path)
  ext = socket
  const signal = new AbortController().signal
  const a = place.session!(() => 'agent-a')
  const b = place.session!(() => 'agent-b')
  const ta = await a.open('https://a.example/', signal)
  const tb = await b.open('https://b.example/', signal)
  const attaches = seen.filter((m) => m.kind === 'attach')
  expect(attaches.map((m) => m.client)).toEqual(['agent-a', 'agent-b'])
  const [ka, kb] = attaches.map((m) => m.session as string)
  expect(ka).toBeTruthy()
  expect(ka).not.toBe(kb)
  expect(await ta.url()).toBe(`https://tab-of-${ka}.example/`)
  expect(await tb.url()).toBe(`https://tab-of-${kb}.example/`)
  // The person stops A: A loses its tab and is told why; B keeps its own.
  socket.write(
    `${JSON.stringify({ kind: 'stopped', session: ka, message: 'The person stopped agent-a in this tab.' })}\n`,
  )
  await expect.poll(() => a.tab()).toBeUndefined()
  expect(a.gone?.()).toBe('The person stopped agent-a in this tab.')
  expect(b.tab()).toBe(tb)
  // B's HTTP session ends: the extension is told to end it.
  await b.close()
  await expect.poll(() => seen.filter((m) => m.kind === 'detach').map((m) => m.session)).toEqual([kb])
  // The first place (stdio's one session) is a session of its own, named by none of them.
  expect(place.tab()).toBeUndefined()
})
