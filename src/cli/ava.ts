// `ava`: the command line of the action registry (design 000 §3.2). Runs on plain Node 20 once
// bundled to bin/ava.js (scripts/build-cli.mjs), or from source with `node --import tsx`.
import { resolve } from 'node:path'
import {
  createRegistry,
  dryRun,
  formatDescription,
  formatIssue,
  formatList,
  formatSearch,
  loadPacks,
  type ActionRegistry,
  type PackSource,
} from '../core/registry'
import { cliSources, displayPath, packFiles, readPack } from './sources'

interface Io {
  out: (line: string) => void
  err: (line: string) => void
}

type Command = (args: string[], io: Io) => number | Promise<number>

const kUsage = `Usage: ava action <command> [arguments]

  list [namespace]                     list actions, grouped by namespace
  describe <action> [--json]           show an action's params, steps and returns
  search <keyword...>                  find actions by name, description or param names
  validate <file|dir>...               check pack files; one line per problem, exit 1 if any is invalid
  dry-run <action> [--<param> <value>...] [--lib-version <v>] [--json]
                                       resolve params, conditions and selectors; run nothing
  reload                               (nothing to do here: every command loads packs afresh)

Packs load from the built-in actions/, then ~/.ava/actions/, then ./.ava/actions/, then the
paths in AVA_ACTIONS_PATH (separated by the platform's path delimiter); later ones override.`

/** Options the CLI itself reads; every other --name is an action parameter. */
const kReservedFlags = new Set(['json', 'lib-version'])

interface ParsedArgs {
  positional: string[]
  flags: Record<string, string>
}

/** `--name value`, `--name=value`, and a bare `--name` meaning true. */
function parseArgs(args: string[]): ParsedArgs {
  const positional: string[] = []
  const flags: Record<string, string> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1)
    } else if (arg.slice(2) === 'json' || i + 1 >= args.length || args[i + 1].startsWith('--')) {
      flags[arg.slice(2)] = 'true'
    } else {
      flags[arg.slice(2)] = args[++i]
    }
  }
  return { positional, flags }
}

function loadRegistry(io: Io): ActionRegistry {
  const { sources } = cliSources()
  const registry = createRegistry(() => cliSources().sources)
  const result = registry.load(sources)
  for (const file of result.files) {
    const errors = file.issues.filter((i) => i.severity === 'error')
    if (!file.ok) io.err(`ava: skipped ${file.path}: ${errors.length} problem(s); run \`ava action validate ${file.path}\``)
  }
  return registry
}

const list: Command = (args, io) => {
  const registry = loadRegistry(io)
  const namespaces = registry.list(args[0])
  if (namespaces.length === 0) {
    io.err(args[0] ? `ava: no namespace "${args[0]}"; loaded: ${registry.list().map((n) => n.namespace).join(', ') || '(none)'}` : 'ava: no actions loaded')
    return 1
  }
  io.out(formatList(namespaces))
  return 0
}

const describe: Command = (args, io) => {
  const { positional, flags } = parseArgs(args)
  const name = positional[0]
  if (!name) {
    io.err('ava: describe needs an action name, e.g. `ava action describe elementplus:dialog:open`')
    return 2
  }
  const registry = loadRegistry(io)
  const description = registry.describe(name)
  if (!description) {
    const lookup = registry.lookup(name)
    io.err(`ava: ${lookup.ok ? `no action "${name}"` : lookup.message}`)
    return 1
  }
  io.out(flags.json ? JSON.stringify(description, null, 2) : formatDescription(description))
  return 0
}

const search: Command = (args, io) => {
  const query = args.join(' ').trim()
  if (!query) {
    io.err('ava: search needs a keyword')
    return 2
  }
  const results = loadRegistry(io).search(query)
  if (results.length === 0) {
    io.err(`ava: nothing matches "${query}"`)
    return 1
  }
  io.out(formatSearch(results))
  return 0
}

const validate: Command = (args, io) => {
  if (args.length === 0) {
    io.err('ava: validate needs files or folders, e.g. `ava action validate actions/`')
    return 2
  }
  const given = new Map<string, string>() // absolute → display path
  let missing = 0
  for (const arg of args) {
    const files = packFiles(resolve(arg))
    if (files.length === 0) {
      io.out(`${arg}:1:1: READ_FAILED no .yaml or .yml file at this path`)
      missing++
    }
    for (const f of files) given.set(f, displayPath(f))
  }
  // Load the given files on top of the other sources, so `extends` and cross-pack `run` targets
  // resolve as they will at run time; report only the given files.
  const { sources } = cliSources()
  const others: PackSource[] = sources.map((s) => ({ ...s, files: s.files.filter((f) => ![...given.values()].includes(f.path)) }))
  const mine: PackSource = { source: 'env-path', files: [...given.keys()].map(readPack) }
  const result = loadPacks([...others, mine])
  const shown = new Set(given.values())
  let invalid = missing
  for (const file of result.files) {
    if (!shown.has(file.path)) continue
    for (const issue of file.issues) io.out(formatIssue(issue))
    if (file.issues.some((i) => i.severity === 'error')) invalid++
  }
  io.err(invalid ? `${invalid} of ${given.size + missing} file(s) invalid` : `${given.size} file(s) valid`)
  return invalid ? 1 : 0
}

const dryRunCommand: Command = (args, io) => {
  const { positional, flags } = parseArgs(args)
  const name = positional[0]
  if (!name) {
    io.err('ava: dry-run needs an action name')
    return 2
  }
  const params = Object.fromEntries(Object.entries(flags).filter(([k]) => !kReservedFlags.has(k)))
  const registry = loadRegistry(io)
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
  const result = dryRun(registry, name, params, { env, version: flags['lib-version'] })
  io.out(flags.json ? JSON.stringify(result, null, 2) : result.text)
  return result.success ? 0 : 1
}

const reload: Command = (_args, io) => {
  io.out('Nothing to reload: the CLI reads every pack afresh on each command. In the extension, reload re-reads built-in and installed packs.')
  return 0
}

// The command table. `ava run <action-or-flow> --url ...` (headless runner, another issue) will
// sit beside `action` as its own group.
const kGroups: Record<string, Record<string, Command>> = {
  action: { list, describe, search, validate, 'dry-run': dryRunCommand, reload },
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [group, command, ...rest] = argv
  if (!group || group === '--help' || group === '-h' || group === 'help') {
    io.out(kUsage)
    return group ? 0 : 2
  }
  if (group === 'run') return (await import('./run')).runCli(argv.slice(1), io)
  const handler = kGroups[group]?.[command ?? '']
  if (!handler) {
    io.err(`ava: unknown command "${[group, command].filter(Boolean).join(' ')}"\n\n${kUsage}`)
    return 2
  }
  return handler(rest, io)
}

const io: Io = { out: (line) => console.log(line), err: (line) => console.error(line) }
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(`ava: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exitCode = 70 // EX_SOFTWARE: a bug in ava, not in the input
  },
)
