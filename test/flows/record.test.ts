import { describe, expect, test } from 'vitest'
import { flowFromEvents, parseFlow, reduceEvents, type RawEvent } from '../../src/core/flows'
import { loginEvents, target } from './fixtures'

describe('noise reduction', () => {
  test('focus clicks, keystrokes, Tab, editing keys, idle scrolls and caused navigations are dropped', () => {
    const steps = reduceEvents(loginEvents()).map((d) => d.step.action)
    expect(steps).toEqual(['fill', 'fill', 'click'])
  })

  test('typed values become variables; the password becomes a secret with no value', () => {
    const flow = parseFlow(flowFromEvents(loginEvents(), { name: 'Log in', source: 'recording', now: new Date(0) }))
    expect(flow.variables).toEqual({
      user_name: { value: 'alice', description: 'User name' },
      password: { secret: true, value: '${prompt:Password}', description: 'Password' },
    })
    expect(flow.steps.map((s) => s.params.value)).toEqual(['${user_name}', '${password}', undefined])
    expect(flow.metadata).toMatchObject({ start_url: 'https://app.test/login', total_steps: 3, source: 'recording' })
  })

  test('a secret-looking value typed into an ordinary field is a secret too', () => {
    const field = target('key', 'textbox', 'Notes', { field: { type: 'text', label: 'Notes' } })
    const events: RawEvent[] = [
      { kind: 'input', t: 1, url: 'u', target: field, value: 'sk-abcdefghijklmnopqrstuvwx', secret: false },
    ]
    const flow = flowFromEvents(events, { name: 'x', source: 'recording' })
    expect(flow.variables.notes).toEqual({ secret: true, value: '${prompt:Notes}', description: 'Notes' })
    expect(JSON.stringify(flow)).not.toContain('sk-abcdef')
  })

  test('a typed navigation is a step; a box ticked twice cancels out; click, click, dblclick is one dblclick', () => {
    const box = target('box', 'checkbox', 'Subscribe')
    const btn = target('b', 'button', 'Open')
    const events: RawEvent[] = [
      { kind: 'navigate', t: 10_000, url: 'https://x.test/a', cause: 'typed' },
      { kind: 'change', t: 20_000, url: 'u', target: box, control: 'checkbox', checked: true },
      { kind: 'change', t: 20_100, url: 'u', target: box, control: 'checkbox', checked: false },
      { kind: 'click', t: 30_000, url: 'u', target: btn, count: 1 },
      { kind: 'click', t: 30_050, url: 'u', target: btn, count: 2 },
      { kind: 'scroll', t: 31_000, url: 'u', direction: 'down', grew: true },
      { kind: 'key', t: 32_000, url: 'u', key: 'Escape' },
    ]
    expect(
      reduceEvents(events).map((d) => `${d.step.action}${d.step.params.url ? ` ${d.step.params.url}` : ''}`),
    ).toEqual(['navigate https://x.test/a', 'dblclick', 'scroll', 'press'])
  })

  test('a hover before clicks in its menu is one hover step, before the first of them', () => {
    const menu = target('menu', 'generic', 'Products')
    const item = target('a', 'link', 'Laptops')
    const other = target('b', 'link', 'Phones')
    const events: RawEvent[] = [
      { kind: 'hover', t: 1_000, url: 'u', target: menu },
      { kind: 'click', t: 1_100, url: 'u', target: item, count: 1 },
      { kind: 'hover', t: 2_000, url: 'u', target: menu },
      { kind: 'click', t: 2_100, url: 'u', target: other, count: 1 },
    ]
    expect(reduceEvents(events).map((d) => `${d.step.action} ${d.step.description}`)).toEqual([
      'hover Products',
      'click Laptops',
      'hover Products',
      'click Phones',
    ])
    expect(
      reduceEvents(events.slice(0, 1).concat(events.slice(0, 1), events.slice(1, 2))).map((d) => d.step.action),
    ).toEqual(['hover', 'click'])
  })
})
