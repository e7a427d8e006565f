/**
 * "Save as flow" from an agent run: the element an executed instruction acted on, looked up again
 * the way the executor found it, and described for a flow (selectors and snapshot).
 */
import type { RecordedTarget } from '../../core/flows/record'
import type { PageTarget } from '../../core/page/command'
import { locate } from '../executor'
import { describe } from './record'

/** Short: the page is already there; this only asks whether the element still is. */
const kLookupMs = 300

export async function describeInstructionTarget(spec: PageTarget | null): Promise<RecordedTarget | null> {
  if (!spec || (!spec.targetId && !spec.selectors?.length && !spec.semantic)) return null
  const found = await locate(spec, { timeoutMs: kLookupMs, allowText: true })
  if (found.ok === false) return null
  return describe(found.el)
}
