import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { extractRows, reaskOnce, type Reask } from '../../../src/core/extract/rows'
import { parseShape, shapeFromZod, ShapeError } from '../../../src/core/extract/shape'

const product = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    price: { type: 'number', minimum: 0 },
    rating: { type: 'number', minimum: 0, maximum: 5 },
  },
  required: ['name', 'price', 'rating'],
}
const item = (key: string, ...cells: string[]) => ({ key, text: cells.join(' | '), cells })

describe('the shape asked for', () => {
  it('takes a row or an array of rows, from JSON Schema or from zod', () => {
    expect(parseShape(product).fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['name', 'string', true],
      ['price', 'number', true],
      ['rating', 'number', true],
    ])
    const zodRows = z.array(z.object({ name: z.string(), stock: z.number().int().optional() }))
    expect(parseShape(shapeFromZod(zodRows)).fields).toEqual([
      { name: 'name', type: 'string', required: true },
      { name: 'stock', type: 'integer', required: false },
    ])
  })

  it('refuses a nested field, saying which and where', () => {
    const bad = { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array' } } }
    expect(() => parseShape(bad)).toThrow(ShapeError)
    expect(() => parseShape(bad)).toThrow(/Field "tags" must be one of string, number, integer, boolean/)
    expect(() => parseShape({ type: 'string' })).toThrow(/must describe one row/)
  })
})

describe('rows read with one field map', () => {
  const shape = parseShape(product)
  const map = { name: 0, price: 1, rating: 2 }

  it('reads every item the same way, each value with the part it came from', () => {
    const r = extractRows([item('p1', 'Kettle', '$1,299.00', '4.5'), item('p2', '水壶', '￥３４', '４')], map, shape)
    expect(r.rows).toEqual([
      { name: 'Kettle', price: 1299, rating: 4.5 },
      { name: '水壶', price: 34, rating: 4 },
    ])
    expect(r.sources[1].price).toEqual({ item: 'p2', part: 1, text: '￥３４' })
    expect(r.problems).toEqual([])
  })

  it('reports a value that is not one number and one the schema refuses, and keeps the row out', () => {
    const r = extractRows(
      [item('p1', 'Kettle', 'call us', '4.5'), item('p2', 'Pot', '$5', '7'), item('p3', 'Pan', '$9', '3')],
      map,
      shape,
    )
    expect(r.rows).toEqual([{ name: 'Pan', price: 9, rating: 3 }])
    expect(r.problems.map((p) => [p.row, p.field, p.issue, p.text])).toEqual([
      [0, 'price', 'type', 'call us'],
      [1, 'rating', 'schema', '7'],
    ])
  })

  it('names a field the page does not have once and invents no value for it', () => {
    const withStock = parseShape({ ...product, properties: { ...product.properties, stock: { type: 'integer' } } })
    const r = extractRows([item('p1', 'Kettle', '$12', '4')], { ...map, stock: null }, withStock)
    expect(r.absent).toEqual(['stock'])
    expect(r.rows).toEqual([{ name: 'Kettle', price: 12, rating: 4 }])
    const required = parseShape({
      ...product,
      properties: { ...product.properties, stock: { type: 'integer' } },
      required: ['stock'],
    })
    const strict = extractRows([item('p1', 'Kettle', '$12', '4')], { ...map, stock: null }, required)
    expect(strict.rows).toEqual([])
    expect(strict.problems).toEqual([
      { row: 0, field: 'stock', issue: 'missing', message: 'the page has no such field' },
    ])
  })

  it('reads a card by its lines', () => {
    const r = extractRows([{ key: 'c1', text: 'Kettle\n$12\n4 stars' }], map, shape)
    expect(r.rows).toEqual([{ name: 'Kettle', price: 12, rating: 4 }])
  })
})

describe('the one re-ask', () => {
  const shape = parseShape(product)
  const map = { name: 0, price: 1, rating: 2 }
  const items = [item('p1', 'Kettle', 'was $15 now $12', '4.5'), item('p2', 'Pot', '$5', 'great')]

  it('asks once about every problem and takes an answer only if the item shows its text', async () => {
    const first = extractRows(items, map, shape)
    const asked: Reask[][] = []
    const r = await reaskOnce(items, map, shape, first, async (q) => {
      asked.push(q)
      return [
        { row: 0, field: 'price', text: '$12' },
        { row: 1, field: 'rating', text: '4' }, // not in the item: not taken
      ]
    })
    expect(asked).toHaveLength(1)
    expect(asked[0].map((q) => [q.row, q.field, q.type, q.parts])).toEqual([
      [0, 'price', 'number', ['Kettle', 'was $15 now $12', '4.5']],
      [1, 'rating', 'number', ['Pot', '$5', 'great']],
    ])
    expect(r.rows).toEqual([{ name: 'Kettle', price: 12, rating: 4.5 }])
    expect(r.sources[0].price).toEqual({ item: 'p1', part: 1, text: '$12' })
    expect(r.problems.map((p) => [p.row, p.field, p.issue])).toEqual([[1, 'rating', 'type']])
  })

  it('reports what the second reading still gets wrong instead of coercing it', async () => {
    const first = extractRows(items, map, shape)
    const r = await reaskOnce(items, map, shape, first, async () => [{ row: 0, field: 'price', text: 'now' }])
    expect(r.rows).toEqual([])
    expect(r.problems.map((p) => [p.row, p.field, p.issue, p.text])).toEqual([
      [0, 'price', 'type', 'now'],
      [1, 'rating', 'type', 'great'],
    ])
  })

  it('does not ask when nothing is wrong', async () => {
    const ok = extractRows([item('p1', 'Kettle', '$12', '4')], map, shape)
    let calls = 0
    await reaskOnce([item('p1', 'Kettle', '$12', '4')], map, shape, ok, async () => (calls++, []))
    expect(calls).toBe(0)
  })
})
