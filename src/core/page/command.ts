/**
 * The one channel to a page (STYLE.md, "One channel per kind of conversation"): everything the
 * background or `ava run` asks of a page is a `PageCommand`, and every answer is a `PageOutcome`
 * of the same kind. The agent's instructions, the registry's BrowserPort calls and recorded flow
 * steps are translated into it here, in core; the background has one sender
 * (src/background/page.ts), the page one receiver (src/dom/page/receiver.ts).
 */
import type { Challenge } from './challenge'
import type { FlowStep } from '../flows/schema'
import type { RecordedTarget } from '../flows/record'
import type { StepOutcome } from '../flows/replay'
import type { Candidate, ExecFailure, ExecSuccess, RiskCategory } from '../exec'
import type { Instruction } from '../instruction/schema'
import type { SitePolicy } from '../offsite'
import type { DrawnTarget } from '../gate/drawn'
import type { Intent, PageSnapshot } from './snapshot'
import { safeParseSelector, type ParsedSelector } from './selectors'
import { domAction, flowStepNavigates, instructionKind, isDomAction, type PageAction } from '../vocabulary'
import type { CollectRound } from './collect'

export { kDomActionNames, type DomActionName } from '../vocabulary'
export type ScrollDirection = 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom'
export type WaitState = 'attached' | 'visible' | 'hidden' | 'detached'

/**
 * A file for an `upload` step: its bytes travel with the command, because
 * the page cannot read the person's disk. They come from a pack, from `ava run` reading a path,
 * or from a file the person picked in the panel.
 */
export interface UploadFile {
  name: string
  mimeType?: string
  base64: string
  /** The origin of the page the person attached it on (src/core/agent/attachments.ts); an upload elsewhere asks. */
  site?: string
  /** A page served it during the run (src/core/agent/served-files.ts): `site` is the site that did. */
  served?: boolean
}

/** How a step names its element, in the order the page's locator ladder tries them. */
export interface PageTarget {
  /** An element's id from an Observe snapshot. */
  targetId?: string
  /**
   * Explicit selectors (`css:`, `xpath:`, `role:`, `text:`, `testid:` or plain CSS), primary
   * first, parsed here in core: the page never parses selector text again.
   */
  selectors?: ParsedSelector[]
  /** Why selectors written for this step were refused, for the page to report when nothing else locates. */
  invalid?: string[]
  /** What a person would call the element ("the 新建 button"). */
  semantic?: string
  /** The element that has the focus (keys typed without a target). */
  focused?: boolean
  /**
   * The element drawn at this point of the top document (CSS pixels from its top-left, scroll
   * included): a point the model named in a screenshot, mapped back by `pointOnPage`.
   */
  point?: PagePoint
}

/** A point in the top document: CSS pixels from the document's top-left corner. */
export interface PagePoint {
  x: number
  y: number
}

/**
 * How a screenshot's pixels map onto the page it was taken of (docs/agent.md, "Screenshots"):
 * the image is the viewport, scaled to `width` × `height`; the viewport was `viewWidth` ×
 * `viewHeight` CSS pixels, scrolled to `scrollX`, `scrollY`. The device pixel ratio is gone by
 * then: the capture is scaled from device pixels to this size in one step.
 */
export interface ShotFrame {
  width: number
  height: number
  viewWidth: number
  viewHeight: number
  scrollX: number
  scrollY: number
}

/** A point of the screenshot, in the document it shows (null outside the image). */
export function pointOnPage(shot: ShotFrame, x: number, y: number): PagePoint | null {
  if (x < 0 || y < 0 || x > shot.width || y > shot.height) return null
  return { x: shot.scrollX + (x * shot.viewWidth) / shot.width, y: shot.scrollY + (y * shot.viewHeight) / shot.height }
}

/** One listed element as drawn on a screenshot: its id and its box in viewport CSS pixels. */
export interface Mark {
  id: string
  x: number
  y: number
  width: number
  height: number
}

/**
 * One DOM action: what an instruction, a pack step and a flow step all become. Its type is the
 * vocabulary's (each descriptor's zod fields, src/core/vocabulary.ts): no field is written here.
 */
export type { ActionOnTarget, PageAction, PageActionOf } from '../vocabulary'
export { targetOfAction } from '../vocabulary'

/** The page as the planner reads it. */
export interface PageInfo {
  url: string
  title: string
  /** The Observe listing of the page, budgeted for the request. */
  listing: string
  /** What the page lets a person do, each with the listed ids that carry it out. */
  intents?: Intent[]
  /**
   * Only when the page has cross-origin frames: the snapshot the listing was made from, which the
   * background fills in from those frames' own content scripts and lists again, and the
   * readiness note the listing started with (src/background/frames.ts).
   */
  snapshot?: PageSnapshot
  note?: string
  /** A one-time code field or CAPTCHA the page draws: the person's to fill (core/page/challenge.ts). */
  challenge?: Challenge
}

/** A semantic lookup's best element, with the others that fitted. */
export type Found = Candidate & { candidates: Candidate[] }

/**
 * What an acting command carries for the gate every step passes: the risk
 * categories the person wants to confirm (refused with NEEDS_CONFIRMATION until the command comes
 * again `confirmed`), and the allowed and blocked sites (a step that would load a blocked one is
 * refused with BLOCKED even then).
 */
export interface StepGate {
  confirm?: RiskCategory[]
  confirmed?: boolean
  /**
   * With `confirmed`: the handle of the NEEDS_CONFIRMATION the person said yes to. The page acts
   * on that element only, drawn as the question showed it, or refuses; `confirmed`
   * without a handle it still holds acts on nothing.
   */
  bound?: string
  /**
   * The element the person approved for this step in a whole plan (core/gate/plan.ts): acted on
   * with no question when the element located now is drawn the same way, the site lists still
   * applied; any other element asks (`planChanged`).
   */
  planned?: DrawnTarget
  sites?: SitePolicy
  /**
   * The step's value carries a saved secret: it is typed only into a field whose
   * own document is on one of these origins — checked where the field is, so a cross-origin frame
   * of a bound site gets nothing — and that field is never listed with its value again.
   */
  secretSites?: string[]
  /**
   * The run's site: the top page's URL, stamped by the sender on a command to a cross-origin
   * frame (whose content script cannot read the top page), so the frame's own site is judged
   * against the run's (src/core/step-place.ts).
   */
  runSite?: string
}

/** Each command kind: what it asks, and what a success carries. */
export interface PageCommands {
  /**
   * Reads the page; with `settle`, after it has gone quiet, counting the
   * tab's in-flight requests from `pending` and the `requests` commands that follow it.
   */
  /** `sections`: how many of the page's content blocks to list (a tab read for what it says wants more than the default). */
  read: { req: { request?: string; settle?: boolean; pending?: number; sections?: number }; res: { info: PageInfo } }
  /** A subframe's own Observe snapshot, for the background to merge into its parent's. */
  'frame.read': { req: { request?: string }; res: { snapshot: PageSnapshot } }
  /**
   * One DOM action. With `confirm`, a step whose element is risky in one of those categories is
   * refused with NEEDS_CONFIRMATION until it comes again with `confirmed`. With `sites`,
   * a step that would load a denied site fails with BLOCKED, confirmed or not.
   */
  act: {
    /** `describe`: the success carries the element's selectors and snapshot, made just before it acts. */
    req: { step: PageAction; timeoutMs: number; describe?: boolean } & StepGate
    res: ExecSuccess
  }
  /** How many elements a selector matches right now (never waits). */
  count: { req: { selector: ParsedSelector }; res: { count: number } }
  /** Semantic lookup ("the 新建 button"); AMBIGUOUS when several fit equally well. */
  find: { req: { query: string }; res: { found: Found | null } }
  url: { req: Record<never, never>; res: { url: string } }
  /** One recorded flow step, its element resolved with the flow's guarantees. */
  'flow.step': {
    req: { step: FlowStep; timeoutMs: number; trusted?: boolean; files?: UploadFile[] } & StepGate
    res: { outcome: StepOutcome; navigating?: boolean; openTab?: string }
  }
  /** The elements of instructions (targetOf), described as a flow records them (null where gone). */
  'flow.describe': { req: { targets: (PageTarget | null)[] }; res: { targets: (RecordedTarget | null)[] } }
  /**
   * The elements of a plan's steps, each located as its step would locate it and drawn as a person
   * sees it, without acting (core/gate/plan.ts); null where nothing is found now.
   */
  draw: { req: { targets: PageTarget[]; timeoutMs: number }; res: { drawn: (DrawnTarget | null)[] } }
  /** Starts or stops recording the person's own actions (events go to the background as they happen). */
  record: { req: { on: boolean }; res: Record<never, never> }
  /** The debug overlay of indexed elements. */
  /** The debug overlay of indexed elements; with `ids`, only those (a claim's sources, while the person hovers it). */
  overlay: { req: { on: boolean; ids?: string[] }; res: { on: boolean; elements: number } }
  /**
   * Ava's marks for a screenshot (docs/agent.md, "Screenshots"): `on` draws each listed element's
   * box and id (ids get `prefix` in a frame the background merged under one) and blacks out every
   * field holding a secret, in a closed shadow root, and answers once they are painted; `off`
   * removes them. `blackout`: this frame's document is on a site never captured, and is drawn
   * black whole. `poor`: why the listing alone may not be enough (a canvas, unnamed images, few
   * elements). `hide`: secret values whose every drawing is blacked out too (text, a field's
   * value, in any shape the redactor knows), `since` when a secret was first typed in the tab
   * (epoch ms); `unsure`: what this document shows that could draw one
   * where Ava cannot read it (a canvas, a picture loaded after a secret was typed, a frame without
   * Ava): then the picture is not sent (docs/security.md, "Pictures").
   */
  marks: {
    req: { on: boolean; prefix?: string; blackout?: boolean; hide?: string[]; since?: number }
    res: {
      marks: Mark[]
      blacked: number
      poor: string[]
      unsure?: string[]
      view: Omit<ShotFrame, 'width' | 'height'> & { dpr: number }
    }
  }
  /** The tab's in-flight request count, pushed while a settling read waits (no polling). */
  requests: { req: { pending: number }; res: Record<never, never> }
  /**
   * One round of reading a feed or table (core/page/collect.ts): the items drawn now, after one
   * scroll unless `first`. `target` names the list or its scroll box; `session` keeps it across rounds.
   */
  collect: {
    req: { session: string; first: boolean; target?: PageTarget; timeoutMs: number }
    res: { round: CollectRound }
  }
}

export type PageCommandKind = keyof PageCommands
export type PageCommand<K extends PageCommandKind = PageCommandKind> = K extends PageCommandKind
  ? { kind: K } & PageCommands[K]['req']
  : never
/** Errors are data, with one error type for every kind (ExecFailure). */
export type PageOutcome<K extends PageCommandKind = PageCommandKind> =
  ({ ok: true } & PageCommands[K]['res']) | ExecFailure

/** The sending half as core sees it: one function, whatever carries the command. */
export type SendCommand = <K extends PageCommandKind>(
  command: PageCommand<K>,
  signal?: AbortSignal,
) => Promise<PageOutcome<K>>

/**
 * Whether the document may legitimately go away while it holds this command: then its going
 * away means the step did its job, and the next command goes to the next document.
 */
export function mayNavigate(command: PageCommand): boolean {
  if (command.kind === 'act') return domAction(command.step.action).navigates
  if (command.kind === 'flow.step') return flowStepNavigates(command.step.action)
  return false
}

/** The success a command whose document navigated away under it reports (see mayNavigate). */
export function navigatedOutcome<K extends PageCommandKind>(command: PageCommand<K>): PageOutcome<K> | null {
  if (!mayNavigate(command)) return null
  if (command.kind === 'act') return { ok: true, detail: 'The page navigated', navigating: true } as PageOutcome<K>
  return {
    ok: true,
    outcome: { ok: true, level: null, alternative: 0, resolveMs: 0, actMs: 0, detail: 'The page navigated' },
  } as PageOutcome<K>
}

/** A target written with selector text, its selectors parsed (the ones refused kept as messages). */
export function parsedTarget(t: { targetId?: string; selectors?: string[]; semantic?: string }): PageTarget {
  const out: PageTarget = { targetId: t.targetId, semantic: t.semantic }
  if (!t.selectors) return out
  out.selectors = []
  for (const raw of t.selectors) {
    const r = safeParseSelector(raw)
    if (r.success) out.selectors.push(r.data)
    else (out.invalid ??= []).push(r.error.message)
  }
  return out
}

/**
 * The target an instruction names, as the ladder tries it: id, then selector, then description;
 * or a point of the last screenshot (`shot`), which names the element drawn there and nothing else.
 */
export function targetOf(p: Instruction['params'], shot?: ShotFrame): PageTarget | undefined {
  if (p.x !== undefined && p.y !== undefined)
    return { point: (shot && pointOnPage(shot, p.x, p.y)) || { x: -1, y: -1 } }
  if (!p.target_id && !p.fallback_selector && !p.semantic_locator) return undefined
  return parsedTarget({
    targetId: p.target_id,
    selectors: p.fallback_selector ? [p.fallback_selector] : undefined,
    semantic: p.semantic_locator,
  })
}

/** Words by which a step says its values are the whole choice of a multi-select, not additions. */
const kOnlyWords = /\b(only|instead|just)\b|只|仅|改为|换成/i

/**
 * The instruction's page types mapped onto DOM actions: the one place the
 * model's words become the page's (which action each becomes is its descriptor's `runs`, and how
 * its fields are filled its `build`, in src/core/vocabulary.ts); null for the agent's own
 * (run_action, done). `shot`: the screenshot the model saw, for steps that name points in it.
 */
export function actionOf(ins: Instruction, shot?: ShotFrame): PageAction | null {
  const d = instructionKind(ins.action_type)
  if (!d?.runs || !isDomAction(d.runs)) return null
  const dom = domAction(d.runs)
  const fields = dom.fields
  const build = d.build ?? {}
  const p = ins.params
  const out: Record<string, unknown> = { action: d.runs }
  for (const [field, param] of Object.entries(build.copy ?? {})) if (param) out[field] = p[param]
  Object.assign(out, build.fixed)
  // A point outside the screenshot maps to nowhere: the page then finds no element there.
  const path =
    build.target === 'path' ? (p.path ?? []).map(([x, y]) => (shot && pointOnPage(shot, x, y)) || { x: -1, y: -1 }) : []
  if ('path' in fields) out.path = path
  if ('target' in fields) {
    const named = targetOf(p, shot)
    const fallback = {
      focused: { focused: true },
      path: { point: path[0] },
      selector: parsedTarget({ selectors: p.selector ? [p.selector] : [] }),
    } satisfies Record<NonNullable<typeof build.target>, PageTarget>
    if (build.target === 'selector') out.target = fallback.selector
    else out.target = named ?? (build.target ? fallback[build.target] : dom.target === 'required' ? {} : undefined)
    if ('at' in fields && named?.point) out.at = named.point
  }
  // The element actions: fill, select and upload carry the value (upload: the attached file's
  // name; its bytes are added by whoever holds them, the panel's picked files).
  if ('value' in fields && !('value' in out)) out.value = p.value ?? ''
  if ('replace' in fields && kOnlyWords.test(ins.description ?? '')) out.replace = true
  return out as PageAction
}

/** A success or a failure of one kind, for a caller that wants only its data. */
export function isFailure(out: { ok: boolean }): out is ExecFailure {
  return out.ok === false
}
