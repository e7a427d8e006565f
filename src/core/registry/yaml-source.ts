import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml'
import type { PackIssue, PackIssueCode, PathSegment } from './errors'
import { kForbiddenKeys } from './paths'

// Layer 1: text → JS value, with every problem placed at a line and column. One parse
// by the yaml library gives both: the Document (with node ranges and a LineCounter) for positions,
// and its JS value. A worker start does not pay for it: the validated result is cached (cache.ts).

/**
 * 1 MiB. The largest built-in pack is a few kB and a generated pack of 500 actions about 200 kB;
 * a file beyond this is a mistake or an attack on the service worker's memory (资源耗尽).
 */
export const kMaxPackBytes = 1024 * 1024
/** The yaml library's own guard against "billion laughs": more alias expansions than this is refused. */
export const kMaxAliasCount = 100
/** Packs nest about 8 levels (actions → steps → fallback → args); 64 leaves room and stops runaway nesting. */
export const kMaxYamlDepth = 64

export interface Located {
  line: number
  col: number
  /** 0-based character offset of the node in the text. */
  offset: number
}

export type Locate = (path: readonly PathSegment[], at?: 'key' | 'value') => Located

export type ReadResult =
  { ok: true; value: unknown; locate: Locate } | { ok: false; issues: PackIssue[]; locate: Locate }

interface ParsedDoc {
  doc: Document.Parsed
  lines: LineCounter
}

function parseWithPositions(text: string): ParsedDoc {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false })
  return { doc, lines }
}

function keyText(node: unknown): string | undefined {
  return isScalar(node) ? String(node.value) : undefined
}

/** Finds the YAML node at `path` (or the deepest one that exists) and returns its position. */
function makeLocate({ doc, lines }: ParsedDoc): Locate {
  return (path, at = 'value') => {
    let node: unknown = doc.contents
    let keyNode: unknown
    for (const segment of path) {
      keyNode = undefined
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(segment))
        if (!pair) break
        keyNode = pair.key
        node = pair.value ?? pair.key
      } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
        node = node.items[segment]
      } else break
    }
    const target = (at === 'key' && keyNode ? keyNode : node) as YamlNode | undefined
    const offset = target?.range?.[0] ?? 0
    const pos = lines.linePos(offset)
    return { line: pos.line, col: pos.col, offset }
  }
}

/** For issues found before the text may be parsed: the whole file is the place. */
const kNowhere: Locate = () => ({ line: 1, col: 1, offset: 0 })

function utf8Length(text: string): number {
  // Cheap bounds first: every UTF-16 unit is 1 to 3 UTF-8 bytes.
  if (text.length * 3 <= kMaxPackBytes) return text.length
  return new TextEncoder().encode(text).length
}

/**
 * Finds nesting the parsers should never see: flow brackets and compact "- - -" / "? ? ?" runs
 * nest without indentation, so a few hundred kB can nest 100 000 deep, which exhausts the yaml
 * library's memory. Quotes are not tracked: a pack never has 64 unbalanced brackets in a string.
 * Returns the offset where the limit was passed, or -1.
 */
const kCompactPair = /[-?] +[-?] /
const kCompactRun = new RegExp(`^[ ]*(?:[-?][ ]+){${kMaxYamlDepth},}`, 'm')

function runawayNesting(text: string): number {
  // Only bracket characters matter for flow depth, so jump from one to the next.
  const brackets = /[[\]{}]/g
  let depth = 0
  for (let m = brackets.exec(text); m !== null; m = brackets.exec(text)) {
    const c = m[0]
    if (c === '[' || c === '{') {
      if (++depth > kMaxYamlDepth) return m.index
    } else if (depth > 0) depth--
  }
  // Compact runs need "- -" or "? ?" somewhere; most packs have neither, so skip the full search.
  if (!kCompactPair.test(text)) return -1
  const compact = kCompactRun.exec(text)
  return compact ? compact.index + compact[0].length : -1
}

const kYamlCodes: Record<string, PackIssueCode> = { DUPLICATE_KEY: 'YAML_DUPLICATE_KEY' }

/**
 * Walks the value for keys that lead to prototypes and for runaway nesting. Stops descending at
 * the depth limit, so the walk itself is bounded.
 */
function checkTree(value: unknown, file: string, locate: Locate): PackIssue[] {
  const issues: PackIssue[] = []
  // One mutable path, copied only when an issue needs it: the walk touches every node.
  const path: PathSegment[] = []
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return
    if (path.length >= kMaxYamlDepth) {
      const where = [...path]
      const { line, col } = locate(where)
      issues.push({
        code: 'YAML_TOO_DEEP',
        severity: 'error',
        message: `Nesting deeper than ${kMaxYamlDepth} levels at ${where.slice(0, 6).join('.')}…; a pack needs about 8.`,
        path: where,
        file,
        line,
        col,
      })
      return
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i)
        visit(node[i])
        path.pop()
      }
      return
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue
      if (kForbiddenKeys.has(key)) {
        const where = [...path, key]
        const { line, col } = locate(where, 'key')
        issues.push({
          code: 'FORBIDDEN_KEY',
          severity: 'error',
          message: `Key "${key}" is not allowed anywhere in a pack (__proto__, constructor and prototype could reach JavaScript prototypes).`,
          path: where,
          file,
          line,
          col,
        })
        continue
      }
      path.push(key)
      visit((node as Record<string, unknown>)[key])
      path.pop()
    }
  }
  visit(value)
  return issues
}

/** Layer 1: size, YAML syntax, duplicate keys, alias bombs, depth and forbidden keys. */
export function readYaml(text: string, file: string): ReadResult {
  const size = utf8Length(text)
  if (size > kMaxPackBytes) {
    return {
      ok: false,
      locate: kNowhere,
      issues: [
        {
          code: 'FILE_TOO_LARGE',
          severity: 'error',
          message: `File is ${size} bytes; a pack may be at most ${kMaxPackBytes} bytes (1 MiB).`,
          path: [],
          file,
          line: 1,
          col: 1,
        },
      ],
    }
  }

  // Checked before parsing: runaway nesting is what would exhaust the parser itself.
  const runaway = runawayNesting(text)
  if (runaway >= 0) {
    const before = text.slice(0, runaway)
    const line = before.split('\n').length
    const col = runaway - before.lastIndexOf('\n')
    return {
      ok: false,
      locate: kNowhere,
      issues: [
        {
          code: 'YAML_TOO_DEEP',
          severity: 'error',
          message: `Nesting deeper than ${kMaxYamlDepth} levels; a pack needs about 8.`,
          path: [],
          file,
          line,
          col,
        },
      ],
    }
  }

  const parsed = parseWithPositions(text)
  const { doc, lines } = parsed
  const locate = makeLocate(parsed)
  if (doc.errors.length > 0) {
    return {
      ok: false,
      locate,
      issues: doc.errors.map((e) => {
        const pos = lines.linePos(e.pos[0])
        const message = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
        return {
          code: kYamlCodes[e.code] ?? 'YAML_SYNTAX',
          severity: 'error',
          message: `${message} (${e.code})`,
          path: [],
          file,
          line: pos.line,
          col: pos.col,
        }
      }),
    }
  }
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: kMaxAliasCount })
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      const anchor = /[&*][^\s,\]}]+/.exec(text)
      const pos = lines.linePos(anchor?.index ?? 0)
      return {
        ok: false,
        locate,
        issues: [
          {
            code: 'YAML_ALIAS_LIMIT',
            severity: 'error',
            message: `Aliases expand to more than ${kMaxAliasCount} nodes (${error.message}); expand them by hand.`,
            path: [],
            file,
            line: pos.line,
            col: pos.col,
          },
        ],
      }
    }
    throw error
  }
  const issues = checkTree(value, file, locate)
  if (issues.length > 0) return { ok: false, issues, locate }
  return { ok: true, value, locate }
}
