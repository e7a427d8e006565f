// @vitest-environment happy-dom
// The selector engines that need no layout, on happy-dom: exact lists of matched elements.
import { beforeEach, describe, expect, test } from 'vitest'
import { parseSelector, SelectorSyntaxError } from '../../../src/core/page/selectors'
import { queryAll, checkedState, roleOf, accessibleName } from '../../../src/dom/locators'

const marks = (selector: string) => queryAll(selector).map((e) => e.getAttribute('data-m'))

beforeEach(() => {
  document.body.innerHTML = `
    <button data-m="b1">Save</button>
    <button data-m="b2" aria-label="Delete row">🗑</button>
    <label for="n" data-m="l">Name</label><input id="n" data-m="i1">
    <input data-m="i2" type="checkbox" checked>
    <label class="el-checkbox is-checked" data-m="w1"><span>Read</span></label>
    <div data-testid="card" data-m="c1"><p data-m="p">Hello <em data-m="em">there</em></p></div>
    <span data-qa="card" data-m="c2"></span>`
})

describe('engines on happy-dom', () => {
  test('css, role, text and testid lists', () => {
    expect(marks('css:button')).toEqual(['b1', 'b2'])
    expect(marks('role:button[name="Delete row"]')).toEqual(['b2'])
    expect(marks('role:textbox[name="Name"]')).toEqual(['i1'])
    expect(marks('text:there')).toEqual(['em'])
    expect(marks('text:"Hello there"')).toEqual(['p'])
    expect(marks('testid:card')).toEqual(['c1', 'c2'])
  })

  test('text goes through the core parser: a parsed selector finds what its text finds', () => {
    for (const raw of ['div > p', 'text: there ', 'role:button[name="delete" i]', 'testid:"card"']) {
      expect(queryAll(parseSelector(raw)).map((e) => e.getAttribute('data-m'))).toEqual(marks(raw))
    }
    expect(marks('role:button[name="delete" i]')).toEqual(['b2'])
    expect(() => queryAll('role:button[size=2]')).toThrow(SelectorSyntaxError)
    expect(() => queryAll('text:"  "')).toThrow(SelectorSyntaxError)
  })

  test('roles, names and checked state of library widgets', () => {
    const [b2, i2, w1] = ['b2', 'i2', 'w1'].map((m) => document.querySelector(`[data-m=${m}]`)!)
    expect(roleOf(b2)).toBe('button')
    expect(accessibleName(b2)).toBe('Delete row')
    expect(checkedState(i2)).toBe(true)
    // Element Plus marks a checked wrapper with is-checked.
    expect(checkedState(w1)).toBe(true)
    expect(checkedState(document.querySelector('[data-m=b1]')!)).toBe(null)
  })
})
