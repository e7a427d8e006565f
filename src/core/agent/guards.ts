import type { Instruction } from '../instruction/schema'

/**
 * The loop's guards (issue 6): the same action on the same target three times in a row means the
 * plan is going round in circles, and the person is asked rather than the page hammered. Checked
 * after every executed step (issue 15), within a reply as between replies. A registry action is
 * one step here: the steps inside a pack repeat by design (pagination, lists) and are bounded by
 * the step limit, which counts each of them.
 */
export const kLoopRepeats = 3

export function targetOf(ins: Instruction): string {
  const p = ins.params
  // A registry action's target is its name and arguments: the same action on other rows is progress.
  return [ins.action_type, p.target_id ?? '', p.fallback_selector ?? '', p.semantic_locator ?? '', p.url ?? '', p.action ?? '', JSON.stringify(p.args ?? {}), p.key ?? '', p.direction ?? ''].join('|')
}

/** True when the last `kLoopRepeats` instructions are the same action on the same target. */
export function isLooping(history: Instruction[]): boolean {
  if (history.length < kLoopRepeats) return false
  const tail = history.slice(-kLoopRepeats).map(targetOf)
  // Typing the same field repeatedly with different values is progress, not a loop.
  const values = new Set(history.slice(-kLoopRepeats).map((i) => i.params.value ?? ''))
  return tail.every((t) => t === tail[0]) && values.size === 1
}
