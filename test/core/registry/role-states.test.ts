import { describe, expect, it } from 'vitest'
import { parseSelector, safeParseSelector } from '../../../src/core/page/selectors'

describe('role selectors with state filters (executor issue: role plus name, with [checked], [expanded] …)', () => {
  it.each([
    ['role:checkbox[checked]', { role: 'checkbox', exact: false, states: [{ state: 'checked', value: true }] }],
    ['role:checkbox[checked=mixed]', { role: 'checkbox', states: [{ state: 'checked', value: 'mixed' }] }],
    [
      'role:tab[selected][name="订单"]',
      { role: 'tab', name: '订单', exact: true, states: [{ state: 'selected', value: true }] },
    ],
    [
      'role:button[name="Menu" i][expanded=false]',
      { role: 'button', name: 'Menu', exact: false, states: [{ state: 'expanded', value: false }] },
    ],
    [
      'role:button[disabled=false][pressed]',
      {
        role: 'button',
        states: [
          { state: 'disabled', value: false },
          { state: 'pressed', value: true },
        ],
      },
    ],
  ])('%s', (raw, expected) => {
    expect(parseSelector(raw)).toMatchObject({ kind: 'role', raw, ...expected })
  })

  it.each([
    ['role:button[colour=red]', 'unknown role filter [colour]'],
    ['role:tab[selected=mixed]', '[selected] takes true, false'],
    ['role:button[name="x"', 'write role:<role>'],
    ['role:button[checked i]', 'state filters like'],
  ])('rejects %s and says what is allowed', (raw, message) => {
    const r = safeParseSelector(raw)
    expect(r.success).toBe(false)
    if (!r.success) expect(r.error.message).toContain(message)
  })
})
