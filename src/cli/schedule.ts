import { connect, createServer, type Socket } from 'node:net'
import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { kExit, parseParams, type Io, type Parsed } from './args'
import { lineReader, socketPath } from './mcp/native'
import { kNoBrowserMessage } from './mcp/chrome'
import { failureOf, isFailureCode } from '../core/failure'
import { renderEn } from '../core/locales/render'
import type { Schedule, ScheduleDraft, ScheduleTarget } from '../core/schedule/model'
import type { BridgeScheduleOp } from '../core/bridge'

/**
 * `ava schedule`: the person's schedules, kept and run by Ava in their Chrome (docs/agent.md,
 * "Schedules"). It reaches the extension the way `ava mcp --chrome` does: it listens on the
 * bridge's socket, and the native host Chrome started for Ava dials it (src/cli/mcp/native.ts).
 * Only one program can hold that socket: while `ava mcp --chrome` runs, this says so.
 */

/** How long to wait for Ava to dial in: the host tries every second, so three tries. */
const kDialWaitMs = 3_500
/** How long the extension may take to answer. */
const kAnswerMs = 30_000

type Reply = { ok: true; [k: string]: unknown } | { ok: false; code: string; message: string }

export async function scheduleCli(parsed: Parsed, io: Io): Promise<number> {
  const [op, id] = parsed.positionals
  const json = !!parsed.values.json
  let request: BridgeScheduleOp
  if (op === 'list') request = { op: 'list' }
  else if (op === 'remove') {
    if (!id) return usage(io, 'remove needs the id of a schedule (ava schedule list shows them)')
    request = { op: 'remove', schedule: id }
  } else if (op === 'add') {
    const draft = draftOf(parsed.values)
    if (typeof draft === 'string') return usage(io, draft)
    request = { op: 'add', draft }
  } else return usage(io, op ? `unknown operation "${op}": use list, add or remove` : 'say list, add or remove')

  const reply = await ask(request).catch((e: Error): Reply => ({
    ok: false,
    code: (e as { code?: string }).code ?? 'NO_BROWSER',
    message: e.message,
  }))
  if (!reply.ok) {
    const say = isFailureCode(reply.code) ? failureOf(reply.code).say.plain : undefined
    io.err(`ava schedule: ${say ? `${renderEn({ key: say })} (${reply.message})` : reply.message}`)
    return isFailureCode(reply.code) && failureOf(reply.code).exit === 'usage' ? kExit.usage : kExit.failed
  }
  if (json) {
    io.out(JSON.stringify({ success: true, ...reply, ok: undefined }))
    return kExit.ok
  }
  if (op === 'list') {
    const all = (reply.schedules as Schedule[]) ?? []
    if (!all.length) io.out('No schedules.')
    for (const s of all) io.out(lineOf(s))
  } else if (op === 'add') io.out(`Scheduled: ${lineOf(reply.schedule as Schedule)}`)
  else io.out(reply.removed ? `Removed ${id}.` : `No schedule "${id}".`)
  return kExit.ok
}

function usage(io: Io, message: string): number {
  io.err(`ava schedule: ${message}\nRun \`ava schedule --help\` for its options.`)
  return kExit.usage
}

function lineOf(s: Schedule): string {
  const when =
    s.repeat.every === 'once'
      ? `once at ${s.repeat.at}`
      : s.repeat.every === 'hourly'
        ? `hourly at minute ${s.repeat.minute}`
        : `${s.repeat.every} at ${s.repeat.time}`
  const next = s.dueAt === null ? 'done' : `next ${new Date(s.dueAt).toISOString()}`
  const last = s.last ? `; last ${s.last.outcome}` : ''
  return `${s.id}  ${s.name}  (${when} ${s.timeZone}; ${next}${last})`
}

/** The draft from the command line; a sentence when it is not one. */
function draftOf(v: Parsed['values']): ScheduleDraft | string {
  const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined)
  const kinds = (['action', 'flow', 'request', 'watch'] as const).filter((k) => v[k] !== undefined && v[k] !== false)
  if (kinds.length !== 1) return 'give exactly one of --action, --flow, --request or --watch'
  const params = parseParams(v.param as string[] | undefined)
  if (typeof params === 'string') return params
  const url = str('url')
  if (kinds[0] !== 'flow' && !url) return `--${kinds[0]} needs --url, the page to open`
  let target: ScheduleTarget
  if (kinds[0] === 'action') target = { kind: 'action', action: str('action')!, params, url: url! }
  else if (kinds[0] === 'flow') target = { kind: 'flow', flow: str('flow')!, params }
  else if (kinds[0] === 'request') target = { kind: 'request', text: str('request')!, url: url! }
  else target = { kind: 'watch', url: url!, ...(str('target') ? { target: str('target') } : {}) }
  const every = str('every')
  const at = str('at')
  if (!every || !at) return 'say when: --every once|daily|weekdays|hourly and --at'
  const missed = str('missed')
  if (missed !== undefined && missed !== 'run' && missed !== 'skip') return `--missed is run or skip, not "${missed}"`
  return {
    target,
    every,
    when: at,
    timeZone: str('tz') ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    ...(missed ? { missed } : {}),
    ...(str('name') ? { name: str('name') } : {}),
  }
}

/** One request to Ava in Chrome over the bridge's socket, and its reply. */
async function ask(request: BridgeScheduleOp, path = process.env.AVA_MCP_SOCKET ?? socketPath()): Promise<Reply> {
  if (await listening(path))
    throw Object.assign(
      new Error(
        '`ava mcp --chrome` is holding the connection to Chrome; stop it, run this again, then start it again.',
      ),
      { code: 'NO_BROWSER' },
    )
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  rmSync(path, { force: true })
  let timer: NodeJS.Timeout | undefined
  let dialed: Socket | undefined
  const server = createServer()
  try {
    const socket = await new Promise<Socket>((done, fail) => {
      timer = setTimeout(() => fail(Object.assign(new Error(kNoBrowserMessage), { code: 'NO_BROWSER' })), kDialWaitMs)
      server.once('connection', (s) => done((dialed = s)))
      server.listen(path, () => chmodSync(path, 0o600))
    })
    clearTimeout(timer)
    return await new Promise<Reply>((done) => {
      timer = setTimeout(
        () => done({ ok: false, code: 'TIMEOUT', message: 'No answer came from the browser in time.' }),
        kAnswerMs,
      )
      socket.on(
        'data',
        lineReader((m) => {
          const r = m as { id?: number } & Reply
          if (r.id === 1) done(r)
        }),
      )
      socket.write(`${JSON.stringify({ id: 1, kind: 'schedule', ...request })}\n`)
    })
  } finally {
    clearTimeout(timer)
    dialed?.destroy()
    server.close()
    rmSync(path, { force: true })
  }
}

/** Whether another program (a running `ava mcp --chrome`) serves the socket now. */
function listening(path: string): Promise<boolean> {
  return new Promise((done) => {
    const s = connect(path)
    s.once('connect', () => (s.destroy(), done(true)))
    s.once('error', () => done(false))
  })
}
