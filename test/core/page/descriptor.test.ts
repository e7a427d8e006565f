// Descriptors as people write them: the pure parser, in English and Chinese.
import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { parseDescriptor } from '../../../src/core/page/descriptor'
import { translateDescriptor } from '../../../src/core/page/glossary'

const kinds = (s: string) => parseDescriptor(s).kinds

describe('role words become kinds, in both languages', () => {
  test.each([
    ['the text field', ['textbox', 'searchbox']],
    ['文本框', ['textbox', 'searchbox']],
    ['the search box', ['searchbox']],
    ['搜索框', ['searchbox']],
    ['the date field', ['date']],
    ['日期', ['date']],
    ['日期选择框', ['date']],
    ['the time picker', ['time']],
    ['时间', ['time']],
    ['a checkbox', ['checkbox']],
    ['勾选框', ['checkbox']],
    ['radio button', ['radio']],
    ['单选框', ['radio']],
    ['options list', ['combobox', 'listbox']],
    ['the dropdown', ['combobox', 'listbox']],
    ['下拉框', ['combobox', 'listbox']],
    ['标签页', ['tab']],
    ['menu item', ['menuitem']],
    ['菜单项', ['menuitem']],
    ['the switch', ['switch']],
    ['开关', ['switch']],
    ['滑块', ['slider']],
    ['tree item', ['treeitem']],
    ['collapsed section header', ['collapsible']],
    ['折叠面板', ['collapsible']],
    ['the textarea', ['textarea']],
    ['多行文本框', ['textarea']],
    ['链接', ['link']],
    ['按钮', ['button']],
  ])('%s', (say, want) => {
    expect(kinds(say).sort()).toEqual([...want].sort())
  })

  test('"X框" is a field named by what goes in it; 对话框 and 复选框 stay words of their own', () => {
    expect(parseDescriptor('密码框')).toMatchObject({ tokens: ['密码'] })
    expect(kinds('密码框')).toContain('textbox')
    expect(kinds('复选框')).toEqual(['checkbox'])
    expect(parseDescriptor('关闭对话框')).toMatchObject({ kinds: ['close'], scope: { kind: 'dialog' } })
  })

  test('"input" and "输入框" mean any field kind', () => {
    for (const say of ['input', '输入框', 'the field'])
      expect(kinds(say)).toEqual(expect.arrayContaining(['textbox', 'combobox', 'date', 'spinbutton']))
  })

  test('one group per role word: a close button is a close control and a button', () => {
    expect(parseDescriptor('关闭按钮').kindGroups).toEqual([['close'], ['button']])
    expect(parseDescriptor('close "x" button').kindGroups).toEqual([['close'], ['button'], ['close']])
  })

  test('a role word is a whole word: "Selected items" and "inbox" name no control', () => {
    expect(kinds('inbox')).toEqual([])
    expect(parseDescriptor('the selected tab').state).toEqual({ selected: true })
    expect(kinds('the selected tab')).toEqual(['tab'])
  })
})

describe('text', () => {
  test('quoted labels, with straight, curly and corner quotes', () => {
    expect(parseDescriptor('link "augue"')).toMatchObject({ quoted: 'augue', kinds: ['link'], tokens: [] })
    expect(parseDescriptor('链接"augue"')).toMatchObject({ quoted: 'augue', kinds: ['link'] })
    expect(parseDescriptor('链接“augue”').quoted).toBe('augue')
    expect(parseDescriptor('「保存」按钮').quoted).toBe('保存')
    expect(parseDescriptor("the 'Save draft' button").quoted).toBe('Save draft')
  })

  test('nothing inside quotes is a role, state or scope word', () => {
    const d = parseDescriptor('"Sign in with a link" button')
    expect(d.quoted).toBe('Sign in with a link')
    expect(d.kinds).toEqual(['button'])
    expect(d.scope).toBeUndefined()
  })

  test('plain words stay words: "Log in button" has no scope', () => {
    const d = parseDescriptor('the Log in button')
    expect(d.tokens).toEqual(['log'])
    expect(d.scope).toBeUndefined()
  })

  test('Chinese is cut into pairs after role words and verbs are removed', () => {
    expect(parseDescriptor('点击提交按钮')).toMatchObject({ tokens: ['提交'], kinds: ['button'] })
    expect(parseDescriptor('保存草稿').tokens).toEqual(['保存', '存草', '草稿'])
  })

  test('a glyph is the close control, quoted or not', () => {
    for (const say of ['the x', '×', 'the ✕ button', 'the "x" of the dialog']) expect(kinds(say)).toContain('close')
    expect(kinds('关闭按钮')).toContain('close')
  })

  test('"close" among other words is a label, not the close control', () => {
    expect(parseDescriptor('the Close all option')).toMatchObject({ kinds: ['option'], tokens: ['close', 'all'] })
  })

  test('a symbol alone is the label', () => {
    expect(parseDescriptor('the « button')).toMatchObject({ quoted: '«', kinds: ['button'] })
  })

  test('page numbers are labels, not ordinals', () => {
    expect(parseDescriptor('第9页')).toMatchObject({ quoted: '9' })
    expect(parseDescriptor('page 5')).toMatchObject({ quoted: '5' })
    expect(parseDescriptor('第9页').ordinal).toBeUndefined()
  })
})

describe('ordinals', () => {
  test.each([
    ['the second checkbox', 2],
    ['第二个复选框', 2],
    ['the 3rd link', 3],
    ['第3个按钮', 3],
    ['#4', 4],
    ['the last tab', -1],
    ['最后一个输入框', -1],
    ['倒数第二个按钮', -2],
    ['the second to last row', -2],
  ])('%s → %d', (say, n) => {
    expect(parseDescriptor(say).ordinal).toBe(n)
  })
})

describe('state', () => {
  test.each([
    ['the checked checkbox', { checked: true }],
    ['已选中的复选框', { checked: true }],
    ['the unchecked checkbox', { checked: false }],
    ['未勾选的复选框', { checked: false }],
    ['the disabled button', { disabled: true }],
    ['禁用的按钮', { disabled: true }],
    ['collapsed section header', { expanded: false }],
    ['展开的折叠面板', { expanded: true }],
    ['the selected checkbox', { checked: true }],
  ])('%s', (say, state) => {
    expect(parseDescriptor(say).state).toEqual(state)
  })
})

describe('scope', () => {
  test.each([
    ['"Save" in the dialog', { kind: 'dialog' }, 'Save'],
    ['the x of the dialog', { kind: 'dialog' }, undefined],
    ['close "x" button of the dialog', { kind: 'dialog' }, 'x'],
    ['对话框里的关闭按钮', { kind: 'dialog' }, undefined],
    ["Reply on @nibh's post", { kind: 'named', name: 'nibh' }, undefined],
    ['删除 in the row of 张三', { kind: 'row', name: '张三' }, undefined],
    ['张三所在行的删除按钮', { kind: 'row', name: '张三' }, undefined],
    ['李雷那一行的编辑按钮', { kind: 'row', name: '李雷' }, undefined],
    ["the checkbox in 李雷's row", { kind: 'row', name: '李雷' }, undefined],
    ['the checkbox in the first row', { kind: 'row', ordinal: 1 }, undefined],
    ['第一行的复选框', { kind: 'row', ordinal: 1 }, undefined],
    ['"Save" in the "Edit user" dialog', { kind: 'dialog', name: 'Edit user' }, 'Save'],
    ['close the modal', { kind: 'dialog' }, undefined],
    ['关闭库存提示', { kind: 'alert', name: '库存' }, undefined],
    ['remove the Urgent tag', { kind: 'tag', name: 'Urgent' }, undefined],
    ['目录里的 Python UTF-8 Mode', { kind: 'nav' }, undefined],
    ["the dialog's close button", { kind: 'dialog' }, undefined],
  ])('%s', (say, scope, quoted) => {
    const d = parseDescriptor(say)
    expect(d.scope).toEqual(scope)
    expect(d.quoted).toBe(quoted)
  })

  test('"Sign in with Google" names no container', () => {
    expect(parseDescriptor('the Sign in with Google button').scope).toBeUndefined()
  })

  test('a hyphenated word is one word: "check-in" is not "check-out"', () => {
    expect(parseDescriptor('check-in date').tokens).toEqual(['check-in', 'date'])
    expect(parseDescriptor('the Built-in Functions link').tokens).toEqual(['built-in', 'functions'])
  })

  test('English words next to Chinese are still words ("点击Save按钮")', () => {
    const d = parseDescriptor('点击Save按钮')
    expect(d.kinds).toEqual(['button'])
    expect(d.tokens).toEqual(['save'])
  })

  test('the target keeps its words when a scope is split off', () => {
    expect(parseDescriptor("Reply on @nibh's post").tokens).toEqual(['reply'])
    expect(parseDescriptor('删除 in the row of 张三').tokens).toEqual(['删除'])
  })
})

describe('the parser on any text', () => {
  test('never throws; tokens are words or Chinese pairs; ordinals are non-zero integers', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const d = parseDescriptor(s)
        // Hyphenated words stay whole ("check-in").
        for (const t of d.tokens) expect(t).toMatch(/^([\p{L}\p{N}]+(-[\p{L}\p{N}]+)*|[×✕✖✗╳])$/u)
        if (d.ordinal !== undefined) expect(Number.isInteger(d.ordinal) && d.ordinal !== 0).toBe(true)
        for (const g of d.kindGroups) expect(g.length).toBeGreaterThan(0)
      }),
      { numRuns: 100 },
    )
  }, 30_000)
})

describe('translation for a page in the other language', () => {
  test('interface words both ways; role words stay for the parser', () => {
    expect(translateDescriptor('保存草稿')).toEqual(['save draft'])
    expect(translateDescriptor('邮箱输入框')).toEqual(['email 输入框'])
    expect(translateDescriptor('the next page link')).toEqual(['the 下一页 link'])
    expect(translateDescriptor('Delete in the row of 王芳')).toEqual(['删除 in the row of 王芳'])
    expect(translateDescriptor('zzz')).toEqual([])
  })
})

describe('descriptors of pages nobody wrote for Ava (locate bench misses)', () => {
  test('a one-letter label after "letter" or 字母 is the label, never the article "a"', () => {
    expect(parseDescriptor('letter A')).toMatchObject({ quoted: 'A', tokens: [] })
    expect(parseDescriptor('字母 Q').quoted).toBe('Q')
    expect(parseDescriptor('a checkbox').quoted).toBeUndefined()
    expect(parseDescriptor('A checkbox').quoted).toBeUndefined()
    expect(parseDescriptor('the A link')).toMatchObject({ quoted: 'A', kinds: ['link'] })
    expect(parseDescriptor('click A').quoted).toBe('A')
  })

  test('a trailing 标签 names a tab; 标签 with a particle is still a tag scope', () => {
    expect(parseDescriptor('统计标签')).toMatchObject({ kindGroups: [['tab']], tokens: ['统计'] })
    expect(parseDescriptor('前端标签的关闭按钮').scope).toMatchObject({ kind: 'tag', name: '前端' })
  })

  test('"section" and 折叠面板 name a collapsible header; 折叠 as a verb does too', () => {
    expect(parseDescriptor('the Efficiency section')).toMatchObject({ kinds: ['collapsible'], tokens: ['efficiency'] })
    expect(parseDescriptor('折叠面板 Consistency')).toMatchObject({
      kindGroups: [['collapsible']],
      tokens: ['consistency'],
    })
    expect(parseDescriptor('折叠侧边栏').kindGroups).toEqual([['collapsible']])
  })

  test('选中 X ticks the box of the item showing X', () => {
    expect(parseDescriptor('选中邮箱容量已满')).toMatchObject({
      kindGroups: [['checkbox', 'radio', 'switch']],
      scope: { kind: 'named', name: '邮箱容量已满' },
    })
    // 选中的 is the state word, not the verb.
    expect(parseDescriptor('选中的复选框').state).toEqual({ checked: true })
  })

  test('search results, a numbered thing, the running text and position words', () => {
    expect(parseDescriptor('the first search result')).toMatchObject({
      kinds: ['link'],
      ordinal: 1,
      scope: { kind: 'named', name: 'search result' },
    })
    expect(parseDescriptor('搜索结果 os.getcwd')).toMatchObject({ kinds: ['link'], tokens: ['os', 'getcwd'] })
    expect(parseDescriptor('the checkbox of order 1003')).toMatchObject({
      kinds: ['checkbox'],
      tokens: [],
      scope: { kind: 'named', name: '1003' },
    })
    expect(parseDescriptor('the range() function in the text')).toMatchObject({
      tokens: ['range'],
      scope: { kind: 'main' },
    })
    expect(parseDescriptor('顶部搜索框')).toMatchObject({ kinds: ['searchbox'], tokens: ['搜索'] })
  })

  test('a Chinese word with two English words yields both translations, the first listed first', () => {
    expect(translateDescriptor('下一页')).toEqual(['next page', 'next'])
    expect(translateDescriptor('批量操作按钮')).toEqual(['batch operation 按钮', 'bulk actions 按钮'])
    expect(translateDescriptor('保存')).toEqual(['save'])
  })
})
