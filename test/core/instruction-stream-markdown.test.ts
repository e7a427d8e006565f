// "Markdown without gaps": a prose answer reaches the panel exactly as the model wrote
// it, however the stream is chunked (links, fences and all), while instruction arrays, bare or
// fenced or after a sentence, are still split into their elements.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { splitAt } from './split-text'
import { createInstructionSplitter } from '../../src/core/instruction/stream'

const kRuns = { numRuns: 100, interruptAfterTimeLimit: 30_000 }

function run(chunks: string[]) {
  const elements: string[] = []
  let prose = ''
  const s = createInstructionSplitter({ prose: (t) => (prose += t), element: (raw) => elements.push(raw) })
  for (const c of chunks) s.push(c)
  const end = s.end() // may hand on the last held line
  return { elements, prose, end }
}

/** How a provider cuts the reply into deltas: one character, 3–12 characters, or anywhere. */
type Chunking = { kind: 'char' } | { kind: 'sizes'; sizes: number[] } | { kind: 'cuts'; cuts: number[] }
const chunking: fc.Arbitrary<Chunking> = fc.oneof(
  fc.constant({ kind: 'char' as const }),
  fc.record({
    kind: fc.constant('sizes' as const),
    sizes: fc.array(fc.integer({ min: 3, max: 12 }), { minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('cuts' as const), cuts: fc.array(fc.nat(), { maxLength: 30 }) }),
)

function chunk(text: string, how: Chunking): string[] {
  if (how.kind === 'char') return Array.from(text)
  const out: string[] = []
  if (how.kind === 'sizes') {
    for (let at = 0, k = 0; at < text.length; k++) {
      const n = how.sizes[k % how.sizes.length]
      out.push(text.slice(at, at + n))
      at += n
    }
    return out
  }
  return splitAt(text, how.cuts)
}

const word = fc.constantFrom(
  'Read',
  'the',
  'orders',
  'page',
  '最后一段。',
  '订单',
  'list[0]',
  '`items[i]`',
  '[1]',
  '[x]',
  '[]',
  '(see below)',
  '**bold**',
  '*it*',
  'a]b',
  '"quoted"',
  '{braces}',
  '`',
  '``',
)
const link = fc
  .tuple(
    fc.constantFrom('the guide', '指南', 'docs', '"Dune"'),
    fc.constantFrom('https://example.com/guide', 'https://example.com/a?b=[c]'),
  )
  .map(([t, u]) => `[${t}](${u})`)
const sentence = fc
  .array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: link }), { minLength: 1, maxLength: 12 })
  .map((w) => w.join(' '))
const paragraph = fc.oneof(
  sentence,
  sentence.map((s) => `- [ ] ${s}`),
  sentence.map((s) => `> ${s}`),
  sentence.map((s) => `    ${s}`), // indented code
)
// Fenced blocks as answers carry them; a ```json block in prose shows an object (a ```json block
// opening an array is an instruction array by the splitter's rule, tested below).
const fenced = fc.oneof(
  fc
    .constantFrom('python', 'ts', 'bash', '', 'JS')
    .chain((lang) => sentence.map((s) => `\`\`\`${lang}\n${s}\nx = [1, 2]\n\`\`\``)),
  sentence.map((s) => `\`\`\`json\n{"note": ${JSON.stringify(s)}, "list": [1, 2]}\n\`\`\``),
  // JSON shown in a code block is code, not instructions.
  fc.constantFrom(
    '```\n[{"step_id": 1}]\n```',
    '~~~\n[{"a": 1}]\n~~~',
    '````md\n```json\n[{"a": 1}]\n```\n````',
    '```ts\n[\n  {"a": 1}\n]\n```',
  ),
)
const separator = fc.constantFrom('\n\n', '\n', '\r\n\r\n', '\n\n  ', ' ')
/** A Markdown answer for the person: it opens with text, a link or a code block, never with an instruction array. */
const answer = fc
  .tuple(
    fc.oneof(
      paragraph,
      link,
      fc.constantFrom(
        '```python\nprint([1])\n```\n',
        '[the guide](https://example.com/guide) first.',
        '[see below]',
        '`x`',
        '  \n',
        '',
      ),
    ),
    // A code block's fences have lines of their own (``` after text is inline code, not a fence).
    fc.array(
      fc.oneof(
        fc.tuple(separator, paragraph),
        fc.tuple(
          fc.constantFrom('\n', '\n\n', '\r\n\r\n'),
          fenced.map((b) => `${b}\n`),
        ),
      ),
      { maxLength: 8 },
    ),
    fc.constantFrom('', '\n', '\n\n最后一段。', '\n\n```'),
  )
  .map(([first, rest, tail]) => first + rest.map(([sep, b]) => sep + b).join('') + tail)
  // The rule for an instruction array: the reply opens with `[` then `{` or `]`, bare or in a ``` or
  // ```json fence (a sentence that begins "[] …" is one, by that rule).
  .filter((t) => !/^\s*(```(json)?[ \t\r]*\n\s*)?\[\s*[{\]]/i.test(t))

describe('prose answers pass through whole', () => {
  it.each([
    ['a link', 'Read [the guide](https://example.com/guide) first.'],
    ['two fenced blocks', '先运行：\n\n```bash\nnpm ci\n```\n\n然后：\n\n```ts\nconst a = [1, 2]\n```\n\n最后一段。'],
    ['a fenced block before a link', '```\ncode\n```\nSee [x](https://example.com).'],
  ])('keeps %s, chunked every way', (_name, text) => {
    fc.assert(
      fc.property(chunking, (how) => {
        const r = run(chunk(text, how))
        expect(r.prose).toBe(text)
        expect(r.elements).toEqual([])
        expect(r.end).toEqual({ truncated: null, sawArray: false })
      }),
      kRuns,
    )
  })

  it('hands on every character of a Markdown answer, however it is chunked', () => {
    fc.assert(
      fc.property(answer, chunking, (text, how) => {
        const r = run(chunk(text, how))
        expect(r.prose).toBe(text)
        expect(r.elements).toEqual([])
        expect(r.end.sawArray).toBe(false)
      }),
      kRuns,
    )
  })

  it('hands on text as it arrives, holding back only a line that may open a fenced array', () => {
    let prose = ''
    const s = createInstructionSplitter({ prose: (t) => (prose += t), element: () => undefined })
    s.push('Read [the guide](https://exa')
    expect(prose).toBe('Read [the guide](https://exa')
    s.push('mple.com).\n``')
    expect(prose).toBe('Read [the guide](https://example.com).\n')
    s.push('`py')
    expect(prose).toBe('Read [the guide](https://example.com).\n```py')
  })
})

const safeText = fc.string({ maxLength: 30 }).map((s) => s + ' ] [ ``` } {')
const instruction = fc.record({
  step_id: fc.nat({ max: 99 }),
  action_type: fc.constantFrom('click', 'press', 'done'),
  params: fc.record({ semantic_locator: safeText }),
  description: safeText,
})

describe('instruction arrays still split', () => {
  // [reply, prose the panel gets]: bare, fenced, or after a sentence, with words after it.
  const wrap = fc.constantFrom(
    (j: string) => [j, ''],
    (j: string) => [`\n  ${j}`, ''],
    (j: string) => [`${j}\nDone.`, '\nDone.'],
    (j: string) => [`\`\`\`json\n${j}\n\`\`\``, ''],
    (j: string) => [`\`\`\`JSON\n  ${j}\n\`\`\`\n`, ''],
    (j: string) => [`\`\`\`\n${j}\n\`\`\``, ''],
    (j: string) => [
      `Sure! Here is the plan:\n\`\`\`json\n${j}\n\`\`\`\nThen I check it.`,
      'Sure! Here is the plan:\nThen I check it.',
    ],
    (j: string) => [
      `好的，[计划](https://example.com)如下：\n\n\`\`\`json\n${j}\n\`\`\``,
      '好的，[计划](https://example.com)如下：\n\n',
    ],
  )

  it('yields every element and only the prose around the array, however it is chunked', () => {
    fc.assert(
      fc.property(fc.array(instruction, { maxLength: 5 }), fc.boolean(), wrap, chunking, (list, pretty, w, how) => {
        const [reply, prose] = w(JSON.stringify(list, null, pretty ? 2 : 0))
        const r = run(chunk(reply, how))
        expect(r.elements.map((e) => JSON.parse(e))).toEqual(list)
        expect(r.prose).toBe(prose)
        expect(r.end).toEqual({ truncated: null, sawArray: true })
      }),
      kRuns,
    )
  })

  it('takes an array on the line after a sentence, but not one inside a code block', () => {
    fc.assert(
      fc.property(fc.array(instruction, { minLength: 1, maxLength: 3 }), chunking, (list, how) => {
        const j = JSON.stringify(list)
        const r = run(chunk(`Signing in.\n${j}`, how))
        expect(r.elements.map((e) => JSON.parse(e))).toEqual(list)
        expect(r.prose).toBe('Signing in.\n')
        const shown = `Example:\n\n\`\`\`\n${j}\n\`\`\`\n\nAnd [a link](https://example.com).`
        expect(run(chunk(shown, how))).toEqual({
          elements: [],
          prose: shown,
          end: { truncated: null, sawArray: false },
        })
      }),
      kRuns,
    )
  })

  it('reports an element cut by the end of the stream', () => {
    fc.assert(
      fc.property(chunking, (how) => {
        const r = run(
          chunk(
            '```json\n[{"step_id": 1, "action_type": "press", "params": {"key": "Enter"}}, {"step_id": 2, "act',
            how,
          ),
        )
        expect(r.elements).toHaveLength(1)
        expect(r.end).toEqual({ truncated: '{"step_id": 2, "act', sawArray: true })
        expect(r.prose).toBe('')
      }),
      kRuns,
    )
  })
})
