/**
 * The one step vocabulary (STYLE.md, "One vocabulary per idea"): every kind of step Ava knows —
 * the model's instructions, the DOM actions the page runs, the steps of a recorded flow — is
 * defined here once, as a descriptor, and every other file asks this one instead of keeping its own
 * list of names. The recipe for a new action is in docs/architecture.md ("A new action");
 * `test/core/vocabulary.test.ts` fails when a descriptor lacks a part or another file under src/
 * spells out its own list of action names.
 *
 * Three tables, one per layer of words, and the one place that maps between them:
 * - `kDomActions`: what the page does (`PageAction`, src/core/page/command.ts). Each says its
 *   fields (zod; `PageActionSchema` is their discriminated union), whether it counts against the
 *   step limit, whether it may take its document with it, what the page's gate judges, how the
 *   person is told of it (English and Chinese, pulled into the locale tables as `vocab.dom.*`),
 *   and which instruction it is shown as.
 * - `kInstructions`: the model's words (src/core/instruction/schema.ts): which params each needs
 *   and the DOM action it becomes (`toAction`).
 * - `kFlowSteps`: a recorded flow's step actions (src/core/flows/schema.ts): the DOM action a
 *   replay runs, whether it needs an element, whether it counts.
 */
import { z } from 'zod'
import type { ParsedSelector } from './page/selectors'
import type { RawStep } from './registry/schema'
import type { BrowserPort } from './registry/port'
import type { DevToolsStep } from './flows/devtools'
import type { InstructionParams } from './instruction/schema'

/**
 * How the risk check reads an element an action sets going (src/dom/risk.ts): as a pointer
 * activates it (its name, icons, styling, dialog and row: a button that deletes, pays, grants), or
 * as a key pressed in it (only the form it would send).
 */
export type RiskReading = 'pointer' | 'key'

/**
 * How an action may send its page elsewhere (src/dom/offsite.ts `navigationOf`): by activating its
 * element (a link followed, a submit button pressed), by a key (Enter sends the form, Space presses
 * a button; as the key says), or by submitting the element's form.
 */
export type SendsBy = 'activation' | 'key' | 'form'

/** How the page's gate judges an action before it runs (src/dom/page/receiver.ts, src/core/step-place.ts). */
export interface GateNeeds {
  /** Reads the element's risk words (buttons that delete, pay, grant) this way (src/dom/risk.ts). */
  risk?: RiskReading
  /**
   * Changes a frame's state or sends from it: where it acts is judged (the frame's site, a secret
   * typed there, an upload's files). Reading, hovering, scrolling and waiting do not.
   */
  changes: boolean
}

/** A sentence for the person in both languages; `{what}` is the element as the person reads it. */
export interface Says {
  en: string
  zh: string
}

export interface DomActionDescriptor<N extends string = string, F extends z.ZodRawShape = z.ZodRawShape> {
  name: N
  /** Its fields besides `action` (each optional unless the action cannot run without it); `PageAction` is their type. */
  fields: F
  /** required: the page locates an element first; optional: when one is named; none: page-wide. */
  target: 'required' | 'optional' | 'none'
  /** Its element may be plain text (a hover menu, a clickable label), not only a control. */
  onText?: boolean
  /** Counts against the run's step limit: it may change the page (every gate asks `countsAsStep`). */
  counts: boolean
  /** May take its document with it (a link, a submit, Enter): its going away means it did its job. */
  navigates: boolean
  /** How it sends the page elsewhere, judged before it acts; none: it sends nothing itself (a drag's drop is the page's doing). */
  sends?: SendsBy
  /**
   * A link it follows into a new tab or window is opened by the background instead: a script's
   * click would meet the popup blocker (src/dom/page/receiver.ts).
   */
  opensTab?: boolean
  gate: GateNeeds
  says: Says
  /**
   * The model's instruction a person sees it as (a row in the panel for an MCP client's step);
   * none: not shown. A name of `kInstructions` (the meta-test checks; typed as text so the two
   * tables may refer to each other).
   */
  shownAs?: string
}

// ── the DOM actions ─────────────────────────────────────────────────────────────────────────

const kMaxText = 20_000 // a typed value may be a long message; the instruction schema bounds the model's at 2,000
const Selector = z.custom<ParsedSelector>(
  (v) => !!v && typeof v === 'object' && typeof (v as { kind?: unknown }).kind === 'string',
  'a parsed selector',
)
/** A point in the top document, CSS pixels from its top-left (a point the model named in a screenshot). */
const Point = z.strictObject({ x: z.number().finite(), y: z.number().finite() })
export const PageTargetSchema = z.strictObject({
  targetId: z.string().max(200).optional(),
  selectors: z.array(Selector).max(16).optional(),
  invalid: z.array(z.string().max(2_000)).max(16).optional(),
  semantic: z.string().max(2_000).optional(),
  focused: z.boolean().optional(),
  point: Point.optional(),
})
export const UploadFileSchema = z.strictObject({
  name: z.string().min(1).max(500),
  mimeType: z.string().max(200).optional(),
  base64: z.string(),
  site: z.string().max(4_096).optional(),
  served: z.boolean().optional(),
})
const Value = z.union([z.string().max(kMaxText), z.array(z.string().max(kMaxText)).max(500)])
const Target = PageTargetSchema
const Direction = z.enum(['up', 'down', 'left', 'right', 'top', 'bottom'])

/** Pointer and key actions the risk words are read for, and that send or change state. */
const clicking: GateNeeds = { risk: 'pointer', changes: true }
const changing: GateNeeds = { changes: true }
const looking: GateNeeds = { changes: false }

function dom<const N extends string, F extends z.ZodRawShape>(d: DomActionDescriptor<N, F>): DomActionDescriptor<N, F> {
  return d
}

/** The instruction format's nine page actions and what packs and uploads add. */
export const kDomActions = [
  dom({
    name: 'navigate',
    fields: { value: z.string().max(4_096) },
    target: 'none',
    counts: true,
    navigates: true,
    gate: looking,
    says: { en: 'Open {what}', zh: '打开 {what}' },
  }),
  dom({
    name: 'click',
    fields: {
      target: Target,
      button: z.enum(['left', 'right', 'middle']).optional(),
      count: z.number().int().min(1).max(3).optional(),
      at: Point.optional(),
    },
    target: 'required',
    onText: true,
    counts: true,
    navigates: true,
    sends: 'activation',
    opensTab: true,
    gate: clicking,
    says: { en: 'Click {what}', zh: '点击 {what}' },
    shownAs: 'click',
  }),
  dom({
    name: 'dblclick',
    fields: { target: Target },
    target: 'required',
    onText: true,
    counts: true,
    navigates: true,
    sends: 'activation',
    gate: clicking,
    says: { en: 'Double-click {what}', zh: '双击 {what}' },
    shownAs: 'click',
  }),
  dom({
    name: 'fill',
    fields: { target: Target, value: Value },
    target: 'required',
    counts: true,
    navigates: false,
    gate: changing,
    says: { en: 'Fill in {what}', zh: '填写 {what}' },
    shownAs: 'input',
  }),
  dom({
    name: 'type',
    fields: { target: Target, value: Value, delayMs: z.number().min(0).max(1_000).optional() },
    target: 'required',
    counts: true,
    navigates: false,
    gate: changing,
    says: { en: 'Type into {what}', zh: '在 {what} 中输入' },
    shownAs: 'input',
  }),
  dom({
    name: 'select',
    // replace: the values are the whole choice of a list that takes several ("only Bob"); without
    // it such a list keeps what was chosen before and adds them.
    fields: { target: Target, value: Value, replace: z.boolean().optional() },
    target: 'required',
    counts: true,
    navigates: false,
    gate: changing,
    says: { en: 'Choose in {what}', zh: '在 {what} 中选择' },
    shownAs: 'select',
  }),
  dom({
    name: 'check',
    fields: { target: Target },
    target: 'required',
    counts: true,
    navigates: false,
    gate: changing,
    says: { en: 'Tick {what}', zh: '勾选 {what}' },
    shownAs: 'click',
  }),
  dom({
    name: 'uncheck',
    fields: { target: Target },
    target: 'required',
    counts: true,
    navigates: false,
    gate: changing,
    says: { en: 'Untick {what}', zh: '取消勾选 {what}' },
    shownAs: 'click',
  }),
  dom({
    name: 'hover',
    fields: { target: Target, at: Point.optional() },
    target: 'required',
    onText: true,
    counts: true,
    navigates: false,
    gate: looking,
    says: { en: 'Point at {what}', zh: '指向 {what}' },
    shownAs: 'hover',
  }),
  dom({
    name: 'focus',
    fields: { target: Target },
    target: 'required',
    counts: true,
    navigates: false,
    gate: looking,
    says: { en: 'Focus {what}', zh: '聚焦 {what}' },
  }),
  dom({
    name: 'press',
    fields: { key: z.string().min(1).max(100), target: Target.optional() },
    target: 'optional',
    counts: true,
    navigates: true,
    sends: 'key',
    gate: { risk: 'key', changes: true },
    says: { en: 'Press a key in {what}', zh: '在 {what} 中按键' },
    shownAs: 'press',
  }),
  dom({
    name: 'scroll',
    fields: {
      target: Target.optional(),
      direction: Direction.optional(),
      amount: z.number().min(0).max(1_000_000).optional(),
    },
    target: 'optional',
    onText: true,
    counts: true,
    navigates: false,
    gate: looking,
    says: { en: 'Scroll {what}', zh: '滚动 {what}' },
    shownAs: 'scroll',
  }),
  dom({
    name: 'submit',
    fields: { target: Target },
    target: 'required',
    counts: true,
    navigates: true,
    sends: 'form',
    gate: clicking,
    says: { en: 'Submit {what}', zh: '提交 {what}' },
    shownAs: 'click',
  }),
  // wait looks for its element itself, for as long as it waits (not located first).
  dom({
    name: 'wait',
    fields: {
      target: Target.optional(),
      state: z.enum(['attached', 'visible', 'hidden', 'detached']).optional(),
      text: z.string().max(kMaxText).optional(),
      url: z.string().max(4_096).optional(),
    },
    target: 'none',
    counts: false,
    navigates: false,
    gate: looking,
    says: { en: 'Wait for {what}', zh: '等待 {what}' },
  }),
  dom({
    name: 'verify',
    fields: { assertion: z.string().max(kMaxText).optional() },
    target: 'none',
    counts: false,
    navigates: false,
    gate: looking,
    says: { en: 'Check that {what}', zh: '检查 {what}' },
  }),
  dom({
    name: 'getText',
    fields: { target: Target },
    target: 'required',
    onText: true,
    counts: false,
    navigates: false,
    gate: looking,
    says: { en: 'Read {what}', zh: '读取 {what}' },
  }),
  dom({
    name: 'getAttribute',
    fields: { target: Target, name: z.string().min(1).max(200) },
    target: 'required',
    onText: true,
    counts: false,
    navigates: false,
    gate: looking,
    says: { en: 'Read an attribute of {what}', zh: '读取 {what} 的属性' },
  }),
  // A pointer pressed, moved along a path and let go over one element: a signature pad, a slider.
  dom({
    name: 'drag',
    fields: { target: Target, path: z.array(Point).min(1).max(500) },
    target: 'required',
    counts: true,
    navigates: true,
    gate: clicking,
    says: { en: 'Drag over {what}', zh: '在 {what} 上拖动' },
    shownAs: 'drag',
  }),
  dom({
    name: 'upload',
    fields: { target: Target, files: z.array(UploadFileSchema).max(50).optional(), value: Value.optional() },
    target: 'required',
    counts: true,
    navigates: false,
    gate: changing,
    says: { en: 'Upload a file into {what}', zh: '向 {what} 上传文件' },
    shownAs: 'upload',
  }),
] as const

export type DomActionName = (typeof kDomActions)[number]['name']
export const kDomActionNames = kDomActions.map((d) => d.name) as readonly DomActionName[] as readonly [
  DomActionName,
  ...DomActionName[],
]

const kDomByName = new Map<string, DomActionDescriptor>(kDomActions.map((d) => [d.name, d]))

/** The descriptor of a DOM action; throws on a name the vocabulary does not have (a bug, not input). */
export function domAction(name: string): DomActionDescriptor {
  const d = kDomByName.get(name)
  if (!d) throw new Error(`"${name}" is not a DOM action of the vocabulary (src/core/vocabulary.ts)`)
  return d
}

export function isDomAction(name: string): name is DomActionName {
  return kDomByName.has(name)
}

/**
 * One DOM action as data, checked strictly: each action takes its own fields only (a click that
 * carries an assertion or a file is refused). Used where a step comes from outside the extension
 * (an MCP client's command) before it reaches any gate.
 */
export const PageActionSchema = z.discriminatedUnion(
  'action',
  kDomActions.map((d) => z.strictObject({ action: z.literal(d.name), ...d.fields })) as unknown as [
    z.ZodObject<{ action: z.ZodLiteral<DomActionName> }>,
    ...z.ZodObject<{ action: z.ZodLiteral<DomActionName> }>[],
  ],
)

/** One DOM action as data: what an instruction, a pack step and a flow step all become (the union of each descriptor's fields). */
export type PageAction = ActionOf<(typeof kDomActions)[number]>
type ActionOf<D> = D extends { name: infer N; fields: infer F extends z.ZodRawShape }
  ? { action: N } & z.infer<z.ZodObject<F, z.core.$strict>>
  : never
/** An action and the element it names, whatever else it carries (what a gate draws and judges). */
export interface ActionOnTarget {
  action: DomActionName
  target?: z.infer<typeof PageTargetSchema>
}
/** The element a DOM action names; none for a page-wide one. */
export function targetOfAction(a: PageAction): z.infer<typeof PageTargetSchema> | undefined {
  return 'target' in a ? a.target : undefined
}
type AnyKey<A> = A extends unknown ? keyof A : never
type ValueAt<A, K extends PropertyKey> = A extends unknown ? (K extends keyof A ? A[K] : never) : never
/**
 * Every field any DOM action may carry, each optional: for code that reads a field of whatever
 * action holds it (the page's gate reads a key, files or a path wherever a step has them).
 */
export type AnyActionFields = { [K in AnyKey<PageAction>]?: Exclude<ValueAt<PageAction, K>, undefined> }
export function fieldsOf(a: PageAction): AnyActionFields {
  return a as AnyActionFields
}
/** One DOM action of one name. */
export type PageActionOf<N extends DomActionName> = Extract<PageAction, { action: N }>

/** Whether a DOM action counts against the step limit: every gate that counts asks this, whatever wrote the step. */
export function countsAsStep(action: string): boolean {
  return kDomByName.get(action)?.counts ?? true
}

/**
 * Whether one of the model's instructions counts against the step limit: the rule of the DOM action
 * it runs (a `verify` or a `wait` reads and does not count). `run_action` counts its pack's steps
 * one by one as they reach the page; `done`, `ask`, `collect` and `screenshot` change nothing.
 */
export function instructionCounts(name: string): boolean {
  const d = kInstructions.find((i) => i.name === name)
  if (!d) return true
  if (d.tab) return tabAction(d.tab).counts
  return d.runs ? countsAsStep(d.runs) : false
}

// ── the browser's actions on the run's tabs ─────────────────────────────────────────────────

/**
 * An action of the browser rather than of a page (docs/agent.md, "Tabs"): it opens, shows, reads
 * or closes one of the run's tabs. The agent runs it (src/core/agent/tabs.ts `kTabRuns`) through
 * the guard's tab rule (core/gate/guard.ts `judgeTab`); no page command carries it. Each one is
 * also the model's instruction of the same name, made here from the descriptor.
 */
export interface TabActionDescriptor<N extends string = string> {
  name: N
  /** What it names: a page to open (`url`) or one of the run's tabs by its number (`tab`). */
  needs: 'url' | 'tab'
  /** Counts against the run's step limit: it loads or closes a page (a switch or a read changes none). */
  counts: boolean
  /** What the guard judges before it runs (`judgeTab`): the page it opens, the page it shows or reads, or nothing (it only closes). */
  judges: 'open' | 'read' | 'none'
  /** The system prompt's line for it, after `- name: ` (src/core/agent/prompt.ts). */
  teach: string
  says: Says
  /** The line under its step when it worked, `{n}` the tab's number (in the locale tables as `vocab.tab.*`). */
  did: Says
}

function tab<const N extends string>(d: TabActionDescriptor<N>): TabActionDescriptor<N> {
  return d
}

export const kTabActions = [
  tab({
    name: 'open_tab',
    needs: 'url',
    counts: true,
    judges: 'open',
    teach:
      'url; opens the page in a new tab of this run (in the background: read it with read_tab, act on it after switch_tab). To compare pages, open each in its own tab.',
    says: { en: 'Open a tab', zh: '打开标签页' },
    did: { en: 'opened in tab {n}', zh: '已在标签页 {n} 中打开' },
  }),
  tab({
    name: 'switch_tab',
    needs: 'tab',
    counts: false,
    judges: 'read',
    teach: 'tab (its number in the list of this run’s tabs); your next steps act on that tab.',
    says: { en: 'Switch to a tab', zh: '切换到标签页' },
    did: { en: 'now in tab {n}', zh: '现在在标签页 {n}' },
  }),
  tab({
    name: 'read_tab',
    needs: 'tab',
    counts: false,
    judges: 'read',
    teach: 'tab; its page comes back with the results, without leaving the tab you are on.',
    says: { en: 'Read a tab', zh: '读取标签页' },
    did: { en: 'read tab {n}', zh: '已读取标签页 {n}' },
  }),
  tab({
    name: 'close_tab',
    needs: 'tab',
    counts: true,
    judges: 'none',
    teach: 'tab; only a tab you opened with open_tab can be closed.',
    says: { en: 'Close a tab', zh: '关闭标签页' },
    did: { en: 'closed tab {n}', zh: '已关闭标签页 {n}' },
  }),
] as const

export type TabActionName = (typeof kTabActions)[number]['name']

const kTabByName = new Map<string, TabActionDescriptor>(kTabActions.map((d) => [d.name, d]))

/** The descriptor of a tab action; throws on a name the vocabulary does not have (a bug, not input). */
export function tabAction(name: string): TabActionDescriptor {
  const d = kTabByName.get(name)
  if (!d) throw new Error(`"${name}" is not a tab action of the vocabulary (src/core/vocabulary.ts)`)
  return d
}

export function isTabAction(name: string): name is TabActionName {
  return kTabByName.has(name)
}

/** Each tab action as the model's instruction of the same name: it needs what the action names. */
function tabInstructions() {
  return kTabActions.map((d) => instruction({ name: d.name, all: [d.needs], tab: d.name, says: d.says }))
}

// ── the model's instructions ────────────────────────────────────────────────────────────────

/** The params an instruction may carry (src/core/instruction/schema.ts InstructionParamsSchema). */
export type InstructionParam =
  | 'url'
  | 'semantic_locator'
  | 'fallback_selector'
  | 'target_id'
  | 'value'
  | 'assertion'
  | 'selector'
  | 'key'
  | 'direction'
  | 'action'
  | 'args'
  | 'answer'
  | 'claims'
  | 'fields'
  | 'question'
  | 'choices'
  | 'limit'
  | 'x'
  | 'y'
  | 'path'
  | 'tab'

export interface InstructionDescriptor<N extends string = string> {
  name: N
  /** Params it cannot run without; an empty string counts as missing except for `value` (clearing a field). */
  all?: readonly InstructionParam[]
  /** At least one of these (how it names its element). */
  oneOf?: readonly InstructionParam[]
  /** The DOM action it becomes (command.ts `actionOf` builds it); none: the agent's own (run_action, done). A name of `kDomActions`. */
  runs?: string
  /**
   * The flow step a run's instruction is saved as (src/core/flows/from-run.ts), a name of
   * `kFlowSteps`; none: not saved as one step (a verify becomes one check per quoted word there).
   */
  flow?: string
  /**
   * The saved flow step's params, from the instruction's (src/core/flows/from-run.ts); none: it
   * takes none (a click), or, for one that `types`, the value typed (kept as a variable, a vault
   * reference as one, a secret asked at replay).
   */
  saves?: (p: InstructionParams) => FlowParams
  /** Params it may take besides those it needs (a collect may name the list it reads). */
  may?: readonly InstructionParam[]
  /** Params no other instruction takes: a reader of loose shapes files a field of that name under this one only. */
  own?: readonly InstructionParam[]
  /** The browser action it is (a name of `kTabActions`): run by the agent with the run's tabs, not sent to a page. */
  tab?: string
  /**
   * How its DOM action is built from its params (src/core/page/command.ts `actionOf`). By default
   * the element it names, its `value` when the action takes one, the point on the element when it
   * named one, and `replace` when its description says its values are the whole choice.
   */
  build?: InstructionBuild
  /** Only a model that sees (screenshots) is taught it and may use it: its params are pixels of a screenshot. */
  sees?: boolean
  /** Ends the run with its answer (the agent's own `done`). */
  ends?: boolean
  /**
   * How the agent runs it itself, being no page action and no tab action: a pack action, a question
   * to the person, a feed gathered, a downloaded file read, a screenshot taken for the next turn.
   */
  agent?: AgentWork
  /** Checks the page for the words it quotes (a verify): what passes is the run's evidence. */
  checks?: boolean
  /** Types words the model wrote into a field: a code the model made up is judged (src/core/gate/challenge.ts). */
  types?: boolean
  says: Says
}

/** The agent's own ways of running an instruction (`InstructionDescriptor.agent`). */
export type AgentWork = 'pack' | 'question' | 'gather' | 'readFile' | 'picture'

export interface InstructionBuild {
  /** DOM action field ← the param copied into it as is. */
  copy?: Readonly<Partial<Record<string, InstructionParam>>>
  /** The element when it names none: the focused one (a key), the first point of its `path`, or its `selector`. */
  target?: 'focused' | 'path' | 'selector'
  /** Fields every such action carries (a wait for an element waits for it to show). */
  fixed?: Readonly<Record<string, string>>
}

const kElement = ['target_id', 'semantic_locator', 'fallback_selector'] as const

function instruction<const N extends string>(d: InstructionDescriptor<N>): InstructionDescriptor<N> {
  return d
}

/** The nine page actions, `upload`, the agent loop's two, `ask` and `collect`, and `drag` and `screenshot` for models that see. */
export const kInstructions = [
  instruction({
    name: 'navigate',
    all: ['url'],
    runs: 'navigate',
    flow: 'navigate',
    saves: (p) => ({ url: p.url ?? '' }),
    build: { copy: { value: 'url' } },
    says: { en: 'Open a page', zh: '打开页面' },
  }),
  instruction({
    name: 'click',
    oneOf: [...kElement, 'x'],
    runs: 'click',
    flow: 'click',
    says: { en: 'Click', zh: '点击' },
  }),
  instruction({
    name: 'input',
    types: true,
    all: ['value'],
    oneOf: kElement,
    runs: 'fill',
    flow: 'fill',
    says: { en: 'Type', zh: '输入' },
  }),
  instruction({
    name: 'verify',
    checks: true,
    all: ['assertion'],
    runs: 'verify',
    build: { copy: { assertion: 'assertion' } },
    says: { en: 'Check', zh: '检查' },
  }),
  instruction({
    name: 'wait',
    all: ['selector'],
    runs: 'wait',
    build: { target: 'selector', fixed: { state: 'visible' } },
    says: { en: 'Wait', zh: '等待' },
  }),
  instruction({
    name: 'select',
    all: ['value'],
    oneOf: kElement,
    runs: 'select',
    flow: 'select',
    saves: (p) => ({ value: p.value ?? '' }),
    says: { en: 'Choose', zh: '选择' },
  }),
  instruction({
    name: 'hover',
    oneOf: [...kElement, 'x'],
    runs: 'hover',
    flow: 'hover',
    says: { en: 'Point at', zh: '指向' },
  }),
  instruction({
    name: 'press',
    all: ['key'],
    runs: 'press',
    flow: 'press',
    saves: (p) => ({ key: p.key ?? 'Enter' }),
    // A key pressed with no target goes to the focused element.
    build: { copy: { key: 'key' }, target: 'focused' },
    says: { en: 'Press a key', zh: '按键' },
  }),
  instruction({
    name: 'scroll',
    oneOf: ['direction', ...kElement],
    runs: 'scroll',
    flow: 'scroll',
    // A flow scrolls up or down; to the top is up, to the bottom down.
    saves: (p) => ({ direction: p.direction === 'up' || p.direction === 'top' ? 'up' : 'down' }),
    build: { copy: { direction: 'direction' } },
    says: { en: 'Scroll', zh: '滚动' },
  }),
  instruction({
    name: 'upload',
    all: ['value'],
    oneOf: kElement,
    runs: 'upload',
    says: { en: 'Upload a file', zh: '上传文件' },
  }),
  // A path of points in the last screenshot; not saved in a flow: a path is one page's pixels.
  instruction({
    name: 'drag',
    all: ['path'],
    runs: 'drag',
    own: ['path'],
    build: { target: 'path' },
    sees: true,
    says: { en: 'Drag', zh: '拖动' },
  }),
  instruction({
    name: 'run_action',
    agent: 'pack',
    all: ['action'],
    // The same pack action, its args the step's other params.
    flow: 'run',
    saves: (p) => ({
      ...Object.fromEntries(Object.entries(p.args ?? {}).filter(([, v]) => v !== null)),
      action: p.action ?? '',
    }),
    own: ['action', 'args'],
    says: { en: 'Run a pack action', zh: '运行动作包中的动作' },
  }),
  instruction({ name: 'done', own: ['answer', 'claims', 'fields'], ends: true, says: { en: 'Answer', zh: '回答' } }),
  // Work only the person or a whole page can do: a question that pauses the run, a feed gathered.
  instruction({
    name: 'ask',
    agent: 'question',
    all: ['question'],
    own: ['question', 'choices'],
    says: { en: 'Ask you', zh: '问你' },
  }),
  instruction({
    name: 'collect',
    agent: 'gather',
    own: ['limit'],
    may: kElement,
    says: { en: 'Collect items', zh: '收集条目' },
  }),
  // A marked screenshot with the next page read, for a model that sees (docs/agent.md, "Screenshots").
  instruction({ name: 'screenshot', agent: 'picture', sees: true, says: { en: 'Take a screenshot', zh: '截图' } }),
  // A file a page downloaded during the run, read in the background (docs/agent.md, "Files the page hands over").
  instruction({
    name: 'read_file',
    agent: 'readFile',
    all: ['value'],
    says: { en: 'Read a downloaded file', zh: '读取下载的文件' },
  }),
  // The browser's own actions on the run's tabs: each is the instruction of the same name.
  ...tabInstructions(),
] as const

export type InstructionName = (typeof kInstructions)[number]['name']
export const kInstructionNames = kInstructions.map((d) => d.name) as readonly InstructionName[] as readonly [
  InstructionName,
  ...InstructionName[],
]
/** The instructions that act on the page (all but the agent loop's own). */
export const kPageInstructionNames = kInstructions
  .filter((d) => d.runs)
  .map((d) => d.name) as readonly InstructionName[] as readonly [InstructionName, ...InstructionName[]]

const kInstructionByName = new Map<string, InstructionDescriptor>(kInstructions.map((d) => [d.name, d]))

export function instructionKind(name: string): InstructionDescriptor | undefined {
  return kInstructionByName.get(name)
}

/** Whether an instruction names a page to open (`url`): in the tab it acts on, or in a new one. */
export function instructionOpens(name: string): boolean {
  return !!kInstructionByName.get(name)?.all?.includes('url')
}

/** Whether an instruction loads a page into the tab it acts on (a page action that names a `url`). */
export function instructionLoads(name: string): boolean {
  const d = kInstructionByName.get(name)
  return !!d?.runs && !!d.all?.includes('url')
}

/**
 * Whether an instruction changes nothing and sends nothing: it reads, looks or points (a verify,
 * a wait, a scroll, a hover), or answers (done). What it does cannot be the page's idea of harm.
 */
export function instructionOnlyLooks(name: string): boolean {
  const d = kInstructionByName.get(name)
  if (!d) return false
  if (d.ends) return true
  const dom = d.runs ? kDomByName.get(d.runs) : undefined
  return !!dom && !dom.gate.changes && !dom.navigates
}

/** How the agent runs an instruction itself (a pack action, a question, …); undefined for a page or tab action. */
export function agentWork(name: string): AgentWork | undefined {
  return kInstructionByName.get(name)?.agent
}

/** Whether an instruction ends the run with its answer (`done`). */
export function instructionEnds(name: string): boolean {
  return !!kInstructionByName.get(name)?.ends
}

/** Whether an instruction's page action takes files (an upload). */
export function instructionTakesFiles(name: string): boolean {
  const runs = kInstructionByName.get(name)?.runs
  return !!runs && domActionTakesFiles(runs)
}

/** Whether a DOM action puts files into its element (an upload): where they go is judged. */
export function domActionTakesFiles(name: string): boolean {
  return 'files' in (kDomByName.get(name)?.fields ?? {})
}

/** Whether only a model that sees (screenshots) is taught an instruction and may use it. */
export function seesOnly(name: string): boolean {
  return !!kInstructionByName.get(name)?.sees
}

// ── a recorded flow's steps ─────────────────────────────────────────────────────────────────

/** A flow step's params as the flow format holds them (src/core/flows/schema.ts). */
export type FlowParams = Readonly<Record<string, string | number | boolean>>

/** What the pack exporter (src/core/flows/to-pack.ts) hands a step's rule. */
export interface PackExport {
  p: FlowParams
  /** `{ selector: '${selectors.alias}' }` when the step names its element, else empty. */
  sel: { selector?: string }
  alias: string | null
  /** A flow value as a pack template: `${name}` → `${params.name}` (or the vault's `${env.…}`). */
  text: (v: unknown) => string
}

/** What the DevTools Recorder exporter (src/core/flows/devtools.ts) hands a step's rule. */
export interface DevToolsExport {
  p: FlowParams
  /** The element as Recorder selectors; null when none of its locators has a Recorder form. */
  target: { selectors: string[][] } | null
  /** Where a click lands inside the element (the Recorder requires an offset). */
  click: { offsetX: number; offsetY: number }
  /** A flow value with its variables' defaults (secrets empty). */
  value: (v: unknown) => string
  /** A key chord as the keys pressed, in order. */
  keys: (chord: string) => string[]
  /** The step's check as a Recorder assertion, or null when it has none. */
  check: () => DevToolsStep | null
}

/** What the Playwright spec exporter (src/core/flows/playwright.ts) hands a step's words. */
export interface SpecWords {
  p: FlowParams
  /** The element as a person reads it: its recorded text, or its primary selector. */
  target: () => string
  /** Whether the step names its element by selectors, and the primary one. */
  selector?: string
  /** A value quoted, or "the secret NAME". */
  value: (v: unknown) => string
}

export interface FlowStepDescriptor<N extends string = string> {
  name: N
  /** The DOM action a replay runs for it (a name of `kDomActions`); none: the replayer's own (run, tab, done) or a read in the page (check.ts). */
  runs?: string
  /** Needs `selectors` naming its element (and may be repaired when they miss). */
  element: boolean
  /** Checks the page instead of acting on it (a replay without one passes on a wrong page). */
  check?: boolean
  /**
   * Counts against the step limit; default: as the DOM action it runs does (one rule for every
   * source: a replayed hover counts as the model's does), else no (`run` counts its pack's own steps).
   */
  counts?: boolean
  /** May take its document with it; default: as the DOM action it runs does. */
  navigates?: boolean
  /** The page acting on its element: which field of its DOM action each param fills (src/dom/recorder/step.ts). */
  replay?: Readonly<Partial<Record<string, string>>>
  /**
   * What the page does for it instead of acting (src/dom/recorder/step.ts): reads a value
   * (`read`: an extract), goes back in history (`back`), or only finds its element (`found`: a wait).
   */
  inPage?: 'read' | 'back' | 'found'
  /**
   * What the replayer itself does for it, without the page (src/core/flows/replay.ts): opens its
   * `url`, runs a pack action (`compose`), ends the replay (`end`), moves to another tab, or
   * sleeps (a wait that names no element). `load`: opens its `url`.
   */
  replayer?: 'load' | 'compose' | 'end' | 'switchTab' | 'sleep'
  /** The param whose `${file:…}` variables go into a file input instead (an upload's `file`, a file field's fill `value`). */
  filesIn?: 'file' | 'value'
  /** The element is found even when it is disabled (pointing at it, waiting for it, scrolling it act on nothing). */
  anyState?: boolean
  /** The pack step it becomes (src/core/flows/to-pack.ts); none: it stays in the flow (a tab, done). */
  pack?: (c: PackExport) => RawStep | null
  /** The DevTools Recorder steps it becomes (src/core/flows/devtools.ts); none: nothing the Recorder can replay. */
  devtools?: (c: DevToolsExport) => DevToolsStep[]
  /** What it does as a person would say it (a Playwright spec's comment); none: its name and element. */
  says?: (c: SpecWords) => string
  /** What its params must hold, each fault where it is (the flow schema reports them: src/core/flows/schema.ts). */
  params?: (p: FlowParams, has: { selectors: boolean }) => FlowParamIssue[]
  /**
   * Which of its params a run saved as a flow makes the flow's variables (src/core/flows/from-run.ts):
   * `value`, its value when that is a whole vault reference (what was typed is one already); `args`,
   * every string param but `action` (a pack action's params, their defaults what the run used).
   */
  variables?: 'value' | 'args'
}

/** A fault of a flow step's params: where, and what it needs (a flow author's words, as the schema's). */
export interface FlowParamIssue {
  path: (string | number)[]
  message: string
}

/** A flow's variable or returned value's name (`${name}`, `returns.name`). */
export const kVariableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/

const needsString =
  (field: string, message: string) =>
  (p: FlowParams): FlowParamIssue[] =>
    typeof p[field] === 'string' ? [] : [{ path: ['params', field], message }]

function flow<const N extends string>(d: FlowStepDescriptor<N>): FlowStepDescriptor<N> {
  return d
}

/** The pack step a click-like step becomes: `as`, on its element, with `extra` args. */
const packOnElement =
  (as: string, extra: (p: FlowParams) => Record<string, unknown> = () => ({})) =>
  ({ sel, p }: PackExport): RawStep => ({ action: as, args: { ...sel, ...extra(p) } })
/** A Recorder click (a secondary one for a right click), when the element has a Recorder selector. */
const devToolsClick = ({ target, click, p }: DevToolsExport): DevToolsStep[] =>
  target ? [{ type: 'click', ...target, ...click, ...(p.button === 'right' ? { button: 'secondary' } : {}) }] : []
const devToolsOn =
  (type: string) =>
  ({ target }: DevToolsExport): DevToolsStep[] =>
    target ? [{ type, ...target }] : []
const devToolsChange = ({ target, value, p }: DevToolsExport): DevToolsStep[] =>
  target ? [{ type: 'change', ...target, value: value(p.value) }] : []

/** A check (`verify`, `expect`): what the registry's `wait` can express; the other checks stay in the flow. */
const checkRules: Pick<FlowStepDescriptor, 'pack' | 'devtools' | 'says'> = {
  // The panel's Replay and `ava run file.flow.json` replay the rest (docs/flows.md "Flows as pack actions").
  pack: ({ p, sel, alias, text }) => {
    if (typeof p.url === 'string') return { action: 'wait', args: { url: text(p.url) } }
    if (typeof p.text === 'string' && !alias) return { action: 'wait', args: { text: text(p.text) } }
    if ((p.state === 'visible' || p.state === 'hidden') && alias)
      return { action: 'wait', args: { ...sel, state: p.state } }
    return null
  },
  // The Recorder's assertions: they wait, and fail the replay at its timeout.
  devtools: ({ check }) => {
    const c = check()
    return c ? [c] : []
  },
  says: ({ p, target, selector, value }) => {
    const what = selector !== undefined ? target() : 'the page'
    if (p.url !== undefined) return `check the address matches ${value(p.url)}`
    if (p.text !== undefined) return `check ${what} shows ${value(p.text)}`
    if (p.state !== undefined) return `check ${what} is ${String(p.state)}`
    if (p.value !== undefined) return `check ${what} has the value ${value(p.value)}`
    return `check ${String(p.count)} element(s) match ${selector ?? 'the selector'}`
  },
}

/** The flow format's step actions, and `upload`, `expect`, `extract`, `go_back`, `tab` added since (docs/flows.md). */
export const kFlowSteps = [
  flow({
    name: 'navigate',
    params: needsString('url', 'a navigate step needs params.url'),
    runs: 'navigate',
    element: false,
    replay: { value: 'url' },
    replayer: 'load',
    pack: ({ p, text }) => ({ action: 'navigate', args: { url: text(p.url) } }),
    devtools: ({ p }) => [{ type: 'navigate', url: String(p.url) }],
    says: ({ p }) => `go to ${String(p.url)}`,
  }),
  flow({
    name: 'click',
    runs: 'click',
    element: true,
    replay: { button: 'button' },
    pack: packOnElement('click', (p) => (p.button && p.button !== 'left' ? { button: p.button } : {})),
    devtools: devToolsClick,
  }),
  flow({
    name: 'dblclick',
    runs: 'dblclick',
    element: true,
    pack: packOnElement('click', () => ({ count: 2 })),
    devtools: ({ target, click }) => (target ? [{ type: 'doubleClick', ...target, ...click }] : []),
  }),
  flow({
    name: 'fill',
    params: needsString('value', 'a fill step needs params.value'),
    runs: 'fill',
    element: true,
    replay: { value: 'value' },
    variables: 'value',
    filesIn: 'value',
    pack: ({ p, sel, text }) => ({ action: 'fill', args: { ...sel, value: text(p.value) } }),
    devtools: devToolsChange,
    says: ({ p, target, value }) => `fill ${target()} with ${value(p.value)}`,
  }),
  flow({
    name: 'select',
    params: needsString('value', 'a select step needs params.value'),
    runs: 'select',
    element: true,
    replay: { value: 'value' },
    pack: ({ p, sel, text }) => ({ action: 'select', args: { ...sel, value: text(p.value) } }),
    devtools: devToolsChange,
    says: ({ p, target, value }) => `select ${value(p.value)} in ${target()}`,
  }),
  flow({ name: 'check', runs: 'check', element: true, pack: packOnElement('check'), devtools: devToolsClick }),
  flow({ name: 'uncheck', runs: 'uncheck', element: true, pack: packOnElement('uncheck'), devtools: devToolsClick }),
  flow({
    name: 'press',
    params: needsString('key', 'a press step needs params.key'),
    runs: 'press',
    element: false,
    replay: { key: 'key' },
    pack: ({ p, sel }) => ({ action: 'press', args: { key: String(p.key), ...sel } }),
    devtools: ({ p, keys }) => {
      const ks = keys(String(p.key))
      return [
        ...ks.map((key) => ({ type: 'keyDown', key })),
        ...[...ks].reverse().map((key) => ({ type: 'keyUp', key })),
      ]
    },
    says: ({ p, target, selector }) => `press ${String(p.key)}${selector !== undefined ? ` on ${target()}` : ''}`,
  }),
  flow({
    name: 'hover',
    runs: 'hover',
    element: true,
    anyState: true,
    pack: packOnElement('hover'),
    devtools: devToolsOn('hover'),
  }),
  flow({
    name: 'scroll',
    runs: 'scroll',
    element: false,
    anyState: true,
    replay: { direction: 'direction', amount: 'amount' },
    pack: ({ p }) => ({
      action: 'scroll',
      args: {
        direction: p.direction === 'up' ? 'up' : 'down',
        ...(typeof p.amount === 'number' ? { amount: p.amount } : {}),
      },
    }),
    devtools: ({ p }) => [{ type: 'scroll', x: 0, y: p.direction === 'up' ? 0 : Number(p.amount ?? 600) }],
    says: ({ p }) => `scroll ${String(p.direction ?? 'down')}${p.amount !== undefined ? ` ${String(p.amount)}` : ''}`,
  }),
  flow({
    name: 'wait',
    runs: 'wait',
    element: false,
    anyState: true,
    inPage: 'found',
    replayer: 'sleep',
    pack: ({ p, sel, alias }) => ({ action: 'wait', args: alias ? { ...sel } : { ms: Number(p.ms ?? 0) } }),
    devtools: devToolsOn('waitForElement'),
    says: ({ p, target, selector }) =>
      selector !== undefined ? `wait for ${target()}` : `wait ${String(p.ms ?? 0)} ms`,
  }),
  flow({
    name: 'run',
    // A pack action by its full name; its other params are the action's params.
    params: (p) =>
      typeof p.action === 'string' && /^[a-z][\w-]*:[\w-]+:[\w-]+$/i.test(p.action)
        ? []
        : [
            {
              path: ['params', 'action'],
              message: "a run step needs params.action, a pack action's full name (namespace:component:action)",
            },
          ],
    element: false,
    replayer: 'compose',
    variables: 'args',
    // Composition: the flow's run step is the pack's own `run`.
    pack: ({ p, text }) => {
      const { action, ...rest } = p
      return {
        action: 'run',
        args: {
          action: String(action),
          params: Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, typeof v === 'string' ? text(v) : v])),
        },
      }
    },
  }),
  flow({ name: 'verify', element: false, check: true, ...checkRules }),
  flow({ name: 'expect', element: false, check: true, ...checkRules }),
  flow({
    name: 'extract',
    params: (p, has) => [
      ...(has.selectors
        ? []
        : [{ path: ['selectors'], message: 'an extract step needs selectors: the element to read' }]),
      ...(typeof p.name === 'string' && kVariableNamePattern.test(p.name)
        ? []
        : [
            {
              path: ['params', 'name'],
              message: 'an extract step needs params.name, the identifier its value is returned under',
            },
          ]),
    ],
    element: false,
    inPage: 'read',
    pack: ({ p, sel, alias }) => (alias ? { action: 'getText', args: { ...sel }, output: String(p.name) } : null),
    says: ({ p, target }) =>
      `read ${p.attribute !== undefined ? `the ${String(p.attribute)} of ` : ''}${target()} into returns.${String(p.name)}`,
  }),
  flow({ name: 'go_back', element: false, counts: true, navigates: true, inPage: 'back', says: () => 'go back' }),
  flow({
    name: 'tab',
    params: (p) => [
      ...(p.index !== undefined && !(Number.isInteger(p.index) && Number(p.index) >= 0)
        ? [{ path: ['params', 'index'], message: "params.index is the tab's position, a whole number from 0" }]
        : []),
      ...(p.url !== undefined && typeof p.url !== 'string'
        ? [{ path: ['params', 'url'], message: 'params.url is an address pattern (* matches anything)' }]
        : []),
      ...(p.index !== undefined && p.url !== undefined
        ? [{ path: ['params'], message: 'a tab step takes index or url, not both' }]
        : []),
    ],
    element: false,
    replayer: 'switchTab',
    says: ({ p, value }) =>
      p.index !== undefined
        ? `switch to tab ${String(p.index)}`
        : p.url !== undefined
          ? `switch to the tab at ${value(p.url)}`
          : 'switch to the tab the previous step opened',
  }),
  flow({
    name: 'done',
    params: (p) =>
      p.success !== undefined && typeof p.success !== 'boolean'
        ? [{ path: ['params', 'success'], message: 'params.success is true or false' }]
        : [],
    element: false,
    replayer: 'end',
    says: ({ p, value }) => `done${p.success === false ? ', failing' : ''}${p.text ? `: ${value(p.text)}` : ''}`,
  }),
  flow({
    name: 'upload',
    params: (p) =>
      typeof p.file === 'string' && /\$\{[A-Za-z_]/.test(p.file)
        ? []
        : [
            {
              path: ['params', 'file'],
              message:
                'an upload step needs params.file naming a file variable: "${doc}" with variables.doc.value "${file:./doc.pdf}"',
            },
          ],
    runs: 'upload',
    element: true,
    replay: { value: 'file' },
    filesIn: 'file',
    pack: ({ p, sel, text }) => ({
      action: 'upload',
      args: {
        ...sel,
        files: [...String(p.file ?? '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => ({ path: text(m[0]) })),
      },
    }),
    says: ({ p, target, value }) => `upload ${value(p.file)} into ${target()}`,
  }),
] as const

export type FlowActionName = (typeof kFlowSteps)[number]['name']
export const kFlowActionNames = kFlowSteps.map((d) => d.name) as readonly FlowActionName[] as readonly [
  FlowActionName,
  ...FlowActionName[],
]

const kFlowByName = new Map<string, FlowStepDescriptor>(kFlowSteps.map((d) => [d.name, d]))

export function flowStep(name: string): FlowStepDescriptor | undefined {
  return kFlowByName.get(name)
}

/** Whether a flow step reads a value into the flow's `returns` (an extract). */
export function flowStepReturns(name: string): boolean {
  return kFlowByName.get(name)?.inPage === 'read'
}

/** Whether a flow step ends the replay (a done step): the steps after it never run. */
export function flowStepEnds(name: string): boolean {
  return kFlowByName.get(name)?.replayer === 'end'
}

/** Whether a flow step counts against the step limit (the same rule as `countsAsStep` for the action it runs). */
export function flowStepCounts(name: string): boolean {
  const d = kFlowByName.get(name)
  if (!d) return true
  return d.counts ?? (d.runs ? countsAsStep(d.runs) : false)
}

/** Whether a flow step may take its document with it. */
export function flowStepNavigates(name: string): boolean {
  const d = kFlowByName.get(name)
  if (!d) return false
  // A flow's navigate goes through the carrier (FlowPort.navigate), never as a flow.step command.
  if (d.runs === 'navigate') return false
  return d.navigates ?? (d.runs ? domAction(d.runs).navigates : false)
}

// ── an action pack's steps ──────────────────────────────────────────────────────────────────

/**
 * What a pack step lets its pack do, as a person is told before install
 * (src/core/registry/capabilities.ts, docs/packs-ui.md "What a pack can do").
 */
export interface PackStepGrants {
  /** Acts on the page (clicks, types, hovers, scrolls). */
  acts?: boolean
  /** Reads what the page shows; `fields`: what is typed into fields, always or when its args point at one. */
  reads?: boolean
  fields?: 'always' | 'selector' | 'attribute'
  /** Opens the address in its `url` arg. */
  opens?: boolean
  /** Sends a form when its key is Enter, or when its selector points at a submit button. */
  submits?: 'key' | 'selector'
  /** Types what it is given: a template reading an earlier step's data sends page data on. */
  types?: boolean
  uploads?: boolean
  /** Runs its own script in the page: can do anything the page can. */
  script?: boolean
}

/**
 * A pack step (src/core/registry/step-actions.ts builds each one's args and run from this
 * table): which `BrowserPort` call it makes (src/core/registry/port.ts) and which DOM action that
 * call is on the page, and what it lets the pack do.
 */
export interface PackStepDescriptor<N extends string = string> {
  name: N
  /** The port call it makes; none: the engine's own (run, fail, a wait for ms). */
  port?: keyof BrowserPort
  /** The DOM action the port call runs in the page (a name of `kDomActions`), when it is one. */
  dom?: string
  /** Runs another pack action (its `action` arg names it): composition. */
  composes?: boolean
  /** The DOM action it is when its `count` arg is 2 (a click twice is a double click). */
  twice?: string
  grants: PackStepGrants
}

function packStep<const N extends string>(d: PackStepDescriptor<N>): PackStepDescriptor<N> {
  return d
}

export const kPackSteps = [
  packStep({
    name: 'click',
    port: 'click',
    dom: 'click',
    twice: 'dblclick',
    grants: { acts: true, submits: 'selector' },
  }),
  packStep({ name: 'fill', port: 'fill', dom: 'fill', grants: { acts: true, types: true } }),
  packStep({ name: 'type', port: 'type', dom: 'type', grants: { acts: true, types: true } }),
  packStep({ name: 'press', port: 'press', dom: 'press', grants: { acts: true, submits: 'key' } }),
  packStep({ name: 'hover', port: 'hover', dom: 'hover', grants: { acts: true } }),
  packStep({ name: 'select', port: 'select', dom: 'select', grants: { acts: true, types: true } }),
  packStep({ name: 'check', port: 'check', dom: 'check', grants: { acts: true } }),
  packStep({ name: 'uncheck', port: 'check', dom: 'uncheck', grants: { acts: true } }),
  packStep({ name: 'upload', port: 'upload', dom: 'upload', grants: { acts: true, uploads: true } }),
  packStep({ name: 'scroll', port: 'scroll', dom: 'scroll', grants: { acts: true } }),
  packStep({ name: 'wait', port: 'waitFor', dom: 'wait', grants: {} }),
  packStep({ name: 'snapshot', port: 'snapshot', grants: { reads: true, fields: 'always' } }),
  packStep({ name: 'find', port: 'find', grants: { reads: true } }),
  packStep({ name: 'open', port: 'navigate', dom: 'navigate', grants: { opens: true } }),
  packStep({ name: 'navigate', port: 'navigate', dom: 'navigate', grants: { opens: true } }),
  packStep({ name: 'getText', port: 'getText', dom: 'getText', grants: { reads: true, fields: 'selector' } }),
  packStep({
    name: 'getAttribute',
    port: 'getAttribute',
    dom: 'getAttribute',
    grants: { reads: true, fields: 'attribute' },
  }),
  packStep({ name: 'getUrl', port: 'getUrl', grants: { reads: true } }),
  packStep({ name: 'eval', port: 'runUserScript', grants: { script: true } }),
  packStep({ name: 'evaluate', port: 'runUserScript', grants: { script: true } }),
  packStep({ name: 'run', composes: true, grants: {} }),
  packStep({ name: 'fail', grants: {} }),
] as const

export type PackStepName = (typeof kPackSteps)[number]['name']

const kPackStepByName = new Map<string, PackStepDescriptor>(kPackSteps.map((d) => [d.name, d]))

/** Whether a pack step runs another pack action (named by its `action` arg). */
export function packStepComposes(name: string): boolean {
  return !!kPackStepByName.get(name)?.composes
}

/** Whether a pack step opens the address in its `url` arg. */
export function packStepOpens(name: string): boolean {
  return !!kPackStepByName.get(name)?.grants.opens
}

/** The descriptor of a pack step; undefined for a name the vocabulary does not have (a pack's typo). */
export function packStepKind(name: string): PackStepDescriptor | undefined {
  return kPackStepByName.get(name)
}

// ── what the person reads ───────────────────────────────────────────────────────────────────

/**
 * The vocabulary's sentences for one language, as locale-table entries (`vocab.dom.click`,
 * `vocab.ins.input`): src/core/locales/en.ts and zh-CN.ts spread these, so a new action brings its
 * words with it and the tables cannot miss one.
 */
export type VocabularyKey = `vocab.dom.${DomActionName}` | `vocab.ins.${InstructionName}` | `vocab.tab.${TabActionName}`
export function vocabularyMessages(lang: keyof Says): Record<VocabularyKey, string> {
  const out = {} as Record<VocabularyKey, string>
  for (const d of kDomActions) out[`vocab.dom.${d.name}` as VocabularyKey] = d.says[lang]
  for (const d of kInstructions) out[`vocab.ins.${d.name}` as VocabularyKey] = d.says[lang]
  for (const d of kTabActions) out[`vocab.tab.${d.name}` as VocabularyKey] = d.did[lang]
  return out
}
