// @vitest-environment happy-dom
// An element's words (src/dom/words): what a person sees on and around a control, for the
// semantic rung and for naming candidates when a locate fails (never an empty string).
import { beforeEach, describe, expect, test } from 'vitest'
import { cellLabel, groupWords, partWords, peopleLabel, recordText, widgetFieldLabel } from '../../../src/dom/words'

const $ = (sel: string) => document.querySelector(sel)!

beforeEach(() => {
  document.body.innerHTML = `
    <div role="group" aria-label="View"><button id="list">List</button><button id="grid"></button></div>
    <fieldset><legend>Gender</legend><input type="radio" id="m"><label for="m">Male</label></fieldset>
    <form role="search"><input name="q"><input type="submit" id="go" value="Go"></form>
    <form><input type="file" id="cv"><label for="cv" id="cv-btn">Choose…</label><button id="send">Send</button></form>
    <div class="card"><div class="card-body"><h5>Dune</h5><p>Frank Herbert</p><a href="#" id="details">Details</a></div></div>
    <table><thead><tr><th>Fruit</th><th>Qty</th></tr></thead><tbody><tr><td>Apples</td><td><input id="qa"></td></tr></tbody></table>
    <span class="ui-spinner"><input id="price"><a class="ui-spinner-button ui-spinner-up" role="button" id="up">▲</a></span><label for="price">Price per night</label>
    <button id="caret">▾</button>
    <h2 id="abs">abs(x)<a class="headerlink" href="#abs" id="perma">¶</a></h2>`
})

describe('words of a part', () => {
  test('a spinner arrow, a file input and its label, a search form submit, a dropdown glyph', () => {
    expect(partWords($('#up'), 'button')).toMatch(/up arrow increase.*增加/)
    expect(partWords($('#cv'), '')).toMatch(/upload.*上传/)
    expect(partWords($('#cv-btn'), '')).toMatch(/upload.*上传/)
    expect(partWords($('#go'), 'button')).toMatch(/submit 提交 search 搜索/)
    expect(partWords($('#send'), 'button')).toBe('submit 提交')
    expect(partWords($('#perma'), 'link')).toContain('section')
  })
  test('the field a widget part belongs to names it', () => {
    expect(widgetFieldLabel($('#up'))).toBe('Price per night')
  })
})

describe('words around it', () => {
  test("group name, record text read with spaces, a permalink's heading, a table cell's label", () => {
    expect(groupWords($('#grid'))).toBe('View')
    expect(groupWords($('#m'))).toBe('Gender')
    expect(groupWords($('#go'))).toContain('search')
    expect(recordText($('#details'))).toBe('Dune Frank Herbert Details')
    expect(recordText($('#perma'))).toContain('abs(x)')
    expect(cellLabel($('#qa'))).toBe('Apples Qty')
  })
})

describe('a candidate named for a person', () => {
  test('never an empty string: a control with no words says what it is and where', () => {
    expect(peopleLabel($('#grid'))).toBe('button in "View"')
    expect(peopleLabel($('#caret'))).toBe('▾ (dropdown)')
    expect(peopleLabel($('#cv'))).toMatch(/^file field \(file upload browse\)/)
  })
})
