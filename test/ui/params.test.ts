import { describe, expect, it } from 'vitest'
import type { ActionParam } from '../../src/core/registry'
import { collectParams, fieldsOf } from '../../src/popup/params'

const p = (x: Partial<ActionParam>): ActionParam => ({
  type: 'string',
  description: '',
  required: false,
  secret: false,
  ...x,
})

describe('the run form generated from a param schema', () => {
  const fields = fieldsOf({
    plan: p({ type: 'enum', values: ['free', 'pro'], required: true }),
    subscribe: p({ type: 'boolean', default: true }),
    password: p({ type: 'string', secret: true, default: '***' }),
    count: p({ type: 'number', default: 2 }),
    tags: p({ type: 'array' }),
    name: p({ required: true }),
  })

  it('maps enum to a select, boolean to a switch, secret to a password field', () => {
    expect(fields.map((f) => [f.name, f.kind, f.initial])).toEqual([
      ['plan', 'select', 'free'],
      ['subscribe', 'switch', true],
      // the registry masks a secret default as "***": never start from it
      ['password', 'password', ''],
      ['count', 'number', '2'],
      ['tags', 'json', ''],
      ['name', 'text', ''],
    ])
  })

  it('turns form values into typed params and leaves empty optional fields to the defaults', () => {
    const values = { plan: 'pro', subscribe: false, password: 'hunter2', count: '5', tags: '["a","b"]', name: 'Ada' }
    expect(collectParams(fields, values)).toEqual({
      params: { plan: 'pro', subscribe: false, password: 'hunter2', count: 5, tags: ['a', 'b'], name: 'Ada' },
      errors: [],
    })
    expect(collectParams(fields, { ...values, password: '', count: '', tags: '' }).params).toEqual({
      plan: 'pro',
      subscribe: false,
      name: 'Ada',
    })
  })

  it('reports what it cannot read per field instead of sending it', () => {
    const r = collectParams(fields, {
      plan: 'pro',
      subscribe: true,
      password: '',
      count: 'many',
      tags: '[oops',
      name: '',
    })
    expect(r.errors).toEqual([
      { name: 'count', reason: 'number' },
      { name: 'tags', reason: 'json' },
      { name: 'name', reason: 'required' },
    ])
  })
})
