import { jsonrepair } from 'jsonrepair'
import type { SafeParseResult } from '../result'
import { InstructionError, InstructionSchema, safeParseInstruction, type Instruction } from './schema'
import { instructionKind, kInstructions } from '../vocabulary'

/**
 * Reads one instruction as models really write it (docs/instruction-schema.md, "What Ava reads"):
 * the syntax is repaired by `jsonrepair` (comments, trailing commas, single quotes, Python's
 * `True`/`None`), then the shape is mapped onto the one vocabulary: keys in any case style,
 * seed 001's and seed 003's field names (`{"type": "click", "id": 12, "reason": …}`), fields at
 * the top or under `params`, numbers as strings. Nothing is guessed that could change what runs: a
 * value that maps nowhere is dropped only when it is commentary, and the result still passes the
 * strict schema (the gate every step passes).
 */
export function readInstructionText(raw: string, index: number): SafeParseResult<Instruction, InstructionError> {
  const value = parseLenient(raw)
  if (value === kUnreadable) {
    return { success: false, error: new InstructionError('JSON_PARSE', `Not readable as JSON: ${raw.length > 120 ? `${raw.slice(0, 120)}…` : raw}`, raw) }
  }
  // The exact vocabulary passes as it is; only another shape is mapped.
  if (InstructionSchema.safeParse(value).success) return safeParseInstruction(value, raw)
  return safeParseInstruction(mapShape(value, index), raw)
}

const kUnreadable = Symbol('unreadable')

/** JSON, else JSON after repair; a JSON string holding JSON is read once more. */
export function parseLenient(raw: string): unknown {
  let value: unknown = kUnreadable
  // JSON as it is; else with the common departures undone; else repaired by jsonrepair.
  for (const attempt of [() => raw, () => plainJson(raw), () => jsonrepair(plainJson(raw)), () => jsonrepair(raw)]) {
    try {
      value = JSON.parse(attempt())
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

/** The words models use for each action (seed 001's nine, seed 003's, and common neighbours). */
const kActionAliases: Record<string, string> = {
  go_to: 'navigate', goto: 'navigate', open: 'navigate', open_url: 'navigate', visit: 'navigate', navigate_to: 'navigate', go: 'navigate',
  tap: 'click', click_element: 'click', press_button: 'click',
  type: 'input', fill: 'input', type_text: 'input', enter_text: 'input', input_text: 'input', set_value: 'input',
  select_option: 'select', choose: 'select',
  assert: 'verify', check: 'verify', expect: 'verify',
  wait_for: 'wait', wait_for_selector: 'wait',
  press_key: 'press', key_press: 'press', keypress: 'press',
  scroll_to: 'scroll', scroll_down: 'scroll', scroll_up: 'scroll',
  upload_file: 'upload',
  run: 'run_action', call_action: 'run_action',
  ask_user: 'ask', ask_human: 'ask', ask_person: 'ask', question: 'ask', request_input: 'ask', ask_for_input: 'ask', human_input: 'ask', handoff: 'ask', hand_off: 'ask',
  scroll_and_collect: 'collect', collect_items: 'collect', gather: 'collect', read_all: 'collect', read_feed: 'collect', scrape: 'collect', extract_all: 'collect',
  finish: 'done', answer: 'done', complete: 'done', final_answer: 'done', respond: 'done', reply: 'done',
}

/** Where each field of `params` may come from, first match wins (snake_case names). */
const kParamAliases: Record<string, string[]> = {
  url: ['url', 'href', 'link', 'address'],
  target_id: ['target_id', 'id', 'element_id', 'ref', 'element_ref', 'agent_id', 'element_index'],
  semantic_locator: ['semantic_locator', 'locator', 'element', 'target', 'element_description', 'target_description'],
  fallback_selector: ['fallback_selector', 'css_selector', 'css'],
  value: ['value', 'text', 'content', 'input', 'option'],
  assertion: ['assertion', 'expected', 'expectation', 'condition'],
  selector: ['selector'],
  key: ['key', 'keys'],
  direction: ['direction'],
  action: ['action', 'action_name', 'name'],
  args: ['args', 'arguments'],
  answer: ['answer', 'result', 'message', 'final_answer', 'response', 'text', 'content'],
  question: ['question', 'prompt', 'message', 'text', 'content'],
  choices: ['choices', 'options', 'answers'],
  limit: ['limit', 'max_items', 'max', 'count', 'items'],
}

/** Fields only one action has: elsewhere their words mean something else (`text` is typed, `options` chosen). */
const kOwnFields: Record<string, string> = Object.fromEntries(kInstructions.flatMap((d) => (d.own ?? []).map((field) => [field, d.name])))

const kTypeKeys = ['action_type', 'type', 'action', 'kind', 'command', 'op', 'operation', 'name']
const kStepKeys = ['step_id', 'step', 'step_number', 'step_no', 'number']
const kDescriptionKeys = ['description', 'reason', 'desc', 'why', 'rationale', 'explanation', 'thought', 'comment', 'note']
const kParamsKeys = ['params', 'parameters', 'arguments', 'args', 'input', 'fields']

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

function actionWord(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined
  const w = snakeKey(v.trim())
  if (instructionKind(w)) return w
  return kActionAliases[w]
}

/** Maps any one-step shape onto `{step_id, action_type, params, description}`; the schema judges the result. */
function mapShape(value: unknown, index: number): unknown {
  const top = record(value)
  if (!top) return value
  const o = snakeRecord(top)
  // The action's word: the first type-like key that holds a known word.
  let typeKey: string | undefined
  let type: string | undefined
  for (const k of kTypeKeys) {
    const w = actionWord(o[k])
    if (w) {
      typeKey = k
      type = w
      break
    }
  }
  if (!type) return value
  const own = (() => {
    for (const k of kParamsKeys) {
      const r = record(o[k])
      // run_action's `args` are its own arguments, not the step's params.
      if (r && !(type === 'run_action' && k === 'args' && !('action' in r))) return { key: k, value: snakeRecord(r) }
    }
    return null
  })()
  const from = { ...o, ...(own?.value ?? {}) }
  const used = new Set<string>([typeKey!, ...(own ? [own.key] : [])])
  const params: Record<string, unknown> = {}
  for (const [field, names] of Object.entries(kParamAliases)) {
    if (kOwnFields[field] && kOwnFields[field] !== type) continue
    if (field === 'value' && (type === 'done' || type === 'ask')) continue
    if (field === 'selector' && type !== 'wait') {
      // Anywhere else a bare `selector` is the CSS fallback.
      if (from.selector !== undefined && from.fallback_selector === undefined) params.fallback_selector = scalar(from.selector)
      continue
    }
    for (const n of names) {
      if (used.has(n) || from[n] === undefined || from[n] === null) continue
      params[field] = field === 'args' || field === 'choices' ? from[n] : field === 'limit' ? Number(from[n]) : scalar(from[n])
      used.add(n)
      break
    }
  }
  // `target` that is a number, or looks like a listing id, is the element's id.
  if (params.semantic_locator !== undefined && params.target_id === undefined && /^\d+$/.test(String(params.semantic_locator))) {
    params.target_id = params.semantic_locator
    delete params.semantic_locator
  }
  if (typeof params.direction === 'string') params.direction = params.direction.toLowerCase()
  const word = snakeKey(String(o[typeKey!]))
  if (type === 'scroll' && params.direction === undefined && (word === 'scroll_down' || word === 'scroll_up')) params.direction = word.slice(7)
  if (type === 'done' && params.answer === undefined && typeof from.value === 'string') params.answer = from.value
  let step = index + 1
  for (const k of kStepKeys) {
    const n = Number(o[k])
    if (o[k] !== undefined && o[k] !== '' && Number.isInteger(n) && n >= 0) {
      step = n
      break
    }
  }
  const described = kDescriptionKeys.map((k) => o[k]).find((v) => typeof v === 'string' && v.trim())
  return { step_id: step, action_type: type, params, ...(described ? { description: described } : {}) }
}

/** Numbers and booleans as the text fields hold them. */
function scalar(v: unknown): unknown {
  return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v
}
