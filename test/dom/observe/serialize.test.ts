// @vitest-environment happy-dom
// The listing format (docs/page-representation.md) and the token budget.
import fc from 'fast-check'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { serialize } from '../../../src/core/page/serialize'
import type { PageSnapshot } from '../../../src/core/page/snapshot'
import { clearAgentIds, observe } from '../../../src/dom/observe'
import { countTokens } from '../../../bench/lib/tokens'
import { tablePage } from '../../../bench/lib/observe-pages'
import { page } from './helpers'
import { listedIds } from './listing'

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
    const e = snap.elements.find(
      (x) => x.item === row - 1 && x.type === type && (label === undefined || x.label === label),
    )
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
    expect(listedIds(out.text)).toContain(id)
    expect(countTokens(out.text)).toBeLessThanOrEqual(4000)
    expect(out.tokens).toBeGreaterThanOrEqual(countTokens(out.text))
    // The matched row shows its text so the model can check it is the right one.
    expect(out.text).toMatch(new RegExp(`^\\S+ "Order ${row} [^"]*": `, 'm'))
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
    expect(listedIds(out.text)).toEqual(snap.elements.map((e) => e.id))
  })

  test('every listed id reads back exactly, and only those, for any budget and request', () => {
    const requests = fc.constantFrom(
      '',
      'delete order 742',
      '编辑订单 12',
      'status shipped',
      'open settings',
      'order 1000 checkbox',
    )
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 6000 }), requests, (budgetTokens, request) => {
        const out = serialize(snap, { budgetTokens, request })
        expect(listedIds(out.text)).toEqual(out.ids)
      }),
      { numRuns: 25 },
    )
  })
})

describe('keyed rows', () => {
  beforeEach(() => clearAgentIds())

  const row = (key: string, who: string, extra = '') =>
    `<tr><td>${key} ${who}</td><td><button>Edit</button></td><td><button>删除</button></td><td><input type="checkbox" aria-label="pick"></td>${extra}</tr>`

  test('a row is written with its key and ids end in "_" where the key completes them', () => {
    const rows = ['101 Ann', '102 Bob', '103 Cy', '104 Di', '105 Ed'].map((r) =>
      row(...(r.split(' ') as [string, string])),
    )
    const snap = observe({
      root: page(`<main><table><tbody>${rows.join('')}</tbody></table></main>`),
      includeContent: false,
    })
    const text = serialize(snap, { budgetTokens: Infinity }).text
    const lines = text.split('\n')
    const at = lines.findIndex((l) => l.startsWith('### table'))
    expect(lines[at]).toBe('### table g1: 5 rows; in a row "101: btn_edit_" means btn_edit_near_101')
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '101: btn_edit_ btn_删除_ checkbox_pick_',
      '102: btn_edit_ btn_删除_ checkbox_pick_',
    ])
    expect(listedIds(text)).toEqual(snap.elements.map((e) => e.id))
  })

  test('on any generated table, the listing names exactly the listed elements', () => {
    const word = fc.constantFrom(
      '1',
      '2',
      '42',
      'near',
      'pear',
      '王芳',
      '已发货',
      'Order',
      'x_y',
      'a-b',
      'Stores near me',
    )
    const control = fc.constantFrom(
      '<button>Edit</button>',
      '<button>删除</button>',
      '<button>Stores near me</button>',
      '<a href="#">Open</a>',
      '<input type="checkbox" checked>',
      '<select><option>a b</option></select>',
      '<input value="v: 1">',
    )
    const table = fc.array(
      fc.record({
        cells: fc.array(word, { minLength: 1, maxLength: 3 }),
        controls: fc.array(control, { minLength: 1, maxLength: 4 }),
      }),
      { minLength: 1, maxLength: 12 },
    )
    fc.assert(
      fc.property(
        table,
        fc.integer({ min: 80, max: 2000 }),
        fc.constantFrom('', 'delete 42', '王芳', 'pear edit'),
        (rows, budgetTokens, request) => {
          clearAgentIds()
          const html = rows
            .map((r) => `<tr><td>${r.cells.join(' ')}</td>${r.controls.map((c) => `<td>${c}</td>`).join('')}</tr>`)
            .join('')
          const snap = observe({
            root: page(`<main><table><tbody>${html}</tbody></table></main>`),
            includeContent: false,
          })
          expect(listedIds(serialize(snap, { budgetTokens: Infinity }).text)).toEqual(snap.elements.map((e) => e.id))
          const out = serialize(snap, { budgetTokens, request })
          expect(listedIds(out.text)).toEqual(out.ids)
        },
      ),
      { numRuns: 60 },
    )
  })

  test('ids whose own word differs from the row key, and small groups, are written in full', () => {
    // "Ann" is the only word of the first row that no other row has for the checkbox's twins
    // once its number is shared; a group under five rows gets no heading and no keys.
    const small = observe({
      root: page(`<main><table><tbody>${row('1', 'x')}${row('2', 'y')}</tbody></table></main>`),
      includeContent: false,
    })
    const smallText = serialize(small, { budgetTokens: Infinity }).text
    expect(smallText).toContain('btn_edit_near_1 btn_删除_near_1')
    expect(listedIds(smallText)).toEqual(small.elements.map((e) => e.id))

    clearAgentIds()
    // Row "1 pear" shares its number with "1 fig", so its Edit and 删除 are told apart by "pear";
    // its Ship button has one twin only ("2 kiwi"), so "1" is enough for it.
    const ship = '<td><button>Ship</button></td>'
    const rows = [
      row('1', 'pear', ship),
      row('1', 'fig'),
      row('2', 'kiwi', ship),
      row('3', 'lime'),
      row('4', 'plum'),
    ].join('')
    const snap = observe({ root: page(`<main><table><tbody>${rows}</tbody></table></main>`), includeContent: false })
    const text = serialize(snap, { budgetTokens: Infinity }).text
    expect(text).toContain('\npear: btn_edit_ btn_删除_ checkbox_pick_ btn_ship_near_1\n')
    expect(listedIds(text)).toEqual(snap.elements.map((e) => e.id))
  })
})

describe('keyed lines outside tables', () => {
  beforeEach(() => clearAgentIds())

  const card = (name: string, controls = '<button>Buy</button><button aria-label="Save">♡</button>') =>
    `<div class="card"><h3>${name}</h3><div>${controls}</div></div>`

  test("a card's buttons share a line keyed by its word, explained once in the region heading", () => {
    const snap = observe({
      root: page(
        `<main>${['Blue mug', 'Red mug', 'Tall vase'].map((n) => card(n)).join('')}</main><footer><a href="/help">Help</a></footer>`,
      ),
      includeContent: false,
    })
    const text = serialize(snap, { budgetTokens: Infinity }).text
    expect(text.split('\n').slice(2)).toEqual([
      '## main; in a line "blue: btn_buy_" means btn_buy_near_blue',
      'blue: btn_buy_ btn_save_',
      'red: btn_buy_ btn_save_',
      'tall: btn_buy_ btn_save_',
      '## footer',
      'link_help',
    ])
    expect(listedIds(text)).toEqual(snap.elements.map((e) => e.id))
  })

  test("with a request, the cards it names lead their lines with the card's text", () => {
    const cards =
      ['Blue mug', 'Red mug', 'Tall vase'].map((n) => card(n)).join('') +
      ['Oak stool', 'Pine stool'].map((n) => card(n, '<button>Buy</button>')).join('')
    const snap = observe({ root: page(`<main>${cards}</main>`), includeContent: false })
    const out = serialize(snap, { budgetTokens: Infinity, request: 'the red mug and the pine stool' })
    const lines = out.text.split('\n')
    expect(lines).toContain('red "Red mug": btn_buy_ btn_save_')
    expect(lines).toContain('row "Pine stool": btn_buy_near_pine')
    // A card the request does not name is keyed, without its text.
    expect(lines).toContain('tall: btn_buy_ btn_save_')
    expect(listedIds(out.text)).toEqual(out.ids)
  })

  test('on any generated card grid, the listing names exactly the listed elements', () => {
    const word = fc.constantFrom('1', '42', 'near', 'pear', '王芳', '已发货', 'Mug', 'x_y', 'a-b', 'Stores near me')
    const control = fc.constantFrom(
      '<button>Buy</button>',
      '<button>删除</button>',
      '<button>Stores near me</button>',
      '<a href="#">Open</a>',
      '<input type="checkbox" aria-label="pick">',
      '<input value="v: 1">',
    )
    const grid = fc.array(
      fc.record({
        words: fc.array(word, { minLength: 1, maxLength: 3 }),
        controls: fc.array(control, { minLength: 1, maxLength: 4 }),
      }),
      { minLength: 1, maxLength: 10 },
    )
    fc.assert(
      fc.property(
        grid,
        fc.integer({ min: 60, max: 1500 }),
        fc.constantFrom('', 'buy 42', '王芳', 'pear open'),
        (cards, budgetTokens, request) => {
          clearAgentIds()
          const html = cards.map((c) => card(c.words.join(' '), c.controls.join(''))).join('')
          const snap = observe({ root: page(`<main>${html}</main>`), includeContent: false })
          expect(listedIds(serialize(snap, { budgetTokens: Infinity }).text)).toEqual(snap.elements.map((e) => e.id))
          const out = serialize(snap, { budgetTokens, request })
          expect(listedIds(out.text)).toEqual(out.ids)
        },
      ),
      { numRuns: 60 },
    )
  })
})
