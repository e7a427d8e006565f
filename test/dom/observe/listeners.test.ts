// @vitest-environment happy-dom
// Listener hints in the scan: the main world's push is simulated by a listener for
// the boot script's one request that sends one hint event naming the marked elements, as
// content/listeners-main.ts does; later pushes are dispatched by the test.
import { beforeEach, describe, expect, test } from 'vitest'
import { clearAgentIds, observe } from '../../../src/dom/observe'
import { kAskHintsEvent, kHintEvent, listenerHints, watchListenerHints } from '../../../src/dom/observe/listeners'
import { page } from './helpers'

beforeEach(() => clearAgentIds())

/**
 * A page whose elements matching `[data-l]` are hinted, as the main world would answer: one
 * event whose target ranges start at them (happy-dom's InputEvent keeps no target ranges, so the
 * event carries them as the browser's would report them).
 */
function push(doc: Document): void {
  const answer = new (doc.defaultView as any).Event(kHintEvent)
  const ranges = [...doc.querySelectorAll('[data-l]')].map((el) => ({ startContainer: el }))
  answer.getTargetRanges = () => ranges
  doc.dispatchEvent(answer)
}

/** The page after the boot script's one request at load, answered by the (simulated) main world. */
function hinted(body: string): Document {
  const doc = page(body)
  doc.addEventListener(kAskHintsEvent, () => push(doc))
  watchListenerHints(doc, true)
  return doc
}

/** The listed elements' text, in document order. */
const listed = (doc: Document) => observe({ root: doc }).elements.map((e) => `${e.type}:${e.text}`)

describe('listenerHints', () => {
  test('collects the hinted elements and nothing else', () => {
    const doc = hinted('<span data-l>a</span><span>b</span><div data-l>c</div>')
    expect([...listenerHints(doc)].map((e) => e.textContent)).toEqual(['a', 'c'])
  })

  test('no main world, no hints', () => {
    expect(listenerHints(page('<span>a</span>')).size).toBe(0)
  })

  test('a page listener that throws costs only hints', () => {
    const doc = page('<span>a</span>')
    doc.addEventListener(kAskHintsEvent, () => {
      throw new Error('page bug')
    })
    watchListenerHints(doc, true)
    expect(listenerHints(doc).size).toBe(0)
  })

  test('a read sends the page nothing: it cannot time Ava reading it', () => {
    const doc = hinted('<span data-l>a</span><span>b</span>')
    const heard: string[] = []
    for (const type of [kAskHintsEvent, kHintEvent])
      doc.defaultView!.addEventListener(type, () => heard.push(type), true)
    expect(listenerHints(doc).size).toBe(1)
    expect(listed(doc)).toEqual(['button:a'])
    expect(heard).toEqual([])
  })

  test('a later push replaces what was kept: the page changed, the hints follow', () => {
    const doc = hinted('<span data-l>a</span><span id="b">b</span>')
    doc.getElementById('b')!.setAttribute('data-l', '')
    push(doc)
    expect([...listenerHints(doc)].map((e) => e.textContent)).toEqual(['a', 'b'])
  })

  test('target ranges on text nodes are ignored', () => {
    const doc = page('<p>text</p>')
    doc.addEventListener(kAskHintsEvent, () => {
      const answer = new (doc.defaultView as any).Event(kHintEvent)
      answer.getTargetRanges = () => [{ startContainer: doc.querySelector('p')!.firstChild }]
      doc.dispatchEvent(answer)
    })
    watchListenerHints(doc, true)
    expect(listenerHints(doc).size).toBe(0)
  })
})

describe('the scan lists hinted elements as weak controls', () => {
  test('a hinted span is a button; an unhinted one is not listed', () => {
    expect(listed(hinted('<p>Post <span data-l>Reply</span> <span>Like</span></p>'))).toEqual(['button:Reply'])
  })

  test('the same page without hints lists nothing', () => {
    expect(listed(page('<p>Post <span data-l>Reply</span> <span>Like</span></p>'))).toEqual([])
  })

  test('a delegating wrapper is dropped for the parts listed below it', () => {
    expect(
      listed(
        hinted(
          '<div data-l id="feed"><div data-l class="post"><span data-l>Reply</span><span data-l>Like</span></div></div>',
        ),
      ),
    ).toEqual(['button:Reply', 'button:Like'])
  })

  test('a hinted wrapper around a real control is dropped', () => {
    expect(listed(hinted('<div data-l id="root"><p>Hello</p><button>Save</button></div>'))).toEqual(['button:Save'])
  })

  test('a hinted wrapper with nothing listed below it stays listed', () => {
    expect(listed(hinted('<div data-l>Open the post</div>'))).toEqual(['button:Open the post'])
  })

  test('a hinted part inside an onclick wrapper replaces it', () => {
    expect(listed(hinted('<div onclick="void 0">Card <span data-l>Like</span></div>'))).toEqual(['button:Like'])
  })

  test('an onclick part inside a hinted wrapper replaces it', () => {
    expect(listed(hinted('<div data-l>Card <span onclick="void 0">Like</span></div>'))).toEqual(['button:Like'])
  })

  test('a hinted element inside a real control adds nothing', () => {
    expect(listed(hinted('<button>Save <span data-l>now</span></button>'))).toEqual(['button:Save now'])
  })

  test('body and html are never listed for their listeners', () => {
    const doc = hinted('<p>text</p>')
    doc.body.setAttribute('data-l', '')
    doc.documentElement.setAttribute('data-l', '')
    expect(listed(doc)).toEqual([])
  })

  test('handler attributes other than onclick count too', () => {
    expect(listed(page('<span onmousedown="void 0">Menu</span><span onkeydown="void 0">Keys</span>'))).toEqual([
      'button:Menu',
      'button:Keys',
    ])
  })
})

describe('labels', () => {
  test('a hinted part of a label adds nothing: the label’s control is listed', () => {
    expect(listed(hinted('<label><input type="radio" name="r"><span data-l>Yes</span></label>'))).toEqual(['radio:'])
  })
})

describe('containers of text blocks are not controls', () => {
  test('hinted table rows (a library listens on every row) are not listed; their controls are', () => {
    const rows = '<tr data-l><td>Alice</td><td>Done</td></tr><tr data-l><td>Bob</td><td><button>Edit</button></td></tr>'
    expect(listed(hinted(`<table><tbody>${rows}</tbody></table>`))).toEqual(['button:Edit'])
  })

  test('a hinted chip in a table cell is data, not a control; the same chip outside a table is listed', () => {
    const row = '<tr><td>Alice</td><td><span data-l>shipped</span></td><td><button>Edit</button></td></tr>'
    expect(listed(hinted(`<table><tbody>${row}</tbody></table>`))).toEqual(['button:Edit'])
    expect(
      listed(
        hinted('<div role="grid"><div role="row"><div role="gridcell"><span data-l>shipped</span></div></div></div>'),
      ),
    ).not.toContain('button:shipped')
    expect(listed(hinted('<div><span data-l>shipped</span></div>'))).toEqual(['button:shipped'])
  })

  test('a hinted card holding a paragraph is not listed', () => {
    expect(listed(hinted('<div data-l><h3>Title</h3><p>Body text</p></div>'))).toEqual([])
  })

  test('hinted list items of a custom dropdown are listed', () => {
    expect(listed(hinted('<ul><li data-l>Apple</li><li data-l>Pear</li></ul>'))).toEqual([
      'list_item:Apple',
      'list_item:Pear',
    ])
  })
})

test('an onclick wrapper stays listed when the hinted part inside it is a container of text', () => {
  expect(listed(hinted('<div onclick="void 0"><div data-l><p>Open the post</p></div></div>'))).toEqual([
    'button:Open the post',
  ])
})
