import { describe, expect, it } from 'vitest'
import type { Instruction } from '../../../src/core/instruction/schema'
import { needsReview, provenanceOf, stepRisk } from '../../../src/core/agent/provenance'
import { flowFromRun } from '../../../src/core/flows/from-run'

const click = (description: string, locator = description): Instruction => ({
  step_id: 1,
  action_type: 'click',
  params: { semantic_locator: locator },
  description,
})

describe('provenance of a remembered plan', () => {
  it.each([
    ['Create forwarding rule', 'settings'],
    ['Forward to boss@example.com', 'data_send'],
    ['Delete all messages', 'destructive'],
    ['Pay the invoice', 'payment'],
    ['Share the folder', 'data_send'],
    ['Open mail settings', 'settings'],
    ['添加转发规则', 'data_send'],
    ['修改设置', 'settings'],
  ])('marks "%s" as a step a page could have asked for', (text, why) => {
    expect(stepRisk(click(text))).toBe(why)
  })

  it('leaves reading and harmless steps alone, unless the person was asked about them', () => {
    expect(stepRisk(click('Open the second e-mail'))).toBeNull()
    expect(stepRisk({ step_id: 1, action_type: 'verify', params: { assertion: 'Page shows "Delete"' } })).toBeNull()
    expect(stepRisk(click('Apply'), true)).toBe('asked')
  })

  it('a plan with such steps needs one review; a reviewed or harmless one does not', () => {
    const shaped = provenanceOf([click('Open inbox'), click('Create forwarding rule')], { pageShaped: true })
    expect(shaped.risky).toEqual([{ index: 1, why: 'settings', text: 'Create forwarding rule' }])
    expect(needsReview({ provenance: shaped })).toBe(true)
    expect(needsReview({ provenance: shaped, reviewedAt: 1 })).toBe(false)
    expect(needsReview({ provenance: provenanceOf([click('Open inbox')], { pageShaped: true }) })).toBe(false)
    // Entries saved before provenance existed replay as before.
    expect(needsReview({})).toBe(false)
  })

  it('a flow saved from an agent run keeps its page-shaped steps', () => {
    const flow = flowFromRun(
      [{ ...click('Create forwarding rule'), params: { fallback_selector: '#apply', semantic_locator: 'Apply' } }],
      [null],
      { name: 'Tidy' },
    )
    expect(flow.metadata.page_shaped).toEqual([{ step: 0, why: 'settings', text: 'Create forwarding rule' }])
  })
})
