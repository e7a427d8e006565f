import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { failureHint } from '../core/failure'
import { renderEn } from '../core/locales/render'
import {
  envReferences,
  kDefaultGlobalConfig,
  parseGlobalConfig,
  type ActionRegistry,
  type GlobalConfig,
  type Lookup,
  type PackFileInput,
  type PackIssue,
  type PackSource,
} from '../core/registry'

// Where the CLI finds packs, lowest priority first: the built-in
// `actions/` of this package, the npm packages the global config names, ~/.ava/actions/, the
// config's `actions.paths`, ./.ava/actions/, then every path in AVA_ACTIONS_PATH. Later wins.

/** Pack folders are shallow; this bounds a walk that was pointed at a huge tree by mistake. */
const kMaxDirDepth = 5
const kPackFile = /\.ya?ml$/i

/** The package root: the nearest folder above this file with our package.json and an actions/ folder. */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg) && existsSync(join(dir, 'actions'))) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'ava-assistant') return dir
      } catch {
        // Not ours; keep climbing.
      }
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** A name the registry does not have, said the same way by every command: the closest name, else where to look. */
export function lookupFailure(found: Extract<Lookup, { ok: false }>): string {
  // What this lookup adds, else ACTION_NOT_FOUND's hint from the en table (src/core/failure.ts).
  const more = found.suggestion ?? renderEn(failureHint('ACTION_NOT_FOUND')!)
  return `${found.message}${!found.message.includes(more) ? ` ${more}` : ''}`
}

/** Paths as people typed them are kept relative to the working directory, so messages stay short. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path)
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel
}

/** Every .yaml/.yml file (or what `kind` matches) under `path`, or `path` itself, sorted so loading order is stable. */
export function packFiles(path: string, depth = 0, kind: RegExp = kPackFile): string[] {
  if (!existsSync(path)) return []
  const stat = statSync(path)
  if (stat.isFile()) return [path]
  if (!stat.isDirectory() || depth > kMaxDirDepth) return []
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const child = join(path, name)
      const s = statSync(child)
      if (s.isDirectory()) return packFiles(child, depth + 1, kind)
      return kind.test(name) ? [child] : []
    })
}

export function readPack(path: string): PackFileInput {
  return { path: displayPath(path), text: readFileSync(path, 'utf8') }
}

export interface CliSources {
  sources: PackSource[]
  /** Absolute paths of every file read, to avoid loading a file twice in `validate`. */
  absolute: Set<string>
  /** The global config, its defaults when there is no file. */
  config: GlobalConfig
  /** Where the config was looked for. */
  configPath: string
  /** A config file that does not parse or validate: the command stops (exit 1) with these. */
  configIssues: PackIssue[]
  /** Packages the config names that were not found or hold no packs: said on stderr, the rest loads. */
  problems: string[]
}

/** The global config, `~/.ava/config.yaml` (docs/action-packs.md, "The global config file"); AVA_CONFIG names another file. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AVA_CONFIG) return resolve(env.AVA_CONFIG)
  const dir = join(env.HOME ?? homedir(), '.ava')
  const yml = join(dir, 'config.yml')
  return !existsSync(join(dir, 'config.yaml')) && existsSync(yml) ? yml : join(dir, 'config.yaml')
}

export function readGlobalConfig(env: NodeJS.ProcessEnv = process.env): {
  path: string
  config: GlobalConfig
  issues: PackIssue[]
} {
  const path = configPath(env)
  if (!existsSync(path)) return { path, config: kDefaultGlobalConfig, issues: [] }
  const parsed = parseGlobalConfig(readFileSync(path, 'utf8'), displayPath(path))
  return parsed.ok
    ? { path, config: parsed.config, issues: [] }
    : { path, config: kDefaultGlobalConfig, issues: parsed.issues }
}

/** `~/x` → the home folder's x; other relative paths start at the working directory. */
function expandHome(path: string, env: NodeJS.ProcessEnv, cwd: string): string {
  if (path === '~' || path.startsWith('~/')) return join(env.HOME ?? homedir(), path.slice(1))
  return resolve(cwd, path)
}

/**
 * The folder of an installed package, found as Node finds one: node_modules of the working
 * directory, then of each folder above it. Read from disk rather than through require.resolve, so
 * a package whose `exports` hides its package.json (or that has no main) still counts.
 */
export function findPackage(name: string, cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', ...name.split('/'))
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/**
 * Pack folders or files a package ships ("npm 分发"): those its package.json lists under
 * `ava.actions` (a path or a list, inside the package), else its `actions/` folder.
 */
export function packageDirs(root: string): { dirs: string[] } | { error: string } {
  let manifest: { ava?: { actions?: unknown } }
  try {
    manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as typeof manifest
  } catch (e) {
    return { error: `its package.json does not parse (${(e as Error).message})` }
  }
  const declared = manifest.ava?.actions
  if (declared !== undefined) {
    const list =
      typeof declared === 'string'
        ? [declared]
        : Array.isArray(declared) && declared.every((d) => typeof d === 'string')
          ? (declared as string[])
          : undefined
    if (!list) return { error: 'its package.json "ava.actions" must be a path or a list of paths' }
    const dirs = list.map((d) => resolve(root, d))
    const outside = list.find((d, i) => relative(root, dirs[i]).startsWith('..'))
    if (outside !== undefined)
      return { error: `its package.json "ava.actions" names "${outside}", outside the package` }
    return { dirs }
  }
  if (existsSync(join(root, 'actions'))) return { dirs: [join(root, 'actions')] }
  return { error: 'it has no actions/ folder and its package.json declares no packs ("ava": { "actions": … })' }
}

export function cliSources(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): CliSources {
  const root = packageRoot()
  const { path: cfgPath, config, issues: configIssues } = readGlobalConfig(env)
  const problems: string[] = []
  const absolute = new Set<string>()
  const collect = (dirs: string[]): PackFileInput[] =>
    dirs.flatMap((dir) =>
      packFiles(resolve(cwd, dir)).flatMap((file) => {
        if (absolute.has(file)) return []
        absolute.add(file)
        return [readPack(file)]
      }),
    )
  const envPaths = (env.AVA_ACTIONS_PATH ?? '').split(delimiter).filter(Boolean)
  const packageFiles = config.actions.packages.flatMap((name) => {
    const dir = findPackage(name, cwd)
    if (!dir) {
      problems.push(
        `package "${name}" (actions.packages in ${displayPath(cfgPath)}) is not installed in node_modules of ${cwd} or above; run \`npm install ${name}\``,
      )
      return []
    }
    const found = packageDirs(dir)
    if ('error' in found) {
      problems.push(`package "${name}" has no packs: ${found.error}`)
      return []
    }
    const files = collect(found.dirs)
    if (files.length === 0)
      problems.push(`package "${name}" has no .yaml or .yml pack in ${found.dirs.map(displayPath).join(', ')}`)
    return files
  })
  const sources: PackSource[] = [
    { source: 'builtin', files: root ? collect([join(root, 'actions')]) : [] },
    { source: 'cli-package', files: packageFiles },
    { source: 'cli-home', files: collect([join(env.HOME ?? homedir(), '.ava', 'actions')]) },
    { source: 'cli-config', files: collect(config.actions.paths.map((p) => expandHome(p, env, cwd))) },
    { source: 'cli-project', files: collect([join(cwd, '.ava', 'actions')]) },
    { source: 'env-path', files: collect(envPaths) },
  ]
  return { sources, absolute, config, configPath: cfgPath, configIssues, problems }
}

/**
 * The environment an action may read: only the variables some loaded action names (`${env.X}`).
 * The engine treats every env value it is given as a secret to mask, so passing all of
 * process.env would mask any "1" or "true" (SHLVL=1) wherever it appears in a trace.
 */
export function actionEnv(registry: ActionRegistry, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const names = new Set<string>()
  for (const ns of registry.list()) {
    for (const info of ns.actions) {
      const found = registry.lookup(info.name)
      if (found.ok) for (const name of envReferences(found.action)) names.add(name)
    }
  }
  return Object.fromEntries([...names].flatMap((n) => (env[n] === undefined ? [] : [[n, env[n]]])))
}
