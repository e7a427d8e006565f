// Place (b): the person's own Chrome, reached the way password managers reach their extensions.
// Ava's extension opens a native-messaging port to `com.ava_assistant.bridge`; Chrome starts this
// file's host (a relay, `ava native-host`), which passes each message on to the `ava mcp --chrome`
// server over a Unix socket in ~/.ava that only this user can open. `ava mcp install` registers the
// host for Chrome and Chromium (per-user manifests naming Ava's extension id), or for one profile.
// The host it installs is a copy: one self-contained file in ~/.ava/native-host (built from
// native-host-main.ts into bin/ava.js), so it keeps working when the project that ran the install
// moves, is deleted, or the package is installed globally instead.
// Chrome's framing: each message is a 32-bit length in native byte order, then that much UTF-8 JSON
// (developer.chrome.com/docs/extensions/develop/concepts/native-messaging).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { homedir, platform } from 'node:os'
import { join, resolve } from 'node:path'

export const kHostName = 'com.ava_assistant.bridge'
/** Chrome refuses a message from a host larger than 1 MB; a page listing stays well under it. */
const kMaxHostMessage = 1024 * 1024
/** How often the host tries the server's socket again while no `ava mcp --chrome` is running. */
const kRetryMs = 1_000

/**
 * Ava's own folder for the CLI: AVA_HOME, else ~/.ava (src/core/environment.ts lists it). Read here
 * by name, not through that module: the native host is built from this file and stays a few KB.
 */
export function avaHome(home = homedir(), env: NodeJS.ProcessEnv = process.env): string {
  return env.AVA_HOME || join(home, '.ava')
}

/** Where `ava mcp --chrome` listens and the host connects: one per user. */
export function socketPath(home = homedir(), env: NodeJS.ProcessEnv = process.env): string {
  return join(avaHome(home, env), 'mcp.sock')
}

/** The installed host's files: the relay itself and the launcher Chrome runs. */
export function hostFiles(
  home = homedir(),
  env: NodeJS.ProcessEnv = process.env,
): { dir: string; script: string; launcher: string } {
  const dir = join(avaHome(home, env), 'native-host')
  return { dir, script: join(dir, 'ava-native-host.mjs'), launcher: join(dir, 'ava-native-host') }
}

/** The per-user NativeMessagingHosts folders of Chrome and Chromium on this system, or of one profile. */
export function hostFolders(o: { profile?: string; home?: string; os?: string }): string[] {
  if (o.profile) return [join(resolve(o.profile), 'NativeMessagingHosts')]
  const home = o.home ?? homedir()
  if ((o.os ?? platform()) === 'darwin')
    return ['Google/Chrome', 'Chromium'].map((b) =>
      join(home, 'Library/Application Support', b, 'NativeMessagingHosts'),
    )
  return ['google-chrome', 'chromium'].map((b) => join(home, '.config', b, 'NativeMessagingHosts'))
}

/**
 * Writes the host (`host`: the relay's source, one self-contained ES module), its launcher (Chrome
 * runs a file, not a command line) and its manifest into each folder, allowing only Ava's extension
 * id. Nothing written names the project or package that ran the install. Returns the files written.
 */
export function installNativeHost(o: {
  extensionId: string
  host: string
  node?: string
  profile?: string
  home?: string
  env?: NodeJS.ProcessEnv
}): string[] {
  if (!/^[a-p]{32}$/.test(o.extensionId))
    throw new Error(`"${o.extensionId}" is not an extension id (32 letters a to p; chrome://extensions shows Ava's)`)
  if (platform() === 'win32')
    throw new Error('on Windows the host is registered in the registry; this is not built yet')
  const home = o.home ?? homedir()
  const files = hostFiles(home, o.env)
  mkdirSync(files.dir, { recursive: true, mode: 0o700 })
  writeFileSync(files.script, o.host, { mode: 0o600 })
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  // Node by its path: Chrome starts the host with a bare environment, often without the PATH of a
  // version manager.
  writeFileSync(
    files.launcher,
    `#!/bin/sh\n# Started by Chrome for Ava's extension: relays its messages to \`ava mcp --chrome\`.\nAVA_MCP_SOCKET=${q(socketPath(home, o.env))} exec ${q(o.node ?? process.execPath)} ${q(files.script)} "$@"\n`,
  )
  chmodSync(files.launcher, 0o700)
  const manifest = {
    name: kHostName,
    description: 'Ava: lets MCP clients the person allows drive Ava in this browser',
    path: files.launcher,
    type: 'stdio',
    allowed_origins: [`chrome-extension://${o.extensionId}/`],
  }
  const written = [files.launcher, files.script]
  for (const folder of hostFolders({ profile: o.profile, home })) {
    mkdirSync(folder, { recursive: true })
    const file = join(folder, `${kHostName}.json`)
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`)
    written.push(file)
  }
  return written
}

/** Splits Chrome's length-prefixed frames out of a byte stream. */
export function frameReader(onMessage: (message: unknown) => void): (chunk: Buffer) => void {
  let buffered = Buffer.alloc(0)
  return (chunk) => {
    buffered = Buffer.concat([buffered, chunk])
    while (buffered.length >= 4) {
      const size = buffered.readUInt32LE(0)
      if (buffered.length < 4 + size) return
      const body = buffered.subarray(4, 4 + size).toString('utf8')
      buffered = buffered.subarray(4 + size)
      onMessage(JSON.parse(body))
    }
  }
}

export function frame(message: unknown): Buffer {
  let body = Buffer.from(JSON.stringify(message), 'utf8')
  // Too large for Chrome: the extension gets a failure it can report instead of a closed port.
  if (body.length > kMaxHostMessage)
    body = Buffer.from(
      JSON.stringify({
        id: (message as { id?: unknown }).id,
        ok: false,
        code: 'TOO_LARGE',
        message: 'The answer was larger than Chrome passes to an extension (1 MB).',
      }),
      'utf8',
    )
  const head = Buffer.alloc(4)
  head.writeUInt32LE(body.length, 0)
  return Buffer.concat([head, body])
}

/** Newline-delimited JSON on the socket between the host and the server. */
export function lineReader(onMessage: (message: unknown) => void): (chunk: Buffer) => void {
  let pending = ''
  return (chunk) => {
    pending += chunk.toString('utf8')
    let at: number
    while ((at = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, at)
      pending = pending.slice(at + 1)
      if (line.trim()) onMessage(JSON.parse(line))
    }
  }
}

/**
 * The host Chrome starts: extension → server and back, until Chrome closes its stdin. While no
 * server runs it tries again every second, so an `ava mcp --chrome` started later finds the browser.
 */
export function runNativeHost(
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
  path = process.env.AVA_MCP_SOCKET ?? socketPath(),
): Promise<void> {
  let socket: Socket | undefined
  const queue: unknown[] = []
  let closed = false
  const send = (m: unknown) => {
    if (socket && !socket.destroyed && socket.writable && !socket.connecting) socket.write(`${JSON.stringify(m)}\n`)
    else queue.push(m)
  }
  const dial = () => {
    if (closed) return
    const s = connect(path)
    s.once('connect', () => {
      socket = s
      for (const m of queue.splice(0)) s.write(`${JSON.stringify(m)}\n`)
      io.output.write(frame({ kind: 'server', connected: true }))
    })
    s.on(
      'data',
      lineReader((m) => io.output.write(frame(m))),
    )
    s.once('error', () => undefined)
    s.once('close', () => {
      if (socket === s) {
        socket = undefined
        io.output.write(frame({ kind: 'server', connected: false }))
      }
      setTimeout(dial, kRetryMs).unref()
    })
  }
  dial()
  return new Promise((done) => {
    io.input.on('data', frameReader(send))
    io.input.once('end', () => {
      closed = true
      socket?.destroy()
      done()
    })
  })
}
