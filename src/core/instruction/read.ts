import { jsonrepair } from 'jsonrepair'
import type { SafeParseResult } from '../result'
import { InstructionError, InstructionSchema, safeParseInstruction, type Instruction } from './schema'
import { instructionKind, kInstructions, type InstructionName } from '../vocabulary'
import { kActionWords, kCallKeys, kFieldForms, kFieldNames, kTypeKeys, type MappedField } from './dialects'
import { parse as parseJson5 } from 'json5'
import { parse as parseYaml } from 'yaml'

/**
 * Reads one instruction as models really write it (docs/instruction-schema.md, "What Ava reads"):
 * the syntax is repaired by `jsonrepair` (comments, trailing commas, single quotes, Python's
 * `True`/`None`), then the shape is mapped onto the one vocabulary: keys in any case style,
 * the field names of neighbouring formats (`{"type": "click", "id": 12, "reason": …}`), fields at
 * the top or under `params`, numbers as strings. Nothing is guessed that could change what runs: a
 * value that maps nowhere is dropped only when it is commentary, and the result still passes the
 * strict schema (the gate every step passes).
 */
export function readInstructionText(raw: string, index: number): SafeParseResult<Instruction, InstructionError> {
  const value = parseLenient(raw)
  if (value === kUnreadable) {
    return {
      success: false,
      error: new InstructionError(
        'JSON_PARSE',
        `Not readable as JSON: ${raw.length > 120 ? `${raw.slice(0, 120)}…` : raw}`,
        raw,
      ),
    }
  }
  // The exact vocabulary passes as it is; only another shape is mapped.
  if (InstructionSchema.safeParse(value).success) return safeParseInstruction(value, raw)
  const mapped = mapShape(value, index, raw)
  if (mapped instanceof InstructionError) return { success: false, error: mapped }
  return safeParseInstruction(mapped, raw)
}

const kUnreadable = Symbol('unreadable')

/** JSON, else JSON after repair; a JSON string holding JSON is read once more. */
export function parseLenient(raw: string): unknown {
  let value: unknown = kUnreadable
  // JSON as it is; else with the common departures undone; else JSON5 (unquoted keys, hex, `+1`);
  // else YAML, for text that opens no bracket (jsonrepair would read each of its lines as a
  // string); else repaired by jsonrepair.
  const bracketed = /^\s*[[{"']/.test(raw)
  const readings: (() => unknown)[] = [
    () => JSON.parse(raw),
    () => JSON.parse(plainJson(raw)),
    () => parseJson5(raw),
    () => {
      if (bracketed) throw new Error('not YAML')
      const y: unknown = parseYaml(raw)
      if (!y || typeof y !== 'object') throw new Error('not a YAML mapping')
      return y
    },
    () => JSON.parse(jsonrepair(plainJson(raw))),
    () => JSON.parse(jsonrepair(raw)),
  ]
  for (const reading of readings) {
    try {
      value = reading()
      break
    } catch {
      // the next reading
    }
  }
  if (value === kUnreadable) return kUnreadable
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) return parseLenient(value)
  return value
}

/**
 * The common departures from JSON, undone exactly: Python's and JavaScript's single-quoted strings,
 * `True`/`False`/`None`, comments, trailing commas. jsonrepair handles more, but reads some of these
 * wrongly (`{"a": "{ "}` fails), so it comes second.
 */
function plainJson(raw: string): string {
  let out = ''
  let quote: string | null = null
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (quote !== null) {
      if (c === '\\' && i + 1 < raw.length) {
        const n = raw[++i]
        out += n === "'" ? "'" : `\\${n}`
      } else if (c === quote) {
        quote = null
        out += '"'
      } else out += c === '"' ? '\\"' : c
      continue
    }
    if (c === "'" || c === '"') {
      quote = c
      out += '"'
    } else if (c === '/' && (raw[i + 1] === '/' || raw[i + 1] === '*')) {
      const end = raw[i + 1] === '/' ? raw.indexOf('\n', i) : raw.indexOf('*/', i + 2) + 1
      i = end <= 0 ? raw.length : end
    } else if (c === ',' && /^(\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*[}\]]/.test(raw.slice(i + 1))) {
      // a trailing comma: dropped
    } else if (/[A-Za-z]/.test(c) && !/[\w$]/.test(raw[i - 1] ?? '')) {
      const word = /^[A-Za-z_]\w*/.exec(raw.slice(i))![0]
      out += ({ True: 'true', False: 'false', None: 'null' } as Record<string, string>)[word] ?? word
      i += word.length - 1
    } else out += c
  }
  return out
}

/** `actionType`, `ActionType`, `action-type`, `ACTION_TYPE` → `action_type`. */
export function snakeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase()
}

/** Fields only one action has: elsewhere their words mean something else (`text` is typed, `options` chosen). */
const kOwnFields: Record<string, string> = Object.fromEntries(
  kInstructions.flatMap((d) => (d.own ?? []).map((field) => [field, d.name])),
)

const kStepKeys = ['step_id', 'step', 'step_number', 'step_no', 'number']
const kDescriptionKeys = [
  'description',
  'reason',
  'desc',
  'why',
  'rationale',
  'explanation',
  'thought',
  'comment',
  'note',
  'reasoning',
]
const kParamsKeys = ['params', 'parameters', 'arguments', 'args', 'input', 'fields']
/** Keys that are commentary beside a step written as `{word: params}` (browser-use's `current_state` sits beside its list). */
const kCommentKeys = new Set([
  ...kDescriptionKeys,
  ...kStepKeys,
  'success',
  'id',
  'current_state',
  'evaluation',
  'memory',
  'next_goal',
])

function record(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
}

function snakeRecord(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, val] of Object.entries(v)) {
    const key = snakeKey(k)
    if (!(key in out)) out[key] = val
  }
  return out
}

/** The actions a word may mean: Ava's own name, else every dialect's (kDialects). */
function actionWord(v: unknown): readonly InstructionName[] | undefined {
  if (typeof v !== 'string') return undefined
  const w = snakeKey(v.trim())
  if (instructionKind(w)) return [w as InstructionName]
  return kActionWords.get(w)
}

/** The fields each action takes (its descriptor's, a point's `y` with its `x`, a collect's list). */
function takes(type: string): Set<string> {
  const d = instructionKind(type) as
    { all?: readonly string[]; oneOf?: readonly string[]; own?: readonly string[] } | undefined
  const out = new Set<string>([...(d?.all ?? []), ...(d?.oneOf ?? []), ...(d?.own ?? [])])
  if (out.has('x')) out.add('y')
  if (type === 'collect') for (const f of ['target_id', 'semantic_locator', 'fallback_selector']) out.add(f)
  return out
}

/** A params object, or a JSON text holding one (OpenAI's function calls carry `arguments` as text). */
function paramsRecord(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string' && /^\s*\{/.test(v)) return record(parseLenient(v))
  return record(v)
}

/** `{"type": "function", "function": {"name": …, "arguments": …}}`: the call itself. */
function unwrapCall(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of kCallKeys) {
    const inner = record(o[k])
    // The call's own `id` names the call, not an element.
    if (inner && ('name' in inner || 'arguments' in inner))
      return { ...o, id: undefined, ...snakeRecord(inner), [k]: undefined }
  }
  return o
}

/** A word that means two actions: the one whose required fields the step has, else none (ask again). */
function resolve(words: readonly InstructionName[], from: Record<string, unknown>): InstructionName | undefined {
  if (words.length === 1) return words[0]
  const has = (field: string) =>
    (kFieldNames[field as MappedField] ?? [field]).some(
      (n) => from[n] !== undefined && from[n] !== null && from[n] !== '',
    )
  const shown = words.filter((w) => {
    const all = (instructionKind(w) as { all?: readonly string[] } | undefined)?.all ?? []
    return all.length > 0 && all.every(has)
  })
  return shown.length === 1 ? shown[0] : undefined
}

/** Maps any one-step shape onto `{step_id, action_type, params, description}`; the schema judges the result. */
function mapShape(value: unknown, index: number, raw: string): unknown {
  const top = record(value)
  if (!top) return value
  let o = unwrapCall(snakeRecord(top))
  // The action's word: the first type-like key that holds a known word.
  let typeKey: string | undefined
  let words: readonly InstructionName[] | undefined
  for (const k of kTypeKeys) {
    const w = actionWord(o[k])
    if (w) {
      typeKey = k
      words = w
      break
    }
  }
  if (!words) {
    // `{"click_element_by_index": {"index": 3}}` (browser-use): the word is the one key that is not commentary.
    const keys = Object.keys(o).filter((k) => o[k] !== undefined && !kCommentKeys.has(k))
    const typed = kTypeKeys.some((k) => o[k] !== undefined)
    const w = keys.length === 1 && !typed ? actionWord(keys[0]) : undefined
    if (!w) return value
    const inner = o[keys[0]]
    const own = paramsRecord(inner)
    o = {
      ...o,
      [keys[0]]: undefined,
      __word: keys[0],
      ...(own ? { params: own } : inner === null || inner === true ? {} : { __scalar: inner }),
    }
    typeKey = '__word'
    words = w
  }
  const own = (() => {
    for (const k of kParamsKeys) {
      const r = paramsRecord(o[k])
      // run_action's `args` are its own arguments, not the step's params.
      if (r && !(words.includes('run_action') && k === 'args' && !('action' in r)))
        return { key: k, value: snakeRecord(r) }
    }
    return null
  })()
  const from: Record<string, unknown> = { ...o, ...(own?.value ?? {}) }
  const type = resolve(words, from)
  if (!type) {
    const word = String(o[typeKey!])
    return new InstructionError(
      'SCHEMA',
      `"${word}" could mean ${words.join(' or ')}; Ava does not guess which. Write one of them as action_type.`,
      raw,
      [{ path: 'action_type', message: `"${word}" is ambiguous: ${words.join(' or ')}` }],
    )
  }
  if (o.__scalar !== undefined) {
    // `{"go_to_url": "https://…"}`, `{"done": "the answer"}`: the one value is the action's first field.
    const first = [
      ...((instructionKind(type) as { all?: readonly string[] }).all ?? []),
      ...((instructionKind(type) as { own?: readonly string[] }).own ?? []),
    ][0]
    if (first) from[first] = o.__scalar
  }
  const used = new Set<string>([typeKey!, ...(own ? [own.key] : [])])
  const wanted = takes(type)
  const params: Record<string, unknown> = {}
  for (const [field, names] of Object.entries(kFieldNames) as [MappedField, readonly string[]][]) {
    if (kOwnFields[field] && kOwnFields[field] !== type) continue
    if (field === 'selector' && type !== 'wait') {
      // Anywhere else a bare `selector` is the CSS fallback.
      if (from.selector !== undefined && from.fallback_selector === undefined && wanted.has('fallback_selector'))
        params.fallback_selector = formed('fallback_selector', scalar(from.selector)).fallback_selector
      continue
    }
    if (!wanted.has(field) && !(field === 'y' && wanted.has('x'))) continue
    if (params[field] !== undefined) continue
    for (const n of names) {
      if (used.has(n) || from[n] === undefined || from[n] === null) continue
      const v =
        field === 'args' || field === 'choices' ? from[n] : field === 'limit' ? Number(from[n]) : scalar(from[n])
      Object.assign(params, formed(field, v))
      used.add(n)
      break
    }
  }
  // `target` that is a number, or looks like a listing id, is the element's id.
  if (
    params.semantic_locator !== undefined &&
    params.target_id === undefined &&
    /^\d+$/.test(String(params.semantic_locator))
  ) {
    params.target_id = params.semantic_locator
    delete params.semantic_locator
  }
  if (typeof params.direction === 'string') params.direction = params.direction.toLowerCase()
  const word = snakeKey(String(o[typeKey!]))
  if (type === 'scroll' && params.direction === undefined && /_(down|up)$/.test(word))
    params.direction = /_(down|up)$/.exec(word)![1]
  if (type === 'scroll' && params.direction === undefined && word === 'next_chunk') params.direction = 'down'
  if (type === 'scroll' && params.direction === undefined && word === 'prev_chunk') params.direction = 'up'
  if (type === 'press' && params.key === undefined && word === 'enter') params.key = 'Enter'
  let step = index + 1
  for (const k of kStepKeys) {
    const n = Number(o[k])
    if (o[k] !== undefined && o[k] !== '' && Number.isInteger(n) && n >= 0) {
      step = n
      break
    }
  }
  const described = kDescriptionKeys.map((k) => o[k] ?? own?.value[k]).find((v) => typeof v === 'string' && v.trim())
  return { step_id: step, action_type: type, params, ...(described ? { description: described } : {}) }
}

/** A value in another dialect's form, as Ava's fields hold it (kFieldForms). */
function formed(field: MappedField, v: unknown): Record<string, unknown> {
  return kFieldForms[field]?.(v) ?? { [field]: v }
}

/** Numbers and booleans as the text fields hold them. */
function scalar(v: unknown): unknown {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v
}
