// The plan's list and its order (src/core/gate/plan.ts): which steps take a place, what a
// navigation does to the elements after it, and that each acting step takes its own element.
import { describe, expect, it } from 'vitest'
import type { DrawnTarget } from '../../../src/core/gate/drawn'
import { approvePlan, isPlanned, planLines } from '../../../src/core/gate/plan'
import { plannedOf, previewPlan } from '../../../src/core/gate/guard'
import type { PageTarget } from '../../../src/core/page/command'

const drawn = (name: string): DrawnTarget => ({ role: 'button', name, frame: 'https://notes.example' })
const css = (v: string) => ({ selectors: [{ kind: 'css', value: v, raw: v }] }) as unknown as PageTarget

describe('a plan approved as a whole', () => {
  it('gives a place only to steps that act on an element they name', () => {
    expect(isPlanned({ action: 'click', target: css('#a') })).toBe(true)
    expect(isPlanned({ action: 'fill', target: css('#a') })).toBe(true)
    expect(isPlanned({ action: 'press', target: { focused: true } })).toBe(false)
    expect(isPlanned({ action: 'wait', target: css('#a') })).toBe(false)
    expect(isPlanned({ action: 'navigate' })).toBe(false)
  })

  it('draws the elements before a navigation only; those after it are asked about when reached', async () => {
    const asked: PageTarget[][] = []
    const steps = await previewPlan(
      async (targets) => (asked.push(targets), targets.map((_, i) => drawn(`Button ${i + 1}`))),
      [
        { what: 'Select all', step: { action: 'click', target: css('#s1') } },
        { what: 'Scroll', step: { action: 'scroll' } },
        { what: 'Open the archive', step: { opens: 'https://archive.example/' } },
        { what: 'Delete', step: { action: 'click', target: css('#s3') } },
      ],
    )
    expect(asked).toEqual([[css('#s1')]])
    expect(planLines(steps)).toEqual([
      '1. Select all: button “Button 1” on notes.example',
      '2. Open the archive: opens https://archive.example/',
      '3. Delete: not on this page yet, asked about when reached',
    ])
  })

  it('gives each acting step its own approved element, in order, and none past the end or to unplanned steps', () => {
    const guard = {
      plan: approvePlan([
        { what: 'a', drawn: drawn('A') },
        { what: 'nav', drawn: null, opens: 'https://x.example/' },
        { what: 'b', drawn: drawn('B') },
      ]),
    }
    expect(plannedOf(guard, { action: 'scroll' })).toEqual({})
    expect(plannedOf(guard, { action: 'click', target: css('#a') })).toEqual({ planned: drawn('A') })
    expect(plannedOf(guard, { action: 'click', target: css('#b') })).toEqual({ planned: drawn('B') })
    expect(plannedOf(guard, { action: 'click', target: css('#c') })).toEqual({})
    expect(plannedOf(undefined, { action: 'click', target: css('#a') })).toEqual({})
  })
})
