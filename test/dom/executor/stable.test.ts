import { describe, expect, it } from 'vitest'
import { sameBox } from '../../../src/dom/executor/actionability'

/** A box as getBoundingClientRect returns it; only the four numbers matter to sameBox. */
const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height }) as DOMRect

describe('sameBox: what counts as still between two frames', () => {
  it('takes the sub-pixel creep of an ease-out tail as still', () => {
    expect(sameBox(box(10, 100, 200, 34), box(10, 100.3, 200, 33.8))).toBe(true)
    expect(sameBox(box(10, 100, 200, 34), box(10, 100, 200, 34))).toBe(true)
  })

  it('takes half a pixel or more in any of the four as moving', () => {
    expect(sameBox(box(10, 100, 200, 34), box(10.5, 100, 200, 34))).toBe(false)
    expect(sameBox(box(10, 100, 200, 34), box(10, 99, 200, 34))).toBe(false)
    expect(sameBox(box(10, 100, 200, 34), box(10, 100, 201, 34))).toBe(false)
    expect(sameBox(box(10, 100, 200, 34), box(10, 100, 200, 30))).toBe(false)
  })
})
