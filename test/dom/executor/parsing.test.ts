// Pure parsing and scoring logic of the executor: no DOM needed (the selector grammar is test/core/page/selectors.test.ts).
import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import {
  parseChord,
  keyInfo,
  parseQuery,
  tokenize,
  urlMatches,
  kDomActionNames,
  actionRegistry,
} from '../../../src/dom/executor'

describe('parseChord', () => {
  test('${modifier} is Control off macOS and Meta on it', () => {
    expect(parseChord('${modifier}+A', false)).toEqual({
      key: 'A',
      ctrlKey: true,
      shiftKey: false,
      altKey: false,
      metaKey: false,
    })
    expect(parseChord('${modifier}+A', true)).toEqual({
      key: 'A',
      ctrlKey: false,
      shiftKey: false,
      altKey: false,
      metaKey: true,
    })
  })

  test('modifier names and aliases, and the plus key itself', () => {
    expect(parseChord('Ctrl+Shift+K', false)).toMatchObject({ key: 'K', ctrlKey: true, shiftKey: true })
    expect(parseChord('Cmd+Option+p', false)).toMatchObject({ key: 'p', metaKey: true, altKey: true })
    expect(parseChord('Control++', false)).toMatchObject({ key: '+', ctrlKey: true })
  })

  test('key info for named keys, aliases and characters', () => {
    expect(keyInfo('Enter')).toMatchObject({ key: 'Enter', code: 'Enter', keyCode: 13 })
    expect(keyInfo('esc')).toMatchObject({ key: 'Escape', keyCode: 27 })
    expect(keyInfo('a')).toMatchObject({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' })
    expect(keyInfo('7')).toMatchObject({ code: 'Digit7', text: '7' })
    expect(keyInfo(' ')).toMatchObject({ code: 'Space', text: ' ' })
  })
})

describe('semantic query', () => {
  test('role words in English and Chinese become roles, not words to match', () => {
    const q = parseQuery('the Log in button')
    expect(q.tokens).toEqual(['log'])
    expect([...q.roles]).toEqual(['button'])
    const zh = parseQuery('点击提交按钮')
    expect(zh.tokens).toEqual(['提交'])
    expect(zh.roles.has('button')).toBe(true)
  })

  test('a quoted label is kept whole', () => {
    expect(parseQuery('the "Save draft" button').quoted).toBe('Save draft')
  })

  test("Chinese is cut into pairs, and Ant Design's spaced labels read as one word", () => {
    expect(tokenize('新建用户')).toEqual(['新建', '建用', '用户'])
    expect(tokenize('提 交')).toEqual(['提交'])
    expect(tokenize('删')).toEqual(['删'])
  })

  test('tokens are lower-case words or Chinese pairs, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const t of tokenize(s)) expect(t).toMatch(/^([\p{L}\p{N}]+(-[\p{L}\p{N}]+)*)$/u) // hyphenated words stay whole ("check-in")
      }),
    )
  })
})

describe('wait conditions', () => {
  test('URL patterns: a substring, or * globs over the whole URL', () => {
    expect(urlMatches('https://a.test/app/list?page=2', '/app/list')).toBe(true)
    expect(urlMatches('https://a.test/app/list?page=2', 'https://a.test/app/*')).toBe(true)
    expect(urlMatches('https://a.test/app/list', '*/home')).toBe(false)
  })
})

describe('the action registry', () => {
  test('every action name has exactly one descriptor', () => {
    expect([...actionRegistry.keys()].sort()).toEqual([...kDomActionNames].sort())
  })
})
