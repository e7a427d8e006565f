import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { keepOutSpot, uiBoxes, type Box, type UiPlace } from '../../src/content/keep-out'

const view = { width: 1280, height: 800 }
const home: UiPlace = { button: { x: 1208, y: 728 }, buttonSize: 52, panel: { width: 400, height: 600 } }
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

describe('keeping Ava out of the way of a step', () => {
  it('stays where it is when it covers no part of the target', () => {
    expect(keepOutSpot({ x: 40, y: 40, width: 100, height: 30 }, home, view)).toBeNull()
  })

  it('goes to the mirror corner for a button under the open panel (a right-to-left form)', () => {
    const target = { x: 1000, y: 300, width: 120, height: 36 }
    expect(keepOutSpot(target, home, view)).toEqual({ button: { x: 20, y: 728 }, fold: false })
  })

  it('never lands on the pointer: a page that lures the pointer to the mirror corner gets another one', () => {
    const target = { x: 1000, y: 300, width: 120, height: 36 }
    const spot = keepOutSpot(target, home, view, { x: 150, y: 400 })!
    // Every open-panel corner but the pointer's is over the target: the panel folds to its button.
    expect(spot).toEqual({ button: { x: 20, y: 728 }, fold: true })
    for (const b of uiBoxes({ ...home, button: spot.button }, view, spot.fold))
      expect(b.x <= 150 && 150 <= b.x + b.width && b.y <= 400 && 400 <= b.y + b.height).toBe(false)
  })

  it('folds the panel when no corner leaves a wide target clear', () => {
    const target = { x: 0, y: 100, width: 1280, height: 560 }
    const spot = keepOutSpot(target, home, view)!
    expect(spot.fold).toBe(true)
  })

  it('whatever the target and pointer, a spot it gives covers neither', () => {
    fc.assert(
      fc.property(
        fc.record({
          x: fc.integer({ min: 0, max: 1200 }),
          y: fc.integer({ min: 0, max: 760 }),
          width: fc.integer({ min: 1, max: 600 }),
          height: fc.integer({ min: 1, max: 400 }),
        }),
        fc.option(fc.record({ x: fc.integer({ min: 0, max: 1279 }), y: fc.integer({ min: 0, max: 799 }) }), {
          nil: null,
        }),
        (target, pointer) => {
          const spot = keepOutSpot(target, home, view, pointer)
          if (!spot) return
          for (const b of uiBoxes({ ...home, button: spot.button }, view, spot.fold)) {
            expect(overlaps(b, target)).toBe(false)
            if (pointer)
              expect(
                pointer.x >= b.x && pointer.x <= b.x + b.width && pointer.y >= b.y && pointer.y <= b.y + b.height,
              ).toBe(false)
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
