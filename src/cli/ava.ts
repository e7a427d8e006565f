// `ava`: the command line of the action registry (docs/action-packs.md). Runs on plain Node 20 once
// bundled to bin/ava.js (scripts/build-cli.mjs), or from source with `node --import tsx`.
import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { readEnvironment } from '../core/environment'
import { validateFlow } from '../core/flows/schema'
import {
  createRegistry,
  dryRun,
  formatDescription,
  formatIssue,
  formatList,
  formatSearch,
  loadPacks,
  type ActionRegistry,
  type PackIssue,
  type PackSource,
} from '../core/registry'
import { kActionDebugSpec, kActionRunSpec } from './action-run-spec'
import {
  formatCommandHelp,
  jsonFailure,
  kExit,
  kExitCodesHelp,
  kParamOption,
  parseCommand,
  parseParams,
  plainMessage,
  type CommandSpec,
  type Io,
  type Parsed,
} from './args'
import { kRunSpec } from './run-spec'
import { kMcpSpec } from './mcp/spec'
import { kEvalSpec } from './eval-spec'
import { kDoctorSpec } from './doctor-spec'
import { kScheduleSpec } from './schedule-spec'
import { actionEnv, cliSources, displayPath, lookupFailure, packFiles, readGlobalConfig, readPack } from './sources'

/** "1 file", "3 files". */
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

type Handler = (parsed: Parsed, io: Io) => number | Promise<number>

interface Command extends CommandSpec {
  handler: Handler
}

const kPacksNote = `Packs load from the built-in actions/, then the npm packages in ~/.ava/config.yaml
(actions.packages), ~/.ava/actions/, the config's actions.paths, ./.ava/actions/, then the paths in
AVA_ACTIONS_PATH (separated by the platform's path delimiter); later ones override.`

function loadRegistry(io: Io): ActionRegistry {
  const { sources, problems } = cliSources()
  for (const problem of problems) io.err(`ava: ${problem}`)
  const registry = createRegistry(() => cliSources().sources)
  const result = registry.load(sources)
  for (const file of result.files) {
    const errors = file.issues.filter((i) => i.severity === 'error')
    if (!file.ok)
      io.err(`ava: skipped ${file.path}: ${plural(errors.length, 'problem')}; run \`ava action validate ${file.path}\``)
  }
  return registry
}

const list: Handler = ({ positionals, values }, io) => {
  const registry = loadRegistry(io)
  const namespaces = registry.list(positionals[0])
  if (namespaces.length === 0) {
    io.err(
      positionals[0]
        ? `ava: no namespace "${positionals[0]}"; loaded: ${
            registry
              .list()
              .map((n) => n.namespace)
              .join(', ') || '(none)'
          }`
        : 'ava: no actions loaded',
    )
    if (values.json) io.out('[]')
    return kExit.failed
  }
  io.out(values.json ? JSON.stringify(namespaces, null, 2) : formatList(namespaces))
  return kExit.ok
}

const describe: Handler = ({ positionals, values }, io) => {
  const name = positionals[0]
  if (!name) {
    io.err('ava: describe needs an action name, e.g. `ava action describe elementplus:dialog:open`')
    return kExit.usage
  }
  const registry = loadRegistry(io)
  const description = registry.describe(name)
  if (!description) {
    const lookup = registry.lookup(name)
    io.err(`ava action describe: ${lookup.ok ? `no action "${name}"` : lookupFailure(lookup)}`)
    return kExit.failed
  }
  io.out(values.json ? JSON.stringify(description, null, 2) : formatDescription(description))
  return kExit.ok
}

const search: Handler = ({ positionals, values }, io) => {
  const query = positionals.join(' ').trim()
  if (!query) {
    io.err('ava: search needs a keyword')
    return kExit.usage
  }
  const results = loadRegistry(io).search(query)
  if (values.json) io.out(JSON.stringify(results, null, 2))
  if (results.length === 0) {
    io.err(`ava: nothing matches "${query}"`)
    return kExit.failed
  }
  if (!values.json) io.out(formatSearch(results))
  return kExit.ok
}

/** A flow file's report: validateFlow's errors, and its warnings (a flow that checks nothing, a file that is not there). */
interface FlowReport {
  path: string
  kind: 'flow'
  valid: boolean
  errors: { path: string; message: string }[]
  warnings: { path: string; message: string }[]
}

async function validateFlowFile(file: string): Promise<FlowReport> {
  const path = displayPath(file)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    return { path, kind: 'flow', valid: false, errors: [{ path: '(root)', message: plainMessage(e) }], warnings: [] }
  }
  const v = validateFlow(text)
  const warnings = [...v.warnings]
  if (v.flow) {
    // What `ava run` would refuse before starting a browser, said here without one.
    const { missingFlowFiles } = await import('./run')
    for (const m of missingFlowFiles(v.flow, dirname(file), {}))
      warnings.push({
        path: `variables.${m.variable}`,
        message: `the file is not at ${displayPath(m.path)}; \`ava run\` fails unless it is there or given with --param ${m.variable}=<path>`,
      })
  }
  return { path, kind: 'flow', valid: v.valid, errors: v.errors, warnings }
}

/** A folder's files for `validate`: its packs (.yaml, .yml) and its flows (.flow.json), found the same way. */
function folderFiles(path: string): { packs: string[]; flows: string[] } {
  const all = packFiles(path, 0, /\.(ya?ml|flow\.json)$/i)
  return { packs: all.filter((f) => !/\.json$/i.test(f)), flows: all.filter((f) => /\.json$/i.test(f)) }
}

const validate: Handler = async ({ positionals, values }, io) => {
  if (positionals.length === 0) {
    io.err(
      'ava: validate needs files or folders, e.g. `ava action validate actions/` or `ava action validate signup.flow.json`',
    )
    return kExit.usage
  }
  // A .json file given by name is a flow; a folder holds packs and flows (*.flow.json) alike.
  const given = new Map<string, string>() // pack file, absolute → display path
  const flowFiles: string[] = []
  const missing: string[] = []
  for (const arg of positionals) {
    const path = resolve(arg)
    if (/\.json$/i.test(arg)) {
      flowFiles.push(path)
      continue
    }
    const found = folderFiles(path)
    if (found.packs.length + found.flows.length === 0) missing.push(arg)
    for (const f of found.packs) given.set(f, displayPath(f))
    flowFiles.push(...found.flows)
  }
  const flows = await Promise.all(flowFiles.map((f) => validateFlowFile(f)))
  // Load the given files on top of the other sources, so `extends` and cross-pack `run` targets
  // resolve as they will at run time; report only the given files.
  const result =
    given.size === 0
      ? { files: [] }
      : loadPacks([...otherSources(given), { source: 'env-path', files: [...given.keys()].map(readPack) }])
  const shown = new Set(given.values())
  const notFound = (path: string): PackIssue => ({
    file: path,
    line: 1,
    col: 1,
    path: [],
    code: 'READ_FAILED',
    severity: 'error',
    message: 'no pack (.yaml, .yml) or flow (.flow.json) file at this path',
  })
  const reports = [
    ...missing.map((path) => ({ path, valid: false, issues: [notFound(path)] })),
    ...result.files
      .filter((f) => shown.has(f.path))
      .map((f) => ({ path: f.path, valid: !f.issues.some((i) => i.severity === 'error'), issues: f.issues })),
  ]
  const invalid = reports.filter((r) => !r.valid).length + flows.filter((f) => !f.valid).length
  const count = reports.length + flows.length
  if (values.json) io.out(JSON.stringify({ valid: invalid === 0, files: [...reports, ...flows] }, null, 2))
  else for (const r of reports) for (const issue of r.issues) io.out(formatIssue(issue))
  reportFlows(flows, io, !!values.json)
  io.err(invalid ? `${invalid} of ${plural(count, 'file')} invalid` : `${plural(count, 'file')} valid`)
  return invalid ? kExit.failed : kExit.ok
}

/** Every other pack source, without the files `validate` was given (those load last, as given). */
function otherSources(given: Map<string, string>): PackSource[] {
  const mine = new Set(given.values())
  return cliSources().sources.map((s) => ({ ...s, files: s.files.filter((f) => !mine.has(f.path)) }))
}

/** A flow's errors on stdout, as a pack's problems are; its warnings on stderr, since the flow still runs. */
function reportFlows(flows: FlowReport[], io: Io, json: boolean): void {
  for (const f of flows) {
    if (!json) for (const e of f.errors) io.out(`${f.path}: ${e.path}: ${e.message}`)
    for (const w of f.warnings) io.err(`${f.path}: warning: ${w.path}: ${w.message}`)
  }
}

const dryRunCommand: Handler = ({ positionals, values }, io) => {
  const name = positionals[0]
  if (!name) {
    io.err('ava: dry-run needs an action name, e.g. `ava action dry-run common:auth:login --param username=alice`')
    return kExit.usage
  }
  const params = parseParams(values.param as string[] | undefined)
  if (typeof params === 'string') {
    io.err(`ava action dry-run: ${params}`)
    return kExit.usage
  }
  const registry = loadRegistry(io)
  const result = dryRun(registry, name, params, {
    env: actionEnv(registry),
    version: values['lib-version'] as string | undefined,
  })
  io.out(values.json ? JSON.stringify(result, null, 2) : result.text)
  return result.success ? kExit.ok : kExit.failed
}

const kReloadText =
  'Nothing to reload: the CLI reads every pack afresh on each command. In the extension, reload re-reads built-in and installed packs.'
const reload: Handler = ({ values }, io) => {
  io.out(values.json ? JSON.stringify({ reloaded: false, message: kReloadText }) : kReloadText)
  return kExit.ok
}

const kActionCommands: Record<string, Command> = {
  list: {
    name: 'action list',
    args: '[namespace]',
    summary: 'List actions, grouped by namespace.',
    options: {},
    notes: kPacksNote,
    handler: list,
  },
  describe: {
    name: 'action describe',
    args: '<action>',
    summary: "Show an action's parameters, steps, returns and checks.",
    options: {},
    handler: describe,
  },
  search: {
    name: 'action search',
    args: '<keyword...>',
    summary: 'Find actions by name, description or parameter names.',
    options: {},
    handler: search,
  },
  validate: {
    name: 'action validate',
    args: '<file|dir...>',
    summary: 'Check pack files and flow files (.json), one line per problem (path:line:col: CODE message).',
    options: {},
    notes:
      "Exit 1 when any file is invalid. A flow's warnings (it checks nothing, a file it uploads is missing) go to stderr and do not fail it.",
    handler: validate,
  },
  'dry-run': {
    name: 'action dry-run',
    args: '<action>',
    summary: 'Resolve parameters, conditions and selectors and print the plan; runs nothing.',
    options: {
      param: kParamOption,
      'lib-version': { type: 'string', value: '<version>', help: 'plan for this version of the component library' },
    },
    notes: 'Exit 1 when the plan fails (unknown action, missing or invalid parameter).',
    handler: dryRunCommand,
  },
  reload: {
    name: 'action reload',
    args: '',
    summary: 'Nothing to do here: every command reads the packs afresh.',
    options: {},
    handler: reload,
  },
  run: {
    ...kActionRunSpec,
    handler: async (parsed, io) => (await import('./action-run')).actionRunCli(parsed, io, 'run'),
  },
  debug: {
    ...kActionDebugSpec,
    handler: async (parsed, io) => (await import('./action-run')).actionRunCli(parsed, io, 'debug'),
  },
}

const commandLine = (spec: CommandSpec): string => `${spec.name}${spec.args ? ` ${spec.args}` : ''}`

function table(specs: CommandSpec[], strip = ''): string {
  const rows = specs.map((s) => [commandLine(s).slice(strip.length), s.summary.replace(/\.$/, '')] as const)
  const width = Math.max(...rows.map(([c]) => c.length)) + 3
  return rows.map(([c, summary]) => `  ${c.padEnd(width)}${summary}`).join('\n')
}

export const kActionUsage = `Usage: ava action <command> [arguments] [options]

Commands:
${table(Object.values(kActionCommands), 'action ')}

Every command takes --json and --help: \`ava action <command> --help\` shows its options.

${kPacksNote}

${kExitCodesHelp}`

export const kUsage = `Usage: ava <command> [arguments] [options]

Commands:
${table([kRunSpec, kMcpSpec, kScheduleSpec, kEvalSpec, kDoctorSpec, ...Object.values(kActionCommands), { name: 'help', args: '[command]', summary: 'Show help for a command', options: {} }])}

Parameters are given one way everywhere: --param name=value (repeat it for more).
Every command takes --json (the result as JSON on stdout) and --help (\`ava run --help\`).
With --json a failure is JSON too: {"success": false, "error": {"code", "message", "exitCode"}}.
AVA_DEBUG=1 adds Playwright's own messages and stack traces to stderr.

${kExitCodesHelp}`

const isHelp = (arg: string | undefined): boolean => arg === '--help' || arg === '-h' || arg === 'help'

/** Parses a command's arguments, answers --help, and calls its handler. */
async function dispatch(spec: CommandSpec, handler: Handler, args: string[], io: Io): Promise<number> {
  const parsed = parseCommand(spec, args)
  if (typeof parsed === 'string') {
    io.err(`ava ${spec.name}: ${parsed}\nRun \`ava ${spec.name} --help\` for its options.`)
    return kExit.usage
  }
  if (parsed.values.help) {
    io.out(formatCommandHelp(spec))
    return kExit.ok
  }
  // A setting under its former name still works, and says its new one (docs/environment.md).
  for (const warning of readEnvironment(process.env).warnings) io.err(`ava: warning: ${warning}`)
  // A config file that is wrong stops every command that reads packs, rather than being half used.
  const config = readGlobalConfig()
  if (config.issues.length) {
    for (const issue of config.issues) io.err(formatIssue(issue))
    io.err(`ava: ${displayPath(config.path)} is invalid; fix it or set AVA_CONFIG to another file`)
    return kExit.failed
  }
  return handler(parsed, io)
}

/**
 * Runs one command line. With --json, stdout holds one JSON document whatever happens: a command
 * that failed before writing its result (a usage error, an unknown action, a page that would not
 * open, a bug) gets `{ success: false, error }` there, with the same exit code; stderr is unchanged.
 */
export async function main(argv: string[], io: Io): Promise<number> {
  const end = argv.indexOf('--')
  const json = (end < 0 ? argv : argv.slice(0, end)).includes('--json')
  if (!json) return route(argv, io)
  let wrote = false
  const errLines: string[] = []
  const watched: Io = {
    out: (line) => {
      wrote = true
      io.out(line)
    },
    err: (line) => {
      errLines.push(line)
      io.err(line)
    },
  }
  let code: number
  try {
    code = await route(argv, watched)
  } catch (error) {
    watched.err(`ava: ${plainMessage(error)}`)
    code = kExit.internal
  }
  if (!wrote) io.out(code === kExit.ok ? JSON.stringify({ success: true }) : jsonFailure(code, errLines))
  return code
}

async function route(argv: string[], io: Io): Promise<number> {
  const [group, command, ...rest] = argv
  if (group === undefined || isHelp(group)) {
    // `ava help run`, `ava help action dry-run`: the same text as `--help` on the command.
    if (group === 'help' && command !== undefined) return route([command, ...rest, '--help'], io)
    io.out(kUsage)
    return kExit.ok
  }
  if (group === 'run')
    return dispatch(kRunSpec, async (parsed, io) => (await import('./run')).runCli(parsed, io), argv.slice(1), io)
  // Chrome starts the native host with the extension's origin as its argument: no dispatch, no --help.
  if (group === 'native-host') return (await import('./mcp/cli')).nativeHostCli()
  if (group === 'eval')
    return dispatch(kEvalSpec, async (parsed, io) => (await import('./eval')).evalCli(parsed, io), argv.slice(1), io)
  if (group === 'doctor')
    return dispatch(
      kDoctorSpec,
      async (parsed, io) => (await import('./doctor')).doctorCli(parsed, io),
      argv.slice(1),
      io,
    )
  if (group === 'schedule')
    return dispatch(
      kScheduleSpec,
      async (parsed, io) => (await import('./schedule')).scheduleCli(parsed, io),
      argv.slice(1),
      io,
    )
  if (group === 'mcp')
    return dispatch(kMcpSpec, async (parsed, io) => (await import('./mcp/cli')).mcpCli(parsed, io), argv.slice(1), io)
  if (group === 'action') {
    // A bare group lists its commands, as git and docker do.
    if (command === undefined || isHelp(command)) {
      if (command === 'help' && rest[0] !== undefined) return route(['action', rest[0], '--help'], io)
      io.out(kActionUsage)
      return kExit.ok
    }
    const found = kActionCommands[command]
    if (!found) {
      io.err(`ava: unknown command "action ${command}"\n\n${kActionUsage}`)
      return kExit.usage
    }
    return dispatch(found, found.handler, rest, io)
  }
  io.err(`ava: unknown command "${group}"\n\n${kUsage}`)
  return kExit.usage
}

// Run only as the program, not when a test imports main().
const entry = process.argv[1] ?? ''
if (/(?:^|[\\/])(?:ava\.(?:ts|js)|ava)$/.test(entry)) {
  const io: Io = { out: (line) => console.log(line), err: (line) => console.error(line) }
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(`ava: ${plainMessage(error)}`)
      if (process.env.AVA_DEBUG && error instanceof Error) console.error(error.stack)
      process.exitCode = kExit.internal
    },
  )
}
