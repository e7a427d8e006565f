// @vitest-environment happy-dom
// Semantic ids and stable handles.
import { beforeEach, describe, expect, test } from 'vitest'
import {
  clearAgentIds,
  idOfElement,
  observe,
  ObserveError,
  replacementOf,
  resolveHandle,
  safeResolveHandle,
} from '../../../src/dom/observe'
import { page } from './helpers'

beforeEach(() => clearAgentIds())

const ids = (doc: Document) => observe({ root: doc }).elements.map((e) => e.id)

describe('semantic id priority', () => {
  test.each([
    ['<button>登录</button>', 'btn_登录'],
    ['<input placeholder="搜索">', 'input_搜索'],
    ['<a href="/more">了解更多</a>', 'link_了解更多'],
    ['<button aria-label="关闭">×</button>', 'btn_关闭'],
    ['<span id="l">Sign in now</span><button aria-labelledby="l">Go</button>', 'btn_sign_in_now'],
    ['<label for="e">Email</label><input id="e" title="Your mail" placeholder="you@x">', 'input_email'],
    ['<input title="Quantity">', 'input_quantity'],
    ['<input name="zip">', 'input_zip'],
    ['<input>', 'input_1'],
    ['<input type="checkbox">', 'checkbox_1'],
    ['<input type="password" placeholder="密码">', 'password_密码'],
    ['<div role="tab">Profile</div>', 'tab_profile'],
    ['<input type="submit">', 'btn_submit'],
  ])('%s → %s', (html, id) => {
    expect(ids(page(html))).toEqual([id])
  })
})

describe('id conflicts', () => {
  test('the region tells twins apart', () => {
    const doc = page('<header><button>删除</button></header><main><button>删除</button></main>')
    expect(ids(doc)).toEqual(['btn_删除_in_header', 'btn_删除_in_main'])
  })

  test('the row text tells twins apart, by the shortest word unique to the row', () => {
    const doc = page(
      '<table><tbody><tr><td>商品A 红色</td><td><button>删除</button></td></tr><tr><td>商品B 红色</td><td><button>删除</button></td></tr></tbody></table>',
    )
    expect(ids(doc)).toEqual(['btn_删除_near_商品a', 'btn_删除_near_商品b'])
  })

  const card = (name: string) =>
    `<div class="card"><h3>${name} mug</h3><p>Holds tea.</p><div><button>Buy</button> <button aria-label="Save">♡</button></div></div>`

  test('outside rows, the card around each twin tells them apart ("商品A旁的删除")', () => {
    const doc = page(`<main>${card('Blue')}${card('Red')}${card('Green')}</main>`)
    expect(ids(doc)).toEqual([
      'btn_buy_near_blue',
      'btn_save_near_blue',
      'btn_buy_near_red',
      'btn_save_near_red',
      'btn_buy_near_green',
      'btn_save_near_green',
    ])
  })

  test('a card added later is told apart by its own text; the others keep their ids and contexts', () => {
    const doc = page(`<main>${card('Blue')}${card('Red')}</main>`)
    const before = observe({ root: doc }).elements.map((e) => [e.id, e.context])
    doc.querySelector('main')!.insertAdjacentHTML('afterbegin', card('Green'))
    const after = observe({ root: doc }).elements.map((e) => [e.id, e.context])
    expect(after.slice(0, 2)).toEqual([
      ['btn_buy_near_green', 'Green mug Holds tea.'],
      ['btn_save_near_green', 'Green mug Holds tea.'],
    ])
    expect(after.slice(2)).toEqual(before)
  })

  test('cards with nothing of their own to tell them apart, and twins side by side, are numbered', () => {
    const doc = page(
      '<main><div><p>Same text</p><button>Buy</button></div><div><p>Same text</p><button>Buy</button></div><p><button>Edit</button><button>Edit</button></p></main>',
    )
    expect(ids(doc)).toEqual(['btn_buy_1', 'btn_buy_2', 'btn_edit_1', 'btn_edit_2'])
  })

  test('with nothing to tell them apart, a number', () => {
    const doc = page('<div><button>Edit</button><button>Edit</button><button>Edit</button></div>')
    expect(ids(doc)).toEqual(['btn_edit_1', 'btn_edit_2', 'btn_edit_3'])
  })
})

describe('stable handles', () => {
  test('existing elements keep their ids when a twin is inserted before them', () => {
    const doc = page('<ul><li>Apple <button>Buy</button></li><li>Pear <button>Buy</button></li></ul>')
    const before = ids(doc)
    expect(before).toEqual(['btn_buy_near_apple', 'btn_buy_near_pear'])
    const li = doc.createElement('li')
    li.innerHTML = 'Fig <button>Buy</button>'
    doc.querySelector('ul')!.prepend(li)
    expect(ids(doc)).toEqual(['btn_buy_near_fig', ...before])
  })

  test('a removed element fails as stale and its id is never given to a newcomer', () => {
    const doc = page('<button id="a">Save</button>')
    const [id] = ids(doc)
    const old = doc.getElementById('a')!
    expect(resolveHandle(id)).toBe(old)
    old.remove()
    const r = safeResolveHandle(id)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('ELEMENT_STALE')
    expect(() => resolveHandle(id)).toThrow(ObserveError)
    // A new "Save" button while the old one is still alive gets another id.
    doc.body.insertAdjacentHTML('beforeend', '<button id="b">Save</button>')
    const [next] = ids(doc)
    expect(next).not.toBe(id)
    expect(resolveHandle(next)).toBe(doc.getElementById('b'))
    expect(safeResolveHandle(id).ok).toBe(false)
    expect(old.isConnected).toBe(false)
  })

  test('an unknown id is ELEMENT_NOT_FOUND', () => {
    const r = safeResolveHandle('btn_nothing')
    expect(r.ok ? null : r.error.toJSON()).toEqual({
      code: 'ELEMENT_NOT_FOUND',
      message: expect.stringContaining('btn_nothing'),
      path: 'btn_nothing',
    })
  })

  test('an element keeps its id while it is out of the index and has it again when it comes back', () => {
    const doc = page('<button id="a">Menu</button><button id="b">Other</button>')
    ids(doc)
    const a = doc.getElementById('a')!
    expect(idOfElement(a)).toBe('btn_menu')
    a.style.display = 'none'
    expect(ids(doc)).not.toContain('btn_menu')
    a.style.display = ''
    ids(doc)
    expect(idOfElement(a)).toBe('btn_menu')
  })

  test('a scan writes nothing into the page: no attribute a page could watch for', () => {
    const doc = page('<button>One</button><a href="#">Two</a><div onclick="">Three</div>')
    const before = doc.body.innerHTML
    const changes: MutationRecord[] = []
    const watch = new MutationObserver((r) => changes.push(...r))
    watch.observe(doc, { attributes: true, childList: true, subtree: true, characterData: true })
    expect(ids(doc).length).toBeGreaterThanOrEqual(2)
    changes.push(...watch.takeRecords())
    watch.disconnect()
    expect(changes).toEqual([])
    expect(doc.body.innerHTML).toBe(before)
  })

  test('clearAgentIds forgets every id', () => {
    const doc = page('<button>One</button><a href="#">Two</a>')
    const [one] = ids(doc)
    clearAgentIds()
    expect(safeResolveHandle(one).ok).toBe(false)
  })
})

describe('a control re-rendered in place', () => {
  test('an id whose element was replaced by an equivalent resolves to the replacement, and keeps its id', () => {
    const doc = page(
      '<div class="cal"><table><thead><tr><th role="button" aria-label="Prev">‹</th><th>March 2024</th></tr></thead></table></div>',
    )
    const [id] = ids(doc)
    const old = resolveHandle(id)
    doc.querySelector('.cal')!.innerHTML =
      '<table><thead><tr><th role="button" aria-label="Prev">‹</th><th>March 2024</th></tr></thead></table>'
    expect(safeResolveHandle(id).ok).toBe(false)
    observe({ root: doc })
    const now = replacementOf(id)
    expect(now).not.toBeNull()
    expect(now).not.toBe(old)
    expect(now!.getAttribute('aria-label')).toBe('Prev')
    expect(resolveHandle(id)).toBe(now)
    expect(ids(doc)).toContain(id)
  })

  test('in a record that reads otherwise, it stands in only where the caller allows a control to move between records (a calendar arrow)', () => {
    const doc = page(
      '<div class="cal"><table><thead><tr><th role="button" aria-label="Prev">‹</th><th>March 2024</th></tr></thead></table></div>',
    )
    const [id] = ids(doc)
    doc.querySelector('.cal')!.innerHTML =
      '<table><thead><tr><th role="button" aria-label="Prev">‹</th><th>February 2024</th></tr></thead></table>'
    observe({ root: doc })
    expect(replacementOf(id)).toBeNull()
    expect(replacementOf(id, (el) => el.getAttribute('aria-label') === 'Prev')?.getAttribute('aria-label')).toBe('Prev')
  })

  test('a lone Approve in a pane that re-rendered to another record has no stand-in: the $9,800 wire is not the $12.40 lunch', () => {
    const pane = (what: string, amount: string) =>
      `<h2>${what}</h2><p>Amount: ${amount}</p><p>Submitted by Sam</p><button>Approve</button><button>Reject</button>`
    const doc = page(
      `<nav><a href="#">Inbox</a></nav><section class="detail-pane" id="pane">${pane('Lunch with client', '$12.40')}</section>`,
    )
    const approve = observe({ root: doc }).elements.find((e) => e.label === 'Approve')!.id
    doc.getElementById('pane')!.innerHTML = pane('Wire to Acme Holdings', '$9,800.00')
    observe({ root: doc })
    expect(replacementOf(approve)).toBeNull()
    expect(safeResolveHandle(approve).ok).toBe(false)
    // The same record drawn again: the Approve in its place is the same control.
    doc.getElementById('pane')!.innerHTML = pane('Lunch with client', '$12.40')
    observe({ root: doc })
    expect(replacementOf(approve)?.closest('section')?.textContent).toContain('$12.40')
  })

  test.each([
    ['another name', '<button>Next</button>'],
    ['another kind', '<a href="#">Prev</a>'],
    ['another container', '<main><button>Prev</button></main>'],
  ])('nothing stands in for it when the new element has %s', (_, html) => {
    const doc = page('<header><button>Prev</button></header><div id="slot"></div>')
    const [id] = ids(doc)
    doc.querySelector('header')!.remove()
    doc.getElementById('slot')!.innerHTML = html
    observe({ root: doc })
    expect(replacementOf(id)).toBeNull()
    expect(safeResolveHandle(id).ok).toBe(false)
  })

  test('a row’s button is equivalent only in a row of the same text: another page of the table stays stale', () => {
    const rows = (names: string[]) =>
      `<table><tbody>${names.map((n) => `<tr><td>${n}</td><td><button>Delete</button></td></tr>`).join('')}</tbody></table>`
    const doc = page(`<div id="t">${rows(['Alice', 'Bob'])}</div>`)
    observe({ root: doc })
    const alice = observe({ root: doc }).elements.find((e) => e.id.includes('alice'))!.id
    doc.getElementById('t')!.innerHTML = rows(['Carol', 'Dave'])
    observe({ root: doc })
    expect(replacementOf(alice)).toBeNull()
    doc.getElementById('t')!.innerHTML = rows(['Alice', 'Bob'])
    observe({ root: doc })
    expect(replacementOf(alice)?.closest('tr')?.textContent).toContain('Alice')
  })
})
