// Native tool calls read as steps (docs/settings.md, "How the plan comes back"): the stream parts the
// AI SDK's providers give for tool calls — arguments in any pieces, calls interleaved, the inputs
// ended only when the reply ends (the OpenAI-compatible provider), or each call whole (Ollama) —
// become one step per call, each handed on as soon as its arguments are complete.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { toolCallText, type ToolCallPart } from '../../src/core/instruction/tool-calls'
import { createInstructionSplitter } from '../../src/core/instruction/stream'
import { readInstructionText } from '../../src/core/instruction/read'

type Part = ToolCallPart
const kRuns = { numRuns: 60 }

const call = fc.oneof(
  fc.record({
    name: fc.constant('input'),
    args: fc.record({
      target_id: fc.integer({ min: 1, max: 99 }).map(String),
      value: fc.string({ minLength: 1, maxLength: 12 }),
      description: fc.constantFrom('Type it', '输入'),
    }),
  }),
  fc.record({
    name: fc.constant('click'),
    args: fc.record({ semantic_locator: fc.constantFrom('Save button', 'a } b {', '"quoted"') }),
  }),
  fc.record({
    name: fc.constant('navigate'),
    args: fc.record({ url: fc.constantFrom('https://example.com/', '/orders') }),
  }),
  fc.record({ name: fc.constant('screenshot'), args: fc.constant({}) }),
)

/** Runs parts through the adapter into the splitter; records, for each step, how many parts had been given when it came. */
function read(parts: Part[]) {
  const text = toolCallText()
  const got: { raw: string; at: number }[] = []
  let given = 0
  const s = createInstructionSplitter({ prose: () => undefined, element: (raw) => got.push({ raw, at: given }) })
  for (const p of parts) {
    given++
    const t = text(p)
    if (t) s.push(t)
  }
  expect(s.end().truncated).toBeNull()
  return got.map((g, i) => ({ ...g, ins: readInstructionText(g.raw, i) }))
}

const expected = (c: { name: string; args: Record<string, unknown> }, i: number) => {
  const { description, ...params } = c.args as Record<string, unknown>
  return { step_id: i + 1, action_type: c.name, params, ...(description ? { description } : {}) }
}

describe('tool calls as steps', () => {
  it('streamed arguments in any pieces, the inputs ended only at the end: each step when its arguments close', () => {
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }),
        (calls, sizes) => {
          const parts: Part[] = []
          const closedAt: number[] = []
          calls.forEach((c, i) => {
            parts.push({ type: 'tool-input-start', id: `c${i}`, toolName: c.name })
            const args = JSON.stringify(c.args)
            for (let at = 0, k = 0; at < args.length; k++) {
              const n = sizes[k % sizes.length]
              parts.push({ type: 'tool-input-delta', id: `c${i}`, delta: args.slice(at, at + n) })
              at += n
            }
            closedAt.push(parts.length)
          })
          calls.forEach((c, i) => {
            parts.push({ type: 'tool-input-end', id: `c${i}` })
            parts.push({ type: 'tool-call', toolCallId: `c${i}`, toolName: c.name, input: JSON.stringify(c.args) })
          })
          const got = read(parts)
          expect(got.map((g) => (g.ins.success ? g.ins.data : g.ins.error.message))).toEqual(calls.map(expected))
          // Not at the reply's end: as soon as the call's last argument piece came.
          got.forEach((g, i) => expect(g.at).toBe(closedAt[i]))
        },
      ),
      kRuns,
    )
  })

  it('a call whose input ends with no argument piece at all still closes, at its end', () => {
    const got = read([
      { type: 'tool-input-start', id: 'a', toolName: 'screenshot' },
      { type: 'tool-input-end', id: 'a' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'screenshot', input: '' },
    ])
    expect(got.map((g) => [g.at, g.ins.data])).toEqual([[2, { step_id: 1, action_type: 'screenshot', params: {} }]])
  })

  it('whole calls, as Ollama sends them: one step each', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 4 }), (calls) => {
        const got = read(
          calls.map((c, i) => ({
            type: 'tool-call',
            toolCallId: `o${i}`,
            toolName: c.name,
            input: JSON.stringify(c.args),
          })),
        )
        expect(got.map((g) => (g.ins.success ? g.ins.data : g.ins.error.message))).toEqual(calls.map(expected))
        got.forEach((g, i) => expect(g.at).toBe(i + 1))
      }),
      kRuns,
    )
  })
})
