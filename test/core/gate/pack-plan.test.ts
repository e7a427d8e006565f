// A pack action's steps as its one plan lists them (src/core/gate/pack-plan.ts): the dry run's
// page steps in order with their selectors, a nested action's in its place, a skipped step left
// out, and the list ended at a step whose condition is decided only when it runs.
import { describe, expect, it } from 'vitest'
import { createRegistry } from '../../../src/core/registry'
import { packPlanSteps } from '../../../src/core/gate/pack-plan'
import { guardedRun, type StepGuard } from '../../../src/core/gate/guard'
import { RISK_CATEGORIES } from '../../../src/core/exec'

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

describe('which pack actions show their plan first (guardedRun, safety.showPlans)', () => {
  const drawn = (name: string) => ({ role: 'button', name, frame: 'https://notes.example' })
  const world = async (plans: 'every' | 'asking' | undefined, withDraw = true) => {
    const asked: string[] = []
    const ran: string[] = []
    const guard: StepGuard = {
      confirm: [...RISK_CATEGORIES],
      ask: async (_reason, refusal) => (asked.push(refusal?.ask?.key ?? refusal?.category ?? '?'), true),
      step: () => undefined,
    }
    const out = await guardedRun(
      {
        registry: await registry(),
        guard,
        url: 'https://notes.example/',
        ...(withDraw ? { draw: async (t: unknown[]) => t.map((_, i) => drawn(`B${i}`)) } : {}),
        ...(plans ? { plans } : {}),
      },
      'notes:notes:pick',
      {},
      (g) =>
        ({
          run: async (name: string) => (
            ran.push(`${name} plan:${g.plan ? g.plan.steps.length : 0}`),
            { success: true }
          ),
        }) as never,
    )
    return { asked, ran, out }
  }

  it('every plan: a harmless action asks its one plan card, and its steps carry the approval', async () => {
    const { asked, ran } = await world('every')
    expect(asked).toEqual(['risk.ask.plan'])
    expect(ran).toEqual(['notes:notes:pick plan:1'])
  })

  it('only plans that would ask, a door that does not say, or no page to draw: a harmless action shows none', async () => {
    for (const [plans, withDraw] of [
      ['asking', true],
      [undefined, true],
      ['every', false],
    ] as const) {
      const { asked, ran } = await world(plans, withDraw)
      expect(asked).toEqual([])
      expect(ran).toEqual(['notes:notes:pick plan:0'])
    }
  })
})
