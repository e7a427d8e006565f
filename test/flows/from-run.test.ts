// "Save last run as flow", the pure half: what each executed instruction becomes.
import { describe, expect, it } from 'vitest'
import { flowFromRun, parseFlow, type RecordedTarget } from '../../src/core/flows'
import type { Instruction } from '../../src/core/instruction/schema'

const target = (name: string, field?: RecordedTarget['field']): RecordedTarget => ({
  selectors: {
    primary: { type: 'role', value: `role:textbox[name="${name}"]` },
    fallback: [{ type: 'css', value: `css:input[name="${name}"]` }],
  },
  snapshot: { tag: 'input', role: 'textbox', text: name, attributes: {} },
  key: name,
  description: name,
  ...(field ? { field } : {}),
})
const ins = (
  action_type: Instruction['action_type'],
  params: Instruction['params'],
  description?: string,
): Instruction => ({ step_id: 1, action_type, params, ...(description ? { description } : {}) })

describe('flowFromRun', () => {
  it('uses the selectors captured when the step acted, not the instruction’s own', () => {
    const flow = flowFromRun(
      [ins('input', { fallback_selector: '#n', value: 'Ada' }, 'Name')],
      [target('Name', { label: 'Name' })],
      { name: 'f' },
    )
    expect(flow.steps[0]).toMatchObject({
      action: 'fill',
      selectors: { primary: { value: 'role:textbox[name="Name"]' } },
      element_snapshot: { tag: 'input' },
      params: { value: '${name}' },
    })
    expect(flow.variables.name).toEqual({ value: 'Ada', description: 'Name' })
    parseFlow(flow)
  })

  it('keeps a run_action as a run step, its string args as variables with the run’s values', () => {
    const flow = flowFromRun(
      [
        ins(
          'run_action',
          { action: 'common:cookies:dismiss', args: { choice: 'accept', retries: 2, skip: null } },
          'Cookies',
        ),
      ],
      [null],
      { name: 'f' },
    )
    expect(flow.steps[0]).toEqual({
      step_id: 1,
      action: 'run',
      params: { action: 'common:cookies:dismiss', choice: '${choice}', retries: 2 },
      description: 'Cookies',
    })
    expect(flow.variables.choice).toEqual({ value: 'accept', description: 'choice' })
    parseFlow(flow)
  })

  it('turns a keyword verify into one text check per quoted word', () => {
    const flow = flowFromRun([ins('verify', { assertion: 'Shows "Order #742" and "Shipped"' })], [null], { name: 'f' })
    expect(flow.steps.map((s) => [s.action, s.params.text])).toEqual([
      ['verify', 'Order #742'],
      ['verify', 'Shipped'],
    ])
    parseFlow(flow)
  })

  it('keeps secrets out: a vault value stays a reference, a redacted or credential-like one is asked for', () => {
    const flow = flowFromRun(
      [
        ins('input', { fallback_selector: '#pw', value: '${secret:ACME_PW}' }, 'Password'),
        ins('input', { fallback_selector: '#pin', value: '[redacted]' }, 'PIN'),
        ins('input', { fallback_selector: '#key', value: 'sk-abcdefghijklmnopqrstu' }, 'API key'),
        ins('run_action', {
          action: 'common:auth:login',
          args: { username: 'ada', password: '${secret:ACME_PW}', token: 'ghp_abcdefghijklmnopqrstuvwx' },
        }),
      ],
      [
        target('Password', { type: 'password', label: 'Password' }),
        target('PIN', { label: 'PIN' }),
        target('API key', { label: 'API key' }),
        null,
      ],
      { name: 'f' },
    )
    const text = JSON.stringify(flow)
    expect(text).not.toContain('sk-abcdefghijklmnopqrstu')
    expect(text).not.toContain('ghp_abcdefghijklmnopqrstuvwx')
    expect(text).not.toContain('[redacted]')
    const vault = Object.values(flow.variables).filter((v) => v.value === '${secret:ACME_PW}')
    expect(vault).toHaveLength(2)
    expect(vault.every((v) => v.secret)).toBe(true)
    expect(Object.values(flow.variables).filter((v) => v.secret && v.value?.startsWith('${prompt:'))).toHaveLength(3)
    parseFlow(flow)
  })

  it('leaves out wait and done', () => {
    const flow = flowFromRun(
      [ins('wait', { selector: '.x' }), ins('navigate', { url: 'https://a.test/' }), ins('done', { answer: 'ok' })],
      [null, null, null],
      { name: 'f' },
    )
    expect(flow.steps.map((s) => s.action)).toEqual(['navigate'])
  })

  it('saves each step’s params as its descriptor says: a key, a direction a flow has, a choice, an address', () => {
    const flow = flowFromRun(
      [
        ins('navigate', { url: 'https://a.test/list' }),
        ins('press', { key: 'Escape' }),
        ins('press', { key: undefined as unknown as string, fallback_selector: '#q' }),
        ins('scroll', { direction: 'top' }),
        ins('scroll', { direction: 'bottom' }),
        ins('select', { fallback_selector: '#size', value: 'L' }),
      ],
      [null, null, null, null, null, target('Size')],
      { name: 'f' },
    )
    expect(flow.steps.map((s) => [s.action, s.params])).toEqual([
      ['navigate', { url: 'https://a.test/list' }],
      ['press', { key: 'Escape' }],
      ['press', { key: 'Enter' }],
      ['scroll', { direction: 'up' }],
      ['scroll', { direction: 'down' }],
      ['select', { value: 'L' }],
    ])
    // A select's choice is what the run chose, not a variable; only typed values and pack params become ones.
    expect(flow.variables).toEqual({})
    parseFlow(flow)
  })
})
