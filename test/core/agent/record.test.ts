// The run record (src/core/agent/record.ts), its export (record-html.ts) and the verdict
// (verdict.ts): built from events, redacted in every form, priced only where the provider prices
// it, bounded in size and age.
import { describe, expect, it } from 'vitest'
import {
  boundRecord,
  costOf,
  createRunRecorder,
  keepRecords,
  kDayMs,
  priceOf,
  recordSize,
  type RunRecord,
} from '../../../src/core/agent/record'
import { escapeHtml, recordHtml, recordJson } from '../../../src/core/agent/record-html'
import { quotedEvidence, verdictOf } from '../../../src/core/agent/verdict'

const kSecret = 'Vault7Q3Xcode'
const kOpenAi = { provider: 'openai' as const, model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1' }

function sample(secretEverywhere = false): RunRecord {
  const leak = secretEverywhere
    ? `plain ${kSecret}, spaced ${kSecret.split('').join(' ')}, reversed ${[...kSecret].reverse().join('')}, encoded ${encodeURIComponent(kSecret + '&')}, base64 ${btoa('x' + kSecret + 'y')}`
    : 'nothing'
  const r = createRunRecorder({
    id: 'run1',
    origin: 'https://shop.example',
    request: 'Sign in and say what the page says',
    startUrl: 'https://shop.example/login',
    startedAt: 1_000,
    llm: kOpenAi,
  })
  r.model({
    at: 1_010,
    ms: 40,
    system: 'SYSTEM',
    messages: [{ role: 'user', content: `page: ${leak}`, image: { data: 'iVBORw0KGgo=', mediaType: 'image/png' } }],
    output: `[{"action_type":"input","params":{"value":"${kSecret}"}}]`,
    tokens: { inputTokens: 1_000, outputTokens: 100 },
  })
  r.question({
    at: 1_060,
    step: 0,
    type: 'confirm',
    question: 'Type into Password',
    element: 'textbox “Password”',
    category: 'credentials',
    answer: 'yes',
  })
  r.step({
    at: 1_050,
    ms: 30,
    index: 0,
    action: 'input',
    params: { value: '[redacted]' },
    status: 'ok',
    detail: `Typed into Password (page echoed ${leak})`,
  })
  r.model({
    at: 1_100,
    ms: 50,
    system: 'SYSTEM',
    messages: [
      { role: 'user', content: 'page (forgotten)' },
      { role: 'assistant', content: '[…]' },
      { role: 'user', content: 'results: <script>alert(1)</script>' },
    ],
    output: '[{"action_type":"click"}]',
    tokens: { inputTokens: 2_000, outputTokens: 20 },
  })
  r.step({
    at: 1_150,
    index: 1,
    action: 'click',
    params: {},
    status: 'failed',
    detail: 'No element',
    code: 'ELEMENT_NOT_FOUND',
  })
  r.question({ at: 1_160, step: 2, type: 'ask', question: 'Which account?', answer: 'the second' })
  r.failure({ at: 1_170, code: 'ELEMENT_NOT_FOUND', message: 'Step 2 failed' })
  return r.end(
    { at: 1_200, status: 'failed', verdict: { done: false, kind: 'not-done' }, answer: '' },
    secretEverywhere ? [kSecret] : [],
  )
}

describe('the record builder', () => {
  it('keeps the steps with their judgement and element, the questions, the failures, the model calls and the pictures', () => {
    const rec = sample()
    expect(rec.events.map((e) => e.kind)).toEqual(['model', 'question', 'step', 'model', 'step', 'question', 'failure'])
    const [first, second] = rec.events.filter((e) => e.kind === 'step')
    // The step takes its element and judgement from the question asked about it.
    expect(first).toMatchObject({ judged: 'credentials', element: 'textbox “Password”', status: 'ok', ms: 30 })
    expect(second).toMatchObject({ judged: 'safe', status: 'failed', code: 'ELEMENT_NOT_FOUND' })
    const models = rec.events.filter((e) => e.kind === 'model')
    // The system prompt once; each call holds only what it added to the conversation.
    expect(models[0]).toMatchObject({ system: 'SYSTEM', history: 0, tokens: { input: 1_000, output: 100 } })
    expect(models[1]).not.toHaveProperty('system')
    expect(models[1]).toMatchObject({ history: 2, input: [{ content: 'results: <script>alert(1)</script>' }] })
    expect(models[0].kind === 'model' && models[0].input[0].shot).toBe('shot1')
    expect(rec.shots).toEqual([{ id: 'shot1', at: 1_010, mediaType: 'image/png', data: 'iVBORw0KGgo=' }])
    expect(rec.tokens).toEqual({ input: 3_000, output: 120 })
    expect(rec.model).toEqual({ provider: 'openai', model: 'gpt-4o-mini' })
  })

  it('redacts a secret in every form it can take: plain, spaced, reversed, percent-encoded, base64', () => {
    const text = JSON.stringify(sample(true))
    const forms = [
      kSecret,
      kSecret.split('').join(' '),
      [...kSecret].reverse().join(''),
      encodeURIComponent(kSecret + '&'),
      btoa('x' + kSecret + 'y'),
      btoa('x' + kSecret + 'y').slice(4, -4),
    ]
    for (const f of forms) expect(text.toLowerCase()).not.toContain(f.toLowerCase())
    expect(text).toContain('[redacted]')
    // The picture's bytes are the one that was sent (blacked out in the page), untouched.
    expect(text).toContain('iVBORw0KGgo=')
  })
})

describe('pricing', () => {
  it('prices a model at its provider’s own endpoint from the table', () => {
    const price = priceOf(kOpenAi)
    expect(price).toBeDefined()
    expect(costOf(kOpenAi, { input: 1_000_000, output: 0 })).toBeCloseTo(price![0])
    expect(sample().costUsd).toBeCloseTo((3_000 * price![0] + 120 * price![1]) / 1_000_000)
  })

  it('invents no cost: a local server, a proxy serving a priced name, an unknown model', () => {
    expect(
      costOf(
        { provider: 'local', model: 'gpt-4o-mini', baseUrl: 'http://127.0.0.1:11434/v1' },
        { input: 5, output: 5 },
      ),
    ).toBeUndefined()
    expect(costOf({ ...kOpenAi, baseUrl: 'https://proxy.example/v1' }, { input: 5, output: 5 })).toBeUndefined()
    expect(costOf({ ...kOpenAi, model: 'my-finetune-xyz' }, { input: 5, output: 5 })).toBeUndefined()
    const r = createRunRecorder({ id: 'x', origin: 'o', request: 'r', startUrl: 'u', startedAt: 0 })
    expect(r.end({ at: 1, status: 'done' }, [])).not.toHaveProperty('costUsd')
  })
})

describe('bounds', () => {
  const big = (): RunRecord => {
    const rec = sample()
    rec.shots = [
      { id: 'shot1', at: 1, mediaType: 'image/png', data: 'A'.repeat(50_000) },
      { id: 'shot2', at: 2, mediaType: 'image/png', data: 'B'.repeat(50_000) },
    ]
    return rec
  }

  it('drops pictures oldest first, then model texts, and keeps every step, question and failure', () => {
    const rec = big()
    const one = boundRecord(rec, recordSize(rec) - 10_000)
    expect(one.trimmed).toBe(true)
    expect(one.shots.map((s) => !!s.data)).toEqual([false, true])
    const none = boundRecord(rec, 500)
    expect(none.shots.every((s) => s.dropped && !s.data)).toBe(true)
    expect(none.events.filter((e) => e.kind === 'model').every((e) => e.kind === 'model' && e.dropped)).toBe(true)
    expect(none.events.map((e) => e.kind)).toEqual(rec.events.map((e) => e.kind))
    expect(boundRecord(rec, recordSize(rec))).toBe(rec)
  })

  it('keeps the newest records younger than the age bound, at most the count', () => {
    const at = (id: string, endedAt: number): RunRecord => ({ ...sample(), id, endedAt })
    const now = 100 * kDayMs
    const kept = keepRecords(
      [at('old', now - 31 * kDayMs), at('a', now - 3), at('b', now - 1), at('c', now - 2)],
      { count: 2, days: 30, maxChars: 1_000_000 },
      now,
    )
    expect(kept.map((r) => r.id)).toEqual(['b', 'c'])
  })
})

describe('export', () => {
  it('is one HTML file with no script and no external resource, page text escaped, pictures inline', () => {
    const html = recordHtml(sample())
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toMatch(/(src|href)="(?!data:)/)
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="')
    expect(html).toContain('ELEMENT_NOT_FOUND')
    expect(html).toContain('Which account?')
    expect(html).toContain("default-src 'none'")
  })

  it('puts no picture of an unexpected kind or bytes into an img', () => {
    const rec = sample()
    rec.shots[0].mediaType = 'text/html'
    expect(recordHtml(rec)).not.toContain('data:text/html')
    rec.shots[0].mediaType = 'image/png'
    rec.shots[0].data = '"><script>x</script>'
    expect(recordHtml(rec)).not.toContain('<script>x')
  })

  it('escapes every character HTML gives a meaning', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    )
  })

  it('is the record itself as JSON', () => {
    const rec = sample()
    expect(JSON.parse(recordJson(rec))).toEqual(rec)
  })
})

describe('the verdict', () => {
  const base = { answered: true, acted: true, sawResult: false, url: 'https://shop.example/done' }
  it('a done in the same reply as its actions, with nothing checked, is not a success', () => {
    expect(verdictOf(base)).toMatchObject({ done: false, kind: 'unverified' })
  })
  it('a verify that passed after the last action is evidence', () => {
    expect(verdictOf({ ...base, verified: ['Saved'] })).toEqual({
      done: true,
      kind: 'verified',
      evidence: { text: ['Saved'], url: 'https://shop.example/done' },
    })
  })
  it('quoted words found on the page are evidence; missing ones are named', () => {
    expect(verdictOf({ ...base, quoted: { words: ['Order 42'], missing: [] } })).toMatchObject({
      done: true,
      kind: 'verified',
    })
    expect(
      verdictOf({ ...base, sawResult: true, quoted: { words: ['Order 42'], missing: ['Order 42'] } }),
    ).toMatchObject({
      done: false,
      kind: 'unverified',
      missing: ['Order 42'],
    })
  })
  it('the model’s own judgement counts only with the page after its steps in front of it', () => {
    expect(verdictOf({ ...base, sawResult: true })).toMatchObject({ done: true, kind: 'judged' })
  })
  it('a run that changed nothing answered from the page; a run that did not end in done is not done', () => {
    expect(verdictOf({ ...base, acted: false })).toMatchObject({ done: true, kind: 'answered' })
    expect(verdictOf({ ...base, answered: false })).toEqual({ done: false, kind: 'not-done' })
  })
  it('reads the answer’s quoted words, not its apostrophes', () => {
    expect(quotedEvidence(`I can't see the user's page; it says "Saved" and “已保存” and 「完了」`)).toEqual([
      'Saved',
      '已保存',
      '完了',
    ])
  })
})
