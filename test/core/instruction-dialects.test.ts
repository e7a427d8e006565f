// Other agents' words, chat templates served raw, and looser syntax (docs/instruction-schema.md,
// "What Ava reads", and src/core/instruction/dialects.ts): one plan, written each way and cut into
// random small chunks, yields the same instructions in the same order, each handed on as soon as
// the text that completes it has arrived. Each row of `shapes` is one way of answering.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { splitAt } from './split-text'
import { createInstructionSplitter } from '../../src/core/instruction/stream'
import { readInstructionText } from '../../src/core/instruction/read'
import type { Instruction } from '../../src/core/instruction/schema'

const kRuns = { numRuns: 40, interruptAfterTimeLimit: 30_000 }

const value = fc.oneof(
  fc.constantFrom(
    'Sign in',
    '登录',
    'a ] b [ c',
    '{x}',
    "it's",
    'say "hi"',
    'back\\slash',
    '```',
    'True',
    '- item',
    'key: value',
  ),
  // eslint-disable-next-line no-control-regex -- control characters are no text a model types into a field
  fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== '' && !/[\u0000-\u001f<\]\\[]/.test(s)),
)
const id = fc.integer({ min: 1, max: 999 }).map(String)

type Kind = 'click' | 'input' | 'navigate' | 'press' | 'scroll'
const kAll: Kind[] = ['click', 'input', 'navigate', 'press', 'scroll']
const stepOf: Record<Kind, fc.Arbitrary<Omit<Instruction, 'step_id'>>> = {
  click: fc.record({ action_type: fc.constant('click' as const), params: fc.record({ target_id: id }) }),
  input: fc.record({ action_type: fc.constant('input' as const), params: fc.record({ target_id: id, value }) }),
  navigate: fc.record({
    action_type: fc.constant('navigate' as const),
    params: fc.record({ url: fc.constantFrom('https://example.com/a?b=[c]', '/orders', 'https://shop.test/') }),
  }),
  press: fc.record({
    action_type: fc.constant('press' as const),
    params: fc.record({ key: fc.constantFrom('Enter', 'Tab') }),
  }),
  scroll: fc.record({
    action_type: fc.constant('scroll' as const),
    params: fc.record({ direction: fc.constantFrom('up', 'down') }),
  }),
}
const planOf = (kinds: Kind[]) =>
  fc
    .array(fc.oneof(...kinds.map((k) => stepOf[k])), { minLength: 1, maxLength: 4 })
    .map((steps) => steps.map((s, i) => ({ step_id: i + 1, ...s }) as Instruction))

const j = (v: unknown) => JSON.stringify(v)
const p = (i: Instruction) => i.params

/**
 * One way of answering: the kinds of step it can say, the text of each step, what joins and
 * surrounds them, what Ava should read for each (default: the step itself), and `late`: a step is
 * complete only once the text after it has come (a YAML item when the next begins, a harmony call
 * at its `<|call|>`), so it is due by the end of the next item instead of its own.
 */
interface Shape {
  kinds: Kind[]
  item(i: Instruction): string
  before: string
  join: string
  after: string
  read?(i: Instruction): Instruction
  late?: boolean
}

const browserUse: Record<Kind, (i: Instruction) => unknown> = {
  click: (i) => ({ click_element_by_index: { index: Number(p(i).target_id) } }),
  input: (i) => ({ input_text: { index: Number(p(i).target_id), text: p(i).value } }),
  navigate: (i) => ({ go_to_url: { url: p(i).url } }),
  press: (i) => ({ send_keys: { keys: p(i).key } }),
  scroll: (i) => ({ [`scroll_${p(i).direction}`]: { amount: 300 } }),
}
/** A call's name and arguments in another agent's or Ava's own words. */
const call: Record<Kind, (i: Instruction) => { name: string; arguments: Record<string, unknown> }> = {
  click: (i) => ({ name: 'browser_click', arguments: { ref: p(i).target_id } }),
  input: (i) => ({ name: 'browser_type', arguments: { ref: p(i).target_id, text: p(i).value } }),
  navigate: (i) => ({ name: 'browser_navigate', arguments: { url: p(i).url } }),
  press: (i) => ({ name: 'browser_press_key', arguments: { key: p(i).key } }),
  scroll: (i) => ({ name: 'scroll', arguments: { direction: p(i).direction } }),
}
const kind = (i: Instruction) => i.action_type as Kind
const ownWords = (i: Instruction) => ({ action_type: i.action_type, ...i.params })

const shapes: Record<string, Shape> = {
  'browser-use {"current_state", "action": [{word: params}]}': {
    kinds: kAll,
    item: (i) => j(browserUse[kind(i)](i)),
    before: '{"current_state": {"evaluation_previous_goal": "Unknown", "memory": "[]", "next_goal": "go"}, "action": [',
    join: ', ',
    after: ']}',
  },
  'Stagehand observe results {"method", "selector": "xpath=…", "arguments"}': {
    kinds: ['click', 'input', 'press'],
    item: (i) =>
      kind(i) === 'press'
        ? j({ method: 'press', selector: '', arguments: [p(i).key], description: 'key' })
        : j({
            method: kind(i) === 'click' ? 'click' : 'fill',
            selector: `xpath=//*[@data-id='${p(i).target_id}']`,
            arguments: kind(i) === 'input' ? [p(i).value] : [],
            description: 'the field',
          }),
    before: '[',
    join: ',\n',
    after: ']',
    read: (i) =>
      kind(i) === 'press'
        ? { ...i, description: 'key' }
        : {
            ...i,
            params: {
              fallback_selector: `xpath://*[@data-id='${p(i).target_id}']`,
              ...(kind(i) === 'input' ? { value: p(i).value } : {}),
            },
            description: 'the field',
          },
  },
  'Playwright MCP calls written as JSON lines': {
    kinds: kAll,
    item: (i) => j(call[kind(i)](i)),
    before: '',
    join: '\n',
    after: '\n',
  },
  'OpenAI function-call JSON in the text ({"tool_calls": […], arguments as text})': {
    kinds: kAll,
    item: (i) =>
      j({ id: `call_${i.step_id}`, type: 'function', function: { name: i.action_type, arguments: j(i.params) } }),
    before: '{"tool_calls": [',
    join: ',',
    after: ']}',
  },
  'Qwen / Hermes <tool_call> tags': {
    kinds: kAll,
    item: (i) => j({ name: i.action_type, arguments: i.params }),
    before: '<tool_call>\n',
    join: '\n</tool_call>\n<tool_call>\n',
    after: '\n</tool_call>',
  },
  'Llama 3.1 <|python_tag|> with "parameters"': {
    kinds: kAll,
    item: (i) => j({ name: i.action_type, parameters: i.params }),
    before: '<|python_tag|>',
    join: '<|eom_id|>\n<|python_tag|>',
    after: '<|eom_id|>',
  },
  'Mistral [TOOL_CALLS] list': {
    kinds: kAll,
    item: (i) => j({ name: i.action_type, arguments: i.params }),
    before: '[TOOL_CALLS][',
    join: ', ',
    after: ']</s>',
  },
  'ChatML served raw': {
    kinds: kAll,
    item: (i) => j(i),
    before: '<|im_start|>assistant\n[',
    join: ',',
    after: ']<|im_end|>',
  },
  'gpt-oss harmony channels, the plan in final': {
    kinds: kAll,
    item: (i) => j(i),
    before:
      '<|channel|>analysis<|message|>The user wants [{"x": 1}] done.<|end|><|start|>assistant<|channel|>final<|message|>[',
    join: ', ',
    after: ']<|return|>',
  },
  'gpt-oss harmony commentary calls': {
    kinds: kAll,
    item: (i) =>
      `<|start|>assistant<|channel|>commentary to=functions.${i.action_type} <|constrain|>json<|message|>${j(i.params)}<|call|>`,
    before: '<|channel|>analysis<|message|>Plan it.<|end|>',
    join: '',
    after: '',
    late: true,
  },
  "a model's own synonyms for actions and fields": {
    kinds: kAll,
    item: (i) =>
      j(
        {
          click: { action: 'click_on', element_id: Number(p(i).target_id) },
          input: { action: 'fill_in', element_id: p(i).target_id, text_to_type: p(i).value },
          navigate: { action: 'navigate_to_url', page: p(i).url },
          press: { action: 'hit_key', keys: p(i).key },
          scroll: { action: `scroll_${p(i).direction}` },
        }[kind(i)],
      ),
    before: '{"plan": [',
    join: ', ',
    after: ']}',
  },
  'Skyvern upper-case actions': {
    kinds: ['click', 'input'],
    item: (i) =>
      j(
        kind(i) === 'click'
          ? { action_type: 'CLICK', element_id: p(i).target_id, reasoning: 'go' }
          : { action_type: 'INPUT_TEXT', element_id: p(i).target_id, text: p(i).value, reasoning: 'go' },
      ),
    before: '{"actions": [',
    join: ',',
    after: ']}',
    read: (i) => ({ ...i, description: 'go' }),
  },
  'JSON5 in a ```json5 fence': {
    kinds: kAll,
    item: (i) =>
      `{step_id: ${i.step_id}, action_type: '${i.action_type}', params: ${JSON.stringify(i.params).replace(/"(\w+)":/g, '$1: ')},}`,
    before: 'Plan:\n```json5\n[\n',
    join: ',\n',
    after: ',\n]\n```\n',
  },
  'YAML in a ```yaml fence, under steps:': {
    kinds: kAll,
    item: (i) =>
      `  - action_type: ${i.action_type}\n    params:\n${Object.entries(i.params)
        .map(([k, v]) => `      ${k}: ${j(v)}`)
        .join('\n')}\n`,
    before: 'Here is the plan:\n```yaml\nsteps:\n',
    join: '',
    after: '```',
    late: true,
  },
  'one fenced block per step, prose between': {
    kinds: kAll,
    item: (i) => j(i),
    before: 'First:\n```json\n',
    join: '\n```\nThen:\n```json\n',
    after: '\n```\nThat is all.',
  },
  'objects inside sentences': {
    kinds: kAll,
    item: (i) => j(ownWords(i)),
    before: 'I will do this: ',
    join: ' and then ',
    after: ' and report back.',
  },
}

function render(s: Shape, plan: Instruction[]): { reply: string; ends: number[] } {
  let reply = s.before
  const ends: number[] = []
  plan.forEach((i, k) => {
    if (k) reply += s.join
    reply += s.item(i)
    ends.push(reply.length)
  })
  reply += s.after
  return { reply, ends }
}

function feed(chunks: string[]) {
  const got: { raw: string; index: number; at: number }[] = []
  let prose = ''
  let thinking = ''
  let pushed = 0
  const s = createInstructionSplitter({
    prose: (t) => (prose += t),
    thinking: (t) => (thinking += t),
    element: (raw, index) => got.push({ raw, index, at: pushed }),
  })
  for (const c of chunks) {
    pushed += c.length
    s.push(c)
  }
  const end = s.end()
  return { got, prose, thinking, end }
}

describe('other agents, raw chat templates and looser syntax', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`reads ${name}, in order, each step as soon as it is complete`, () => {
      fc.assert(
        fc.property(planOf(shape.kinds), fc.array(fc.nat(), { maxLength: 30 }), (plan, cuts) => {
          const { reply, ends } = render(shape, plan)
          const chunks = splitAt(reply, cuts)
          const r = feed(chunks)
          const read = r.got.map((g) => readInstructionText(g.raw, g.index))
          expect(read.map((x) => (x.success ? x.data : x.error.message))).toEqual(plan.map(shape.read ?? ((i) => i)))
          expect(r.end.truncated).toBeNull()
          const boundaries = chunks.reduce<number[]>((a, c) => [...a, (a.at(-1) ?? 0) + c.length], [])
          r.got.forEach((g, k) => {
            const due = boundaries.find((b) => b >= (shape.late ? (ends[k + 1] ?? reply.length) : ends[k]))
            expect(g.at).toBeLessThanOrEqual(due!)
            if (!shape.late) expect(g.at).toBe(due)
          })
          // Nothing of the plan or of the template is shown as the answer.
          expect(r.prose).not.toMatch(
            /action_type|"name"|<\|[a-z_]+\|>|tool_call|TOOL_CALLS|python_tag|click_element|"method"/,
          )
        }),
        kRuns,
      )
    })
  }

  it('shows a raw harmony analysis channel as thinking', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        const r = feed(
          splitAt(
            '<|channel|>analysis<|message|>I should answer.<|end|><|start|>assistant<|channel|>final<|message|>The total is 42.<|return|>',
            cuts,
          ),
        )
        expect(r.thinking).toBe('I should answer.')
        expect(r.prose).toBe('The total is 42.')
        expect(r.got).toEqual([])
      }),
      kRuns,
    )
  })

  it('keeps braces in a sentence that hold no step, and JSON in inline code, as prose', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        for (const text of [
          'The config is {"name": "Alice", "age": 3} as saved.',
          'Write `{"action": "click"}` to click.',
          'A set {"a", "b"} and {"type": "object"}.',
        ]) {
          const r = feed(splitAt(text, cuts))
          expect(r.got).toEqual([])
          expect(r.prose).toBe(text)
        }
      }),
      kRuns,
    )
  })
})

describe('a word that means two actions', () => {
  it('is read by the fields the step has, and otherwise sent back to the model, never guessed', () => {
    const read = (o: unknown) => readInstructionText(JSON.stringify(o), 0)
    expect(read({ action: 'check', assertion: 'Saved' })).toMatchObject({
      success: true,
      data: { action_type: 'verify', params: { assertion: 'Saved' } },
    })
    expect(read({ action: 'enter', id: 3, value: 'hi' })).toMatchObject({
      success: true,
      data: { action_type: 'input', params: { target_id: '3', value: 'hi' } },
    })
    expect(read({ action: 'enter', key: 'Enter' })).toMatchObject({
      success: true,
      data: { action_type: 'press', params: { key: 'Enter' } },
    })
    for (const o of [
      { action: 'check', id: 3 },
      { action: 'enter', id: 3 },
      { action: 'enter', id: 3, text: 'hi' },
      { check: { index: 4 } },
    ]) {
      const r = read(o)
      expect(r.success).toBe(false)
      expect(r.error?.code).toBe('SCHEMA')
      expect(r.error?.message).toMatch(/could mean (verify or click|input or press)/)
    }
  })
})

describe('values in other forms', () => {
  it('takes a point as [x, y], key lists as a chord, and an option by its label', () => {
    const read = (o: unknown) => readInstructionText(JSON.stringify(o), 0)
    expect(read({ action: 'left_click', coordinate: [120, 48] })).toMatchObject({
      success: true,
      data: { action_type: 'click', params: { x: 120, y: 48 } },
    })
    expect(read({ type: 'keypress', keys: ['Control', 'A'] })).toMatchObject({
      success: true,
      data: { action_type: 'press', params: { key: 'Control+A' } },
    })
    expect(read({ action_type: 'SELECT_OPTION', element_id: '7', option: { label: 'Blue', index: 2 } })).toMatchObject({
      success: true,
      data: { action_type: 'select', params: { target_id: '7', value: 'Blue' } },
    })
    expect(read({ go_to_url: 'https://example.com/' })).toMatchObject({
      success: true,
      data: { action_type: 'navigate', params: { url: 'https://example.com/' } },
    })
    expect(read({ done: { text: 'All set.', success: true } })).toMatchObject({
      success: true,
      data: { action_type: 'done', params: { answer: 'All set.' } },
    })
  })
})
