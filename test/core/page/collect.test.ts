// Reading a whole feed (src/core/page/collect.ts): the round loop's ends, the deduplication across
// re-renders, and the tables the person saves (CSV as RFC 4180 and spreadsheets read it, JSON).
import { describe, expect, it } from 'vitest'
import {
  collectItems,
  markdownTables,
  mergeItems,
  tableOf,
  toCsv,
  toJson,
  type CollectRound,
  type CollectedItem,
} from '../../../src/core/page/collect'
import { readInstructionText } from '../../../src/core/instruction/read'
import { safeParseInstruction } from '../../../src/core/instruction/schema'

const item = (text: string, key = `text=${text}`): CollectedItem => ({ key, text })

function rounds(list: CollectRound[], clock = { t: 0, step: 100 }) {
  const seen: boolean[] = []
  return {
    seen,
    now: () => clock.t,
    round: async (first: boolean) => {
      seen.push(first)
      clock.t += clock.step
      return list.length > 1 ? list.shift()! : list[0]
    },
  }
}

describe('collectItems', () => {
  it('keeps each item once, in the order first seen, and stops at the limit', async () => {
    const r = rounds([
      { items: [item('a'), item('b')], moved: false, container: 'ul' },
      { items: [item('b'), item('c')], moved: true, container: 'ul' },
      { items: [item('c'), item('d'), item('e')], moved: true, container: 'ul' },
    ])
    const progress: number[] = []
    const out = await collectItems({
      ...r,
      limit: 4,
      signal: new AbortController().signal,
      onProgress: (n) => progress.push(n),
    })
    expect(out.items.map((i) => i.text)).toEqual(['a', 'b', 'c', 'd'])
    expect(out).toMatchObject({ end: 'limit', rounds: 3, container: 'ul' })
    expect(r.seen).toEqual([true, false, false])
    expect(progress).toEqual([2, 3, 4])
  })

  it('tells items with the same text apart by the id the site gave them', () => {
    const seen = new Map<string, CollectedItem>()
    expect(mergeItems(seen, [item('+1', 'data-id=1'), item('+1', 'data-id=2'), item('+1', 'data-id=1')])).toBe(2)
  })

  it('ends at the end of the list, at the time budget, and on Stop', async () => {
    const end = await collectItems({
      ...rounds([{ items: [item('a')], moved: false, container: 'ul' }]),
      limit: 10,
      signal: new AbortController().signal,
    })
    expect(end.end).toBe('end')
    let n = 0
    const growing = {
      round: async () => ({ items: [item(`x${n++}`)], moved: true, container: 'ul' }),
      now: () => n * 1_000,
    }
    expect(
      (await collectItems({ ...growing, limit: 1_000, budgetMs: 5_000, signal: new AbortController().signal })).end,
    ).toBe('time')
    // Moving without anything new (a spinner that never resolves) is an end too.
    const idle = await collectItems({
      ...rounds([{ items: [item('a')], moved: true, container: 'ul' }]),
      limit: 10,
      signal: new AbortController().signal,
    })
    expect(idle).toMatchObject({ end: 'end', rounds: 5 })
    const stop = new AbortController()
    const stopping = {
      round: async () => (stop.abort(new Error('stopped')), { items: [item(`y${n++}`)], moved: true, container: 'ul' }),
      now: () => 0,
    }
    await expect(collectItems({ ...stopping, limit: 10, signal: stop.signal })).rejects.toThrow('stopped')
  })
})

describe('tables', () => {
  it('makes a table of rows with their headings, else one column of text', () => {
    expect(tableOf([{ key: '1', text: 'A 1', cells: ['A', '1'] }], ['Name'])).toEqual({
      columns: ['Name', 'Column 2'],
      rows: [['A', '1']],
    })
    expect(tableOf([item('post')])).toEqual({ columns: ['Text'], rows: [['post']] })
  })

  it('defuses a formula whose sign is full-width, small, a minus sign, or behind spaces and invisible characters', () => {
    const signs = [
      '\uFF1DHYPERLINK("http://x")',
      '\uFF0B1+1',
      '\uFF0D2+3',
      '\uFF20SUM(A1)',
      '\uFE66cmd',
      '\u2212 5',
      '  =1+1',
      '\u200b=1+1',
    ]
    const csv = toCsv({ columns: ['c'], rows: signs.map((s) => [s]) })
    const cells = csv
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((c) => c.replace(/^"|"$/g, ''))
    expect(cells.every((c) => c.startsWith("'"))).toBe(true)
    // Text that only holds such a sign later is left as it is.
    expect(toCsv({ columns: ['c'], rows: [['a\uFF1Db'], ['5 \uFF0B 5']] })).toBe('c\r\na\uFF1Db\r\n5 \uFF0B 5\r\n')
  })

  it('writes RFC 4180 CSV, with formulas defused', () => {
    const csv = toCsv({
      columns: ['商品', 'note'],
      rows: [
        ['"Pro" 数据线, 2 米', 'line\nbreak'],
        ['=HYPERLINK("http://x")', '-5'],
      ],
    })
    expect(csv).toBe('商品,note\r\n"""Pro"" 数据线, 2 米","line\nbreak"\r\n"\'=HYPERLINK(""http://x"")",\'-5\r\n')
  })

  it('writes JSON objects keyed by the headings, a repeated heading numbered', () => {
    expect(JSON.parse(toJson({ columns: ['Price', 'Price'], rows: [['1', '2']] }))).toEqual([
      { Price: '1', 'Price 2': '2' },
    ])
  })

  it('finds the pipe tables of a markdown answer', () => {
    const md =
      'Orders:\n\n| 订单号 | 金额 |\n| --- | ---: |\n| DD1 | ¥600 |\n| DD2 \\| x | ¥700 |\n\nThat is all. | not a table'
    expect(markdownTables(md)).toEqual([
      {
        columns: ['订单号', '金额'],
        rows: [
          ['DD1', '¥600'],
          ['DD2 | x', '¥700'],
        ],
      },
    ])
    expect(markdownTables('a | b\nno delimiter row')).toEqual([])
  })
})

describe('the ask and collect instructions', () => {
  it('reads the shapes models write for them', () => {
    expect(
      readInstructionText('{"type": "ask_user", "question": "Which size?", "options": ["S", "M"]}', 0),
    ).toMatchObject({
      success: true,
      data: { action_type: 'ask', params: { question: 'Which size?', choices: ['S', 'M'] } },
    })
    expect(
      readInstructionText('{"action": "scroll_and_collect", "max_items": "50", "selector": "#feed"}', 0),
    ).toMatchObject({
      success: true,
      data: { action_type: 'collect', params: { limit: 50, fallback_selector: '#feed' } },
    })
  })

  it('refuses an ask without a question, or with too many choices, and a collect over its ceiling', () => {
    for (const bad of [
      { question: '  ' },
      {},
      { question: 'Pick', choices: Array.from({ length: 11 }, (_, i) => String(i)) },
    ]) {
      expect(safeParseInstruction({ step_id: 1, action_type: 'ask', params: bad }).success, JSON.stringify(bad)).toBe(
        false,
      )
    }
    expect(safeParseInstruction({ step_id: 1, action_type: 'collect', params: { limit: 501 } }).success).toBe(false)
    expect(safeParseInstruction({ step_id: 1, action_type: 'collect', params: {} }).success).toBe(true)
  })
})
