// Descriptors that name places, parts, groups, states and "any one" (form-library pages): the
// pure parser, in English and Chinese. The matcher's use of them is measured by the locate corpus
// (bench/locate) and e2e/executor/descriptor-words.test.ts.
import { describe, expect, test } from 'vitest'
import { parseDescriptor } from '../../../src/core/page/descriptor'

const p = parseDescriptor

describe('place words relate the target to another element', () => {
  test.each([
    ['the text box below the table', 'below', 'the table', ['textbox', 'searchbox']],
    ['the field above Title', 'above', 'Title', undefined],
    ['the button left of Place order', 'left', 'Place order', ['button']],
    ['the button to the right of "Save profile"', 'right', '"Save profile"', ['button']],
    ['the button next to Send', 'near', 'Send', ['button']],
    ['the input directly beneath the logo', 'below', 'the logo', undefined],
    ['表格下面的输入框', 'below', '表格', undefined],
    ['搜索框旁边的Go按钮', 'near', '搜索框', ['button']],
    ['保存按钮左边的按钮', 'left', '保存按钮', ['button']],
    ['标题上方的链接', 'above', '标题', ['link']],
  ])('%s', (say, rel, anchor, kinds) => {
    const d = p(say)
    expect(d.place).toEqual({ rel, anchor })
    if (kinds) expect(d.kinds).toEqual(kinds)
  })

  test('words inside quotes are a label, not a place', () => {
    expect(p('the "Items below the fold" link').place).toBeUndefined()
    expect(p('the "Items below the fold" link').quoted).toBe('Items below the fold')
  })

  test('"under" names a group, not a place', () => {
    const d = p('the Email radio button under Contact Preference')
    expect(d.place).toBeUndefined()
    expect(d.scope).toEqual({ kind: 'named', name: 'Contact Preference' })
    expect(d.kinds).toEqual(['radio'])
    expect(d.tokens).toEqual(['email'])
  })

  test('a page position word is not an anchor (页面下方)', () => {
    expect(p('页面下方的按钮').place).toBeUndefined()
  })
})

describe('groups named by their legend, heading or label scope options', () => {
  test.each([
    ['the Yes radio button for Developer', 'Developer', ['yes']],
    ['the Email option in Newsletter format', 'Newsletter format', ['email']],
    ['Female radio under Gender', 'Gender', ['female']],
    ['Contact Preference 里的 Phone 单选按钮', 'Contact Preference', ['phone']],
    ['性别里的 Female', '性别', ['female']],
  ])('%s', (say, name, tokens) => {
    const d = p(say)
    expect(d.scope).toEqual({ kind: 'named', name })
    expect(d.tokens).toEqual(tokens)
  })

  test('"in" before a plain name is a scope only after a kind word ("Log in" stays a label)', () => {
    expect(p('Log in').scope).toBeUndefined()
    expect(p('Sign in with Google').scope).toBeUndefined()
  })

  test('a container named by its own word: "in the calendar", "日历里的"', () => {
    expect(p('day 27 in the calendar')).toMatchObject({ quoted: '27', scope: { kind: 'named', name: 'calendar' } })
    expect(p('日历里的 27 号')).toMatchObject({ quoted: '27', scope: { kind: 'named', name: '日历' } })
    expect(p("the trash icon in Doralyn's e-mail")).toMatchObject({
      tokens: ['trash'],
      scope: { kind: 'named', name: 'Doralyn' },
    })
    expect(p('Doralyn 那封邮件的垃圾桶图标')).toMatchObject({ scope: { kind: 'named', name: 'Doralyn' } })
    expect(p('the star in the e-mail from Darryl').scope).toEqual({ kind: 'named', name: 'Darryl' })
  })
})

describe('part words pick one control of several under one label', () => {
  test.each([
    ['the Date of Birth month dropdown', 'month', ['date', 'birth']],
    ['the Date of Birth year dropdown', 'year', ['date', 'birth']],
    ['the day select under Date of Birth', 'day', []],
    ['the phone area code field', 'area code', ['phone']],
    ['出生日期的年份下拉框', 'year', ['出生', '日期']],
  ])('%s', (say, part, tokens) => {
    const d = p(say)
    expect(d.part).toBe(part)
    expect(d.tokens).toEqual(tokens)
    expect(d.kinds).toEqual(
      ['combobox', 'listbox'].some((k) => d.kinds.includes(k as never))
        ? expect.arrayContaining(['combobox'])
        : expect.anything(),
    )
  })

  test('a part word needs a field kind: "day 27" is a calendar day, "Year in review" a label', () => {
    expect(p('day 27').part).toBeUndefined()
    expect(p('the Year in review link').part).toBeUndefined()
    expect(p('the Year in review link').tokens).toContain('year')
  })

  test('"first name" and "last name" are words of a label, not positions', () => {
    expect(p('the first name field')).toMatchObject({ tokens: ['first', 'name'] })
    expect(p('the first name field').ordinal).toBeUndefined()
    expect(p('the last name field').ordinal).toBeUndefined()
    expect(p('the first text field').ordinal).toBe(1)
    expect(p('the last checkbox').ordinal).toBe(-1)
  })

  test('"Mobile number field" is a text field labelled Mobile number; "the number field" is a number field', () => {
    expect(p('the Mobile number field')).toMatchObject({ tokens: ['mobile', 'number'], rest: 'Mobile number' })
    expect(p('the Mobile number field').kinds).not.toEqual(['spinbutton'])
    expect(p('the number field').kinds).toEqual(['spinbutton'])
    expect(p('the budget number input').kinds).toEqual(['spinbutton'])
  })
})

describe('a word in capitals or quotes is a label before it is a number or a filler word', () => {
  test.each([
    ['button ONE', 'ONE'],
    ['the TWO button', 'TWO'],
    ["button 'ONE'", 'ONE'],
    ['the To field', 'To'],
    ['the "3" link', '3'],
  ])('%s', (say, quoted) => {
    const d = p(say)
    expect(d.quoted).toBe(quoted)
    expect(d.ordinal).toBeUndefined()
  })

  test('a lower-case filler word is still nothing ("click the one button" is role-only)', () => {
    expect(p('the one button').quoted).toBeUndefined()
  })
})

describe('state words filter, in both languages', () => {
  test.each([
    ['the empty text area', { empty: true }],
    ['the blank Email Address field', { empty: true }],
    ['空的输入框', { empty: true }],
    ['the collapsed section header', { expanded: false }],
    ['已折叠的面板', { expanded: false }],
    ['the collapsed panel', { expanded: false }],
    ['the expanded accordion', { expanded: true }],
    ['已展开的折叠项', { expanded: true }],
    ['the unchecked checkbox', { checked: false }],
    ['未勾选的复选框', { checked: false }],
    ['已勾选的复选框', { checked: true }],
    ['the disabled button', { disabled: true }],
    ['禁用的按钮', { disabled: true }],
  ])('%s', (say, state) => {
    expect(p(say).state).toEqual(state)
  })
})

describe('an indefinite article takes any one of equals', () => {
  test.each([
    'a checkbox',
    'an input',
    'click a checkbox',
    'any radio button',
    '一个复选框',
    '勾选一个复选框',
    '任意一个单选框',
  ])('%s', (say) => {
    const d = p(say)
    expect(d.article).toBe(true)
    expect(d.tokens).toEqual([])
  })

  test.each(['the checkbox', 'the A link', '第一个复选框', '一行'])('%s is not an article', (say) => {
    expect(p(say).article).toBeUndefined()
  })
})

test('a panel said with its open state is a collapsible header (面板 alone stays a word)', () => {
  expect(p('已折叠的面板').kinds).toEqual(['collapsible'])
  expect(p('the collapsed panel').kinds).toEqual(['collapsible'])
  expect(p('设置面板').kinds).toEqual([])
})

describe('editors are a kind of their own', () => {
  test.each([
    ['the Email Address rich text editor', ['email', 'address']],
    ['the Signature editor', ['signature']],
    ['签名编辑器', ['签名']],
    ['the editable area', []],
    ['富文本编辑器', []],
  ])('%s', (say, tokens) => {
    const d = p(say)
    expect(d.kinds).toEqual(['editor'])
    expect(d.tokens).toEqual(tokens)
  })
})
