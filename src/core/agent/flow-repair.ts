import { FlowSelectorSchema, type FlowSelector } from '../flows/schema'

/** Reads the model's choice; anything malformed is no repair rather than a guess. */
export function pickRepair(
  text: string,
  candidates: { selector: string; level?: FlowSelector['type'] }[],
): FlowSelector | null {
  const m = /\{[\s\S]*\}/.exec(text)
  if (!m) return null
  let answer: { candidate?: unknown; selector?: unknown }
  try {
    answer = JSON.parse(m[0])
  } catch {
    return null
  }
  if (typeof answer.candidate === 'number') {
    const c = candidates[answer.candidate]
    if (!c) return null
    const prefix = /^(testid|role|text|xpath|css):/.exec(c.selector)?.[1] as FlowSelector['type'] | undefined
    const parsed = FlowSelectorSchema.safeParse({ type: c.level ?? prefix ?? 'css', value: c.selector })
    return parsed.success ? parsed.data : null
  }
  const parsed = FlowSelectorSchema.safeParse(answer.selector)
  return parsed.success ? parsed.data : null
}
