// The repair prompt names a near miss (a best candidate just under the matcher's bar and clearly
// ahead of the rest), in words the model can act on; page text stays inside the untrusted block.
import { describe, expect, test } from 'vitest'
import { buildRepairPrompt, nearMissNote } from '../../../src/core/agent/prompt'

const page = { title: 'Sign up', url: 'https://example.test/', listing: '' }
const step = { step_id: 1, action_type: 'click', params: {}, description: 'the Country dropdown' }

describe('near misses in the repair prompt', () => {
  test('a weak best candidate that leads the rest is called out', () => {
    const candidates = [
      { id: 'e12', label: 'Country', score: 0.49, weak: true },
      { id: 'e13', label: 'State', score: 0.29, weak: true },
    ]
    const prompt = buildRepairPrompt(
      { instruction: step, error: 'ELEMENT_NOT_FOUND: no element for "the Country dropdown"', candidates },
      page,
    )
    expect(prompt).toContain(
      'The first candidate scored 0.49, just under the bar for a match, and leads the next one by 0.2',
    )
    // The note carries no page text: the label stays in the candidate list only.
    expect(nearMissNote(candidates)).not.toContain('Country')
  })

  test.each([
    [
      'two candidates close together',
      [
        { score: 0.49, weak: true },
        { score: 0.45, weak: true },
      ],
    ],
    ['a best candidate far under the bar', [{ score: 0.2, weak: true }]],
    [
      'a candidate that passed the bar (an ambiguity, not a miss)',
      [
        { score: 0.9, weak: false },
        { score: 0.88, weak: false },
      ],
    ],
    ['no candidates', []],
  ])('no note for %s', (_name, candidates) => {
    expect(nearMissNote(candidates)).toBe('')
  })

  test('a lone weak candidate above the floor is a near miss', () => {
    expect(nearMissNote([{ score: 0.47, weak: true }])).toMatch(/scored 0.47/)
  })
})
