// The one selector grammar, as the page's locators read it too: the forms the
// executor accepted before it moved here, and errors that quote the input and say what is allowed.
import { describe, expect, test } from 'vitest'
import { parseSelector, safeParseSelector, SelectorSyntaxError } from '../../../src/core/page/selectors'

describe('role selectors', () => {
  test('a name, exact unless marked i, and state filters after a space or none', () => {
    expect(parseSelector('role:button[name="OK"]')).toEqual({
      kind: 'role',
      role: 'button',
      name: 'OK',
      exact: true,
      raw: 'role:button[name="OK"]',
    })
    expect(parseSelector("role:textbox[name='user' i]")).toMatchObject({ name: 'user', exact: false })
    expect(parseSelector('role:textbox[name="User" s]')).toMatchObject({ name: 'User', exact: true })
    expect(parseSelector('role:checkbox[name="A"][checked=false]')).toMatchObject({
      states: [{ state: 'checked', value: false }],
    })
    expect(parseSelector('role:switch [pressed=mixed]')).toMatchObject({
      states: [{ state: 'pressed', value: 'mixed' }],
    })
  })

  test('a quoted name keeps what its backslashes escape', () => {
    expect(parseSelector(String.raw`role:button[name="say \"hi\""]`)).toMatchObject({ name: 'say "hi"' })
  })

  test('errors quote the input and list what was allowed', () => {
    expect(() => parseSelector('role:button[size=2]')).toThrowErrorMatchingInlineSnapshot(
      `[SelectorSyntaxError: Invalid selector "role:button[size=2]": unknown role filter [size]; allowed: name, checked, selected, expanded, disabled, pressed. Prefixes: css: xpath: role: text: testid: (none means css).]`,
    )
    expect(() => parseSelector('role:button[checked=maybe]')).toThrow(/\[checked\] takes true, false or mixed/)
    expect(() => parseSelector('role:button[name]')).toThrow(/\[name\] needs a value/)
    expect(() => parseSelector('role:Button')).toThrow(SelectorSyntaxError)
  })
})

describe('text selectors', () => {
  test('quotes mean the exact text; blank text is refused', () => {
    expect(parseSelector('text:"提交"')).toMatchObject({ text: '提交', exact: true })
    expect(parseSelector('text:  提交  ')).toMatchObject({ text: '提交', exact: false })
    expect(parseSelector(String.raw`text:"a \"b\""`)).toMatchObject({ text: 'a "b"', exact: true })
    for (const raw of ['text:""', 'text:"   "']) expect(safeParseSelector(raw).success).toBe(false)
  })
})

describe('css', () => {
  test('an escaped bracket or parenthesis is not syntax, an unescaped one must close', () => {
    expect(parseSelector(String.raw`#a\(b`)).toMatchObject({ kind: 'css', value: String.raw`#a\(b` })
    expect(parseSelector(String.raw`[title="x\"]"]`)).toMatchObject({ kind: 'css' })
    expect(() => parseSelector('css:button[')).toThrow(/missing "\]"/)
  })
})
