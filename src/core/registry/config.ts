import { z } from 'zod'
import type { PackIssue } from './errors'
import { readYaml } from './yaml-source'

// The global configuration file (in agent-browser `~/.agent-browser/config.yaml`; Ava's
// is `~/.ava/config.yaml`). Read by the CLI; parsed here so that the same zod schema and the same
// line:col messages serve every reader. Keys keep the seed's snake_case, as pack files do.

export const GlobalConfigSchema = z.strictObject({
  actions: z
    .strictObject({
      /** More pack folders; `~/` is the home folder, relative paths start at the working directory. */
      paths: z.array(z.string().min(1)).default([]),
      /** npm packages whose packs load (from node_modules of the working directory). */
      packages: z
        .array(z.string().regex(/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i, 'not an npm package name'))
        .default([]),
      /** ms a step may take (the engine's default is 30 000). */
      default_timeout: z.number().int().min(1).max(300_000).optional(),
      /** Run every action as `ava action debug` would, with per-step lines. */
      debug: z.boolean().default(false),
      /** false: never read the page for the component library's version; no overrides apply. */
      detect_version: z.boolean().default(true),
    })
    .default({ paths: [], packages: [], debug: false, detect_version: true }),
})

export type GlobalConfig = z.infer<typeof GlobalConfigSchema>

export const kDefaultGlobalConfig: GlobalConfig = GlobalConfigSchema.parse({})

export type ConfigResult = { ok: true; config: GlobalConfig } | { ok: false; issues: PackIssue[] }

/** Parses a config file's text; problems carry the file, line and column as pack problems do. */
export function parseGlobalConfig(text: string, file: string): ConfigResult {
  const read = readYaml(text, file)
  if (!read.ok) return { ok: false, issues: read.issues }
  // An empty file is a config with every default.
  const parsed = GlobalConfigSchema.safeParse(read.value ?? {})
  if (parsed.success) return { ok: true, config: parsed.data }
  const issues = parsed.error.issues.map((issue): PackIssue => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : []
    const path = [...issue.path, ...keys.slice(0, 1)] as (string | number)[]
    const at = read.locate(path, keys.length ? 'key' : 'value')
    const where = path.join('.') || '(top level)'
    const message = keys.length
      ? `Unknown setting ${keys.map((k) => `"${[...issue.path, k].join('.')}"`).join(', ')}; allowed: actions.paths, actions.packages, actions.default_timeout, actions.debug, actions.detect_version.`
      : `${where}: ${issue.message}.`
    return {
      code: keys.length ? 'UNKNOWN_FIELD' : 'INVALID_VALUE',
      severity: 'error',
      message,
      path,
      file,
      line: at.line,
      col: at.col,
    }
  })
  return { ok: false, issues }
}
