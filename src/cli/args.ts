// Argument handling shared by every `ava` command: node's own util.parseArgs (strict, so a typo is
// a usage error rather than a silently ignored flag), one parameter syntax (`--param name=value`),
// and help text generated from the same option table the parser reads, so the two cannot drift.
import { parseArgs, stripVTControlCharacters } from 'node:util'
import type { FailureCode } from '../core/failure'

export interface Io {
  out: (line: string) => void
  err: (line: string) => void
}

/** Exit codes, the same for every command (printed in every help text and in docs/action-packs.md). */
export const kExit = {
  /** The command did what was asked: the action or flow passed, the files are valid. */
  ok: 0,
  /** The command ran and the answer is "no": a step or `verify` failed, a file is invalid, nothing matched. */
  failed: 1,
  /** The command line is wrong: unknown command or option, missing argument, bad --param. */
  usage: 2,
  /** A bug in ava itself (EX_SOFTWARE). */
  internal: 70,
} as const

export const kExitCodesHelp = `Exit codes: 0 success; 1 the action, flow or check failed (or nothing matched); 2 usage error;
70 a bug in ava.`

export interface OptionSpec {
  type: 'string' | 'boolean'
  /** Shown in help after the flag, e.g. `<name=value>`. */
  value?: string
  multiple?: boolean
  help: string
}

export interface CommandSpec {
  /** `action list`, `run`, … as typed after `ava`. */
  name: string
  /** Positional arguments as shown in the usage line, e.g. `<action>`. */
  args: string
  summary: string
  options: Record<string, OptionSpec>
  /** Extra paragraphs after the options. */
  notes?: string
}

/** Every command takes these. */
export const kCommonOptions: Record<string, OptionSpec> = {
  json: { type: 'boolean', help: 'print the result as JSON on stdout (messages stay on stderr)' },
  help: { type: 'boolean', help: 'show this help' },
}

export const kParamOption: OptionSpec = {
  type: 'string',
  value: '<name=value>',
  multiple: true,
  help: 'an action parameter or flow variable; repeat for more',
}

export function formatCommandHelp(spec: CommandSpec): string {
  const options = { ...spec.options, ...kCommonOptions }
  const rows = Object.entries(options).map(([name, o]) => [`--${name}${o.value ? ` ${o.value}` : ''}`, o.help] as const)
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2
  const lines = [
    `Usage: ava ${spec.name}${spec.args ? ` ${spec.args}` : ''} [options]`,
    '',
    spec.summary,
    '',
    'Options:',
    ...rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`),
  ]
  if (spec.notes) lines.push('', spec.notes)
  lines.push('', kExitCodesHelp)
  return lines.join('\n')
}

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
}

/**
 * Parses one command's arguments against its spec. Returns a message for the person on a usage
 * error. An unknown `--name` gets a hint when it looks like a parameter given the other way.
 */
export function parseCommand(spec: CommandSpec, args: string[]): Parsed | string {
  const options = { ...spec.options, ...kCommonOptions }
  const config = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      o.multiple ? { type: o.type, multiple: true } : { type: o.type },
    ]),
  )
  // -h is the one short flag: people type it without thinking.
  const expanded = args.map((a) => (a === '-h' ? '--help' : a))
  try {
    const { values, positionals } = parseArgs({ args: expanded, options: config, allowPositionals: true, strict: true })
    return { values: values as Parsed['values'], positionals }
  } catch (e) {
    return usageMessage(e, spec)
  }
}

function usageMessage(e: unknown, spec: CommandSpec): string {
  const error = e as { code?: string; message?: string }
  const message = error.message ?? String(e)
  const flag = /'(-[^' ]+)/.exec(message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) {
    const name = flag.replace(/^-+/, '')
    const hint = spec.options.param ? `; give action parameters as --param ${name}=<value>` : ''
    return `unknown option ${flag}${hint}`
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag)
    return /does not take/.test(message) ? `${flag} takes no value` : `${flag} needs a value`
  return message
}

/** `--param name=value` (repeatable) → { name: value }; a message when one has no `=`. */
export function parseParams(list: readonly string[] | undefined): Record<string, string> | string {
  const out: Record<string, string> = {}
  for (const kv of list ?? []) {
    const eq = kv.indexOf('=')
    if (eq <= 0) return `--param needs name=value, got "${kv}"`
    out[kv.slice(0, eq)] = kv.slice(eq + 1)
  }
  return out
}

/** Node's error classes as words people know; our own error names never reach the person. */
export function plainMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/^(?:\w+: )?(?:[A-Z]\w*Error: )+/, '')
}

/** The JSON error code for an exit code: what a script reading --json output branches on. */
const kJsonErrorCodes: Record<number, FailureCode> = {
  [kExit.failed]: 'FAILED',
  [kExit.usage]: 'USAGE_ERROR',
  [kExit.internal]: 'INTERNAL_ERROR',
}

/**
 * With --json, every outcome is one JSON object on stdout. A command that ended without writing
 * one (a usage error, an unknown action, a page that would not open) said why on stderr: that
 * first line, without the `ava <command>: ` prefix, becomes `{ success: false, error }`.
 */
export function jsonFailure(exit: number, errLines: readonly string[]): string {
  const first =
    errLines
      .join('\n')
      .split('\n')
      .find((l) => l.trim()) ?? 'failed'
  const message = first.replace(/^ava(?: [a-z-]+)*: /, '')
  // The two failures scripts most often tell apart get their own codes (the registry's name for the first).
  const code: FailureCode = /^No action "/.test(message)
    ? 'ACTION_NOT_FOUND'
    : /^Could not open /.test(message)
      ? 'PAGE_NOT_OPENED'
      : (kJsonErrorCodes[exit] ?? 'FAILED')
  return JSON.stringify({ success: false, error: { code, message, exitCode: exit } }, null, 2)
}

/** net::ERR_… codes of a page that did not open, in words. */
const kNetErrors: Record<string, string> = {
  ERR_CONNECTION_REFUSED: 'connection refused',
  ERR_CONNECTION_RESET: 'the connection was reset',
  ERR_CONNECTION_CLOSED: 'the connection was closed',
  ERR_CONNECTION_TIMED_OUT: 'the connection timed out',
  ERR_TIMED_OUT: 'the connection timed out',
  ERR_NAME_NOT_RESOLVED: 'no such host',
  ERR_ADDRESS_UNREACHABLE: 'the address is unreachable',
  ERR_INTERNET_DISCONNECTED: 'no network',
  ERR_UNSAFE_PORT: 'Chromium does not open this port (it is on its list of unsafe ports)',
  ERR_INVALID_URL: 'not a valid address',
  ERR_FILE_NOT_FOUND: 'no such file',
  ERR_ABORTED: 'the page stopped loading',
  ERR_EMPTY_RESPONSE: 'the server sent nothing',
}

/**
 * Why a page did not open, as one plain line: Playwright's own text carries a "Call log:" and
 * terminal colour codes, kept for AVA_DEBUG only.
 */
export function openFailure(url: string, error: unknown): string {
  const raw = stripVTControlCharacters(error instanceof Error ? error.message : String(error))
  const net = /net::(ERR_[A-Z_]+)/.exec(raw)?.[1]
  const timeout = /Timeout (\d+)ms exceeded/.exec(raw)?.[1]
  const why = net
    ? (kNetErrors[net] ?? net.slice(4).toLowerCase().replace(/_/g, ' '))
    : timeout
      ? `it did not load within ${Math.round(Number(timeout) / 1000)} s`
      : /invalid url|Cannot navigate to invalid URL/i.test(raw)
        ? 'not a valid address'
        : plainMessage(raw.split('\n')[0]).replace(/^page\.\w+: /, '')
  return `Could not open ${url}: ${why}`
}

/** A Playwright error as one plain line (no call log, no colour codes, no `page.goto:` prefix). */
export function oneLine(error: unknown): string {
  const text = stripVTControlCharacters(error instanceof Error ? error.message : String(error))
  return plainMessage(text.split('\n')[0].replace(/^\w+\.\w+: /, ''))
}

/** Playwright's whole text (call log included), for AVA_DEBUG: what a bug report needs. */
export function debugDetail(error: unknown): string | undefined {
  if (!process.env.AVA_DEBUG) return undefined
  return stripVTControlCharacters(error instanceof Error ? (error.stack ?? error.message) : String(error))
}
