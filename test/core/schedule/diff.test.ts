import { describe, expect, it } from 'vitest'
import { diffCsv, diffLines, diffRows, isEmptyDiff, snapshotOf } from '../../../src/core/schedule/diff'
import type { CollectedItem } from '../../../src/core/page/collect'

const row = (key: string, ...cells: string[]): CollectedItem => ({ key, text: cells.join(' '), cells })
const columns = ['Id', 'Name', 'Price']

describe('a watch compares rows by their own ids', () => {
  const before = snapshotOf([row('1001', '1001', 'Alice', '10'), row('1002', '1002', 'Bob', '12')], columns)

  it('added, removed and changed, each once; a row that only moved is no change', () => {
    const after = snapshotOf(
      [row('1003', '1003', 'Carol', '9'), row('1002', '1002', 'Bob', '15'), row('1004', '1004', 'Dan', '7')],
      columns,
    )
    const d = diffRows(before, after)
    expect(d.added.map((r) => r.key)).toEqual(['1003', '1004'])
    expect(d.removed.map((r) => r.key)).toEqual(['1001'])
    expect(d.changed).toEqual([{ key: '1002', before: ['1002', 'Bob', '12'], after: ['1002', 'Bob', '15'] }])
    expect(d.first).toBe(false)
    expect(diffLines(d)).toEqual([
      '+ 1003 · Carol · 9',
      '+ 1004 · Dan · 7',
      '− 1001 · Alice · 10',
      '~ 1002 · Bob · 12 → 15',
    ])
  })

  it('the same rows in another order, and whitespace around cells: nothing changed', () => {
    const after = snapshotOf([row('1002', '1002', ' Bob ', '12'), row('1001', '1001', 'Alice', '10')], columns)
    expect(isEmptyDiff(diffRows(before, after))).toBe(true)
  })

  it('the first run: every row added, marked first', () => {
    const d = diffRows(null, before)
    expect(d.first).toBe(true)
    expect(d.added).toHaveLength(2)
  })

  it('the CSV goes through the one export: a Change column, and formula signs defused', () => {
    const after = snapshotOf(
      [row('1002', '1002', '=HYPERLINK("http://evil")', '12'), row('1005', '1005', '+1', '3')],
      columns,
    )
    expect(diffCsv(diffRows(before, after)).split('\r\n')).toEqual([
      'Change,Id,Name,Price',
      "added,1005,'+1,3",
      'removed,1001,Alice,10',
      `changed,1002,"'=HYPERLINK(""http://evil"")",12`,
      'was,1002,Bob,12',
      '',
    ])
  })
})
