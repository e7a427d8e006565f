// What a run nobody watches may do (`ava run`, `ava action run`, the fixture, `ava mcp` in a
// Chromium of its own): the command line's `--allow` and `--yes` as risk categories, the guard's
// answer when nobody is there to say yes, and the line that says a run stopped before a step.
import { unattendedAnswer, type StepGuard } from '../core/gate/guard'
import { RISK_CATEGORIES, type RiskCategory } from '../core/exec'
import { type ExecFailure } from '../core/exec'
import { DEFAULT_SETTINGS } from '../core/settings'
import { type Parsed } from './args'
import { failureDocs } from '../core/failure'
import { renderEn } from '../core/locales/render'

/**
 * The gate of a run nobody watches (`ava run`, `ava action run`, the fixture): the guard asks about
 * what it asks about at every door (the extension's default, every risk category: core/settings.ts
 * `DEFAULT_SETTINGS.safety.confirm`), and the door only says who answers: the categories the
 * command line allowed (`--allow`, `--yes` for all) are yes, anything else is UNATTENDED, naming
 * what would allow it. The refusals are kept to be said.
 */
export function unattendedGuard(
  allowed: readonly RiskCategory[],
  here: () => string,
  permit: (category: RiskCategory | undefined) => string = (c) =>
    `running ava run again with --allow ${c ?? 'all'} (or --yes)`,
): StepGuard & { refused: ExecFailure[] } {
  const refused: ExecFailure[] = []
  // Nobody is there to ask: the answer is UNATTENDED, naming the flag that would allow it (core/gate/guard.ts).
  const answer = unattendedAnswer(allowed, permit)
  return {
    confirm: [...DEFAULT_SETTINGS.safety.confirm],
    refused,
    async ask(_reason, refusal) {
      const a = answer(refusal)
      if (a !== true && refusal) refused.push(refusal)
      return a
    },
    // No step limit: a run is as long as its flow or pack, which the person wrote.
    step: () => undefined,
    here: async () => here(),
  }
}

/** `--yes` and `--allow` as the categories a run nobody watches may take: --yes is all of them. */
export function allowedOf(values: Parsed['values']): RiskCategory[] | string {
  if (values.yes) return [...RISK_CATEGORIES]
  return parseAllow((values.allow as string[] | undefined) ?? [])
}

/** What `ava run` says when it stopped before a risky step: the refusal's words, then the hint for NEEDS_CONFIRMATION from the en table. */
export function refusedLine(refusal: ExecFailure, command = 'ava run'): string {
  const what = refusal.category ? ` (${refusal.category.replace(/_/g, ' ')})` : ''
  const docs = failureDocs('UNATTENDED')
  const category = refusal.offsite ? 'cross_site' : (refusal.category ?? 'all')
  return `${command}: stopped before a risky step${what}: ${refusal.message.replace(/[.\s]+$/, '')}. Nothing was done to it. Nobody is there to say yes: check the step, then run again with --allow ${category} (or --yes) to let it go.${docs ? ` ${renderEn(docs)}` : ''}`
}

/** `--allow credentials,payment` → the categories, or why not. `all` is every category. */
export function parseAllow(raw: readonly string[]): RiskCategory[] | string {
  const words = raw
    .flatMap((r) => r.split(','))
    .map((w) => w.trim())
    .filter(Boolean)
  if (words.includes('all')) return [...RISK_CATEGORIES]
  const bad = words.filter((w) => !(RISK_CATEGORIES as readonly string[]).includes(w))
  if (bad.length)
    return `--allow: unknown risk ${bad.length === 1 ? 'category' : 'categories'} ${bad.join(', ')}; use ${RISK_CATEGORIES.join(', ')} or all`
  return words as RiskCategory[]
}
