import { describe, expect, it } from 'vitest'
import { pickRepair as pick } from '../../../src/core/agent/flow-repair'

const candidates = [
  { selector: 'role:button[name="Save"]', level: 'role' as const },
  { selector: 'css:#save-2', level: 'css' as const },
]

describe("reading the model's repair of a flow step", () => {
  it('takes a picked candidate with its own selector level', () => {
    expect(pick('{"candidate": 1}', candidates)).toEqual({ type: 'css', value: 'css:#save-2' })
    expect(pick('Sure: {"candidate": 0}', candidates)).toEqual({ type: 'role', value: 'role:button[name="Save"]' })
  })

  it('takes a selector of its own when it is well formed', () => {
    expect(pick('{"selector": {"type": "testid", "value": "testid:save"}}', candidates)).toEqual({
      type: 'testid',
      value: 'testid:save',
    })
  })

  it('repairs nothing on a refusal, an unknown candidate or malformed text', () => {
    expect(pick('{"none": true}', candidates)).toBeNull()
    expect(pick('{"candidate": 7}', candidates)).toBeNull()
    expect(pick('{"selector": {"type": "magic", "value": "x"}}', candidates)).toBeNull()
    expect(pick('I think the second one', candidates)).toBeNull()
    expect(pick('{"candidate": ', candidates)).toBeNull()
  })
})
