// A pack action's steps as its one plan lists them (src/core/gate/pack-plan.ts): the dry run's
// page steps in order with their selectors, a nested action's in its place, a skipped step left
// out, and the list ended at a step whose condition is decided only when it runs.
import { describe, expect, it } from 'vitest'
import { createRegistry } from '../../../src/core/registry'
import { packPlanSteps } from '../../../src/core/gate/pack-plan'

const kPack = `namespace: notes
version: 1.0.0
description: Chores on the notes page.
actions:
  notes:pick:
    description: Select all.
    steps:
      - action: click
        args:
          selector: "#s1"
  notes:tidy:
    description: Select, archive, delete.
    params:
      archive:
        type: boolean
        description: Archive first
    steps:
      - action: run
        args:
          action: notes:notes:pick
      - action: click
        when: "\${params.archive}"
        args:
          selector: "#s2"
      - action: press
        args:
          key: Escape
      - action: getText
        output: status
        args:
          selector: "#status"
      - action: click
        args:
          selector: "#s3"
      - action: click
        when: "\${steps.status}"
        args:
          selector: "#s4"
      - action: click
        args:
          selector: "#s5"
`

async function registry() {
  const r = createRegistry(() => [{ source: 'user', files: [{ path: 'notes.yaml', text: kPack }] }])
  await r.reload()
  return r
}

describe("a pack action's plan", () => {
  it('lists its page steps in order, a nested action in its place, and stops where a condition waits for the run', async () => {
    const shown = packPlanSteps(await registry(), 'notes:notes:tidy', { archive: false })
    const lines = shown?.map((s) =>
      'opens' in s.step ? `opens ${s.step.opens}` : `${s.step.action} ${s.step.target?.selectors?.[0]?.raw}`,
    )
    expect(lines).toEqual(['click #s1', 'getText #status', 'click #s3'])
  })

  it('gives no plan for an action the dry run cannot plan', async () => {
    expect(packPlanSteps(await registry(), 'notes:notes:missing', {})).toBeNull()
  })
})
