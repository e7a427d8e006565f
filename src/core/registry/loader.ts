import { packStepComposes } from '../vocabulary'
import type { RunEdge } from './cycles'
import type { PackIssue, PackIssueCode, PathSegment } from './errors'
import {
  qualify,
  toNamespace,
  type ActionCompatibility,
  type ActionDefinition,
  type ActionSource,
  type ActionStep,
  type NamespaceDefinition,
  type SourceKind,
} from './model'
import { cycleIssues, validatePack } from './validator'
import type { Locate } from './yaml-source'

// Many sources, lowest priority first; later definitions override earlier ones. The loader
// never reads files itself (the extension reads the extension storage and bundled text, the CLI reads
// disk), so it runs the same in both.

export interface PackFileInput {
  /** Shown in issues; a file path on the CLI, a storage key or URL in the extension. */
  path: string
  text: string
}

export interface PackSource {
  source: SourceKind
  files: PackFileInput[]
}

export interface FileReport {
  path: string
  source: SourceKind
  ok: boolean
  namespace?: string
  issues: PackIssue[]
}

export interface LoadResult {
  namespaces: NamespaceDefinition[]
  files: FileReport[]
  /** Every issue of every file, and those found across files after merging. */
  issues: PackIssue[]
}

interface Entry {
  report: FileReport
  namespace: NamespaceDefinition
  locate: Locate
  order: number
}

// ---- merging ------------------------------------------------------------------------

function mergeCompatibility(
  parent?: ActionCompatibility,
  child?: ActionCompatibility,
): ActionCompatibility | undefined {
  if (!parent) return child
  if (!child) return parent
  return {
    minVersion: child.minVersion ?? parent.minVersion,
    maxVersion: child.maxVersion ?? parent.maxVersion,
    detect: {
      ...parent.detect,
      ...Object.fromEntries(Object.entries(child.detect).filter(([, v]) => v !== undefined)),
    },
    // Applied in order and later patterns win, so the child's come last.
    versionOverrides: [...parent.versionOverrides, ...child.versionOverrides],
  }
}

/**
 * 深度合并: namespace and version from the child; selectors merged shallowly; actions
 * merged by name (an action present in both is the child's, whole); compatibility deep-merged.
 */
export function mergeNamespaces(parent: NamespaceDefinition, child: NamespaceDefinition): NamespaceDefinition {
  const actions: Record<string, ActionDefinition> = {}
  for (const [name, action] of Object.entries(parent.actions)) {
    actions[name] =
      parent.namespace === child.namespace
        ? action
        : {
            ...action,
            namespace: child.namespace,
            fullName: `${child.namespace}:${name}`,
            inheritedFrom: action.inheritedFrom ?? action.namespace,
          }
  }
  Object.assign(actions, child.actions)
  return {
    namespace: child.namespace,
    version: child.version,
    description: child.description || parent.description,
    descriptionZh: child.description ? child.descriptionZh : (child.descriptionZh ?? parent.descriptionZh),
    compatibility: mergeCompatibility(parent.compatibility, child.compatibility),
    selectors: { ...parent.selectors, ...child.selectors },
    actions,
    sources: [...parent.sources, ...child.sources],
    extends: [...new Set([...parent.extends, ...child.extends])],
  }
}

// ---- loading ---------------------------------------------------------------------------------

function issueAt(
  locate: Locate,
  file: string,
  code: PackIssueCode,
  message: string,
  path: PathSegment[],
  severity: 'error' | 'warning' = 'error',
): PackIssue {
  const { line, col } = locate(path, 'value')
  return { code, severity, message, path, file, line, col }
}

/** Drops files whose `extends` names a namespace nobody defines, or that extend in a circle. */
function checkExtends(entries: Entry[]): Entry[] {
  let current = entries
  for (;;) {
    const defined = new Set(current.map((e) => e.namespace.namespace))
    const parentsOf = new Map<string, Set<string>>()
    for (const e of current) {
      const set = parentsOf.get(e.namespace.namespace) ?? new Set()
      e.namespace.extends.forEach((p) => set.add(p))
      parentsOf.set(e.namespace.namespace, set)
    }
    const reaches = (from: string, target: string): boolean => {
      const seen = new Set<string>()
      const todo = [...(parentsOf.get(from) ?? [])]
      while (todo.length) {
        const n = todo.pop() as string
        if (n === target) return true
        if (seen.has(n)) continue
        seen.add(n)
        todo.push(...(parentsOf.get(n) ?? []))
      }
      return false
    }
    const dropped = new Set<Entry>()
    for (const e of current) {
      for (const parent of e.namespace.extends) {
        const file = e.report.path
        if (!defined.has(parent)) {
          e.report.issues.push(
            issueAt(
              e.locate,
              file,
              'EXTENDS_NOT_FOUND',
              `extends "${parent}", but no loaded pack has that namespace; loaded: ${[...defined].sort().join(', ') || '(none)'}.`,
              ['extends'],
            ),
          )
          dropped.add(e)
        } else if (parent === e.namespace.namespace || reaches(parent, e.namespace.namespace)) {
          e.report.issues.push(
            issueAt(
              e.locate,
              file,
              'EXTENDS_CYCLE',
              `extends "${parent}", which extends "${e.namespace.namespace}" again; inheritance must not loop.`,
              ['extends'],
            ),
          )
          dropped.add(e)
        }
      }
    }
    if (dropped.size === 0) return current
    for (const e of dropped) e.report.ok = false
    // Dropping a file may orphan others that extended it: check again until stable.
    current = current.filter((e) => !dropped.has(e))
  }
}

function stepEdges(
  action: ActionDefinition,
  steps: readonly ActionStep[],
  base: PathSegment[],
  kind: 'run' | 'fallback',
  out: RunEdge[],
): void {
  steps.forEach((step, i) => {
    const path = [...base, i]
    const target = step.args.action
    if (packStepComposes(step.action) && typeof target === 'string' && !target.includes('${')) {
      out.push({
        from: action.fullName,
        to: qualify(target, action.namespace),
        kind,
        path: [...path, 'args', 'action'],
      })
    }
    if (step.fallback) stepEdges(action, step.fallback, [...path, 'fallback'], 'fallback', out)
  })
}

/** Checks that need every pack at once: cycles across files, run and alias targets elsewhere. */
function crossChecks(namespaces: NamespaceDefinition[], locators: Map<string, Locate>): PackIssue[] {
  const issues: PackIssue[] = []
  const index = new Map<string, ActionDefinition>()
  for (const ns of namespaces) for (const a of Object.values(ns.actions)) index.set(a.fullName, a)
  const edges: RunEdge[] = []
  const fileOf = new Map<RunEdge, string>()
  const locate = (file: string): Locate => locators.get(file) ?? (() => ({ line: 1, col: 1, offset: 0 }))
  for (const action of index.values()) {
    const own: RunEdge[] = []
    stepEdges(action, action.steps, ['actions', action.name, 'steps'], 'run', own)
    for (const e of own) {
      fileOf.set(e, action.source.file)
      edges.push(e)
      if (!index.has(e.to)) {
        issues.push(
          issueAt(
            locate(action.source.file),
            action.source.file,
            'UNKNOWN_ACTION_REF',
            `run targets "${e.to}", which no loaded pack defines.`,
            e.path,
            'warning',
          ),
        )
      }
    }
    if (action.aliasOf !== undefined && !index.has(qualify(action.aliasOf, action.namespace))) {
      issues.push(
        issueAt(
          locate(action.source.file),
          action.source.file,
          'UNKNOWN_ALIAS_TARGET',
          `alias_of "${action.aliasOf}" names no loaded action.`,
          ['actions', action.name, 'alias_of'],
          'warning',
        ),
      )
    }
  }
  cycleIssues(edges, (code, message, edge, chain) => {
    const file = fileOf.get(edge) ?? ''
    // Cycles inside one file were already reported when that file was validated.
    const files = new Set(chain.map((name) => index.get(name)?.source.file))
    if (files.size > 1) issues.push(issueAt(locate(file), file, code, message, edge.path))
  })
  return issues
}

/**
 * Loads every source in priority order. A file with errors is skipped with its issues
 * recorded; the others load regardless. Then `extends` is resolved and the index-ready
 * namespaces are returned.
 */
export function loadPacks(sources: readonly PackSource[]): LoadResult {
  const files: FileReport[] = []
  let entries: Entry[] = []
  const locators = new Map<string, Locate>()
  let order = 0
  for (const { source, files: inputs } of sources) {
    for (const input of inputs) {
      const result = validatePack(input.text, { file: input.path })
      const report: FileReport = {
        path: input.path,
        source,
        ok: result.ok,
        namespace: result.pack?.namespace,
        issues: result.issues,
      }
      files.push(report)
      if (result.locate) locators.set(input.path, result.locate)
      if (!result.ok || !result.pack || !result.locate) continue
      const origin: ActionSource = { source, file: input.path }
      entries.push({ report, namespace: toNamespace(result.pack, origin), locate: result.locate, order: order++ })
    }
  }
  entries = checkExtends(entries)

  // Same namespace from several files: merged in priority order, the later file as the child.
  const byName = new Map<string, NamespaceDefinition>()
  for (const e of entries) {
    const prev = byName.get(e.namespace.namespace)
    byName.set(e.namespace.namespace, prev ? mergeNamespaces(prev, e.namespace) : e.namespace)
  }

  // Then inheritance: parents first, each resolved once.
  const resolved = new Map<string, NamespaceDefinition>()
  const resolveNs = (name: string): NamespaceDefinition => {
    const done = resolved.get(name)
    if (done) return done
    const own = byName.get(name) as NamespaceDefinition
    let base: NamespaceDefinition | undefined
    for (const parent of own.extends) {
      const p = resolveNs(parent)
      base = base ? mergeNamespaces(base, { ...p, namespace: base.namespace }) : { ...p }
    }
    const result = base ? mergeNamespaces(base, own) : own
    resolved.set(name, result)
    return result
  }
  const namespaces = [...byName.keys()].map(resolveNs)
  const cross = crossChecks(namespaces, locators)
  for (const issue of cross) files.find((f) => f.path === issue.file)?.issues.push(issue)
  return { namespaces, files, issues: files.flatMap((f) => f.issues) }
}
