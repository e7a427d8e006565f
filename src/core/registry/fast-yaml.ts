// A fast reader for the plain subset of YAML that action packs are written in: block mappings
// and sequences, plain and quoted scalars, one-line flow collections, `|` and `>` block scalars,
// comments. It exists for speed only (bench: 500 actions must load in ≤ 50 ms, and the yaml
// library's full parser alone needs about twice that). On anything outside the subset, or
// anything that might be an error, it returns `kBail` and the caller uses the yaml library,
// which then also reports positions. So it never decides what is valid, only what is easy.

import { kForbiddenKeys } from './paths'

export const kBail: unique symbol = Symbol('bail')

/**
 * Same as the pack depth limit (yaml-source kMaxYamlDepth). Files deeper than this, or with keys
 * that lead to prototypes, go to the slow path, whose checks report them; so whatever this reader
 * accepts needs no further tree walk.
 */
const kMaxDepth = 64
export type Bail = typeof kBail

class BailError extends Error {}
const bail = (): never => {
  throw new BailError()
}

interface Line {
  indent: number
  /** Text after the indentation, without the line break. */
  content: string
  /** True for empty, whitespace-only and comment-only lines. */
  skip: boolean
  /** The whole line, for block scalars where "# ..." is content. */
  raw: string
}

// YAML 1.2 core schema resolution of plain scalars (the yaml library's default).
const kNull = /^(?:~|[Nn]ull|NULL)$/
const kTrue = /^(?:true|True|TRUE)$/
const kFalse = /^(?:false|False|FALSE)$/
const kInt = /^[-+]?[0-9]+$/
const kOct = /^0o[0-7]+$/
const kHex = /^0x[0-9a-fA-F]+$/
const kFloat = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/
const kSpecialFloat = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/

// First characters of every non-string plain scalar: digits, signs, '.', '~' and the letters of
// null/true/false. Most scalars in a pack start otherwise and skip the regexes entirely.
const kMaybeTyped = new Set([...'0123456789+-.~nNtTfF'])

function resolvePlain(text: string): unknown {
  if (text === '') return null
  if (!kMaybeTyped.has(text[0])) return text
  if (kNull.test(text)) return null
  if (kTrue.test(text)) return true
  if (kFalse.test(text)) return false
  if (kInt.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : bail()
  if (kOct.test(text)) return parseInt(text.slice(2), 8)
  if (kHex.test(text)) return parseInt(text.slice(2), 16)
  if (kFloat.test(text)) return parseFloat(text)
  if (kSpecialFloat.test(text)) bail()
  return text
}

// Characters that cannot start a plain scalar, or that start something we leave to the library.
const kIndicators = new Set(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`'])

const kLeadingTab = /^ *\t/

// ": " would be a nested mapping, " #" a comment, a tab a separator: none belong in a plain scalar.
const kNotPlain = /: |:$| #|\t/

function plainScalar(text: string, inFlow: boolean): unknown {
  const t = text.trim()
  if (t === '') return null
  if (kIndicators.has(t[0])) {
    // "-5" and "-x" are fine plain scalars; "- x" is a sequence entry and not for us.
    if (!(t[0] === '-' && t.length > 1 && t[1] !== ' ')) bail()
  }
  if (kNotPlain.test(t)) bail()
  if (inFlow && /[,[\]{}]/.test(t)) bail()
  return resolvePlain(t)
}

const kDoubleEscapes: Record<string, string> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f', ' ': ' ' }

/** Reads a quoted scalar starting at `text[start]`; returns the value and the index after it. */
function quoted(text: string, start: number): { value: string; end: number } {
  const q = text[start]
  // Common case first: no escapes before the closing quote, so the value is a plain slice.
  const close = text.indexOf(q, start + 1)
  if (close > 0 && (q === '"' ? !text.slice(start + 1, close).includes('\\') : text[close + 1] !== "'")) {
    return { value: text.slice(start + 1, close), end: close + 1 }
  }
  let out = ''
  let i = start + 1
  while (i < text.length) {
    const c = text[i]
    if (q === "'") {
      if (c === "'") {
        if (text[i + 1] === "'") {
          out += "'"
          i += 2
          continue
        }
        return { value: out, end: i + 1 }
      }
    } else if (c === '"') {
      return { value: out, end: i + 1 }
    } else if (c === '\\') {
      const e = text[i + 1]
      if (e in kDoubleEscapes) {
        out += kDoubleEscapes[e]
        i += 2
        continue
      }
      const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0
      const hex = text.slice(i + 2, i + 2 + width)
      if (width === 0 || hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex)) bail()
      out += String.fromCodePoint(parseInt(hex, 16))
      i += 2 + width
      continue
    }
    out += c
    i++
  }
  return bail()
}

/** After a value on a line only spaces and a comment may follow. */
function expectLineEnd(text: string, from: number): void {
  const rest = text.slice(from)
  if (rest.trim() === '') return
  if (/^\s+#/.test(rest)) return
  bail()
}

function stripComment(text: string): string {
  const hash = text.indexOf(' #')
  return hash >= 0 ? text.slice(0, hash) : text
}

// ---- flow collections, one line only -------------------------------------------------------

function flowValue(text: string, i: number, depth: number): { value: unknown; end: number } {
  while (text[i] === ' ') i++
  const c = text[i]
  if (c === '[') return flowSeq(text, i, depth + 1)
  if (c === '{') return flowMap(text, i, depth + 1)
  if (c === '"' || c === "'") return quoted(text, i)
  let end = i
  while (end < text.length && !',]}'.includes(text[end])) end++
  if (text.slice(i, end).trim() === '') bail()
  return { value: plainScalar(text.slice(i, end), true), end }
}

function skipSpaces(text: string, i: number): number {
  while (text[i] === ' ') i++
  return i
}

function flowSeq(text: string, start: number, depth: number): { value: unknown[]; end: number } {
  if (depth > kMaxDepth) bail()
  const out: unknown[] = []
  let i = skipSpaces(text, start + 1)
  if (text[i] === ']') return { value: out, end: i + 1 }
  for (;;) {
    const item = flowValue(text, i, depth)
    out.push(item.value)
    i = skipSpaces(text, item.end)
    if (text[i] === ',') {
      i = skipSpaces(text, i + 1)
      if (text[i] === ']') bail()
      continue
    }
    if (text[i] === ']') return { value: out, end: i + 1 }
    return bail()
  }
}

function flowMap(text: string, start: number, depth: number): { value: Record<string, unknown>; end: number } {
  if (depth > kMaxDepth) bail()
  const out: Record<string, unknown> = {}
  let i = skipSpaces(text, start + 1)
  if (text[i] === '}') return { value: out, end: i + 1 }
  for (;;) {
    let key: string
    if (text[i] === '"' || text[i] === "'") {
      const k = quoted(text, i)
      key = k.value
      i = k.end
    } else {
      const colon = text.indexOf(':', i)
      if (colon < 0) bail()
      const raw = text.slice(i, colon).trim()
      if (raw === '' || typeof plainScalar(raw, true) !== 'string') bail()
      key = raw
      i = colon
    }
    i = skipSpaces(text, i)
    if (text[i] !== ':' || (text[i + 1] !== ' ' && text[i + 1] !== undefined)) bail()
    if (Object.hasOwn(out, key) || kForbiddenKeys.has(key)) bail()
    const item = flowValue(text, i + 1, depth)
    out[key] = item.value
    i = skipSpaces(text, item.end)
    if (text[i] === ',') {
      i = skipSpaces(text, i + 1)
      if (text[i] === '}') bail()
      continue
    }
    if (text[i] === '}') return { value: out, end: i + 1 }
    return bail()
  }
}

// ---- block structure -------------------------------------------------------------------------

class Reader {
  private i = 0
  /** Collections currently open; deeper than kMaxDepth is left to the library and its checks. */
  depth = 0
  constructor(private readonly lines: Line[]) {}

  /** Index of the next line that holds content, or -1. */
  private next(): number {
    while (this.i < this.lines.length && this.lines[this.i].skip) this.i++
    return this.i < this.lines.length ? this.i : -1
  }

  document(): unknown {
    const at = this.next()
    if (at < 0) return null
    const value = this.block()
    if (this.next() >= 0) bail()
    return value
  }

  private isSeqItem(content: string): boolean {
    return content === '-' || content.startsWith('- ')
  }

  private block(): unknown {
    const line = this.lines[this.next()]
    if (this.isSeqItem(line.content)) return this.sequence(line.indent)
    if (keyEnd(line.content) >= 0) return this.mapping(line.indent)
    return bail()
  }

  private mapping(indent: number): Record<string, unknown> {
    if (++this.depth > kMaxDepth) bail()
    const out: Record<string, unknown> = {}
    for (let at = this.next(); at >= 0; at = this.next()) {
      const line = this.lines[at]
      if (line.indent < indent) break
      if (line.indent > indent || this.isSeqItem(line.content)) bail()
      const { key, rest } = splitKey(line.content)
      if (kForbiddenKeys.has(key) || Object.hasOwn(out, key)) bail()
      this.i++
      out[key] = this.value(rest, indent, true)
    }
    this.depth--
    return out
  }

  private sequence(indent: number): unknown[] {
    if (++this.depth > kMaxDepth) bail()
    const out: unknown[] = []
    for (let at = this.next(); at >= 0; at = this.next()) {
      const line = this.lines[at]
      if (line.indent < indent) break
      if (line.indent > indent || !this.isSeqItem(line.content)) bail()
      const after = line.content.slice(1)
      // Tabs may not indent; whether one separates is subtle enough to leave to the library.
      if (kLeadingTab.test(after)) bail()
      const spaces = after.length - after.trimStart().length
      const rest = after.trimStart()
      if (rest !== '' && !rest.startsWith('#') && keyEnd(rest) >= 0 && !rest.startsWith('"') && !rest.startsWith("'")) {
        // "- key: value" opens a mapping whose keys line up with "key".
        line.indent = indent + 1 + spaces
        line.content = rest
        out.push(this.mapping(line.indent))
        continue
      }
      this.i++
      out.push(this.value(rest, indent, false))
    }
    this.depth--
    return out
  }

  /** The value after "key:" or "- ", which may continue on deeper lines. */
  private value(rest: string, indent: number, inMapping: boolean): unknown {
    const text = rest.startsWith('#') ? '' : rest
    if (text === '') {
      const at = this.next()
      if (at < 0) return null
      const line = this.lines[at]
      if (line.indent > indent) return this.block()
      // A mapping's sequence value may sit at the mapping's own indentation.
      if (inMapping && line.indent === indent && this.isSeqItem(line.content)) return this.sequence(indent)
      return null
    }
    let value: unknown
    const c = text[0]
    if (c === '|' || c === '>') return this.blockScalar(text, indent)
    if (c === '[' || c === '{') {
      const flow = c === '[' ? flowSeq(text, 0, this.depth + 1) : flowMap(text, 0, this.depth + 1)
      expectLineEnd(text, flow.end)
      value = flow.value
    } else if (c === '"' || c === "'") {
      const q = quoted(text, 0)
      expectLineEnd(text, q.end)
      value = q.value
    } else {
      value = plainScalar(stripComment(text), false)
    }
    // A deeper line after a scalar would be a multi-line scalar or an error: not ours.
    const at = this.next()
    if (at >= 0 && this.lines[at].indent > indent) bail()
    return value
  }

  private blockScalar(header: string, indent: number): string {
    const h = header.trim()
    if (h !== '|' && h !== '|-' && h !== '>' && h !== '>-') bail()
    const folded = h[0] === '>'
    const strip = h.endsWith('-')
    const body: string[] = []
    let contentIndent = -1
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]
      const blank = line.raw.trim() === ''
      if (!blank) {
        if (contentIndent < 0) {
          if (line.indent <= indent) break
          contentIndent = line.indent
        } else if (line.indent < contentIndent) {
          if (line.indent > indent) bail()
          break
        }
        if (line.raw.includes('\t')) bail()
        body.push(line.raw.slice(contentIndent))
      } else {
        if (contentIndent >= 0 && line.raw.length > contentIndent) bail()
        body.push('')
      }
      this.i++
    }
    while (body.length && body[body.length - 1] === '') body.pop()
    if (body.length === 0) return ''
    let text: string
    if (folded) {
      if (body.some((l) => l.startsWith(' '))) bail()
      text = ''
      for (let k = 0; k < body.length; k++) {
        const l = body[k]
        if (k === 0) text = l
        else if (l === '') text += '\n'
        else text += body[k - 1] === '' ? l : ` ${l}`
      }
    } else {
      text = body.join('\n')
    }
    return strip ? text : `${text}\n`
  }
}

/** Where the key of "key: value" ends (index of the colon), or -1 if the line is no mapping entry. */
function keyEnd(content: string): number {
  if (content[0] === '"' || content[0] === "'") {
    let end: number
    try {
      end = quoted(content, 0).end
    } catch {
      return -1
    }
    return content[end] === ':' && (content[end + 1] === ' ' || content[end + 1] === undefined) ? end : -1
  }
  // A colon followed by a space or the end of the line; "css:.x" and "a:b:c" keep going.
  let colon = content.indexOf(':')
  while (colon >= 0 && colon + 1 < content.length && content[colon + 1] !== ' ') colon = content.indexOf(':', colon + 1)
  if (colon < 0) return -1
  const hash = content.indexOf(' #')
  return hash >= 0 && hash < colon ? -1 : colon
}

function splitKey(content: string): { key: string; rest: string } {
  const end = keyEnd(content)
  if (end < 0) bail()
  let key: string
  if (content[0] === '"' || content[0] === "'") key = quoted(content, 0).value
  else {
    const raw = content.slice(0, end).trimEnd()
    // Keys that would resolve to numbers, booleans or null are left to the library.
    if (raw === '' || typeof plainScalar(raw, false) !== 'string') bail()
    key = raw
  }
  const rest = content.slice(end + 1)
  if (kLeadingTab.test(rest)) bail()
  return { key, rest: rest.trim() }
}

/** Parses `text` if it stays inside the simple subset; otherwise returns `kBail`. */
export function fastParseYaml(text: string): unknown | Bail {
  if (text.charCodeAt(0) === 0xfeff) return kBail
  const rawLines = text.split('\n')
  const lines: Line[] = []
  let started = false
  for (let raw of rawLines) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1)
    let indent = 0
    while (raw.charCodeAt(indent) === 32) indent++
    const content = indent === 0 ? raw : raw.slice(indent)
    const first = content.charCodeAt(0)
    // Only lines that start with other whitespace (tabs) need a trim to tell blank from content.
    const blank = content.length === 0 || ((first === 9 || first === 13) && content.trim() === '')
    if (first === 9) return kBail
    const skip = blank || first === 35
    if (!skip && indent === 0 && (content.startsWith('---') || content.startsWith('...') || content.startsWith('%'))) {
      // One leading "---" is common and harmless; anything else about documents is not ours.
      if (started || content.trim() !== '---') return kBail
      lines.push({ indent, content, skip: true, raw })
      started = true
      continue
    }
    if (!skip) started = true
    lines.push({ indent, content, skip, raw })
  }
  try {
    return new Reader(lines).document()
  } catch (error) {
    if (error instanceof BailError) return kBail
    throw error
  }
}
