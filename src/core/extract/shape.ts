/**
 * The shape a person asks data in (docs/extraction.md): a JSON Schema of one row, or of an array
 * of rows, whose fields are strings, numbers, integers or booleans. zod converts it
 * (`z.fromJSONSchema`) and validates every row with it; a zod schema from the Playwright fixture
 * or the MCP library comes here as JSON Schema too (`z.toJSONSchema`), so there is one validator.
 * zod compiles no code at run time where eval is refused (an extension page), unlike ajv.
 */
import { z } from 'zod'

export type FieldType = 'string' | 'number' | 'integer' | 'boolean'

export interface FieldSpec {
  name: string
  type: FieldType
  required: boolean
  /** The schema's own words for it, for the model that maps fields to the page. */
  description?: string
}

export interface RowShape {
  fields: FieldSpec[]
  /** The row's JSON Schema, as given (the array's `items` when an array was given). */
  schema: Record<string, unknown>
  validator: z.ZodType
}

/** A schema Ava cannot extract to, with what was wrong in it and where (`path`, JSON Pointer style). */
export class ShapeError extends Error {
  readonly code = 'EXTRACT_SCHEMA'
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message)
    this.name = 'ShapeError'
  }
}

const kFieldTypes: readonly FieldType[] = ['string', 'number', 'integer', 'boolean']

/** Reads a row shape out of a JSON Schema; throws `ShapeError` saying what is not allowed. */
export function parseShape(input: unknown): RowShape {
  if (!isObject(input)) throw new ShapeError('The schema must be a JSON object (a JSON Schema).', '')
  const row = input.type === 'array' ? input.items : input
  const at = input.type === 'array' ? '/items' : ''
  if (!isObject(row) || row.type !== 'object' || !isObject(row.properties))
    throw new ShapeError(
      'The schema must describe one row: {"type":"object","properties":{…}}, or an array of such rows.',
      at,
    )
  const required = new Set(Array.isArray(row.required) ? row.required.filter((r) => typeof r === 'string') : [])
  const fields = Object.entries(row.properties).map(([name, spec]): FieldSpec => {
    const type = isObject(spec) ? typeOf(spec) : undefined
    if (!type)
      throw new ShapeError(
        `Field "${name}" must be one of ${kFieldTypes.join(', ')} (nested objects and lists are not extracted).`,
        `${at}/properties/${name}`,
      )
    const description = isObject(spec) && typeof spec.description === 'string' ? spec.description : undefined
    return { name, type, required: required.has(name), ...(description ? { description } : {}) }
  })
  if (!fields.length) throw new ShapeError('The schema names no fields.', `${at}/properties`)
  let validator: z.ZodType
  try {
    validator = z.fromJSONSchema(row as z.core.JSONSchema.JSONSchema)
  } catch (e) {
    throw new ShapeError(`The schema could not be read: ${e instanceof Error ? e.message : String(e)}`, at)
  }
  return { fields, schema: row, validator }
}

/** A zod schema of a row (or of an array of rows) as the JSON Schema the extension is sent. */
export function shapeFromZod(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>
}

/** `"number"`, or `["number", "null"]` for a field that may be empty. */
function typeOf(spec: Record<string, unknown>): FieldType | undefined {
  const t = Array.isArray(spec.type) ? spec.type.filter((x) => x !== 'null') : [spec.type]
  if (t.length !== 1) return undefined
  return kFieldTypes.find((k) => k === t[0])
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
