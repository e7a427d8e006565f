// @vitest-environment happy-dom
// The semantic rung's scorer on happy-dom (no layout needed): kinds, glyphs, states and the
// explanation each score carries. Matching with layout is e2e/executor/descriptors.test.ts.
import { beforeEach, describe, expect, test } from 'vitest'
import { kMinScore, parseQuery, scoreElement } from '../../../src/dom/executor'

const el = (m: string) => document.querySelector(`[data-m="${m}"]`)!
const score = (say: string, m: string) => scoreElement(parseQuery(say), el(m))

beforeEach(() => {
  document.body.innerHTML = `
    <label for="u">User name</label><input id="u" data-m="user">
    <input type="date" aria-label="Birthday" data-m="date">
    <input type="checkbox" id="c" data-m="check" checked><label for="c">Remember me</label>
    <input type="checkbox" data-m="check2">
    <button class="btn-close" aria-label="Close" data-m="close"></button>
    <span class="ant-modal-close-x" data-m="closex">×</span>
    <button data-m="save">Save draft</button>
    <a href="/docs" data-m="docs">Documentation</a>
    <button aria-expanded="false" data-m="section">Advanced settings</button>
    <textarea aria-label="Describe the project" data-m="desc"></textarea>`
})

describe('kinds', () => {
  test('a role-only descriptor scores every element of the kind alike, and nothing else', () => {
    expect(score('the checkbox', 'check')?.score).toBe(score('复选框', 'check2')?.score)
    expect(score('the checkbox', 'save')).toBeNull()
    expect(score('the date field', 'date')?.why).toMatch(/kind date yes/)
    expect(score('the text field', 'date')).toBeNull()
    expect(score('the text field', 'user')).not.toBeNull()
  })

  test('close glyphs match close controls by class, name or glyph', () => {
    for (const say of ['the x', '关闭按钮', '×', 'close']) {
      expect(score(say, 'close'), say).not.toBeNull()
      expect(score(say, 'closex'), say).not.toBeNull()
    }
    expect(score('the x', 'save')).toBeNull()
  })

  test('an element of another kind than named does not pass on its words alone', () => {
    expect(score('the Save draft link', 'save')!.score).toBeGreaterThanOrEqual(kMinScore)
    expect(score('the Documentation button', 'docs')!.score).toBeGreaterThanOrEqual(kMinScore)
    expect(score('the description checkbox', 'desc')?.score ?? 0).toBeLessThan(kMinScore)
  })

  test('states filter where the element declares them', () => {
    expect(score('the checked checkbox', 'check')).not.toBeNull()
    expect(score('the unchecked checkbox', 'check')).toBeNull()
    expect(score('collapsed section header', 'section')).not.toBeNull()
    expect(score('expanded section header', 'section')).toBeNull()
  })
})

describe('text', () => {
  test('each score says which words matched which field', () => {
    expect(score('the user name field', 'user')!.why).toMatch(/user→name.*name→name/)
    expect(score('Save draft', 'save')!.why).toMatch(/save→name draft→name/)
  })

  test('an exact label beats a longer one containing it', () => {
    document.body.insertAdjacentHTML('beforeend', '<button data-m="save2">Save</button>')
    expect(score('Save', 'save2')!.score).toBeGreaterThan(score('Save', 'save')!.score)
  })

  test('half of what was said missing is below the bar', () => {
    expect(score('the project name field', 'desc')!.score).toBeLessThan(kMinScore)
  })

  // The reviewer's fresh set (bench/locate/fresh): wrong picks that must stay below the bar.
  test('a title beside a name is no part of the name: "next" is not the link "next()" titled "next"', () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<a href="#next" title="next" data-m="fn">next()</a><a href="n.html" title="Built-in Constants" data-m="nav">next</a>',
    )
    expect(score('next', 'nav')!.score).toBeGreaterThan(score('next', 'fn')!.score)
    expect(score('Built-in Constants', 'nav')!.why).toMatch(/→attr/)
  })

  test('a role word separates fields from buttons: "搜索按钮" is no text box', () => {
    document.body.insertAdjacentHTML('beforeend', '<input aria-label="Quick search" data-m="q">')
    expect(score('搜索按钮', 'q')?.score ?? 0).toBeLessThan(kMinScore)
  })

  test('a name that shares one word with what was said, and adds its own, is a guess', () => {
    document.body.insertAdjacentHTML('beforeend', '<a href="#t" data-m="other">Other Built-in Types</a>')
    expect(score('Built-in Functions', 'other')?.score ?? 0).toBeLessThan(kMinScore)
    expect(score('Built-in Types', 'other')!.score).toBeGreaterThanOrEqual(kMinScore)
  })
})

describe('controls without semantics', () => {
  beforeEach(() => {
    document.body.insertAdjacentHTML(
      'beforeend',
      `<div title="Collapse sidebar" style="cursor: pointer" data-m="toggle"><span>«</span></div>
       <div role="tabpanel" tabindex="0" aria-label="Overview" data-m="panel">Overview</div>
       <div role="tab" data-m="tab">Overview</div>
       <input type="checkbox" id="g"><label for="g" data-m="giftlabel">Gift wrap</label>
       <label><input type="checkbox">Send an invitation email</label>
       <a href="/toc" data-m="numbered">4.7. Defining Functions</a>`,
    )
  })

  test('a plain titled element that collapses something is "the collapse button" and shows its glyph', () => {
    expect(score('the collapse sidebar button', 'toggle')!.score).toBeGreaterThanOrEqual(kMinScore)
    expect(score('the « button', 'toggle')!.why).toMatch(/"«" exact/)
    expect(score('收起按钮', 'toggle')!.why).toMatch(/role only/)
    expect(score('收起按钮', 'save')).toBeNull()
  })

  test('a focusable container is not a control: the tab, not its panel', () => {
    expect(score('Overview', 'panel')).toBeNull()
    expect(score('Overview', 'tab')!.score).toBeGreaterThanOrEqual(kMinScore)
  })

  test("a label carries its control's checked state", () => {
    expect(score('the unchecked checkbox', 'giftlabel')).not.toBeNull()
    ;(document.getElementById('g') as HTMLInputElement).checked = true
    expect(score('the unchecked checkbox', 'giftlabel')).toBeNull()
  })

  test('forms of one English word meet ("invite" and "invitation"); section numbers are not said', () => {
    const label = document.querySelector('label:not([for])')!
    expect(scoreElement(parseQuery('send invite mail checkbox'), label)!.why).toMatch(/invite→part/)
    expect(score('Defining Functions', 'numbered')!.score).toBeGreaterThan(score('Functions', 'numbered')!.score)
  })
})
