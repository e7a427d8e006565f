import type { RiskCategory } from '../exec'
import { kAmount, kIconWords, kWords, type Meaning } from './lexicon'
import { foldText, hasWords } from './text'

/**
 * Whether a click or key press is risky, from what the element and its surroundings are.
 * The page side (src/dom/risk.ts) gathers these facts; the decision is pure so it can be
 * tested on Node with generated labels. Rules, in order (docs/agent.md, Safety):
 *
 * 1. The form it submits: payment fields → payment; a password field → credentials; data sent to
 *    another origin → data_send.
 * 2. Its name (any language, folded) or an icon (emoji, icon-font class, SVG/`<use>` name) says
 *    delete, pay, grant or send → that category.
 * 3. A button whose name holds an amount of money ("Send $5,000") → payment.
 * 4. A name or icon that only backs out (Cancel, Close, 取消, ×, a close icon) is never risky by
 *    what surrounds it.
 * 5. Inside a dialog whose text deletes, pays, grants or cannot be undone, any other button is the
 *    confirming one → that category.
 * 6. Danger styling (btn-danger, el-button--danger, ant-btn-dangerous, variant=danger …) → destructive:
 *    styled as destroying and not saying otherwise is uncertain, and uncertain asks.
 * 7. A bare "OK"/"Confirm" or an icon-only button in a row or card that says "cannot be undone"
 *    → destructive, or that names an amount → payment.
 * An icon-only button with no known icon and nothing risky around it is not asked about: asking
 * for every toolbar icon would teach the person to say yes without reading.
 */
export interface RiskFacts {
  /** Accessible name and visible text (aria-label, labelledby, title, value, text, alt, SVG title). */
  name: string
  /** Icon hints: icon-font class names, data-icon, `<use>` references, image file names. */
  icons?: string
  /** Links are not buttons: a price in a product link is not a payment. */
  kind?: 'button' | 'link' | 'other'
  /** Styled as dangerous by its component library. */
  danger?: boolean
  /** The text of the dialog it sits in, when it is in one. */
  dialog?: string | null
  /** The text of its row, list item, card or section. */
  context?: string
  /** Set when the step submits a form. */
  form?: FormFacts | null
}

export interface FormFacts {
  password?: boolean
  payment?: boolean
  /** The host the form's data goes to when that is another origin and the form carries data. */
  offSite?: string | null
}

export interface RiskFinding {
  category: RiskCategory
  reason: string
}

const kCapChars = 4_000 // all of a name's parts (src/dom/risk.ts caps each); bounds the matching cost per step

const kRiskMeanings = ['payment', 'destructive', 'permission', 'data_send'] as const satisfies readonly (Meaning &
  RiskCategory)[]

const kSays: Record<(typeof kRiskMeanings)[number], string> = {
  payment: 'may move money',
  destructive: 'may delete something',
  permission: 'may grant access',
  data_send: 'may send data',
}

const quote = (s: string) => `"${s.replace(/\s+/g, ' ').trim().slice(0, 40)}"`

/** Every risky reading of the facts, most specific first. */
export function findRisks(facts: RiskFacts): RiskFinding[] {
  const out: RiskFinding[] = []
  const add = (category: RiskCategory, reason: string) => {
    if (!out.some((f) => f.category === category)) out.push({ category, reason })
  }
  const form = facts.form
  if (form?.payment) add('payment', 'submits a form with payment details')
  if (form?.password) add('credentials', 'submits a form with a password')
  if (form?.offSite) add('data_send', `sends the form's data to ${form.offSite}`)

  const name = foldText(facts.name.slice(0, kCapChars))
  const shown = facts.name.trim() ? quote(facts.name) : 'an unlabelled button'
  const button = facts.kind !== 'link'
  if (button && kAmount.test(name)) add('payment', `${shown} ${kSays.payment}`)
  for (const m of kRiskMeanings) if (kWords[m].test(name)) add(m, `${shown} ${kSays[m]}`)
  const icons = foldText((facts.icons ?? '').slice(0, kCapChars))
  for (const m of kRiskMeanings) {
    const word = kIconWords[m]?.find(icons)
    if (word) add(m, `${shown} (icon "${word}") ${kSays[m]}`)
  }
  if (out.length) return out
  const backsOut = hasWords(name)
    ? kWords.negative.test(name) && !hasMoreThan(name, kWords.negative)
    : kWords.negative.test(name) || !!kIconWords.negative?.test(icons)
  if (backsOut) return out

  const dialog = facts.dialog ? foldText(facts.dialog.slice(0, kCapChars)) : ''
  if (dialog) {
    const says = meaningOf(dialog)
    if (says) add(says, `${shown} confirms a dialog that ${kSays[says]}: ${quote(facts.dialog!)}`)
  }
  if (facts.danger && button) add('destructive', `${shown} is styled as dangerous and ${kSays.destructive}`)
  const bare = !hasWords(name) || (kWords.affirmative.test(name) && !hasMoreThan(name, kWords.affirmative))
  const context = facts.context ? foldText(facts.context.slice(0, kCapChars)) : ''
  if (bare && button && context) {
    if (kWords.irreversible.test(context)) add('destructive', `${shown} is next to text saying it cannot be undone`)
    else if (kAmount.test(context) && hasWords(name)) add('payment', `${shown} is next to an amount of money`)
  }
  return out
}

/** What a dialog's text is about, when it is about something risky. */
function meaningOf(text: string): (typeof kRiskMeanings)[number] | null {
  if (kWords.payment.test(text) || kAmount.test(text)) return 'payment'
  if (kWords.destructive.test(text) || kWords.irreversible.test(text)) return 'destructive'
  if (kWords.permission.test(text)) return 'permission'
  return null
}

/** Whether the name says more than the words of `list` (so "Cancel" is bare, "Cancel and wipe" is not). */
function hasMoreThan(name: string, list: { find(s: string): string | null }): boolean {
  let rest = name
  for (let i = 0; i < 8; i++) {
    const w = list.find(rest)
    if (!w) break
    rest = rest.replace(w, ' ')
  }
  return hasWords(rest)
}

/** The first finding whose category the person asked to confirm (all of them when `among` is not given). */
export function decideRisk(facts: RiskFacts, among?: readonly RiskCategory[]): RiskFinding | null {
  return findRisks(facts).find((f) => !among || among.includes(f.category)) ?? null
}

/** The risky meaning of a label alone (no element around it), for callers that only have text. */
export function riskOfText(label: string): RiskCategory | null {
  return decideRisk({ name: label })?.category ?? null
}
