/**
 * From collected items to rows of the asked shape, without a model call per row
 * (docs/extraction.md): the model maps each field once to a part of an item (a table's cell, a
 * card's line), then every item is read the same way, each value keeping the item and part it
 * came from. A value whose text does not read as its field's type, or that the schema refuses,
 * is a problem: the model is asked about it once (`reaskOnce`), and what is still wrong after
 * that is reported, never coerced. A field the page does not have stays out of every row and is
 * named in `absent`.
 */
import type { CollectedItem } from '../page/collect'
import { soleNumber } from '../answer/numbers'
import type { FieldSpec, RowShape } from './shape'

/** Per field: the index of the item's part that holds it, or null when the page has no such field. */
export type FieldMap = Record<string, number | null>

/** Where a value was read: the item (by its key, as collect tells items apart) and its part. */
export interface FieldSource {
  item: string
  part: number
  text: string
}

export interface ExtractProblem {
  /** The row's index among the items (page order). */
  row: number
  field: string
  /** `missing`: the item has nothing there; `type`: its text is not one value of the field's type; `schema`: the schema refuses the value. */
  issue: 'missing' | 'type' | 'schema'
  /** The text that was read, when there was one. */
  text?: string
  message: string
}

export interface Extraction {
  /** The rows that fit the schema, in page order. */
  rows: Record<string, unknown>[]
  /** Beside each row of `rows`: where each of its fields was read. */
  sources: Record<string, FieldSource>[]
  /** What did not fit, after the one re-ask. */
  problems: ExtractProblem[]
  /** Fields the page does not have (the map says so): in no row, said once. */
  absent: string[]
}

/** A card's parts are its lines of text; a table row's, its cells. */
export function partsOf(item: CollectedItem): string[] {
  if (item.cells) return item.cells.map((c) => c.trim())
  if (item.parts) return item.parts.map((p) => p.trim())
  return item.text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
}

interface Draft {
  values: Record<string, unknown>
  sources: Record<string, FieldSource>
  problems: ExtractProblem[]
}

/** Reads every item with the map and checks each row against the schema. */
export function extractRows(items: readonly CollectedItem[], map: FieldMap, shape: RowShape): Extraction {
  const absent = shape.fields.filter((f) => map[f.name] === null || map[f.name] === undefined).map((f) => f.name)
  const drafts = items.map((item, row) => {
    const draft: Draft = { values: {}, sources: {}, problems: [] }
    const parts = partsOf(item)
    for (const field of shape.fields) {
      const part = map[field.name]
      if (part === null || part === undefined) continue
      readField(draft, row, field, item.key, part, parts[part])
    }
    return draft
  })
  return settle(drafts, shape, absent)
}

function readField(draft: Draft, row: number, field: FieldSpec, key: string, part: number, text?: string): void {
  delete draft.values[field.name]
  delete draft.sources[field.name]
  draft.problems = draft.problems.filter((p) => p.field !== field.name)
  if (text === undefined || text === '') {
    draft.problems.push({ row, field: field.name, issue: 'missing', message: `item ${row + 1} has no part ${part}` })
    return
  }
  const value = valueOf(field, text)
  if (value === undefined) {
    draft.problems.push({
      row,
      field: field.name,
      issue: 'type',
      text,
      message: `"${text}" is not one ${field.type}`,
    })
    return
  }
  draft.values[field.name] = value
  draft.sources[field.name] = { item: key, part, text }
}

/** The text as the field's type: exactly one number in it for a number, a plain yes or no for a boolean. */
function valueOf(field: FieldSpec, text: string): unknown {
  switch (field.type) {
    case 'string':
      return text
    case 'number':
      return soleNumber(text)
    case 'integer': {
      const n = soleNumber(text)
      return n !== undefined && Number.isInteger(n) ? n : undefined
    }
    case 'boolean':
      if (/^(true|yes|是|有|✓|✔)$/iu.test(text)) return true
      if (/^(false|no|否|无|✗|✘)$/iu.test(text)) return false
      return undefined
  }
}

/** The schema's own check of each row; a row with a problem is held back from `rows`. */
function settle(drafts: readonly Draft[], shape: RowShape, absent: string[]): Extraction {
  const out: Extraction = { rows: [], sources: [], problems: [], absent }
  drafts.forEach((d, row) => {
    const problems = [...d.problems]
    const checked = shape.validator.safeParse(d.values)
    if (!checked.success)
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? '')
        // A field already said to be missing or unreadable is not said again as the schema's complaint.
        if (problems.some((p) => p.field === field)) continue
        if (absent.includes(field)) {
          problems.push({ row, field, issue: 'missing', message: 'the page has no such field' })
          continue
        }
        const src = d.sources[field]
        problems.push({ row, field, issue: 'schema', ...(src ? { text: src.text } : {}), message: issue.message })
      }
    if (problems.length) out.problems.push(...problems)
    else {
      out.rows.push(checked.success ? (checked.data as Record<string, unknown>) : d.values)
      out.sources.push(d.sources)
    }
  })
  return out
}

/** What the model is asked about a value that did not fit: the item's parts, the field, what went wrong. */
export interface Reask {
  row: number
  field: string
  type: FieldSpec['type']
  parts: string[]
  text?: string
  message: string
}

/** The model's second reading: the text in the item that holds the value (a part, or a piece of one). */
export interface Reread {
  row: number
  field: string
  text: string
}

/**
 * Asks the model once about every problem that is not a field the page lacks, then reads again:
 * an answer counts only if its text is in the item (nothing the page did not show comes in this
 * way), and goes through the same type and schema checks. What is still wrong is reported.
 */
export async function reaskOnce(
  items: readonly CollectedItem[],
  map: FieldMap,
  shape: RowShape,
  first: Extraction,
  ask: (questions: Reask[]) => Promise<Reread[]>,
): Promise<Extraction> {
  const open = first.problems.filter((p) => !first.absent.includes(p.field))
  if (!open.length) return first
  const questions = open.map((p): Reask => ({
    row: p.row,
    field: p.field,
    type: shape.fields.find((f) => f.name === p.field)?.type ?? 'string',
    parts: partsOf(items[p.row]),
    ...(p.text !== undefined ? { text: p.text } : {}),
    message: p.message,
  }))
  const answers = await ask(questions)
  const fixes = new Map<number, Reread[]>()
  for (const a of answers) {
    if (!open.some((p) => p.row === a.row && p.field === a.field)) continue
    fixes.set(a.row, [...(fixes.get(a.row) ?? []), a])
  }
  const drafts = items.map((item, row): Draft => {
    const draft: Draft = { values: {}, sources: {}, problems: [] }
    const parts = partsOf(item)
    for (const field of shape.fields) {
      const part = map[field.name]
      if (part === null || part === undefined) continue
      readField(draft, row, field, item.key, part, parts[part])
    }
    for (const fix of fixes.get(row) ?? []) {
      const field = shape.fields.find((f) => f.name === fix.field)
      const text = fix.text.trim()
      const part = parts.findIndex((p) => p.includes(text))
      if (!field || !text || part < 0) continue
      readField(draft, row, field, item.key, part, text)
    }
    return draft
  })
  return settle(drafts, shape, first.absent)
}
