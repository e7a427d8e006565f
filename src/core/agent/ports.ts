import type { Answer } from '../gate/step'
import type { PackCapabilities } from '../registry/capabilities'
import type { ChatMessage, StepView } from '../chat'
import type { ExecOutcome, RiskCategory } from '../exec'
import type { CacheEntry } from '../instruction/cache-entry'
import type { Instruction } from '../instruction/schema'
import type { StepGuard } from '../page/channel'
import type { PageTarget, ShotFrame, UploadFile } from '../page/command'
import type { CollectRound } from '../page/collect'
import type { ExecFailure } from '../exec'
import type { DrawnTarget } from '../gate/drawn'
import type { Screenshot, ShotSkipped } from './vision'
import type { RunRecord } from './record'
import type { Attachment } from './attachments'
import type { ServedFile } from './served-files'
import type { ActionSummary, PageContext } from './prompt'
import type { PlannerMessage, RunState } from './state'

/**
 * What a run (run.ts) needs from the world, and nothing more: the background builds these from
 * chrome.*, storage and the page channel (src/background/agent.ts); the unit tests build fakes
 * that record their calls. Everything here may reject; the run turns a rejection into its end.
 */
export interface AgentPorts {
  llm: LlmPort
  page: PagePort
  actions: ActionsPort
  cache: CachePort
  store: StorePort
  chat: ChatPort
  ask: AskPort
  secrets: SecretsPort
  clock: ClockPort
  /** The files attached to this run's request; absent where nobody can attach any. */
  attachments?: AttachmentsPort
  /** Files pages downloaded during the run (src/core/agent/served-files.ts); absent where nothing watches downloads. */
  files?: ServedFilesPort
  /** The browser's tabs (docs/agent.md, "Tabs"); absent where a run has one page only (`ava run`). */
  tabs?: TabsPort
  /** Keeps the run's record when it ends (record.ts, docs/run-record.md); absent: none is kept. */
  record?: RecordPort
  /** The person's notes for a page's exact origin (core/site-notes.ts); absent where none are kept. */
  notes?: { forUrl(url: string): Promise<{ origin: string; notes: string[] } | null> }
}

/** One open tab as the browser tells it. */
export interface TabInfo {
  id: number
  title: string
  url: string
}

export interface TabsPort {
  /** Opens `url` in a new background tab right after the tab `after`; the new tab's id. */
  open(url: string, after: number): Promise<number>
  /** Brings the tab to the front; `allowUrl`: a page the person said yes to, let through the tab's gate. */
  activate(tabId: number, allowUrl?: string): Promise<void>
  close(tabId: number): Promise<void>
  /** The tabs of these ids still open, in the same order. */
  info(tabIds: number[]): Promise<TabInfo[]>
  /** The other tabs of the window `of` is in (for the tabs a request names). */
  others(of: number): Promise<TabInfo[]>
  /** Keeps the tabs together under `title` (a tab group, where the browser has them); the group's id, if one. */
  group(tabIds: number[], title: string, groupId?: number): Promise<number | undefined>
}

export interface RecordPort {
  save(record: RunRecord): Promise<void>
}

export interface LlmPort {
  /** Streams one completion; `onText` gets each delta as it arrives. Errors are AvaErrors. */
  stream(request: {
    system: string
    messages: PlannerMessage[]
    signal: AbortSignal
    onText(delta: string): void
    /** The model's reasoning, sent apart from its answer (docs/agent.md, "Thinking"). */
    onThinking?(delta: string): void
    /** Nothing has come for a while: a local model is probably loading. */
    onSlowStart?(): void
  }): Promise<{
    usage: { inputTokens?: number; outputTokens?: number }
    /** The provider stopped the reply at its token limit (`finish_reason: length`, `stop_reason: max_tokens`). */
    cutAtLimit?: boolean
  }>
}

export interface ExecOptions {
  signal: AbortSignal
  /** Risk categories the person wants to confirm before they happen. */
  confirm: RiskCategory[]
  /** The person already said yes to this step. */
  confirmed: boolean
  /** With `confirmed`: the handle of the question the yes answered (StepGate.bound). */
  bound?: string
  /** The step types a saved secret: only into a field whose document is on one of these origins. */
  secretSites?: string[]
  /** How long the element may take to appear; undefined is the page layer's default. */
  elementWaitMs?: number
  /** upload: the attached files the step's value named, bytes and all, for the page command. */
  files?: UploadFile[]
  /** The last screenshot's geometry, for a step that names a point in it. */
  shot?: ShotFrame
  /** The element the person approved for this step in a whole plan (StepGate.planned). */
  planned?: DrawnTarget
  /** Told as soon as a step opened a new tab and the work moved there (before that tab has loaded). */
  onTabChange(tabId: number): void
}

export interface PagePort {
  /**
   * The page as the planner sees it; with `settle`, after it has gone quiet; `sections`: how many
   * of its content blocks to list (a tab read for what it says, docs/agent.md "Tabs").
   */
  read(
    tabId: number,
    request: string,
    opts: { signal: AbortSignal; settle?: boolean; sections?: number },
  ): Promise<PageContext>
  /** Runs one page instruction (navigate included); `tabId` is the tab the work is in afterwards. */
  exec(tabId: number, instruction: Instruction, opts: ExecOptions): Promise<ExecOutcome & { tabId: number }>
  navigate(tabId: number, url: string, signal: AbortSignal): Promise<unknown>
  /**
   * One round of a `collect` step (core/page/collect.ts): the items drawn now, after one scroll
   * unless `first`. Absent where the page cannot be scrolled for the run.
   */
  collectRound?(
    tabId: number,
    r: { session: string; first: boolean; target?: PageTarget },
    signal: AbortSignal,
  ): Promise<CollectRound | ExecFailure>
  url(tabId: number): Promise<string>
  /** The elements of a plan's steps as drawn now, nothing done (core/gate/plan.ts); absent where no page can draw. */
  draw?(tabId: number, targets: PageTarget[], signal: AbortSignal): Promise<(DrawnTarget | null)[]>
  /**
   * A marked screenshot of the tab (docs/agent.md, "Screenshots"), or why none was taken; absent
   * where nothing can capture (`ava run`). Only asked for a profile whose model sees images.
   */
  screenshot?(
    tabId: number,
    signal: AbortSignal,
    typed?: { values: string[]; at?: number },
  ): Promise<Screenshot | ShotSkipped>
}

/** `env`: the vault names the action (and what it runs) reads: bound and asked about as `${secret:}` args are. */
/** `capabilities`: what the action (and what it runs) can do, and its pack's sites (registry/capabilities.ts). */
export type ActionLookup =
  | { ok: true; risk?: string; env?: string[]; capabilities?: PackCapabilities }
  | { ok: false; message: string; suggestion?: string }

export interface ActionsPort {
  /** The registry actions most relevant to a request, for the planner. */
  relevant(request: string): Promise<ActionSummary[]>
  lookup(name: string): Promise<ActionLookup>
  /**
   * Runs a registry action in the tab; `text` is one plain line for the person. Every page step
   * of the action (nested `run`s included) goes through `guard`: counted, sent with the risk
   * categories to confirm, asked about when the page refuses it (src/core/page/channel.ts).
   */
  run(
    tabId: number,
    name: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
    guard: StepGuard,
  ): Promise<{ ok: boolean; text: string; code?: string }>
}

export interface CachePort {
  /** The key of a request on a page (request, site, path pattern and pack versions). */
  key(request: string, url: string): Promise<string>
  lookup(key: string): Promise<CacheEntry | undefined>
  save(entry: Omit<CacheEntry, 'createdAt' | 'updatedAt' | 'hits' | 'repairs'>): Promise<void>
  recordHit(key: string, repaired: { index: number; instruction: Instruction }[]): Promise<void>
  remove(key: string): Promise<void>
  /** The person reviewed a plan that page content could have shaped (provenance.ts): it replays from now on. */
  reviewed?(key: string): Promise<void>
}

export interface StorePort {
  /** Writes the run's state (and tells the panel its status). Called in order; each call is a full snapshot. */
  save(state: RunState): Promise<void>
  /** The run moved from one tab to another: the old tab forgets it, the new one opens its panel on it. */
  moveTab(from: number, to: number): void
}

/** The run's conversation: one site's history, written in order, shown live in the tab's panel. */
export interface ChatPort {
  add(message: Omit<ChatMessage, 'id' | 'ts'>): Promise<ChatMessage>
  /** Appends streamed text to a message; the writer may batch these. */
  text(messageId: string, delta: string): Promise<void>
  step(messageId: string, step: StepView): Promise<void>
  patch(messageId: string, patch: Partial<ChatMessage>): Promise<void>
  /** The history as stored: read for the planner's context and, after a restart, the run's own message. */
  messages(): Promise<ChatMessage[]>
}

export interface AskPort {
  /**
   * Waits for the person's answer to a risky step's question, shown on the card `cardId` (the
   * chat message the run wrote): a no when `signal` aborts. In the extension it waits in the one
   * registry of questions every step's question waits in (src/background/questions.ts).
   */
  /** The answer: yes, the person's no, or — where nobody can be asked (`ava mcp`'s own agent) — what would allow it. */
  confirm(
    question: { runId: string; cardId: string; step: number; reason: string },
    signal: AbortSignal,
  ): Promise<Answer>
  /**
   * Waits for the person's answer to an `ask` step (the card `cardId` in the chat), however long
   * it takes, across navigations; rejects when `signal` aborts. Absent where nobody can answer
   * (the CLI): an `ask` step then fails.
   */
  answer?(question: { runId: string; cardId: string }, signal: AbortSignal): Promise<PersonAnswer>
}

/** What the person said to an `ask`: their own words, a choice they picked with its button (`picked`), or Continue with none. */
/** `takeover`: they chose to do it themselves; the run then waits for Resume (docs/agent.md, "Taking over"). */
export type PersonAnswer = { text: string; picked?: boolean } | { continued: true } | { takeover: true }

export interface SecretsPort {
  /** The vault: secret name → value. Read only when a step is about to run. */
  vault(): Promise<Record<string, string>>
  /** The origins each secret is bound to; a secret with none is typed nowhere. */
  sites(): Promise<Record<string, string[]>>
}

export interface AttachmentsPort {
  /**
   * The attached files whose bytes are still held: all of them, unless the worker restarted and
   * some were too large to keep in session storage (src/background/attachments.ts).
   */
  held(): Promise<Attachment[]>
}

export interface ServedFilesPort {
  /** Whether the person allowed Ava to see downloads (the optional `downloads` permission). */
  allowed(): Promise<boolean>
  /** The run's files, once the downloads in flight have finished (or a few seconds passed). */
  list(): Promise<ServedFile[]>
  /** A file's bytes, null when they could not be fetched again. */
  bytes(name: string): Promise<Uint8Array | null>
  /** A PDF's text (pdf.js in the background); throws on bytes that are no PDF. */
  pdfText(bytes: Uint8Array): Promise<string>
}

export interface ClockPort {
  now(): number
}
