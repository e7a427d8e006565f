// @vitest-environment happy-dom
// Attrs reads an element's attribute names once and answers get/has from them; it must answer
// exactly what getAttribute/hasAttribute would, for present and absent names alike.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { Attrs } from '../../../src/dom/observe/state'
import { page } from './helpers'

/** The names records ask about (dom/words, state.ts, observe.ts), and a few nobody sets. */
const kAsked = [
  'aria-label',
  'aria-labelledby',
  'aria-describedby',
  'aria-controls',
  'aria-disabled',
  'aria-checked',
  'aria-pressed',
  'aria-selected',
  'aria-expanded',
  'aria-readonly',
  'aria-required',
  'aria-invalid',
  'aria-valuetext',
  'aria-valuenow',
  'aria-placeholder',
  'contenteditable',
  'type',
  'alt',
  'placeholder',
  'title',
  'name',
  'href',
  'class',
  'id',
  'data-x',
  'role',
]

const attrSets = fc.dictionary(fc.constantFrom(...kAsked), fc.oneof(fc.constant(''), fc.string({ maxLength: 12 })), {
  maxKeys: 8,
})

describe('Attrs', () => {
  test('get and has agree with getAttribute and hasAttribute, on any set of attributes', () => {
    fc.assert(
      fc.property(fc.constantFrom('div', 'a', 'input', 'button', 'span'), attrSets, (tag, attrs) => {
        const doc = page('')
        const el = doc.createElement(tag)
        for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v)
        const a = new Attrs(el)
        for (const name of kAsked) {
          expect(a.get(name)).toBe(el.getAttribute(name))
          expect(a.has(name)).toBe(el.hasAttribute(name))
        }
      }),
      { numRuns: 300 },
    )
  })

  test('attributes from markup, a bare element, and names set in upper case', () => {
    const doc = page('<button ARIA-LABEL="Save" Type="submit" disabled>Go</button><span></span>')
    const button = doc.querySelector('button')!
    const a = new Attrs(button)
    expect([a.get('aria-label'), a.get('type'), a.has('disabled'), a.get('title')]).toEqual([
      'Save',
      'submit',
      true,
      null,
    ])
    const bare = new Attrs(doc.querySelector('span')!)
    expect([bare.get('class'), bare.has('id')]).toEqual([null, false])
  })
})
