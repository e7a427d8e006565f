import type { ActionDescription, ActionInfo, NamespaceInfo } from './registry'
import { stringify } from './expr/evaluator'

// Text views shared by the CLI and the panel: what a person reads, not what a program parses.

function flags(a: ActionInfo): string {
  const out: string[] = []
  if (a.deprecated) out.push('deprecated')
  if (a.aliasOf) out.push(`alias of ${a.aliasOf}`)
  if (a.risk === 'high') out.push('high risk')
  return out.length ? `  [${out.join(', ')}]` : ''
}

export function formatList(namespaces: readonly NamespaceInfo[]): string {
  const lines: string[] = []
  for (const ns of namespaces) {
    lines.push(`${ns.namespace} ${ns.version}${ns.description ? ` — ${ns.description}` : ''}`)
    const width = Math.max(0, ...ns.actions.map((a) => a.name.length))
    for (const a of ns.actions) lines.push(`  ${a.name.padEnd(width)}  ${a.description}${flags(a)}`)
  }
  return lines.join('\n')
}

export function formatSearch(results: readonly ActionInfo[]): string {
  const width = Math.max(0, ...results.map((a) => a.name.length))
  return results.map((a) => `${a.name.padEnd(width)}  ${a.description}${flags(a)}`).join('\n')
}

export function formatDescription(d: ActionDescription): string {
  const lines = [`${d.name}${flags(d)}`]
  if (d.description) lines.push(`  ${d.description}`)
  if (d.aliasOf && d.steps.length === 0) lines.push(`  Runs ${d.aliasOf}; describe that action for its params.`)
  if (d.deprecated && d.deprecatedMessage) lines.push(`  deprecated: ${d.deprecatedMessage}`)
  lines.push(
    `  source: ${d.source.source} ${d.source.file}${d.inheritedFrom ? ` (inherited from ${d.inheritedFrom})` : ''}`,
  )
  if (d.since) lines.push(`  since: ${d.since}`)
  const params = Object.entries(d.paramDetails)
  if (d.aliasOf && d.steps.length === 0) return lines.join('\n')
  lines.push(params.length ? '  params:' : '  params: (none)')
  for (const [name, p] of params) {
    const bits = [
      p.type === 'enum' ? `enum(${(p.values ?? []).join('|')})` : p.type,
      p.required ? 'required' : 'optional',
    ]
    if (p.default !== undefined) bits.push(`default ${stringify(p.default)}`)
    if (p.secret) bits.push('secret')
    lines.push(`    ${name}  ${bits.join(', ')}${p.description ? ` — ${p.description}` : ''}`)
  }
  lines.push(`  steps: ${d.steps.map((s) => s.action).join(' → ')}`)
  for (const v of d.verify) lines.push(`  verify: ${String(v.condition)}`)
  const returns = Object.keys(d.returns)
  if (returns.length) lines.push(`  returns: ${returns.join(', ')}`)
  return lines.join('\n')
}
