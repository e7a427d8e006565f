import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  ACTION_TYPES,
  instructionJsonSchema,
  safeParseInstruction,
  safeParseInstructionText,
  SCROLL_DIRECTIONS,
  type Instruction,
} from '../../src/core/instruction/schema'
import { splitAt } from './split-text'
import { createInstructionSplitter } from '../../src/core/instruction/stream'

const text = fc.string({ maxLength: 40 })
const nonEmpty = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '')
const locator = fc.record({
  semantic_locator: nonEmpty,
  fallback_selector: fc.option(nonEmpty, { nil: undefined }),
  target_id: fc.option(nonEmpty, { nil: undefined }),
})

/** Valid instructions of every action type. */
const instruction: fc.Arbitrary<Instruction> = fc
  .tuple(
    fc.nat({ max: 1000 }),
    fc.oneof(
      fc.record({ action_type: fc.constant('navigate' as const), params: fc.record({ url: fc.webUrl() }) }),
      fc.record({ action_type: fc.constantFrom('click' as const, 'hover' as const), params: locator }),
      fc.record({
        action_type: fc.constantFrom('input' as const, 'select' as const),
        params: fc.tuple(locator, text).map(([l, value]) => ({ ...l, value })),
      }),
      fc.record({ action_type: fc.constant('verify' as const), params: fc.record({ assertion: nonEmpty }) }),
      fc.record({ action_type: fc.constant('wait' as const), params: fc.record({ selector: nonEmpty }) }),
      fc.record({
        action_type: fc.constant('press' as const),
        params: fc.record({ key: fc.constantFrom('Enter', 'Escape', 'Tab', '${modifier}+A') }),
      }),
      fc.record({
        action_type: fc.constant('scroll' as const),
        params: fc.record({ direction: fc.constantFrom(...SCROLL_DIRECTIONS) }),
      }),
    ),
    fc.option(text, { nil: undefined }),
  )
  .map(([step_id, body, description]) => {
    const params = Object.fromEntries(Object.entries(body.params).filter(([, v]) => v !== undefined))
    return { step_id, ...body, params, ...(description === undefined ? {} : { description }) } as Instruction
  })

describe('instruction schema', () => {
  it('accepts every action type with its required params', () => {
    fc.assert(
      fc.property(instruction, (ins) => {
        expect(safeParseInstruction(ins)).toEqual({ success: true, data: ins })
      }),
    )
  })

  it('round-trips through JSON text unchanged', () => {
    fc.assert(
      fc.property(instruction, (ins) => {
        const r = safeParseInstructionText(JSON.stringify(ins))
        expect(r.success && r.data).toEqual(ins)
      }),
    )
  })

  it.each([
    ['an unknown action', { step_id: 1, action_type: 'teleport', params: {} }, 'action_type'],
    ['navigate without url', { step_id: 1, action_type: 'navigate', params: {} }, 'navigate needs params.url'],
    [
      'navigate to javascript:',
      { step_id: 1, action_type: 'navigate', params: { url: 'javascript:alert(1)' } },
      'http(s) URLs',
    ],
    ['click with no locator', { step_id: 1, action_type: 'click', params: {} }, 'click needs one of params.target_id'],
    [
      'input without value',
      { step_id: 1, action_type: 'input', params: { semantic_locator: 'name' } },
      'input needs params.value',
    ],
    [
      'verify with an empty assertion',
      { step_id: 1, action_type: 'verify', params: { assertion: '' } },
      'verify needs params.assertion',
    ],
    ['an unknown param', { step_id: 1, action_type: 'press', params: { key: 'Enter', script: 'x' } }, 'script'],
    ['a negative step id', { step_id: -1, action_type: 'press', params: { key: 'Enter' } }, 'step_id'],
    ['a bad scroll direction', { step_id: 1, action_type: 'scroll', params: { direction: 'sideways' } }, 'direction'],
    [
      'a runaway value',
      { step_id: 1, action_type: 'input', params: { semantic_locator: 'x', value: 'x'.repeat(3000) } },
      'longer than 2000',
    ],
  ])('rejects %s with a message naming the problem', (_name, value, fragment) => {
    const r = safeParseInstruction(value)
    expect(r.success).toBe(false)
    if (!r.success) {
      expect(r.error.code).toBe('SCHEMA')
      expect(r.error.message).toContain(fragment)
    }
  })

  it('reports text that is not JSON as JSON_PARSE and quotes it', () => {
    const r = safeParseInstructionText('{"step_id": 1, action_type}')
    expect(r.success).toBe(false)
    if (!r.success) {
      expect(r.error.code).toBe('JSON_PARSE')
      expect(r.error.message).toContain('{"step_id": 1, action_type}')
    }
  })

  it('exports a JSON Schema that lists every action type', () => {
    const schema = instructionJsonSchema() as { properties: { action_type: { enum: string[] } }; required: string[] }
    expect(schema.properties.action_type.enum).toEqual([...ACTION_TYPES])
    expect(schema.required).toEqual(expect.arrayContaining(['step_id', 'action_type']))
  })
})

const split = splitAt

function run(chunks: string[]) {
  const elements: string[] = []
  let prose = ''
  const s = createInstructionSplitter({ prose: (t) => (prose += t), element: (raw) => elements.push(raw) })
  for (const c of chunks) s.push(c)
  const end = s.end() // hands on what it held back (white space that might have opened an array)
  return { elements, prose, end }
}

describe('instruction stream splitter', () => {
  it('yields the same complete elements however the stream is chunked', () => {
    fc.assert(
      fc.property(fc.array(instruction, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 30 }), (list, cuts) => {
        const textIn = JSON.stringify(list, null, cuts.length % 2 ? 2 : 0)
        const r = run(split(textIn, cuts))
        expect(r.elements.map((e) => JSON.parse(e))).toEqual(list)
        expect(r.end).toEqual({ truncated: null, sawArray: true })
      }),
    )
  })

  it('emits each element as soon as its closing brace arrives', () => {
    const got: string[] = []
    const s = createInstructionSplitter({ prose: () => undefined, element: (raw) => got.push(raw) })
    s.push('[{"step_id":1,"action_type":"press","params":{"key":"}"}}')
    expect(got).toEqual(['{"step_id":1,"action_type":"press","params":{"key":"}"}}'])
    s.push(',{"step_id":2')
    expect(got).toHaveLength(1)
  })

  it('hands back prose around a fenced array and reports a cut element', () => {
    const r = run(['Sure! Here is the plan:\n```json\n[{"a": "b\\"]"}, {"c":', ' 1'])
    expect(r.prose).toBe('Sure! Here is the plan:\n')
    expect(r.elements).toEqual(['{"a": "b\\"]"}'])
    expect(r.end).toEqual({ truncated: '{"c": 1', sawArray: true })
  })

  it('passes a plain-text answer through as prose', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('[') && !s.includes('`')),
        (answer) => {
          const r = run(split(answer, [3, 7]))
          expect(r.prose).toBe(answer)
          expect(r.elements).toEqual([])
          expect(r.end.sawArray).toBe(false)
        },
      ),
    )
  })
})
