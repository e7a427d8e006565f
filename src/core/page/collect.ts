/**
 * Reading a whole feed or table (docs/agent.md "Reading a whole feed"): the page
 * answers one `collect` command per round — the items it shows now, after one scroll of the box
 * that holds them — and this loop, in core, gathers them across rounds until it has enough, the
 * list ends, or its time is up. A virtualised list removes the items scrolled past and renders
 * them again when scrolled back, as new elements: items are told apart by the key the page gives
 * each (an id the site put on it, else its text), never by element.
 */
import { foldChar } from '../risk/text'

/** One item as the page reads it: a row's cells when it is a table row. */
export interface CollectedItem {
  /** What makes it the same item when it is drawn again (collect.ts in dom: its site id, else its text). */
  key: string
  text: string
  cells?: string[]
  /** Not a table row: its text's lines as the page lays them out (a card's title, price, rating), for a field map (src/core/extract/rows.ts). */
  parts?: string[]
}

/** What one round of the page's collection reports. */
export interface CollectRound {
  items: CollectedItem[]
  /** The column headings of a table, when the items are its rows. */
  columns?: string[]
  /** Whether the scroll moved the box (a box at its end does not). */
  moved: boolean
  /** What was read, for the person and the model ("table.orders", "the feed"). */
  container: string
}

export interface CollectedTable {
  columns: string[]
  rows: string[][]
}

export type CollectEnd = 'limit' | 'end' | 'time' | 'rounds'

export interface CollectResult {
  items: CollectedItem[]
  columns?: string[]
  container: string
  rounds: number
  /** Why it stopped: enough items, the list ended, the time budget, or the round ceiling. */
  end: CollectEnd
}

/** Items gathered when the step names no limit: a long feed's worth, still a short prompt. */
export const kDefaultCollectLimit = 100
/** How long one collect step may scroll, whatever it has gathered (the budget of time). */
export const kCollectBudgetMs = 60_000
/** Rounds at most: a page that keeps moving without showing anything new is no feed. */
export const kMaxCollectRounds = 200
/** Rounds in a row that moved but brought nothing new before the list counts as ended (a spinner, a gap). */
const kIdleRounds = 4

export interface CollectOptions {
  /** One round in the page; `first` reads without scrolling. */
  round(first: boolean): Promise<CollectRound>
  limit: number
  signal: AbortSignal
  now(): number
  budgetMs?: number
  /** After each round: how many items so far, for the panel's progress line. */
  onProgress?(count: number): void
}

/**
 * Scrolls and gathers until `limit` items, the list's end, or the time budget; an abort (Stop)
 * ends it at once with the abort's reason. Items keep the order they were first seen in.
 */
export async function collectItems(o: CollectOptions): Promise<CollectResult> {
  const started = o.now()
  const budget = o.budgetMs ?? kCollectBudgetMs
  const seen = new Map<string, CollectedItem>()
  let columns: string[] | undefined
  let container = ''
  let rounds = 0
  let idle = 0
  const result = (end: CollectEnd): CollectResult => ({
    items: [...seen.values()].slice(0, o.limit),
    ...(columns ? { columns } : {}),
    container,
    rounds,
    end,
  })
  for (;;) {
    if (o.signal.aborted) throw o.signal.reason
    const r = await o.round(rounds === 0)
    if (o.signal.aborted) throw o.signal.reason
    rounds++
    container ||= r.container
    columns ??= r.columns
    const fresh = mergeItems(seen, r.items)
    o.onProgress?.(Math.min(seen.size, o.limit))
    if (seen.size >= o.limit) return result('limit')
    idle = fresh ? 0 : idle + 1
    if (rounds > 1 && !r.moved && !fresh) return result('end')
    if (idle >= kIdleRounds) return result('end')
    if (o.now() - started >= budget) return result('time')
    if (rounds >= kMaxCollectRounds) return result('rounds')
  }
}

/** Adds the items not seen before (by key); returns how many were new. */
export function mergeItems(seen: Map<string, CollectedItem>, items: readonly CollectedItem[]): number {
  let fresh = 0
  for (const item of items) {
    if (!item.key || seen.has(item.key)) continue
    seen.set(item.key, item)
    fresh++
  }
  return fresh
}

/** The items as a table: a table's own columns and cells, else one column of text. */
export function tableOf(items: readonly CollectedItem[], columns?: readonly string[]): CollectedTable {
  const width = Math.max(columns?.length ?? 0, ...items.map((i) => i.cells?.length ?? 0))
  if (width > 0 && items.every((i) => i.cells)) {
    const heads = Array.from({ length: width }, (_, c) => columns?.[c]?.trim() || `Column ${c + 1}`)
    return { columns: heads, rows: items.map((i) => Array.from({ length: width }, (_, c) => i.cells![c] ?? '')) }
  }
  return { columns: ['Text'], rows: items.map((i) => [i.text]) }
}

/**
 * RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled, CRLF between
 * records. A field a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR at its
 * start: OWASP's CSV injection note) gets a leading `'`: the cells are page text. The sign is
 * looked for as a spreadsheet may read it: after leading spaces and invisible characters, and in
 * its full-width or small forms (`＝ ＋ － ＠`, `﹦ ﹢ ﹣ ﹫`, which NFKC folds to the ASCII ones)
 * or as the minus sign U+2212.
 */
export function toCsv(table: CollectedTable): string {
  const field = (v: string) => {
    const safe = startsLikeFormula(v) ? `'${v}` : v
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
  }
  return [table.columns, ...table.rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n'
}

function startsLikeFormula(v: string): boolean {
  if (/^[\t\r]/.test(v)) return true
  const first = [...v].map(foldChar).find((c) => c !== '' && !/\s/.test(c))
  return first !== undefined && /^[=+\-@\u2212]/.test(first)
}

/** The table as JSON: one object per row, keyed by its column headings. */
export function toJson(table: CollectedTable): string {
  const keys = uniqueKeys(table.columns)
  return `${JSON.stringify(
    table.rows.map((r) => Object.fromEntries(keys.map((k, c) => [k, r[c] ?? '']))),
    null,
    2,
  )}\n`
}

/** Column headings as object keys: a repeated heading gets its number ("Price", "Price 2"). */
function uniqueKeys(columns: readonly string[]): string[] {
  const used = new Map<string, number>()
  return columns.map((c) => {
    const n = (used.get(c) ?? 0) + 1
    used.set(c, n)
    return n === 1 ? c : `${c} ${n}`
  })
}

/**
 * The tables of a markdown answer (GFM pipe tables), for "save the answer as CSV": a header row,
 * a delimiter row of dashes, then rows. Escaped pipes (`\|`) stay in their cell.
 */
export function markdownTables(md: string): CollectedTable[] {
  const lines = md.split(/\r?\n/)
  const out: CollectedTable[] = []
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].includes('|') || !/^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(lines[i + 1])) continue
    const columns = cellsOf(lines[i])
    const rows: string[][] = []
    let j = i + 2
    for (; j < lines.length && lines[j].includes('|') && lines[j].trim(); j++) {
      const cells = cellsOf(lines[j])
      rows.push(Array.from({ length: columns.length }, (_, c) => cells[c] ?? ''))
    }
    out.push({ columns, rows })
    i = j - 1
  }
  return out
}

function cellsOf(line: string): string[] {
  const cells: string[] = []
  let cur = ''
  const t = line.trim().replace(/^\|/, '')
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '\\' && t[i + 1] === '|') {
      cur += '|'
      i++
    } else if (t[i] === '|') {
      cells.push(cur.trim())
      cur = ''
    } else cur += t[i]
  }
  if (cur.trim() || !t.endsWith('|')) cells.push(cur.trim())
  return cells
}
