import type { Instruction } from '../instruction/schema'

/**
 * The loop's guards (issue 6): the same action on the same target three times in a row means the
 * plan is going round in circles, and the person is asked rather than the page hammered.
 */
export const kLoopRepeats = 3

export function targetOf(ins: Instruction): string {
  const p = ins.params
  return [ins.action_type, p.target_id ?? '', p.fallback_selector ?? '', p.semantic_locator ?? '', p.url ?? '', p.action ?? '', p.key ?? '', p.direction ?? ''].join('|')
}

/** True when the last `kLoopRepeats` instructions are the same action on the same target. */
export function isLooping(history: Instruction[]): boolean {
  if (history.length < kLoopRepeats) return false
  const tail = history.slice(-kLoopRepeats).map(targetOf)
  // Typing the same field repeatedly with different values is progress, not a loop.
  const values = new Set(history.slice(-kLoopRepeats).map((i) => i.params.value ?? ''))
  return tail.every((t) => t === tail[0]) && values.size === 1
}
