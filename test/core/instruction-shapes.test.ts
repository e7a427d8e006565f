// "Any model" (docs/instruction-schema.md, "What Ava reads"): one plan, written in each of the
// shapes real models write, cut into random chunks, yields the same instructions in the same
// order, each handed on as soon as its text has arrived, never before and never later.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { splitAt } from './split-text'
import { createInstructionSplitter } from '../../src/core/instruction/stream'
import { readInstructionText, snakeKey } from '../../src/core/instruction/read'
import type { Instruction } from '../../src/core/instruction/schema'

const kRuns = { numRuns: 60, interruptAfterTimeLimit: 30_000 }

// Values that stress the scanner: brackets, braces, quotes, comment marks and tags inside strings.
const value = fc.oneof(
  fc.constantFrom(
    'Sign in',
    '登录',
    'a ] b [ c',
    '{x}',
    "it's",
    'say "hi"',
    '// not a comment',
    '/* nor */',
    'back\\slash',
    '</think>',
    '```',
    'True',
    'None',
  ),
  fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''),
)
const id = fc.integer({ min: 1, max: 999 }).map(String)

/** A plan's steps; step_id is the step's place, as models without step ids are read. */
const step = fc.oneof(
  fc.record({ action_type: fc.constant('click'), params: fc.record({ target_id: id, semantic_locator: value }) }),
  fc.record({ action_type: fc.constant('input'), params: fc.record({ target_id: id, value }) }),
  fc.record({
    action_type: fc.constant('navigate'),
    params: fc.record({ url: fc.constantFrom('https://example.com/a?b=[c]', '/orders', 'https://shop.test/') }),
  }),
  fc.record({ action_type: fc.constant('press'), params: fc.record({ key: fc.constantFrom('Enter', 'Tab') }) }),
  fc.record({ action_type: fc.constant('scroll'), params: fc.record({ direction: fc.constantFrom('up', 'down') }) }),
  fc.record({ action_type: fc.constant('verify'), params: fc.record({ assertion: value }) }),
)
const plan = fc
  .tuple(
    fc.array(step, { minLength: 1, maxLength: 4 }),
    fc.array(fc.option(value, { nil: undefined }), { minLength: 4, maxLength: 4 }),
  )
  .map(([steps, descriptions]) =>
    steps.map(
      (s, i) =>
        ({
          step_id: i + 1,
          ...s,
          ...(descriptions[i] === undefined ? {} : { description: descriptions[i] }),
        }) as Instruction,
    ),
  )

/** A reply: the text before, the instructions' texts with what joins them, and the text after. */
interface Written {
  before: string
  items: string[]
  join: string
  after: string
  /** Set when the whole reply is a JSON string holding the rest. */
  quoted?: boolean
}

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
const pascal = (k: string) => camel(k).replace(/^./, (c) => c.toUpperCase())
const kebab = (k: string) => k.replace(/_/g, '-')
function rekey(v: unknown, f: (k: string) => string): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [f(k), rekey(x, f)]))
}
function python(v: unknown): string {
  if (v === null || v === undefined) return 'None'
  if (v === true) return 'True'
  if (v === false) return 'False'
  if (typeof v === 'number') return String(v)
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`
  if (Array.isArray(v)) return `[${v.map(python).join(', ')}]`
  return `{${Object.entries(v)
    .map(([k, x]) => `${python(k)}: ${python(x)}`)
    .join(', ')}}`
}
/** Another agent's words: type, id, value, reason. */
function typeIdShape(i: Instruction): unknown {
  const p = i.params
  return {
    type: i.action_type,
    ...(p.target_id ? { id: Number(p.target_id) } : {}),
    ...(p.semantic_locator ? { target: p.semantic_locator } : {}),
    ...(p.value !== undefined ? { value: p.value } : {}),
    ...(p.url ? { url: p.url } : {}),
    ...(p.key ? { key: p.key } : {}),
    ...(p.direction ? { direction: p.direction } : {}),
    ...(p.assertion ? { assertion: p.assertion } : {}),
    ...(i.description !== undefined ? { reason: i.description } : {}),
  }
}
const json = (v: unknown) => JSON.stringify(v)
const items = (p: Instruction[], f: (i: Instruction) => string = json) => p.map(f)

const shapes: Record<string, (p: Instruction[]) => Written> = {
  'bare array': (p) => ({ before: '[', items: items(p), join: ',', after: ']' }),
  'pretty array': (p) => ({
    before: '[\n  ',
    items: p.map((i) => JSON.stringify(i, null, 2)),
    join: ',\n  ',
    after: '\n]',
  }),
  'after <think>': (p) => ({
    before: '<think>The page lists [{"a": 1}] orders.\nI click.</think>\n\n[',
    items: items(p),
    join: ', ',
    after: ']',
  }),
  'after a lone </think> (the template wrote the opening tag)': (p) => ({
    before: 'The page lists orders.\nI will click the first one.\n</think>\n\n[',
    items: items(p),
    join: ', ',
    after: ']',
  }),
  'after <thinking>': (p) => ({ before: '<thinking>Plan it.</thinking>[', items: items(p), join: ',', after: ']' }),
  'fence with prose': (p) => ({
    before: 'Sure! Here is the plan:\n\n```json\n[\n',
    items: items(p),
    join: ',\n',
    after: '\n]\n```\nThen I check.',
  }),
  '{"steps"}': (p) => ({ before: '{"steps": [', items: items(p), join: ', ', after: ']}' }),
  '{"instructions"} in a fence': (p) => ({
    before: '```json\n{"thought": "go [now]", "instructions": [',
    items: items(p),
    join: ',',
    after: '], "done": false}\n```',
  }),
  '{"plan": {"steps"}}': (p) => ({
    before: '{"plan": {"goal": "x", "steps": [',
    items: items(p),
    join: ',',
    after: ']}}',
  }),
  'type/id {"actions"}': (p) => ({
    before: '{"actions": [',
    items: items(p, (i) => json(typeIdShape(i))),
    join: ', ',
    after: ']}',
  }),
  NDJSON: (p) => ({ before: '', items: items(p), join: '\n', after: '\n' }),
  'comments and trailing commas': (p) => ({
    before: '[ // the plan\n',
    items: items(p, (i) => JSON.stringify(i, null, 1).replace(/\n}$/, ',\n}')),
    join: ', /* next */\n',
    after: ',\n]',
  }),
  'Python dicts': (p) => ({
    before: "{'steps': [",
    items: items(p, (i) => python({ ...i, ...{ extra: null, ok: true } })),
    join: ', ',
    after: ']}',
  }),
  camelCase: (p) => ({ before: '[', items: items(p, (i) => json(rekey(i, camel))), join: ',', after: ']' }),
  PascalCase: (p) => ({
    before: '{"Steps": [',
    items: items(p, (i) => json(rekey(i, pascal))),
    join: ',',
    after: ']}',
  }),
  'kebab-case': (p) => ({ before: '[', items: items(p, (i) => json(rekey(i, kebab))), join: ',', after: ']' }),
  'numbers as strings': (p) => ({
    before: '[',
    items: items(p, (i) => json({ ...i, step_id: String(i.step_id) })),
    join: ',',
    after: ']',
  }),
  'actionType and targetId': (p) => ({
    before: '[',
    items: items(p, (i) =>
      json({
        stepId: i.step_id,
        actionType: i.action_type,
        params: rekey(i.params, camel),
        description: i.description,
      }),
    ),
    join: ',',
    after: ']',
  }),
  'a JSON string holding the array': (p) => ({ before: '[', items: items(p), join: ',', after: ']', quoted: true }),
}

/** The reply's text and where each instruction's text ends in it. */
function render(w: Written): { reply: string; ends: number[] } {
  const esc = (s: string) => (w.quoted ? JSON.stringify(s).slice(1, -1) : s)
  let reply = w.quoted ? '"' : ''
  reply += esc(w.before)
  const ends: number[] = []
  w.items.forEach((item, k) => {
    if (k) reply += esc(w.join)
    reply += esc(item)
    ends.push(reply.length)
  })
  reply += esc(w.after) + (w.quoted ? '"' : '')
  return { reply, ends }
}

function feed(chunks: string[], opts: { thinksFirst?: boolean } = {}) {
  const got: { raw: string; index: number; at: number }[] = []
  let prose = ''
  let thinking = ''
  let pushed = 0
  const wasThinking = (t: string) => {
    expect(prose.length).toBeLessThanOrEqual(t.length + 11) // all of it, but a tag still arriving
    prose = ''
    thinking += t
  }
  const s = createInstructionSplitter(
    {
      prose: (t) => (prose += t),
      thinking: (t) => (thinking += t),
      wasThinking,
      element: (raw, index) => got.push({ raw, index, at: pushed }),
    },
    opts,
  )
  for (const c of chunks) {
    pushed += c.length
    s.push(c)
  }
  const end = s.end()
  return { got, prose, thinking, end, chunks }
}

describe('every shape of the same plan', () => {
  for (const [name, write] of Object.entries(shapes)) {
    it(`reads ${name}, in order, each step as soon as it has arrived`, () => {
      fc.assert(
        fc.property(plan, fc.array(fc.nat(), { maxLength: 25 }), (p, cuts) => {
          const { reply, ends } = render(write(p))
          const chunks = splitAt(reply, cuts)
          const r = feed(chunks)
          const read = r.got.map((g) => readInstructionText(g.raw, g.index))
          expect(read.map((x) => (x.success ? x.data : x.error.message))).toEqual(p)
          expect(r.end.truncated).toBeNull()
          // Handed on with the chunk that completed it: not before its text arrived, not later.
          const boundaries = chunks.reduce<number[]>((a, c) => [...a, (a.at(-1) ?? 0) + c.length], [])
          r.got.forEach((g, k) => {
            const due = boundaries.find((b) => b >= ends[k])
            expect(g.at).toBe(due)
          })
          // Nothing of the plan is shown as the answer.
          expect(r.prose).not.toMatch(/action_type|actionType|"type"|'type'/)
        }),
        kRuns,
      )
    })
  }

  it('reads one object, and {"action": …}, as a one-step plan', () => {
    fc.assert(
      fc.property(step, fc.array(fc.nat(), { maxLength: 12 }), (s, cuts) => {
        const ins = { step_id: 1, ...s } as Instruction
        for (const reply of [json(ins), `{"action": ${json(ins)}}`, `\`\`\`json\n${python(ins)}\n\`\`\``]) {
          const r = feed(splitAt(reply, cuts))
          expect(r.got.map((g) => readInstructionText(g.raw, g.index)).map((x) => x.data)).toEqual([ins])
          expect(r.prose).toBe('')
        }
      }),
      kRuns,
    )
  })

  it('shows reasoning as thinking, never as the answer', () => {
    const r = feed(['<thi', 'nk>I will click [{"x": 1}] </th', 'ink>\nDone: the total is 42.'])
    expect(r.thinking).toBe('I will click [{"x": 1}] ')
    expect(r.prose).toBe('Done: the total is 42.')
    expect(r.got).toEqual([])
  })

  it('takes back as reasoning what came before a lone </think>, but not a </think> inside an instruction', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const r = feed(splitAt('Let me think. The total is in the table.\n</think>\n\nThe total is 42.', cuts))
        expect(r.thinking).toBe('Let me think. The total is in the table.\n')
        expect(r.prose).toBe('The total is 42.')
        const inside = feed(
          splitAt('[{"action_type": "input", "params": {"target_id": "3", "value": "</think>"}}]', cuts),
        )
        expect(inside.got).toHaveLength(1)
        expect(inside.thinking).toBe('')
      }),
      kRuns,
    )
  })

  it('runs no plan drafted in the reasoning of a model that thinks first, and reads a reply that never closed it as the answer', () => {
    const draft = '[{"action_type": "click", "params": {"target_id": "666"}}]'
    const real = '[{"action_type": "click", "params": {"target_id": "7"}}]'
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (cuts, ownTag) => {
        const reply = `${ownTag ? '<think>' : ''}Maybe:\n${draft}\nNo, the other one.</think>\n${real}`
        const r = feed(splitAt(reply, cuts), { thinksFirst: true })
        expect(r.got.map((g) => g.raw)).toEqual([
          JSON.stringify(JSON.parse(real)[0], null, 0).replace(/,/g, ', ').replace(/:/g, ': '),
        ])
        expect(r.thinking).toBe(`Maybe:\n${draft}\nNo, the other one.`)
        expect(r.prose).toBe('')
        const plain = feed(splitAt(`Sure.\n${real}`, cuts), { thinksFirst: true })
        expect(plain.got).toHaveLength(1)
        expect(plain.prose).toBe('Sure.\n')
      }),
      kRuns,
    )
  })

  it('keeps an object that holds no instruction as prose, and an unreadable step as an error', () => {
    const shown = 'Example:\n```json\n{"note": "x", "list": [1, 2]}\n```\nok'
    expect(feed([shown]).prose).toBe(shown)
    expect(feed(['{"a": 1}']).prose).toBe('{"a": 1}')
    const bad = feed(['{"steps": [{"type": "explode", "id": 3}]}'])
    expect(bad.got).toHaveLength(1)
    expect(readInstructionText(bad.got[0].raw, 0).success).toBe(false)
    expect(readInstructionText('{"type": "click" "id"', 0).success).toBe(false)
  })

  it('keeps an unfinished object with no value yet as prose, and reports one cut inside an instruction', () => {
    for (const text of ["{'op'", '{"type"', '{"a": 1'])
      expect(feed([text])).toMatchObject({ prose: text, got: [], end: { truncated: null } })
    expect(feed(['{"action_type": "click", "params": {"target_id": "4']).end.truncated).toBe(
      '{"action_type": "click", "params": {"target_id": "4',
    )
    expect(feed(['{"steps": [{"type": "click", "id": 3}, {"type": "inp']).end.truncated).toBe('{"type": "inp')
  })

  it('names keys in snake_case from any case style', () => {
    expect(['actionType', 'ActionType', 'action-type', 'ACTION_TYPE', 'action_type'].map(snakeKey)).toEqual(
      Array(5).fill('action_type'),
    )
  })
})
