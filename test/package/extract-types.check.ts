// Compiled by `npm run typecheck`, never run: `ava.extract` types its rows from a zod schema
// (an array schema's element), and from a JSON Schema as plain records; the rows it hands out fit
// the extraction the chat keeps (src/core/chat.ts).
import { z } from 'zod'
import type { ChatMessage } from '../../src/core/chat'
import type { AvaExtractReport, AvaFixture, AvaRowOf } from '../../src/playwright/fixture'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const yes = <T extends true>(_: T) => _

const Product = z.object({ name: z.string(), price: z.number(), brand: z.string().optional() })
yes<Same<AvaRowOf<typeof Product>, { name: string; price: number; brand?: string | undefined }>>(true)
yes<Same<AvaRowOf<z.ZodArray<typeof Product>>, AvaRowOf<typeof Product>>>(true)
yes<Same<AvaRowOf<{ type: 'object' }>, Record<string, unknown>>>(true)

export async function typed(ava: AvaFixture) {
  const r = await ava.extract(Product)
  const name: string = r.rows[0].name
  // @ts-expect-error a row has only the schema's fields
  void r.rows[0].colour
  return name
}

type Kept = NonNullable<ChatMessage['extraction']>
yes<Kept['sources'] extends AvaExtractReport<unknown>['sources'] ? true : false>(true)
yes<Kept['problems'] extends AvaExtractReport<unknown>['problems'] ? true : false>(true)
