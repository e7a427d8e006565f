// @vitest-environment happy-dom
// Roles (HTML-AAM implicit roles), element types, names (accname cheap paths) and state.
import { beforeEach, describe, expect, test } from 'vitest'
import { clearAgentIds, observe } from '../../../src/dom/observe'
import { page } from './helpers'

beforeEach(() => clearAgentIds())

describe('types and roles', () => {
  test.each([
    ['<a href="/x">Go</a>', 'link', 'link'],
    ['<a>no href</a>', null, null],
    ['<button>B</button>', 'button', 'button'],
    ['<input type="email" aria-label="E">', 'text_input', 'textbox'],
    ['<input type="search" aria-label="S">', 'text_input', 'searchbox'],
    ['<input type="number" aria-label="N">', 'text_input', 'spinbutton'],
    ['<input type="password" aria-label="P">', 'password_input', 'textbox'],
    ['<textarea aria-label="T"></textarea>', 'textarea', 'textbox'],
    ['<div contenteditable="true" aria-label="Body"></div>', 'textarea', ''],
    ['<input type="checkbox" aria-label="C">', 'checkbox', 'checkbox'],
    ['<div role="switch" aria-label="W" aria-checked="true"></div>', 'checkbox', 'switch'],
    ['<input type="radio" aria-label="R">', 'radio', 'radio'],
    ['<select aria-label="S"><option>a</option></select>', 'select', 'combobox'],
    ['<select multiple aria-label="S"><option>a</option></select>', 'select', 'listbox'],
    ['<input type="file" aria-label="F">', 'file_input', 'button'],
    ['<video controls aria-label="V"></video>', 'video', ''],
    ['<div role="tab">T</div>', 'tab', 'tab'],
    ['<li role="menuitem">M</li>', 'menu_item', 'menuitem'],
    ['<div role="option">O</div>', 'list_item', 'option'],
    ['<details><summary>More</summary>x</details>', 'button', 'button'],
    ['<div tabindex="0">Focusable</div>', 'button', ''],
    ['<div tabindex="-1">Not a tab stop</div>', null, null],
    ['<div onclick="void 0">Clickable</div>', 'button', ''],
    ['<div role="none"><span>plain</span></div>', null, null],
    ['<input type="hidden" name="csrf">', null, null],
  ])('%s → %s', (html, type, role) => {
    const els = observe({ root: page(html) }).elements
    if (type === null) expect(els).toEqual([])
    else expect(els.map((e) => [e.type, e.role])).toEqual([[type, role]])
  })
})

describe('accessible names', () => {
  test.each([
    ['<span id="a">Save</span><span id="b">draft</span><button aria-labelledby="a b">x</button>', 'Save draft'],
    ['<button aria-label="Close dialog">×</button>', 'Close dialog'],
    ['<label for="n">Full name</label><input id="n" placeholder="Jane">', 'Full name'],
    ['<label>City <select><option>Paris</option><option>Rome</option></select></label>', 'City'],
    ['<input placeholder="Search docs">', 'Search docs'],
    ['<input title="Amount">', 'Amount'],
    ['<button><img src="x.png" alt="Settings"></button>', 'Settings'],
    ['<button><svg><title>Delete</title></svg></button>', 'Delete'],
    ['<input type="submit" value="Send it">', 'Send it'],
    ['<input type="reset">', 'Reset'],
    ['<a href="#">  Read\n   more  </a>', 'Read more'],
  ])('%s → %s', (html, label) => {
    const els = observe({ root: page(html) }).elements
    expect(els[els.length - 1].label).toBe(label)
  })
})

describe('state and relations', () => {
  test('native and ARIA state', () => {
    const s = observe({
      root: page(
        '<input type="checkbox" aria-label="A" checked><button aria-expanded="false" aria-label="B">b</button>' +
          '<fieldset disabled><input aria-label="C"></fieldset><input aria-label="D" required aria-invalid="true" value="hi">' +
          '<select aria-label="E"><option>one</option><option selected>two</option></select><input type="password" aria-label="F" value="secret">' +
          '<div role="checkbox" aria-checked="mixed" aria-label="G"></div><input aria-label="H" readonly>',
      ),
    }).elements
    const by = Object.fromEntries(s.map((e) => [e.label, e.state]))
    expect(by.A).toEqual({ disabled: false, checked: true })
    expect(by.B).toEqual({ disabled: false, expanded: false })
    expect(by.C.disabled).toBe(true)
    expect(by.D).toMatchObject({ required: true, invalid: true, value: 'hi' })
    expect(by.E.value).toBe('two')
    expect(by.F.value).toBeUndefined()
    expect(by.G.checked).toBe('mixed')
    expect(by.H.readonly).toBe(true)
  })

  test('label-for, aria-controls and aria-describedby', () => {
    const s = observe({
      root: page(
        '<label for="q">Query</label><input id="q" aria-describedby="h" aria-controls="go"><p id="h">Type words</p><button id="go">Go</button>',
      ),
    }).elements
    expect(s[0].relations).toEqual([
      { kind: 'label-for', text: 'Query' },
      { kind: 'controls', targetId: 'btn_go' },
      { kind: 'described-by', text: 'Type words' },
    ])
  })

  test('a clickable wrapper around a real control is dropped, the control kept', () => {
    const s = observe({
      root: page('<div onclick="void 0"><span>Card</span><a href="/x">Open card</a></div>'),
    }).elements
    expect(s.map((e) => e.id)).toEqual(['link_open_card'])
  })

  test("hidden elements and Ava's own UI are not indexed", () => {
    const s = observe({
      root: page(
        '<div hidden><button>A</button></div><button style="display:none">B</button><div style="visibility:hidden"><button>C</button></div>' +
          '<div data-ava-ui="panel"><button>Ava</button></div><div inert><button>D</button></div><button>E</button>',
      ),
    }).elements
    expect(s.map((e) => e.label)).toEqual(['E'])
  })

  test('open shadow roots are scanned', () => {
    const doc = page('<div id="host"></div>')
    const root = doc.getElementById('host')!.attachShadow({ mode: 'open' })
    root.innerHTML = '<button>Inside</button>'
    expect(observe({ root: doc }).elements.map((e) => e.id)).toEqual(['btn_inside'])
  })
})
