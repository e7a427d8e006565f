/**
 * Slash commands typed in the panel: `/actions [namespace]`, `/describe <action>`,
 * `/run <action> --param value …`, `/dry-run <action> --param value …`. Values may be quoted.
 */
export type SlashCommand =
  | { kind: 'actions'; namespace?: string }
  | { kind: 'describe'; action: string }
  | { kind: 'run' | 'dry-run'; action: string; params: Record<string, string | boolean> }

export type SlashResult = { ok: true; command: SlashCommand } | { ok: false; error: string }

export const kSlashUsage =
  'Commands: /actions [namespace] · /describe <action> · /run <action> --param value … · /dry-run <action> --param value …'

export function isSlash(text: string): boolean {
  return /^\/[a-z-]+(\s|$)/i.test(text.trim())
}

/** Splits on spaces, keeping "double" or 'single' quoted words together. */
export function splitArgs(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]))
  return out
}

export function parseSlash(text: string): SlashResult {
  const [head, ...rest] = splitArgs(text.trim())
  const name = head?.slice(1).toLowerCase()
  if (name === 'actions') return { ok: true, command: { kind: 'actions', namespace: rest[0] } }
  if (name === 'describe')
    return rest[0]
      ? { ok: true, command: { kind: 'describe', action: rest[0] } }
      : { ok: false, error: 'Usage: /describe <action>' }
  // not an action name: the slash commands /run and /dry-run
  if (name === 'run' || name === 'dry-run') {
    const [action, ...flags] = rest
    if (!action) return { ok: false, error: `Usage: /${name} <action> --param value …` }
    const params: Record<string, string | boolean> = {}
    for (let i = 0; i < flags.length; i++) {
      const f = flags[i]
      if (!f.startsWith('--')) return { ok: false, error: `Expected --param before "${f}". ${kSlashUsage}` }
      const eq = f.indexOf('=')
      if (eq > 2) params[f.slice(2, eq)] = f.slice(eq + 1)
      else if (i + 1 < flags.length && !flags[i + 1].startsWith('--')) params[f.slice(2)] = flags[++i]
      else params[f.slice(2)] = true
    }
    return { ok: true, command: { kind: name, action, params } }
  }
  return { ok: false, error: `Unknown command ${head}. ${kSlashUsage}` }
}
