/**
 * A watch: a scheduled `collect` compared with the one before it, row by row (docs/agent.md,
 * "Schedules"). Rows are told apart by the key the page gives each item (core/page/collect.ts:
 * the id the site put on it, else its text), never by position, so a row that moved is not a
 * change and a row whose cells changed under the same id is one. No model reads any of it.
 */
import { tableOf, toCsv, type CollectedItem } from '../page/collect'

/** What a watch keeps of one run, to compare the next with. */
export interface WatchSnapshot {
  columns: string[]
  rows: { key: string; cells: string[] }[]
}

export interface ChangedRow {
  key: string
  before: string[]
  after: string[]
}

export interface RowDiff {
  columns: string[]
  added: { key: string; cells: string[] }[]
  removed: { key: string; cells: string[] }[]
  changed: ChangedRow[]
  /** There was no earlier run: every row is new, and it is said as the first look rather than as changes. */
  first: boolean
}

/** The collected items as a watch keeps them: the table collect would export, each row under its item's key. */
export function snapshotOf(items: readonly CollectedItem[], columns?: readonly string[]): WatchSnapshot {
  const table = tableOf(items, columns)
  return { columns: table.columns, rows: items.map((item, i) => ({ key: item.key, cells: table.rows[i] })) }
}

const sameCells = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v.trim() === (b[i] ?? '').trim())

/** Rows added, removed and changed from `before` to `after`, each list in the order its run saw them. */
export function diffRows(before: WatchSnapshot | null, after: WatchSnapshot): RowDiff {
  const earlier = new Map((before?.rows ?? []).map((r) => [r.key, r.cells]))
  const now = new Set(after.rows.map((r) => r.key))
  const added: RowDiff['added'] = []
  const changed: ChangedRow[] = []
  for (const row of after.rows) {
    const was = earlier.get(row.key)
    if (!was) added.push(row)
    else if (!sameCells(was, row.cells)) changed.push({ key: row.key, before: was, after: row.cells })
  }
  const removed = (before?.rows ?? []).filter((r) => !now.has(r.key))
  return { columns: after.columns, added, removed, changed, first: before === null }
}

export const isEmptyDiff = (d: RowDiff) => !d.added.length && !d.removed.length && !d.changed.length

/**
 * The diff as CSV through collect's one export (`toCsv`: RFC 4180, formula signs defused): a
 * `Change` column (added, removed, changed, and `was` under a changed row with its earlier cells),
 * then the table's own columns.
 */
export function diffCsv(d: RowDiff): string {
  const rows = [
    ...d.added.map((r) => ['added', ...r.cells]),
    ...d.removed.map((r) => ['removed', ...r.cells]),
    ...d.changed.flatMap((r) => [
      ['changed', ...r.after],
      ['was', ...r.before],
    ]),
  ]
  return toCsv({ columns: ['Change', ...d.columns], rows })
}

/** One line per change, for a notification: "+ 1003 Carol", "− 1001 Alice", "~ 1002 Bob: 12 → 15". */
export function diffLines(d: RowDiff, max = 5): string[] {
  const line = (sign: string, cells: readonly string[]) => `${sign} ${cells.join(' · ')}`
  const all = [
    ...d.added.map((r) => line('+', r.cells)),
    ...d.removed.map((r) => line('−', r.cells)),
    ...d.changed.map(
      (r) =>
        `~ ${r.after
          .map((v, i) => (v.trim() === (r.before[i] ?? '').trim() ? v : `${r.before[i] ?? ''} → ${v}`))
          .join(' · ')}`,
    ),
  ]
  return all.length > max ? [...all.slice(0, max), `…`] : all
}
