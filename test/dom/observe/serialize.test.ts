// @vitest-environment happy-dom
// The listing format (docs/page-representation.md) and the token budget.
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { clearAgentIds, observe, serialize, type PageSnapshot } from '../../../src/dom/observe'
import { countTokens } from '../../../src/core/tokens'
import { tablePage } from '../../../bench/lib/observe-pages'
import { page } from './helpers'

const body = (html: string) => html.replace(/^[\s\S]*<body>|<\/body>[\s\S]*$/g, '')

describe('line format', () => {
  beforeEach(() => clearAgentIds())

  test('headings per region, one token per element with flags, values and labels the id does not spell', () => {
    const snap = observe({
      root: page(
        '<nav aria-label="Main"><a href="/">首页</a></nav><form aria-label="登录"><input type="email" aria-label="Email" required value="a@b.c">' +
          '<label><input type="checkbox" checked> Remember me</label><select aria-label="City"><option>上海</option></select>' +
          '<button aria-label="Close">×</button><button>Sign in to your account and continue where you left off</button></form>',
        { url: 'https://a.test/signin', title: 'Sign in' },
      ),
      includeContent: false,
    })
    const lines = serialize(snap, { budgetTokens: Infinity }).text.split('\n')
    expect(lines[0]).toBe('# Sign in | login | https://a.test/signin')
    // Without layout every box is on one visual line, so a region's elements share a line.
    expect(lines.slice(2)).toEqual([
      '## nav_main',
      'link_首页',
      '## form_登录',
      // `btn_close` spells its label "Close"; the long label is cut to 50 in the listing, 24 in the id.
      'input_email[email,required]=a@b.c checkbox_remember_me[checked] select_city=上海 btn_close btn_sign_in_to_your_account "Sign in to your account and continue where you lef"',
    ])
  })
})

describe('budget recall on a 1,000-row table', () => {
  let snap: PageSnapshot
  beforeAll(() => {
    clearAgentIds()
    snap = observe({ root: page(body(tablePage(1000)), { url: 'https://shop.test/orders', title: 'Orders' }) })
  }, 60_000)

  const rowEl = (row: number, type: string, label?: string) => {
    const e = snap.elements.find((x) => x.item === row - 1 && x.type === type && (label === undefined || x.label === label))
    if (!e) throw new Error(`no ${type} ${label ?? ''} in row ${row}`)
    return e.id
  }

  test.each([
    ['delete order 742', 742, 'button', 'Delete'],
    ['删除订单 318', 318, 'button', 'Delete'],
    ['edit order 5', 5, 'button', 'Edit'],
    ['set the status of order 999 to shipped', 999, 'select', undefined],
    ['tick the checkbox of order 64', 64, 'checkbox', undefined],
    ['open order 1000', 1000, 'link', undefined],
    ['Delete order #17', 17, 'button', 'Delete'],
    ['编辑订单 523', 523, 'button', 'Edit'],
    ['order 256: delete it', 256, 'button', 'Delete'],
    ['remove order 871 please', 871, 'button', 'Delete'],
  ])('"%s" lists the element it needs within 4,000 tokens', (request, row, type, label) => {
    const out = serialize(snap, { request })
    const id = rowEl(row, type, label)
    expect(out.ids).toContain(id)
    expect(out.text).toContain(id)
    expect(countTokens(out.text)).toBeLessThanOrEqual(4000)
    expect(out.tokens).toBeGreaterThanOrEqual(countTokens(out.text))
    // The matched row shows its text so the model can check it is the right one.
    expect(out.text).toContain(`row "Order ${row} `)
  })

  test('the rest is summarised, not dropped silently', () => {
    const out = serialize(snap)
    expect(out.omitted).toBeGreaterThan(4000)
    expect(out.included + out.omitted).toBe(snap.elements.length)
    expect(out.text).toMatch(/… \+\d+ more rows like this/)
    expect(countTokens(out.text)).toBeLessThanOrEqual(4000)
  })

  test('with no budget everything is listed', () => {
    const out = serialize(snap, { budgetTokens: Infinity })
    expect(out.omitted).toBe(0)
    expect(out.text).not.toContain('more rows like this')
  })
})
