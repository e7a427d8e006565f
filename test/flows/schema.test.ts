import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import {
  FlowError,
  flowJsonSchema,
  parseFlow,
  safeParseFlow,
  bindStep,
  resolveVariables,
  variableName,
  looksSecret,
  type Flow,
} from '../../src/core/flows'

const base: Flow = {
  version: '1.0',
  metadata: { name: 'f', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' },
  variables: { who: { value: 'alice' } },
  steps: [
    {
      step_id: 1,
      action: 'fill',
      params: { value: '${who}' },
      selectors: { primary: { type: 'role', value: 'role:textbox[name="User"]' }, fallback: [] },
    },
  ],
}

describe('flow schema', () => {
  test('a valid flow parses, from an object or JSON text', () => {
    expect(parseFlow(base)).toEqual(base)
    expect(parseFlow(JSON.stringify(base))).toEqual(base)
  })

  test('errors say where and what: every issue with its path', () => {
    const bad = {
      ...base,
      steps: [
        { step_id: 1, action: 'click', params: {} },
        { step_id: 1, action: 'fill', params: { value: '${nobody}' }, selectors: base.steps[0].selectors },
      ],
    }
    const r = safeParseFlow(bad)
    expect(r.success).toBe(false)
    if (r.success) return
    expect(r.error).toBeInstanceOf(FlowError)
    expect(r.error.issues).toEqual([
      { path: 'steps[0].selectors', message: 'a click step needs selectors' },
      { path: 'steps[1].step_id', message: 'step_id 1 is used twice' },
      { path: 'steps[1].params.value', message: '"${nobody}" names no variable; variables: who' },
    ])
    expect(() => parseFlow('{')).toThrow(/not valid JSON/)
  })

  test('the JSON Schema export describes the format', () => {
    const schema = flowJsonSchema() as { properties: Record<string, unknown>; required: string[] }
    expect(schema.required).toEqual(expect.arrayContaining(['version', 'metadata', 'steps']))
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['version', 'metadata', 'variables', 'steps']),
    )
    expect(JSON.stringify(schema)).toContain('"testid"')
  })
})

describe('variables', () => {
  test('sources: env, secret (vault), arg, prompt; params given by name win', async () => {
    const flow = {
      variables: {
        a: { value: '${env:A}' },
        b: { value: '${secret:B}', secret: true },
        c: { value: '${arg:1}' },
        d: { value: '${prompt:Your name}' },
        e: { value: 'lit' },
      },
    }
    const asked: string[] = []
    const values = await resolveVariables(flow, {
      env: { A: '1' },
      secrets: { B: '2' },
      args: ['x', '3'],
      prompt: async (m) => (asked.push(m), '4'),
      params: { e: '5' },
    })
    expect(values).toEqual({ a: '1', b: '2', c: '3', d: '4', e: '5' })
    expect(asked).toEqual(['Your name'])
    await expect(
      resolveVariables({ variables: { d: { value: '${prompt:Password}', secret: true } } }, {}),
    ).rejects.toThrow(/needs "d".*Pass it as a parameter/)
  })

  test('binding replaces ${name}; $${ stays literal', () => {
    const step = bindStep({ step_id: 1, action: 'fill', params: { value: 'hi ${who}, $${who}' } }, { who: 'bob' })
    expect(step.params.value).toBe('hi bob, ${who}')
  })

  test('property: any text bound into a value comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.string(),
        (text) =>
          bindStep({ step_id: 1, action: 'fill', params: { value: '${v}' } }, { v: text }).params.value === text,
      ),
    )
  })

  test('variable names are identifiers and unique', () => {
    expect(variableName('User name', new Set())).toBe('user_name')
    expect(variableName('User name', new Set(['user_name']))).toBe('user_name_2')
    expect(variableName('2FA code', new Set())).toBe('_2fa_code')
    expect(variableName('邮箱', new Set())).toBe('value')
  })

  test('secrets: password fields, credential names, token shapes; not ordinary text', () => {
    expect(looksSecret('x', { type: 'password' })).toBe(true)
    expect(looksSecret('123456', { name: 'otp' })).toBe(true)
    expect(looksSecret('ghp_abcdefghijklmnopqrstuvwx')).toBe(true)
    expect(looksSecret('alice@example.com', { type: 'email', label: 'Email' })).toBe(false)
    expect(looksSecret('a long sentence a person typed into a comment box')).toBe(false)
  })
})
