// slug() keeps its results across calls and skips the code-point cut when nothing is long
// enough to cut; both must give what the plain computation gives.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { normalizeText, slug } from '../../../src/core/page/text'

/** The slug computed from scratch, every step taken. */
function plainSlug(text: string, max: number): string {
  const s = normalizeText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
  return Array.from(s).slice(0, max).join('').replace(/_$/, '')
}

const labels = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    'Sign In',
    '了解 更多!',
    '  Edit  ',
    '😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀',
    'a_b-c',
    '___',
    '',
  ),
  fc.string({ minLength: 190, maxLength: 260 }),
)

describe('slug', () => {
  test('equals the plain computation, first call and repeated, at every length limit', () => {
    fc.assert(
      fc.property(labels, fc.constantFrom(8, 16, 24), (text, max) => {
        const want = plainSlug(text, max)
        expect(slug(text, max)).toBe(want)
        expect(slug(text, max)).toBe(want)
      }),
      { numRuns: 2000 },
    )
  })

  test('the same label under two limits is cut for each', () => {
    const label = 'Order number 123456789 for customer'
    expect(slug(label, 24)).toBe('order_number_123456789_f')
    expect(slug(label, 16)).toBe('order_number_123')
    expect(slug(label)).toBe('order_number_123456789_f')
  })
})
