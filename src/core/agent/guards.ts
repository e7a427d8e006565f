import type { Instruction } from '../instruction/schema'

/**
 * The loop's guards: the same action on the same target three times in a row means the
 * plan is going round in circles, and the person is asked rather than the page hammered. Checked
 * after every executed step, within a reply as between replies. A registry action is
 * one step here: the steps inside a pack repeat by design (pagination, lists) and are bounded by
 * the step limit, which counts each of them.
 */
export const kLoopRepeats = 3

export function targetOf(ins: Instruction): string {
  const p = ins.params
  // A registry action's target is its name and arguments: the same action on other rows is progress.
  return [
    ins.action_type,
    p.target_id ?? '',
    p.fallback_selector ?? '',
    p.semantic_locator ?? '',
    p.url ?? '',
    p.action ?? '',
    JSON.stringify(p.args ?? {}),
    p.key ?? '',
    p.direction ?? '',
    // A tab action's target is its tab: reading three tabs in a row is a comparison, not a loop.
    p.tab ?? '',
  ].join('|')
}

/** Steps a person repeats on purpose while the page answers each time: a spinner's arrow, a pager, a key. */
const kRepeatable = new Set(['click', 'press'])

/**
 * True when the last `kLoopRepeats` instructions are the same action on the same target, and,
 * for a click or a key, the page showed nothing new between them. `after` holds, by index into
 * `history`, the page's fingerprint after each step (ExecSuccess.after): a spinner's up arrow
 * clicked five times shows five different pages and is progress; a toggle clicked back and forth
 * shows a page it showed before and is a loop. A repeat with no fingerprint is judged as before.
 */
export function isLooping(history: Instruction[], after: Record<string, string> = {}): boolean {
  if (history.length < kLoopRepeats) return false
  const from = history.length - kLoopRepeats
  const last = history.slice(from)
  const tail = last.map(targetOf)
  // Typing the same field repeatedly with different values is progress, not a loop.
  const values = new Set(last.map((i) => i.params.value ?? ''))
  if (!tail.every((t) => t === tail[0]) || values.size !== 1) return false
  if (!kRepeatable.has(last[0].action_type)) return true
  const seen = last.map((_, k) => after[String(from + k)])
  return seen.some((d) => d === undefined) || new Set(seen).size < seen.length
}
