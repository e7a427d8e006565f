// @vitest-environment happy-dom
// The one accessible-name and role implementation (src/dom/words/accname.ts, observe/roles.ts), read through
// the locators' entry points and the Observe listing, on real markup.
import { beforeEach, describe, expect, test } from 'vitest'
import { accessibleName, labelText, queryAll, roleOf } from '../../../src/dom/locators'
import { clearAgentIds, observe, resolveHandle } from '../../../src/dom/observe'

function set(html: string): void {
  clearAgentIds()
  document.body.innerHTML = html
}

/** The element marked `data-m="<mark>"`. */
function el(mark: string): Element {
  const found = document.querySelector(`[data-m="${mark}"]`)
  if (!found) throw new Error(`no element marked ${mark}`)
  return found
}

const marks = (selector: string) => queryAll(selector).map((e) => e.getAttribute('data-m'))

beforeEach(() => set(''))

describe('accessible names', () => {
  test.each([
    ['label[for]', '<label for="e">Email address</label><input id="e" type="email" data-m="x">', 'Email address'],
    [
      'wrapping label, without the options of the select it wraps',
      '<label>Country <select data-m="x"><option>France</option><option>Peru</option></select></label>',
      'Country',
    ],
    [
      'two label[for], in tree order',
      '<label for="a">Amount</label><input id="a" data-m="x"><label for="a">in euros</label>',
      'Amount in euros',
    ],
    [
      'a wrapping label and a label[for], in tree order',
      '<label>Phone <input id="p" data-m="x"></label><label for="p">(mobile)</label>',
      'Phone (mobile)',
    ],
    [
      'aria-labelledby before aria-label',
      '<span id="t">Shipping</span><span id="u">address</span><input aria-labelledby="t u" aria-label="ignored" data-m="x">',
      'Shipping address',
    ],
    [
      'aria-labelledby to a missing id falls through to aria-label',
      '<button aria-labelledby="nope" aria-label="Close" data-m="x">×</button>',
      'Close',
    ],
    ['aria-label before content', '<button aria-label="Close dialog" data-m="x">×</button>', 'Close dialog'],
    [
      'aria-label before a label',
      '<label for="q">Query</label><input id="q" aria-label="Search the shop" data-m="x">',
      'Search the shop',
    ],
    ['placeholder before title', '<input placeholder="Search" title="Site search" data-m="x">', 'Search'],
    ['title as the last resort', '<input title="Quantity" data-m="x">', 'Quantity'],
    ['img alt', '<img src="logo.png" alt="Company logo" data-m="x">', 'Company logo'],
    ['image input alt', '<input type="image" src="go.png" alt="Go" data-m="x">', 'Go'],
    ['submit input without a value', '<input type="submit" data-m="x">', 'Submit'],
    ['reset input without a value', '<input type="reset" data-m="x">', 'Reset'],
    ['button input value', '<input type="button" value="Apply  filters" data-m="x">', 'Apply filters'],
    ['icon button: img alt', '<button data-m="x"><img src="t.png" alt="Delete"></button>', 'Delete'],
    ['icon button: svg title', '<button data-m="x"><svg><title>Settings</title></svg></button>', 'Settings'],
    ['icon button: titled icon', '<button data-m="x"><i class="icon-edit" title="Edit"></i></button>', 'Edit'],
    ['icon button: labelled icon', '<button data-m="x"><span aria-label="Share"></span></button>', 'Share'],
    // accname 2F: every child in order, an image by its alt (as Chromium names it).
    [
      'text and the icon, in order',
      '<button data-m="x"><img src="t.png" alt="Trash"> Remove </button>',
      'Trash Remove',
    ],
    ['link content, whitespace collapsed', '<a href="/more" data-m="x">  Read\n   more </a>', 'Read more'],
    [
      'fieldset legend',
      '<fieldset data-m="x"><legend>Billing</legend><input aria-label="Card number"></fieldset>',
      'Billing',
    ],
    ['table caption', '<table data-m="x"><caption>Orders</caption><tr><td>1</td></tr></table>', 'Orders'],
    ['cell content', '<table><tr><td data-m="x">Alice Smith</td></tr></table>', 'Alice Smith'],
    ['column header content', '<table><tr><th data-m="x">Customer</th></tr></table>', 'Customer'],
    ['heading content', '<h2 data-m="x">Recent orders</h2>', 'Recent orders'],
    ['a generic element is not named by its content', '<div title="Tip" data-m="x">Some words</div>', 'Tip'],
    ['a text field is not named by its value', '<textarea data-m="x">draft text</textarea>', ''],
  ])('%s', (_, html, name) => {
    set(html)
    expect(accessibleName(el('x'))).toBe(name)
  })

  test('a role given by the caller decides whether content names the element', () => {
    set('<div data-m="x">Open menu</div>')
    expect(accessibleName(el('x'))).toBe('')
    expect(accessibleName(el('x'), 'button')).toBe('Open menu')
  })

  test('labelText is the labels without the control, and nothing for an unlabelled field', () => {
    set(
      '<label data-m="l">Size <select data-m="x"><option>S</option><option>M</option></select> (EU)</label><input data-m="y">',
    )
    expect(labelText(el('x'))).toBe('Size (EU)')
    expect(labelText(el('y'))).toBe('')
  })
})

describe('the listing and the locators give the same names', () => {
  test('every indexed element is labelled with its accessible name', () => {
    set(
      '<header><nav aria-label="Main"><a href="/">Home</a><a href="/help" aria-label="Help centre">?</a></nav></header>' +
        '<form><label for="u">User name</label><input id="u"><label>Password <input type="password"></label>' +
        '<span id="h">Remember</span><input type="checkbox" aria-labelledby="h"><input placeholder="Coupon">' +
        '<label>Plan <select><option>Free</option></select></label><input type="submit">' +
        '<button><svg><title>Settings</title></svg></button><input type="image" alt="Go" src="go.png"></form>' +
        '<table><tr><td><a href="/o/1">Order 1</a></td><td><button title="Remove order">🗑</button></td></tr></table>',
    )
    const records = observe({ root: document }).elements
    const pairs = records.map((r) => [r.label, accessibleName(resolveHandle(r.id))])
    expect(pairs.map(([label]) => label)).toEqual([
      'Home',
      'Help centre',
      'User name',
      'Password',
      'Remember',
      'Coupon',
      'Plan',
      'Submit',
      'Settings',
      'Go',
      'Order 1',
      '🗑',
    ])
    for (const [label, name] of pairs) expect(name).toBe(label)
  })

  test('an indexed element without a role is labelled by its content, as a button would be', () => {
    set('<div onclick="void 0" data-m="x">Open card</div>')
    expect(observe({ root: document }).elements.map((e) => e.label)).toEqual(['Open card'])
    expect(roleOf(el('x'))).toBe('')
  })

  test("only the listing's ids fall back to the name attribute", () => {
    set('<input name="zip" data-m="x">')
    expect(observe({ root: document }).elements.map((e) => [e.id, e.label])).toEqual([['input_zip', '']])
    expect(accessibleName(el('x'))).toBe('')
  })
})

describe('roles', () => {
  test.each([
    [undefined, 'textbox'],
    ['text', 'textbox'],
    ['email', 'textbox'],
    ['tel', 'textbox'],
    ['url', 'textbox'],
    ['password', 'textbox'],
    ['search', 'searchbox'],
    ['number', 'spinbutton'],
    ['range', 'slider'],
    ['checkbox', 'checkbox'],
    ['radio', 'radio'],
    ['button', 'button'],
    ['submit', 'button'],
    ['reset', 'button'],
    ['image', 'button'],
    ['file', 'button'],
    ['SUBMIT', 'button'],
    ['hidden', ''],
    ['no-such-type', 'textbox'],
  ])('<input type=%s> is %s', (type, role) => {
    set(`<input data-m="x"${type ? ` type="${type}"` : ''}>`)
    expect(roleOf(el('x'))).toBe(role)
  })

  test.each([
    ['<input list="l" data-m="x"><datalist id="l"></datalist>', 'combobox'],
    ['<input type="search" list="l" data-m="x">', 'combobox'],
    ['<select data-m="x"><option>a</option></select>', 'combobox'],
    ['<select multiple data-m="x"><option>a</option></select>', 'listbox'],
    ['<textarea data-m="x"></textarea>', 'textbox'],
    ['<div contenteditable="true" data-m="x"></div>', 'textbox'],
    ['<a href="/x" data-m="x">x</a>', 'link'],
    ['<a data-m="x">x</a>', ''],
    ['<img src="a.png" alt="" data-m="x">', 'presentation'],
    ['<img src="a.png" alt="A" data-m="x">', 'img'],
    ['<details><summary data-m="x">More</summary></details>', 'button'],
    ['<fieldset data-m="x"></fieldset>', 'group'],
    ['<table data-m="x"><tr><td>1</td></tr></table>', 'table'],
    ['<table><tr data-m="x"><td>1</td></tr></table>', 'row'],
    ['<table><tr><td data-m="x">1</td></tr></table>', 'cell'],
    ['<table><tr><th data-m="x">H</th></tr></table>', 'columnheader'],
    ['<ul data-m="x"><li>a</li></ul>', 'list'],
    ['<ul><li data-m="x">a</li></ul>', 'listitem'],
    ['<header data-m="x"></header>', 'banner'],
    ['<article><header data-m="x"></header></article>', ''],
    ['<footer data-m="x"></footer>', 'contentinfo'],
    ['<main><footer data-m="x"></footer></main>', ''],
    ['<nav data-m="x"></nav>', 'navigation'],
    ['<main data-m="x"></main>', 'main'],
    ['<aside data-m="x"></aside>', 'complementary'],
    ['<form data-m="x"></form>', 'form'],
    ['<div role="Switch checkbox" data-m="x"></div>', 'switch'],
    ['<button role="presentation" data-m="x">b</button>', 'button'],
    ['<div role="  " data-m="x"></div>', ''],
  ])('%s is %s', (html, role) => {
    set(html)
    expect(roleOf(el('x'))).toBe(role)
  })
})

describe('the role: engine finds elements by the same table', () => {
  beforeEach(() =>
    set(
      '<header data-m="banner"><nav data-m="nav" aria-label="Main"><a href="/" data-m="home">Home</a></nav></header>' +
        '<main data-m="main"><article><header data-m="h2">Post</header></article>' +
        '<form data-m="form"><fieldset data-m="billing"><legend>Billing</legend>' +
        '<label for="c">Card</label><input id="c" data-m="card"><input type="hidden" name="t" data-m="hidden">' +
        '<input type="color" aria-label="Colour" data-m="colour"><div contenteditable="true" aria-label="Note" data-m="note"></div>' +
        '<div role="Checkbox" aria-label="Save card" data-m="cb"></div></fieldset></form>' +
        '<table data-m="orders"><caption>Orders</caption><tr data-m="row"><th data-m="th">Order</th><td data-m="td">1</td></tr></table></main>' +
        '<footer data-m="footer"><a href="/help" data-m="help">Help</a></footer>',
    ),
  )

  test('landmarks, without a header or footer scoped to an article', () => {
    expect(marks('role:banner')).toEqual(['banner'])
    expect(marks('role:contentinfo')).toEqual(['footer'])
    expect(marks('role:main')).toEqual(['main'])
    expect(marks('role:navigation[name="Main"]')).toEqual(['nav'])
    expect(marks('role:form')).toEqual(['form'])
  })

  test('groups and tables by name', () => {
    expect(marks('role:group[name="Billing"]')).toEqual(['billing'])
    expect(marks('role:table[name="Orders"]')).toEqual(['orders'])
    expect(marks('role:row')).toEqual(['row'])
    expect(marks('role:columnheader[name="Order"]')).toEqual(['th'])
    expect(marks('role:cell')).toEqual(['td'])
  })

  test('text boxes: fields and rich-text editors, not hidden inputs', () => {
    expect(marks('role:textbox')).toEqual(['card', 'colour', 'note'])
    expect(marks('role:textbox[name="Card"]')).toEqual(['card'])
  })

  test('an explicit role matches whatever its case', () => {
    expect(marks('role:checkbox[name="save card" i]')).toEqual(['cb'])
  })
})
