// @vitest-environment happy-dom
// The main-world listener script in happy-dom: what it records, and that the page's
// functions look and behave as before. The real browser's side (toString, identity, events) is
// checked against a plain Chromium in e2e/observe/listeners.test.ts.
import { beforeAll, expect, test } from 'vitest'
import { kAskHintsEvent, listenerHints, watchListenerHints } from '../../src/dom/observe/listeners'

// vitest's happy-dom environment keeps Node's own EventTarget global; the page's is the one its nodes inherit from.
globalThis.EventTarget = Object.getPrototypeOf(Node.prototype).constructor
let $: any
const nativeAdd = EventTarget.prototype.addEventListener
const nativeToString = Function.prototype.toString
const nativeOnclick = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick')!

/**
 * happy-dom has neither StaticRange nor InputEvent's target ranges, which carry the answer between
 * the worlds; these stand in for the browser's (e2e/observe/listeners.test.ts runs the real ones).
 */
class FakeStaticRange {
  startContainer: Node
  constructor(init: { startContainer: Node }) {
    this.startContainer = init.startContainer
  }
}
class FakeInputEvent extends Event {
  private ranges: unknown[]
  constructor(type: string, init: { targetRanges?: unknown[] } = {}) {
    super(type)
    this.ranges = init.targetRanges ?? []
  }
  getTargetRanges() {
    return this.ranges
  }
}

beforeAll(async () => {
  ;(globalThis as any).StaticRange = FakeStaticRange
  ;(globalThis as any).InputEvent = FakeInputEvent
  // Paths in variables: neither file has types to resolve (a script with no exports; jQuery).
  const mainWorld = '../../src/content/listeners-main.ts'
  await import(/* @vite-ignore */ mainWorld)
  const jquery = 'jquery'
  $ = (await import(/* @vite-ignore */ jquery)).default
  ;(window as any).jQuery = $
})

const make = (html: string): HTMLElement => {
  const div = document.createElement('div')
  div.innerHTML = html
  document.body.append(div)
  return div
}
/** The hints after the boot script's request (answered at once); a read alone asks nothing. */
const hintedText = () => {
  watchListenerHints(document)
  document.dispatchEvent(new Event(kAskHintsEvent))
  return [...listenerHints(document)].map((e) => e.textContent)
}

test('patched functions keep name, length and native source text', () => {
  const add = EventTarget.prototype.addEventListener
  expect(add).not.toBe(nativeAdd)
  expect([add.name, add.length]).toEqual([nativeAdd.name, nativeAdd.length])
  expect(Function.prototype.toString.call(add)).toBe(nativeToString.call(nativeAdd))
  expect(Function.prototype.toString.toString()).toBe(nativeToString.call(nativeToString))
  const set = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick')!.set!
  expect(set.toString()).toBe(nativeToString.call(nativeOnclick.set))
  expect(Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick')!.get).toBe(nativeOnclick.get)
})

test('records click-like listeners and on* properties, not others', () => {
  document.body.innerHTML = ''
  const root = make('<span id="a">a</span><span id="b">b</span><span id="c">c</span><span id="d">d</span>')
  root.querySelector('#a')!.addEventListener('click', () => {})
  root.querySelector('#b')!.addEventListener('mouseover', () => {})
  ;(root.querySelector('#c') as HTMLElement).onclick = () => {}
  root.querySelector('#d')!.addEventListener('keydown', { handleEvent() {} })
  expect(hintedText().sort()).toEqual(['a', 'c', 'd'])
})

test('listeners still run, in order, once and removable as the browser does it', () => {
  const el = make('<span>x</span>').firstElementChild!
  const calls: string[] = []
  const second = () => calls.push('second')
  el.addEventListener('click', () => calls.push('first'))
  el.addEventListener('click', second)
  el.addEventListener('click', () => calls.push('once'), { once: true })
  el.removeEventListener('click', second)
  el.dispatchEvent(new Event('click'))
  el.dispatchEvent(new Event('click'))
  expect(calls).toEqual(['first', 'once', 'first'])
})

test('a wrong call throws what the native one throws', () => {
  const call = (f: typeof nativeAdd) => {
    try {
      f.call({}, 'click', () => {})
      return 'no error'
    } catch (e) {
      return (e as Error).constructor.name
    }
  }
  expect(call(EventTarget.prototype.addEventListener)).toBe(call(nativeAdd))
})

test('jQuery: delegated handlers hint the matching descendants, not the delegating element', () => {
  document.body.innerHTML = ''
  const feed = make('<p class="post"><span class="reply">Reply</span><span class="other">Other</span></p>')
  $(feed).on('click', '.reply', () => {})
  expect(hintedText()).toEqual(['Reply'])
  $(feed).on('click', () => {})
  expect(hintedText().sort()).toEqual(['Reply', 'ReplyOther'])
})

test('removed nodes are not hinted', () => {
  document.body.innerHTML = ''
  const el = make('<span>gone</span>')
  el.firstElementChild!.addEventListener('click', () => {})
  el.remove()
  expect(hintedText()).toEqual([])
})

test('React: a root container hints the elements whose props carry onClick, not itself', () => {
  document.body.innerHTML = ''
  const root = make('<div><span id="like">Like</span><span id="text">text</span></div>') as any
  root['__reactContainer$k1'] = {}
  root.addEventListener('click', () => {})
  ;(root.querySelector('#like') as any)['__reactProps$k1'] = { onClick() {}, children: 'Like' }
  ;(root.querySelector('#text') as any)['__reactProps$k1'] = { children: 'text' }
  expect(hintedText()).toEqual(['Like'])
})
