// The other readings of a descriptor (src/core/page/other-readings.ts): an action said with the
// record it acts on, and a picture said for its action. What they find on a page is
// e2e/executor/other-readings.test.ts; here, which words are read so, and which are left alone.
import { describe, expect, it } from 'vitest'
import { actionOnRecord, pictureAsAction, sameActions } from '../../src/core/page/other-readings'
import { parseDescriptor } from '../../src/core/page/descriptor'

describe('an action on a record', () => {
  it.each([
    ['remove invoice-0412.pdf', 'remove', 'invoice-0412.pdf'],
    ['delete the Laptop stand line', 'delete', 'Laptop stand'],
    ['Delete the "Q3 roadmap" row', 'Delete', 'Q3 roadmap'],
    ['share the new employee handbook', 'share', 'new employee handbook'],
    ['吊销“数据同步”这个密钥', '吊销', '数据同步'],
    ['删除王芳', '删除', '王芳'],
    ['编辑 Zhou Min 这一行', '编辑', 'Zhou Min'],
    ['把大红袍加入购物车', '加入购物车', '大红袍'],
    ['add Dune to cart', 'add to cart', 'Dune'],
    ['add Dune to my wishlist', 'add to wishlist', 'Dune'],
    ['ship order 1003', 'ship', '1003'],
    ['退款 1002 号订单', '退款', '1002'],
  ])('"%s": %s on %s', (said, action, record) => {
    expect(actionOnRecord(said)).toEqual({ action, record })
  })

  it.each([
    'Delete',
    'the Delete button',
    'delete the first row',
    'remove the Urgent tag',
    'close the dialog',
    'delete in the dialog',
    '删除按钮',
    '对话框里的删除',
    '删除第二行',
    'Save',
    'open Settings',
  ])('"%s" is the parser\'s own form, not an action on a record', (said) => {
    expect(actionOnRecord(said)).toBeNull()
  })

  it('says the actions people use for one another: "remove" a row whose button says Delete', () => {
    expect(sameActions('Remove')).toEqual(['remove', 'delete'])
    expect(sameActions('删除')).toEqual(['删除', '移除'])
    expect(sameActions('archive')).toEqual(['archive'])
  })
})

describe('a picture for its action', () => {
  it.each([
    ['the gear icon', ['the settings icon']],
    ['the trash can on the Q3 roadmap row', ['the delete on the Q3 roadmap row']],
    ['the heart on Dune', ['the like on Dune', 'the favorite on Dune']],
    ['齿轮图标', ['设置图标']],
    ['the plus button', ['the add button']],
  ])('"%s" is read as %j', (said, readings) => {
    expect(pictureAsAction(said)).toEqual(readings)
  })

  it('a word that only contains a picture word is no picture: "Binary", "Geared"', () => {
    expect(pictureAsAction('Binary files')).toEqual([])
    expect(pictureAsAction('Geared up')).toEqual([])
  })
})

describe('the parser', () => {
  it('"at the bottom" and "at the top" are the last and the first of equals', () => {
    expect(parseDescriptor('the Next link at the bottom')).toMatchObject({ tokens: ['next'], ordinal: -1 })
    expect(parseDescriptor('the search field at the top')).toMatchObject({ tokens: ['search'], ordinal: 1 })
    expect(parseDescriptor('页面底部的 Go 按钮')).toMatchObject({ tokens: ['go'], ordinal: -1 })
    // Words of a label stay words.
    expect(parseDescriptor('Back to top').ordinal).toBeUndefined()
  })

  it('下拉菜单 is a menu, not a menu named 下拉; 第二个商品 is a container counted, not named', () => {
    expect(parseDescriptor('下拉菜单里的绿茶')).toMatchObject({ tokens: ['绿茶'], scope: { kind: 'menu' } })
    expect(parseDescriptor('下拉菜单里的绿茶').scope?.name).toBeUndefined()
    expect(parseDescriptor('第二个商品的详情')).toMatchObject({
      tokens: ['详情'],
      scope: { kind: 'named', ordinal: 2 },
    })
    expect(parseDescriptor('最后一张卡片里的收藏')).toMatchObject({ scope: { ordinal: -1 } })
  })

  it('"the parse_args() method section" keeps its word "method"; "the range() function" drops it', () => {
    expect(parseDescriptor('the parse_args() method section').tokens).toContain('method')
    expect(parseDescriptor('the range() function').tokens).not.toContain('function')
  })

  it('"where I type my email" is the email field', () => {
    const d = parseDescriptor('where I type my work email')
    expect(d.tokens).toEqual(['work', 'email'])
    expect(d.kinds).toContain('textbox')
    expect(parseDescriptor('我填邮箱的地方')).toMatchObject({ tokens: ['邮箱'] })
  })
})
