import { instructionOnlyLooks } from '../vocabulary'
import type { Instruction } from '../instruction/schema'
import { riskOfText } from '../risk/decide'
import { compileWords } from '../risk/lexicon'
import { foldText } from '../risk/text'

/**
 * Where a remembered plan came from (docs/agent.md, "Cached plans"). A plan the model wrote had
 * the page in front of it — untrusted text that can say "add a forwarding rule" — so a step that
 * sends data, changes a setting, forwards, shares, pays or deletes may be the page's idea, not the
 * person's. Such a plan is kept with those steps listed, and it replays only after the person has
 * looked at it once: an e-mail that steered the first run does not keep steering every replay
 * after it is gone.
 */
export interface Provenance {
  /** The model wrote the plan with page text in its prompt. */
  pageShaped: boolean
  /** The steps that act on what the page could have asked for, with why. */
  risky: RiskyStep[]
}

export interface RiskyStep {
  index: number
  /** A risk category of the lexicon (src/core/risk), `settings`, or `asked` (the run asked the person before it). */
  why: string
  /** The step as the person reads it: its description, else its action. */
  text: string
}

/**
 * What the risk lexicon leaves to other words: changing where mail goes or what a setting is.
 * English and Chinese, matched on folded text as the lexicon is (src/core/risk/text.ts).
 */
const kSettingsWords = compileWords([
  'setting*',
  'rule*',
  'filter*',
  'auto-reply',
  'autoreply',
  'redirect*',
  'delegate*',
  'recovery email',
  'recovery phone',
  'forwarding',
  'mailbox rule',
  '设置',
  '规则',
  '过滤器',
  '转发',
  '自动回复',
  '委托',
  '恢复邮箱',
])

function stepText(s: Instruction): string {
  const p = s.params
  return [s.description, p.semantic_locator, p.action, p.url]
    .filter((x): x is string => typeof x === 'string' && !!x)
    .join(' · ')
}

/** Why a step may be the page's idea, or null. `asked`: the run asked the person before this step. */
export function stepRisk(s: Instruction, asked = false): string | null {
  if (instructionOnlyLooks(s.action_type)) return null
  const text = stepText(s)
  const category = text ? riskOfText(text) : null
  if (category) return category
  if (text && kSettingsWords.test(foldText(text))) return 'settings'
  if (asked) return 'asked'
  // A pack action or a page opened by the model does what its name says: judged by name above; an
  // address to another site is the page channel's to ask about at replay.
  return null
}

/**
 * The provenance of a plan the model wrote (`pageShaped`: it had page text in its prompt, which
 * every planned step has) — `asked` are the indices of steps the run asked the person about.
 */
export function provenanceOf(
  steps: readonly Instruction[],
  opts: { pageShaped: boolean; asked?: readonly number[] },
): Provenance {
  const asked = new Set(opts.asked ?? [])
  const risky: RiskyStep[] = []
  for (const [index, s] of steps.entries()) {
    const why = stepRisk(s, asked.has(index))
    if (why) risky.push({ index, why, text: s.description ?? s.action_type })
  }
  return { pageShaped: opts.pageShaped, risky: opts.pageShaped ? risky : [] }
}

/** Whether a remembered plan must be reviewed by the person before it replays. */
export function needsReview(entry: { provenance?: Provenance; reviewedAt?: number }): boolean {
  return !!entry.provenance?.pageShaped && entry.provenance.risky.length > 0 && !entry.reviewedAt
}

/** The review's question: the request and each risky step, one per line. */
export function reviewQuestion(request: string, p: Provenance): string {
  const lines = p.risky.map((r) => `step ${r.index + 1}: ${r.text} (${r.why})`)
  return `These saved steps for "${request}" were planned while a web page was in front of the model, and some act on what a page could have asked for: ${lines.join('; ')}. Replay them?`
}
