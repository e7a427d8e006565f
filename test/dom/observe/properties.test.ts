// @vitest-environment happy-dom
// Correctness properties of the scan (ids stable, a hidden element never listed, texts bounded) on arbitrary generated DOM trees.
import fc from 'fast-check'
import { beforeEach, describe, expect, test } from 'vitest'
import { ElementType } from '../../../src/core/page/snapshot'
import { truncate, kTextMax, normalizeText } from '../../../src/core/page/text'
import { clearAgentIds, observe, resolveHandle } from '../../../src/dom/observe'
import { page } from './helpers'

interface Node {
  tag: string
  attrs: Record<string, string>
  text: string
  children: Node[]
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
const render = (n: Node): string =>
  `<${n.tag}${Object.entries(n.attrs)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('')}>${esc(n.text)}${n.children.map(render).join('')}${['input'].includes(n.tag) ? '' : `</${n.tag}>`}`

const words = fc.constantFrom('删除', 'Delete', 'Edit', '登录', 'Open', 'x', '', '商品A', 'Order 7', '  spaced   out  ')
const attrs = fc.record(
  {
    'aria-label': words,
    role: fc.constantFrom(
      'button',
      'link',
      'checkbox',
      'tab',
      'menuitem',
      'option',
      'row',
      'listitem',
      'navigation',
      'main',
      'dialog',
    ),
    tabindex: fc.constantFrom('0', '-1'),
    placeholder: words,
    href: fc.constant('#'),
    type: fc.constantFrom('text', 'checkbox', 'radio', 'password', 'submit', 'file', 'hidden', 'search'),
    class: fc.constantFrom('a', 'btn primary', 'row'),
  },
  { requiredKeys: [] },
)
const tags = fc.constantFrom(
  'div',
  'span',
  'button',
  'a',
  'input',
  'select',
  'textarea',
  'ul',
  'li',
  'table',
  'tr',
  'td',
  'form',
  'nav',
  'main',
  'label',
  'section',
)
/** Trees up to `depth` levels deep, up to four children per element. */
const treeOf = (depth: number): fc.Arbitrary<Node> =>
  fc.record({
    tag: tags,
    attrs,
    text: fc.oneof(words, fc.string({ maxLength: 80 })),
    children: depth === 0 ? fc.constant([]) : fc.array(treeOf(depth - 1), { maxLength: 4 }),
  })
const tree = treeOf(3)

beforeEach(() => clearAgentIds())

describe('properties of the scan', () => {
  test('property 5: every indexed element has a unique id that resolves to it, on any tree', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 6 }), (nodes) => {
        const doc = page(nodes.map(render).join(''))
        const snap = observe({ root: doc })
        const ids = snap.elements.map((e) => e.id)
        expect(new Set(ids).size).toBe(ids.length)
        const elements = ids.map((id) => resolveHandle(id))
        expect(new Set(elements).size).toBe(ids.length)
        for (const el of elements) expect(doc.contains(el)).toBe(true)
        // A second scan of the same tree hands out the same ids (stable handles).
        expect(observe({ root: doc }).elements.map((e) => e.id)).toEqual(ids)
      }),
      { numRuns: 60 },
    )
  })

  test('property 6: every element record is complete', () => {
    const types = new Set<string>(Object.values(ElementType))
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 6 }), (nodes) => {
        const snap = observe({ root: page(nodes.map(render).join('')) })
        for (const e of snap.elements) {
          expect(typeof e.id).toBe('string')
          expect(e.id.length).toBeGreaterThan(0)
          expect(typeof e.tagName).toBe('string')
          expect(typeof e.text).toBe('string')
          expect(typeof e.className).toBe('string')
          expect(types.has(e.type)).toBe(true)
          expect(typeof e.label).toBe('string')
          expect(e.actions.length).toBeGreaterThan(0)
          expect(typeof e.state.disabled).toBe('boolean')
          expect(snap.regions.some((r) => r.id === e.region)).toBe(true)
          for (const k of ['x', 'y', 'width', 'height'] as const) expect(Number.isFinite(e.bounds[k])).toBe(true)
          expect(Array.isArray(e.relations)).toBe(true)
        }
      }),
      { numRuns: 60 },
    )
  })

  test('property 7: text longer than 50 characters comes back exactly 50 long', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), (text) => {
        const cut = truncate(text)
        expect(cut.length).toBe(Math.min(text.length, kTextMax))
        if (text.length <= kTextMax) expect(cut).toBe(text)
      }),
    )
  })

  test('property 7 through a scan: a button text is cut to exactly 50', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 120 }).filter((s) => normalizeText(s).length > 0),
        (text) => {
          clearAgentIds()
          const snap = observe({ root: page(`<button>${esc(text)}</button>`) })
          const want = normalizeText(text)
          expect(snap.elements).toHaveLength(1)
          expect(snap.elements[0].text.length).toBe(Math.min(want.length, kTextMax))
          expect(snap.elements[0].label.length).toBe(Math.min(want.length, kTextMax))
        },
      ),
      { numRuns: 80 },
    )
  })
})
