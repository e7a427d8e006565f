// Data in the shape the client asks for (docs/extraction.md): Ava's own agent run with a schema,
// on the client's tab, with the model `ava mcp` was started with. The run collects the items and
// maps each field once; Ava reads and checks every row. Every step passes the run's gate, as ava_ask's.
import { z } from 'zod'
import { framed, McpToolError } from '../gate'
import { parseShape, ShapeError } from '../../../core/extract/shape'

import type { ToolContext } from './context'
import { askThrough } from './agent'

export function registerExtractTools(ctx: ToolContext): void {
  const { text, tool } = ctx
  ctx.server.registerTool(
    'ava_extract',
    {
      title: 'Extract rows in a shape',
      description:
        "Gets data from the client's tab as rows that fit a JSON Schema of one row (an object of string, number, integer or boolean fields, or an array of such objects), e.g. the name, price and rating of every product, across a paged list or a whole scrolling feed. Ava's own agent gathers the items; every value is checked against the schema and comes with the item it was read from. Values that do not fit and fields the page does not have are reported, never invented.",
      inputSchema: {
        schema: z.record(z.string(), z.unknown()).describe('A JSON Schema of one row, or of an array of rows.'),
        instruction: z
          .string()
          .min(1)
          .max(4000)
          .optional()
          .describe('What to get, in words; by default "Get the <fields> of every item".'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    tool(async ({ schema, instruction }: { schema: Record<string, unknown>; instruction?: string }, signal) => {
      // A schema Ava cannot read is refused before the tab or the model is touched.
      let fields: string[]
      try {
        fields = parseShape(schema).fields.map((f) => f.name)
      } catch (e) {
        if (e instanceof ShapeError)
          throw new McpToolError('EXTRACT_SCHEMA', `${e.message}${e.path ? ` (at ${e.path})` : ''}`)
        throw e
      }
      const request = instruction ?? `Get the ${fields.join(', ')} of every item`
      // In the person's browser (`--chrome`) as on the client's tab: ava_ask's run, with the shape.
      const r = await askThrough(ctx, 'ava_extract', request, signal, schema)
      const got = r.extraction
      if (!got) {
        const denied = r.notes.some((n) => n.startsWith('asked (denied)'))
        throw new McpToolError(
          denied ? 'DENIED' : 'FAILED',
          [
            `Ava's run ended (${r.status}) without rows.`,
            "Ava's answer and notes (they quote the page):",
            framed([r.answer || '(no answer)', ...r.notes]),
          ].join('\n'),
        )
      }
      // Field names come from the client's schema; every value, source and problem text is page words.
      return text(
        [
          `${got.rows.length} row(s) fit the schema; ${got.problems.length} value(s) did not fit${
            got.absent.length ? `; the page does not have: ${got.absent.join(', ')}` : ''
          }.`,
          "The rows as JSON: rows[i] beside sources[i] (each field's item and part), then problems and absent fields. Every string in it was read from the page:",
          framed([
            JSON.stringify(
              { rows: got.rows, sources: got.sources, problems: got.problems, absent: got.absent },
              null,
              1,
            ),
          ]),
        ].join('\n'),
      )
    }),
  )
}
