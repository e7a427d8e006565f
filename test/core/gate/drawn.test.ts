// the description of the element as drawn, its comparison, and the visual order of
// text under bidi overrides (what a person reads, not the DOM's logical order).
import { describe, expect, it } from 'vitest'
import { drawnLabel, drawnWords, sameDrawn, visualOrder, type DrawnTarget } from '../../../src/core/gate/drawn'

const save: DrawnTarget = { role: 'button', name: 'Save', frame: 'https://app.example' }

describe('visualOrder', () => {
  it('draws a right-to-left override reversed, as the screen shows it', () => {
    expect(visualOrder('\u202Egnihtyreve eteleD\u202C')).toBe('Delete everything')
    expect(visualOrder('Keep \u202Etfard eteleD\u202C now')).toBe('Keep Delete draft now')
  })
  it('closes an override the text never closes, and nests', () => {
    expect(visualOrder('\u202Eevas')).toBe('save')
    expect(visualOrder('\u202Eb\u202Dxy\u202Ca\u202C')).toBe('axyb')
    expect(visualOrder('\u202Ea\u202Ebc\u202Cd\u202C')).toBe('dcba') // levels 1,3,3,1: reversed at 3, 2 and 1
    // An embedding (no override) leaves Latin words in their order.
    expect(visualOrder('\u202BDelete all\u202C')).toBe('Delete all')
  })
  it('drops other bidi controls and leaves plain text alone', () => {
    expect(visualOrder('De\u200Flete\u2066 all\u2069')).toBe('Delete all')
    expect(visualOrder('Save settings')).toBe('Save settings')
  })
})

describe('sameDrawn', () => {
  it('is the same element drawn the same way only when every part matches', () => {
    expect(sameDrawn(save, { ...save })).toBe(true)
    expect(sameDrawn(save, { ...save, name: 'Send $5,000' })).toBe(false)
    expect(sameDrawn(save, { ...save, covered: 'Delete everything' })).toBe(false)
    expect(sameDrawn(save, { ...save, frame: 'https://evil.example' })).toBe(false)
    expect(sameDrawn(save, { ...save, form: { action: 'https://app.example/transfer', method: 'post' } })).toBe(false)
    expect(sameDrawn(save, { ...save, href: 'https://app.example/x' })).toBe(false)
    expect(sameDrawn(save, { ...save, download: { name: 'a.pdf.exe', url: 'https://app.example/a' } })).toBe(false)
    // Only what assistive technology reads changed, or a picture Ava cannot read appeared on it.
    expect(sameDrawn(save, { ...save, said: 'Wire $5,000 to Mallory' })).toBe(false)
    expect(sameDrawn(save, { ...save, painted: true })).toBe(false)
  })
})

describe('what the question and the risk check read', () => {
  it('names the cover as well as the element', () => {
    expect(drawnLabel({ ...save, covered: 'Delete everything' })).toBe('Save (drawn over by “Delete everything”)')
    expect(drawnWords({ ...save, covered: 'Delete everything' })).toBe('Save Delete everything')
    expect(drawnLabel({ ...save, name: '' })).toBe('button')
  })
})
