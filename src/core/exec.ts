import type { DrawnTarget } from './gate/drawn'
import type { Instruction } from './instruction/schema'
import type { RecordedTarget } from './flows/record'
import type { Msg } from './chat'
import type { FailureCode } from './failure'

/**
 * Kinds of risky step the person may ask to confirm first (`permission` and
 * `data_send` cover granting access, and sending data by a button or to another origin).
 */
export const RISK_CATEGORIES = [
  'credentials',
  'payment',
  'destructive',
  'cross_site',
  'high_risk_action',
  'permission',
  'data_send',
] as const
export type RiskCategory = (typeof RISK_CATEGORIES)[number]

/** The failure codes the page-side executor answers with, described in src/core/failure.ts. */
export type ExecErrorCode = Extract<
  FailureCode,
  | 'ELEMENT_NOT_FOUND'
  | 'ELEMENT_STALE'
  | 'AMBIGUOUS'
  | 'NOT_ACTIONABLE'
  | 'TIMEOUT'
  | 'VERIFY_FAILED'
  | 'INVALID'
  | 'NEEDS_CONFIRMATION'
  | 'BLOCKED'
>

/** One element the executor considered, for the AI fallback to choose from. */
export interface Candidate {
  /** The element's listed id when it has one, else `css:<path>` usable as a selector. */
  id: string
  label: string
  /** 0–1, how well it fits the description. */
  score: number
  /** Which words matched which field, and the kind: why it scored so. */
  why?: string
  /** Nothing passed the bar: this is only the nearest by kind or text, offered to the AI fallback. */
  weak?: boolean
}

/** A dialog that opened because of the action. */
export interface ModalChange {
  kind: 'dialog' | 'alertdialog'
  label: string
}

/** What the action changed in the page. */
export interface ExecChanges {
  urlChanged: boolean
  newUrl?: string
  /** DOM mutation records seen while the action ran and the page answered. */
  domMutations: number
  newModals: ModalChange[]
  /** Focus moved to another element. */
  focusChanged: boolean
  /** The value the target displays afterwards (fields, selects, pickers, switches). */
  value?: string
}

/** Why an element could not be acted on, when the code is NOT_ACTIONABLE. */
export type NotActionableReason =
  | 'not-visible'
  | 'disabled'
  | 'read-only'
  | 'not-stable'
  | 'obscured'
  | 'no-effect'
  | 'value-rejected'
  | 'wrong-kind'
  /** The pointer would land on something other than the element judged (a swap during the pointer events). */
  | 'swapped'
  /** The element the person allowed has left the page or changed; nothing else is acted on in its place. */
  | 'unbound'

export type ExecSuccess = {
  ok: true
  /** One line, e.g. `Typed "alice" into "Username"` (English: the CLI, logs and the planner's memory). */
  detail: string
  /**
   * The same line as a locale key (`step.result.*`, `stepResult`) and its parameters, said under the
   * step in the UI language. The page's own words in it (labels, texts) are quoted as
   * in `detail` and a secret is masked as there. Absent when `detail` says more than a key can (a
   * forced click, a date typed in another form): the panel then shows `detail` behind Details.
   */
  msg?: Msg
  /** The ladder rung that found the target: target_id, selector or semantic. */
  rung?: string
  /** On the semantic rung, why that element: which words matched which field, kind, ordinal. */
  why?: string
  /** The action started a navigation: the next step must wait for the next document. */
  navigating?: boolean
  /**
   * The listed id's element had been re-rendered and the step acted on its equivalent (same kind,
   * name, container and place; src/dom/observe/ids.ts): the id, said in `detail` too.
   */
  replaced?: string
  /**
   * After a click or a key: a fingerprint of what the page shows (text, control values, address),
   * so the loop guard tells a spinner clicked five times (five pages) from a loop (the same page).
   */
  after?: string
  /** The element was attached but not visible and was operated through the DOM. */
  forced?: boolean
  changes?: ExecChanges
  /** Other elements that fitted the description, best first. */
  candidates?: Candidate[]
  /** What the action read (getText, getAttribute, find, snapshot). */
  data?: unknown
  /** The value went into a password or payment field: it must not be stored or shown. */
  sensitive?: boolean
  /**
   * The target was a link that opens a new tab. A script's click would be stopped by the popup
   * blocker, so the page reports the URL and the background opens the tab (runs follow
   * links into new tabs).
   */
  openTab?: string
  /**
   * The element as it was just before the action (selectors and snapshot, as the recorder makes
   * them), when the command asked for it: "Save last run as flow" keeps what each step acted on,
   * not what the last page still has.
   */
  target?: RecordedTarget
}

/** What a successful step says (`step.result.<name>` in src/core/locales), for `ExecSuccess.msg`. */
export const kStepResults = [
  'opened',
  'openedTab',
  'alreadyOn',
  'navigated',
  'clicked',
  'doubleClicked',
  'rightClicked',
  'middleClicked',
  'typed',
  'checked',
  'unchecked',
  'wasChecked',
  'wasUnchecked',
  'selected',
  'chose',
  'set',
  'uploaded',
  'hovered',
  'focused',
  'pressed',
  'pressedIn',
  'submitted',
  'dragged',
  'scrolledTo',
  'scrolled',
  'scrolledTop',
  'scrolledBottom',
  'atTop',
  'atEnd',
  'found',
  'appeared',
  'addressIs',
  'quiet',
  'read',
  'readAttribute',
  'answered',
  'continued',
  'tookOver',
  'collecting',
  'collected',
  'collectedEnd',
  'collectedTime',
] as const
export type StepResult = (typeof kStepResults)[number]
/** `scrolled`'s direction, said by its own key (the panel's `<name>Key` parameter convention). */
export const kScrollWords = ['up', 'down', 'left', 'right'] as const

/** A step's result as a key and its parameters (the page's words already quoted, secrets masked). */
export function stepResult(name: StepResult, params: Record<string, string | number> = {}): Msg {
  return { key: `step.result.${name}`, params }
}

export type ExecFailure = {
  ok: false
  /** The executor answers with an ExecErrorCode; a pack action run as one of the agent's steps passes its own code. */
  code: FailureCode
  message: string
  candidates?: Candidate[]
  suggestion?: string
  rung?: string
  reason?: NotActionableReason
  /** NEEDS_CONFIRMATION for another site: its host, for the background gate to let through on a yes. */
  offsite?: string
  /** NEEDS_CONFIRMATION: the risk found and the element's own name, so the question can be put in the person's language. */
  category?: RiskCategory
  label?: string
  /** NEEDS_CONFIRMATION for another site: the step sends a form's fields there. */
  carriesData?: boolean
  /** The failure in the person's language (a locale key and its parameters), when the code alone says too little. */
  msg?: Msg
  /** NEEDS_CONFIRMATION: the question itself as a locale key, naming what the code cannot (a frame's site, a file); `step` is added by the asker. */
  ask?: Msg
  /**
   * NEEDS_CONFIRMATION: the element as drawn, and the handle a yes binds to. The
   * confirmed dispatch sends `bound: handle` back; the page acts on that element only.
   */
  drawn?: DrawnTarget
  handle?: string
  /** NEEDS_CONFIRMATION asked again: the element changed since the person allowed it. */
  changed?: boolean
  /** …and one of them holds a saved secret: the run's question names it (src/dom/secret-trust.ts). */
  carriesSecret?: boolean
}

export type ExecOutcome = ExecSuccess | ExecFailure

export interface ExecRequest {
  runId: string
  instruction: Instruction
  /** How long to wait for the element to appear (SPA mounts). */
  timeoutMs?: number
  /** Risk categories the person wants to confirm before they happen. */
  confirm?: RiskCategory[]
  /** The person already said yes to this step. */
  confirmed?: boolean
}

/** A failed step's result: one code of the failure list, a sentence, and whatever else it knows. */
export function fail(code: ExecErrorCode, message: string, extra: Partial<ExecFailure> = {}): ExecFailure {
  return { ok: false, code, message, ...extra }
}
