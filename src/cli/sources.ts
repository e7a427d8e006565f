import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { envReferences, type ActionRegistry, type PackFileInput, type PackSource } from '../core/registry'

// Where the CLI finds packs (§4.4.1, issue 3): built-in `actions/` of this package, then
// ~/.ava/actions/, then ./.ava/actions/, then every path in AVA_ACTIONS_PATH. Later wins.

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

/** Paths as people typed them are kept relative to the working directory, so messages stay short. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path)
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel
}

/** Every .yaml/.yml file under `path` (or `path` itself), sorted so loading order is stable. */
export function packFiles(path: string, depth = 0): string[] {
  if (!existsSync(path)) return []
  const stat = statSync(path)
  if (stat.isFile()) return [path]
  if (!stat.isDirectory() || depth > kMaxDirDepth) return []
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const child = join(path, name)
      const s = statSync(child)
      if (s.isDirectory()) return packFiles(child, depth + 1)
      return kPackFile.test(name) ? [child] : []
    })
}

export function readPack(path: string): PackFileInput {
  return { path: displayPath(path), text: readFileSync(path, 'utf8') }
}

export interface CliSources {
  sources: PackSource[]
  /** Absolute paths of every file read, to avoid loading a file twice in `validate`. */
  absolute: Set<string>
}

export function cliSources(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): CliSources {
  const root = packageRoot()
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
  const sources: PackSource[] = [
    { source: 'builtin', files: root ? collect([join(root, 'actions')]) : [] },
    { source: 'cli-home', files: collect([join(env.HOME ?? homedir(), '.ava', 'actions')]) },
    { source: 'cli-project', files: collect([join(cwd, '.ava', 'actions')]) },
    { source: 'env-path', files: collect(envPaths) },
  ]
  return { sources, absolute }
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
