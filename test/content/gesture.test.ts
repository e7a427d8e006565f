import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { clampPosition, isDrag, kDragDistancePx, kDragMinMs } from '../../src/content/gesture'

describe('click or drag', () => {
  it('a press that moves and lasts over 100 ms is always a drag', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: kDragMinMs + 1, max: 60_000 }),
        fc.double({ min: 0.01, max: 5000, noNaN: true }),
        (durationMs, distancePx) => {
          expect(isDrag({ durationMs, distancePx })).toBe(true)
        },
      ),
    )
  })

  it('a quick press that stays within the tremor distance is a click', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: kDragMinMs }),
        fc.double({ min: 0, max: kDragDistancePx, noNaN: true }),
        (durationMs, distancePx) => {
          expect(isDrag({ durationMs, distancePx })).toBe(false)
        },
      ),
    )
  })

  it('a long press that does not move is still a click', () => {
    expect(isDrag({ durationMs: 2_000, distancePx: 0 })).toBe(false)
  })
})

describe('clampPosition', () => {
  it('keeps the button fully inside the viewport', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5000, max: 5000 }),
        fc.integer({ min: -5000, max: 5000 }),
        fc.integer({ min: 60, max: 4000 }),
        fc.integer({ min: 60, max: 4000 }),
        (x, y, width, height) => {
          const p = clampPosition(x, y, 52, { width, height })
          expect(p.x).toBeGreaterThanOrEqual(0)
          expect(p.y).toBeGreaterThanOrEqual(0)
          expect(p.x + 52).toBeLessThanOrEqual(width)
          expect(p.y + 52).toBeLessThanOrEqual(height)
        },
      ),
    )
  })
})
