/**
 * A run asked for data in a shape (docs/extraction.md): the model is told the shape, gathers the
 * items with `collect` (on each page of a paged list, or once over a whole feed), and ends with
 * `done` whose `fields` maps each field to a part of an item. The rows are then read from every
 * item the run collected without another model call, checked against the schema, and what does
 * not fit is asked about once (one model call for all of it) before it is reported.
 */
import { z } from 'zod'
import type { CollectedItem } from '../page/collect'
import {
  extractRows,
  partsOf,
  reaskOnce,
  type Extraction,
  type FieldMap,
  type Reask,
  type Reread,
} from '../extract/rows'
import { parseShape, type RowShape } from '../extract/shape'
import { untrusted } from './prompt'

/** What the first request says when the run was asked for a shape. */
export function shapeNote(shape: RowShape): string {
  const fields = shape.fields
    .map((f) => `${f.name} (${f.type}${f.required ? ', required' : ''}${f.description ? `: ${f.description}` : ''})`)
    .join('; ')
  return [
    `The person wants rows with these fields: ${fields}.`,
    'Gather the items with collect (on every page of a paged list: collect, go to the next page, collect again; a feed: one collect with a limit as large as needed).',
    'The items come back with their parts separated by " | ". Then end with done: params.fields maps each field to the 0-based index of the part that holds it, the same for every item, or null when the items have no such field. Do not write the rows yourself: Ava reads every item with your map and checks each value.',
  ].join('\n')
}

/** An item as the model is shown it when a shape was asked for: its parts, numbered by position. */
export function itemForShape(item: CollectedItem): string {
  return partsOf(item).join(' | ')
}

const RereadsSchema = z.array(z.object({ row: z.number().int(), field: z.string(), text: z.string() }))

/** The one re-ask: the values that did not fit, with their items' parts inside the untrusted block. */
export function reaskPrompt(questions: readonly Reask[]): string {
  return [
    'Some values did not fit the fields they were read for. For each, give the exact text of the item that holds the value, or leave it out if the item does not have it. Never write a value the item does not show.',
    untrusted(
      questions.map(
        (q) =>
          `row ${q.row}, field ${q.field} (${q.type}): ${q.message}. The item's parts: ${q.parts.map((p, i) => `[${i}] ${p}`).join(' | ')}`,
      ),
    ),
    'Reply with a JSON array only: [{"row": <row>, "field": "<field>", "text": "<the exact text>"}].',
  ].join('\n')
}

/** The model's answer to the re-ask; anything else reads as no answer (the values are then reported). */
export function parseRereads(text: string): Reread[] {
  const start = text.indexOf('[')
  const end = text.lastIndexOf(']')
  if (start < 0 || end < start) return []
  try {
    const parsed = RereadsSchema.safeParse(JSON.parse(text.slice(start, end + 1)))
    return parsed.success ? parsed.data : []
  } catch {
    return []
  }
}

/** The rows of the asked shape out of every item the run collected, with the one re-ask. */
export async function extractForRun(
  schema: Record<string, unknown>,
  items: readonly CollectedItem[],
  fields: FieldMap,
  ask: (prompt: string) => Promise<string>,
): Promise<Extraction> {
  const shape = parseShape(schema)
  const first = extractRows(items, fields, shape)
  return reaskOnce(items, fields, shape, first, async (q) => parseRereads(await ask(reaskPrompt(q))))
}
