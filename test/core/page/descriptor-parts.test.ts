// Descriptors that name a widget's part, a record by its author, a section link or a picture:
// what a person says of widgets drawn by component libraries (docs/executor.md, "An element's words").
import { describe, expect, test } from 'vitest'
import { parseDescriptor } from '../../../src/core/page/descriptor'
import { translateDescriptor } from '../../../src/core/page/glossary'

describe('a widget owns the part said after it', () => {
  test.each([
    ["the Price per night spinner's up arrow", ['price', 'per', 'night', 'up', 'arrow', 'spinner']],
    ["the slider's handle", ['handle', 'slider']],
  ])('%s: the part is the target, no spinbutton or slider kind', (said, tokens) => {
    const d = parseDescriptor(said)
    expect(d.kinds).toEqual([])
    expect(d.tokens.sort()).toEqual(tokens.sort())
  })
  test('a spinner said alone is still the spinner', () => {
    expect(parseDescriptor('the Price spinner').kinds).toEqual(['spinbutton'])
  })
})

describe('a record named by its author, after the target', () => {
  test.each([
    ["like Ana's post", 'Ana', ['like']],
    ['点赞 Bo 的帖子', 'Bo', ['点赞']],
  ])('%s', (said, name, tokens) => {
    const d = parseDescriptor(said)
    expect(d.scope).toEqual({ kind: 'named', name })
    expect(d.tokens).toEqual(tokens)
  })
})

describe('kinds people say of links, menus and pictures', () => {
  test('"section link" is a link into the page, the section a word it shows', () => {
    const d = parseDescriptor('the Comparisons section link')
    expect(d.kinds).toEqual(['link'])
    expect(d.tokens).toContain('section')
  })
  test('the section alone is still a collapsible header', () => {
    expect(parseDescriptor('the Efficiency section').kinds).toEqual(['collapsible'])
  })
  test.each([
    ['the Settings submenu', ['menuitem']],
    ['设置子菜单', ['menuitem']],
    ['the Python logo', ['image']],
    ['头像', ['image']],
  ])('%s', (said, kinds) => {
    expect(parseDescriptor(said).kinds).toEqual(kinds)
  })
  test('"your" and 颗 say nothing about which control', () => {
    expect(parseDescriptor('upload your CV').tokens).toEqual(['upload', 'cv'])
    expect(parseDescriptor('第四颗星')).toMatchObject({ ordinal: 4, tokens: ['星'] })
  })
})

describe('the glossary reads booking and editor phrases whole', () => {
  test.each([
    ['退房日期', 'check-out date'],
    ['存为草稿', 'save as draft'],
    ['报告错误的链接', 'report a bug 的链接'],
    ['音量滑块', 'volume slider'],
  ])('%s → %s', (zh, en) => {
    expect(translateDescriptor(zh)[0]).toBe(en)
  })
})
