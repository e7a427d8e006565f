/**
 * "Save as flow" from an agent run: the element an executed instruction acted on, looked up again
 * the way the executor found it, and described for a flow (selectors and snapshot).
 */
import type { RecordedTarget } from '../../core/flows/record'
import { locate, type TargetSpec } from '../executor'
import { describe } from './record'

/** Short: the page is already there; this only asks whether the element still is. */
const kLookupMs = 300

export async function describeInstructionTarget(params: { target_id?: string; fallback_selector?: string; semantic_locator?: string }): Promise<RecordedTarget | null> {
  const spec: TargetSpec = { targetId: params.target_id, selectors: params.fallback_selector ? [params.fallback_selector] : undefined, semantic: params.semantic_locator }
  if (!spec.targetId && !spec.selectors && !spec.semantic) return null
  const found = await locate(spec, { timeoutMs: kLookupMs, allowText: true })
  if (found.ok === false) return null
  return describe(found.el)
}
