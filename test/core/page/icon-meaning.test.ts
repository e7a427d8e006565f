// What a drawn icon or glyph means, in both languages: one table for every reader of icons.
import { describe, expect, test } from 'vitest'
import { glyphMeaning, iconMeaning, pictureAction } from '../../../src/core/page/icon-meaning'

describe('icon meaning', () => {
  test('a picture stands for its action; an action name is left as it is', () => {
    expect(pictureAction('trash')).toBe('delete')
    expect(pictureAction('heart')).toBe('like')
    expect(pictureAction('delete')).toBe('')
    expect(pictureAction('unknown')).toBe('')
  })
  test('icon words carry English and Chinese', () => {
    expect(iconMeaning('fa trash')).toContain('删除')
    expect(iconMeaning('thumb_up')).toMatch(/like.*点赞/)
  })
  test.each([
    ['▾', 'dropdown'],
    ['▾', '下拉'],
    ['♥', 'like'],
    ['♥', '点赞'],
    ['¶', 'permalink'],
    ['＋', 'add'],
    [' › ', 'next'],
  ])('the glyph %s means %s', (glyph, word) => {
    expect(glyphMeaning(glyph).split(' ')).toContain(word)
  })
  test('text that is not a glyph means nothing', () => {
    expect(glyphMeaning('Save')).toBe('')
    expect(glyphMeaning('')).toBe('')
  })
  test("« is the sidebar collapse or the first page, never previous (a docs page's previous link is a word)", () => {
    expect(glyphMeaning('«')).not.toMatch(/previous|上一页/)
  })
})
