// A saved flow as a plan approved once (src/core/flows/plan.ts, the flow port in
// src/core/page/channel.ts): what the preview lists, and that each replayed step carries its own
// approved element — its retries the same one, a repaired step and those after it none.
import { describe, expect, it } from 'vitest'
import type { DrawnTarget } from '../../../src/core/gate/drawn'
import { approvePlan } from '../../../src/core/gate/plan'
import { flowPlanSteps } from '../../../src/core/flows/plan'
import { createChannelFlowPort, type StepGuard } from '../../../src/core/page/channel'
import type { FlowStep } from '../../../src/core/flows/schema'
import type { PageCommand, SendCommand } from '../../../src/core/page/command'

const drawn = (name: string): DrawnTarget => ({ role: 'button', name, frame: 'https://notes.example' })
const click = (id: number, sel: string): FlowStep => ({
  step_id: id,
  action: 'click',
  params: {},
  selectors: { primary: { type: 'css', value: sel }, fallback: [] },
  description: `Click ${sel}`,
})

describe('a flow approved as a whole', () => {
  it('lists its element steps in order, where it goes for a navigation, and nothing for a wait', () => {
    const shown = flowPlanSteps(
      [
        click(1, '#s1'),
        { step_id: 2, action: 'wait', params: { ms: 10 } },
        { step_id: 3, action: 'navigate', params: { url: 'https://archive.example/' } },
        click(4, '#s3'),
      ],
      'https://notes.example/start',
    )
    expect(shown.map((s) => ('opens' in s.step ? `opens ${s.step.opens}` : `${s.step.action} ${s.what}`))).toEqual([
      'opens https://notes.example/start',
      'click Click #s1',
      'opens https://archive.example/',
      'click Click #s3',
    ])
  })

  it('sends each step with its approved element; a retry the same one; a repaired step and those after none', async () => {
    const sent: PageCommand<'flow.step'>[] = []
    const send = (async (c: PageCommand<'flow.step'>) => {
      sent.push(c)
      return {
        ok: true,
        outcome: { ok: true, level: null, alternative: 0, resolveMs: 0, actMs: 0, detail: '' },
      }
    }) as unknown as SendCommand
    const guard = {
      confirm: [],
      sites: { allow: [], deny: [] },
      here: async () => 'https://notes.example/',
      ask: async () => false,
      step: () => undefined,
      plan: approvePlan([
        { what: 'a', drawn: drawn('A') },
        { what: 'b', drawn: drawn('B') },
        { what: 'c', drawn: drawn('C') },
      ]),
    } as unknown as StepGuard
    const port = createChannelFlowPort(send, { guard, navigate: async () => undefined })
    const signal = new AbortController().signal
    await port.runStep(click(1, '#s1'), { timeoutMs: 1 }, signal)
    await port.runStep(click(1, '#s1'), { timeoutMs: 1 }, signal)
    await port.runStep(click(2, '#s2'), { timeoutMs: 1, trusted: true }, signal)
    await port.runStep(click(3, '#s3'), { timeoutMs: 1 }, signal)
    expect(sent.map((c) => c.planned?.name ?? null)).toEqual(['A', 'A', null, null])
  })
})
