import type { RunRecord } from '../core/agent/record'
import type { CapabilityLine } from '../core/registry/capabilities'
import type { ChatMessage, Msg, RunEvent, RunView } from '../core/chat'
export type { RunEvent }
import type { ErrorData } from '../core/errors'
import type { PageCommand, PageOutcome } from '../core/page/command'
import type { Attachment } from '../core/agent/attachments'
export type { PageInfo } from '../core/page/command'
import type { LanguagePref, LlmSettings, Profile, SafetyKept, Settings, UiPrefs } from '../core/settings'
import type { ActionCommand } from '../core/registry/api'
import type { Flow, FlowRunResult, RawEvent } from '../core/flows'
import type { ActionResult, PackDiff, PackIssue } from '../core/registry'
import type { CacheEntry } from '../core/instruction/cache-entry'
import type { SetupStatus } from '../core/setup'
import type { Schedule, ScheduleDraft } from '../core/schedule/model'
import type { SiteNotes } from '../core/site-notes'
export type { SetupStatus }
export type { CacheEntry }

/** An MCP client in the options' list: the sites the person named for it, and whether it drives a tab now. */
export interface McpClientRow {
  name: string
  since: number
  sites: string[]
  active: boolean
}

/**
 * Every message Ava's contexts exchange: name → request and response. The name says who sends it
 * (`panel→bg`, `bg→content`, ...); the handler side declares which senders it accepts and the
 * transport checks that before the handler runs (STYLE.md, "One typed protocol").
 */
export interface Protocol {
  // The boot script, in a tab's content script.
  /** `language`: the one picked in Ava's options, which names the launcher ('auto': the browser's). */
  'content→bg:ready': { req: { url: string }; res: { panelOpen: boolean; runActive: boolean; language: LanguagePref } }
  /**
   * A token for the panel frame the boot script is about to create: it travels in the frame URL's
   * fragment (the page cannot read the src of a frame in a closed shadow root) and the panel shows
   * it on its own port; never by postMessage (see background/panels.ts).
   */
  'content→bg:panel.token': { req: Record<string, never>; res: { token: string } }
  /**
   * The boot script is about to show its panel frame: is the document that presented `token` still
   * connected (not navigated away)? If so the background focuses its input when asked.
   */
  'content→bg:panel.show': { req: { token: string; focus: boolean }; res: { live: boolean } }
  /** Focus left the panel for a page element with no click or Tab from the person: the panel is told. */
  'content→bg:panel.focusTaken': { req: { token: string }; res: { ok: boolean } }
  /** The page's own devicePixelRatio, for the panel to tell a zoom the page put on its frame from the person's (src/panel/scale.ts). */
  'content→bg:panel.dpr': { req: { token: string; dpr: number }; res: { ok: boolean } }
  /** The page keeps removing Ava's host: the boot script stopped rebuilding it; the toolbar says so. */
  'content→bg:panel.blocked': { req: Record<string, never>; res: { ok: boolean } }

  // The chat panel: an extension page framed by the boot script inside a closed shadow root.
  /** `files`: what the person attached for upload steps, bytes in base64; the model is told only their names. */
  /** `shape`: a JSON Schema of the rows to extract (`/extract`, docs/extraction.md). */
  'panel→bg:run.start': {
    req: { text: string; noCache?: boolean; files?: Attachment[]; shape?: Record<string, unknown> }
    res: { runId: string }
  }
  /** The person's answer to the model's question (an `ask` step): their words, a choice picked with its button, or Continue with none. */
  /** `takeover`: "do it myself" on a question, or Resume on a take-over card (docs/agent.md, "Taking over"). */
  'panel→bg:run.answer': {
    req: { runId: string; text?: string; picked?: boolean; continued?: boolean; takeover?: boolean }
    res: { ok: boolean; reason?: 'closed' | 'empty' }
  }
  'panel→bg:run.stop': { req: Record<string, never>; res: { stopped: boolean } }
  /** Pause: the run stops before its next step and the page is the person's until Resume. */
  'panel→bg:run.pause': { req: Record<string, never>; res: { paused: boolean } }
  'panel→bg:chat.load': {
    req: Record<string, never>
    /** `url`: the tab's page, for the panel's schedule form (a request runs there again). */
    res: { messages: ChatMessage[]; run: RunView | null; seq: number; origin: string; url?: string }
  }
  'panel→bg:chat.clear': { req: Record<string, never>; res: { cleared: boolean } }
  /** The kept record of the finished run shown by message `messageId` (docs/run-record.md), or null. */
  'panel→bg:record.get': { req: { messageId: string }; res: { record: RunRecord | null } }
  /** First run: what is missing before a request can be answered; the panel says so and links to set-up. */
  'panel→bg:setup.status': { req: Record<string, never>; res: SetupStatus }

  // Extension pages.
  'options→bg:settings.get': { req: Record<string, never>; res: { settings: PublicSettings } }
  'options→bg:settings.save': { req: { settings: SettingsInput }; res: { settings: PublicSettings } }
  'options→bg:settings.test': { req: { llm: LlmInput }; res: ConnectionReport }
  /** Without `includeSecrets`, API keys and vault values are left out. */
  'options→bg:settings.export': { req: { includeSecrets?: boolean }; res: { json: string } }
  /** `keysDropped`: profiles whose stored key was not kept because the file changed their endpoint. */
  /** `safetyKept`: what the file would have loosened in `safety`, kept as stored (core/settings.ts mergeSafety). */
  /** `accept`: the person was shown what the same file would loosen (`safetyKept`) and said yes to it. */
  'options→bg:settings.import': {
    req: { json: string; accept?: boolean }
    res: { settings: PublicSettings; keysDropped: KeyDropped[]; safetyKept?: SafetyKept }
  }
  'popup→bg:packs.list': { req: Record<string, never>; res: { packs: PackSummary[] } }
  /**
   * The run in the popup's active tab, and Stop for it: a path no page can block, for when the page
   * keeps the panel from coming up. `blocked`: the page kept removing Ava's panel.
   */
  'popup→bg:run.state': { req: { tabId: number }; res: { active: boolean; blocked: boolean } }
  'popup→bg:run.stop': { req: { tabId: number }; res: { stopped: boolean } }

  /** The registry's `action.*` commands; `action.run` acts in the sender's tab, or the active tab. */
  'ui→bg:action': { req: ActionCommand; res: unknown }
  /** Shows or hides the debug overlay of indexed elements in the panel's tab. */
  'panel→bg:overlay': { req: { on: boolean; ids?: string[] }; res: { on: boolean; elements: number } }
  /** A slash command typed in the panel (/actions, /describe, /run, /dry-run); the answer goes into the chat. */
  'panel→bg:slash': { req: { text: string }; res: { ok: boolean } }

  // The background, to the content script of a tab.
  /** The one page channel (src/core/page/command.ts): every command, in the frame or document it names. */
  'bg→content:command': { req: PageCommand; res: PageOutcome }
  'content→bg:panel.state': { req: { open: boolean }; res: { open: boolean } }
  'bg→content:panel.open': { req: Record<string, never>; res: { ok: true } }
  /** The panel frame the boot script created has connected and been paired: it may be shown. */
  'bg→content:panel.live': { req: { token: string }; res: { ok: boolean } }
  /** The paired panel document went away (navigated, removed): the frame must not be shown again. */
  'bg→content:panel.gone': { req: { token: string }; res: { ok: boolean } }
  /** The panel took a click at `at` (epoch ms), at (x, y) in its frame: how was the frame drawn since 500 ms before? `fault` null: plainly. */
  'bg→content:panel.drawn': { req: { token: string; at: number; x: number; y: number }; res: { fault: string | null } }
  /** The person picked another language in Ava's options: the launcher's name follows. */
  'bg→content:language': { req: { language: LanguagePref }; res: { ok: true } }
  /** The panel asked to be hidden (its ✕ or Escape). */
  'bg→content:panel.close': { req: Record<string, never>; res: { ok: true } }

  // Record and replay (src/background/recorder.ts). The panel records the person's own
  // actions on its tab, saves a draft as a flow (and a pack action), replays it, reviews heals.
  'panel→bg:flow.record': {
    req: { on: boolean; name?: string }
    res: { recording: boolean; events: number; draft: Flow | null }
  }
  'panel→bg:flow.state': { req: Record<string, never>; res: { recording: boolean; events: number; draft: Flow | null } }
  /** "Save as flow" on the tab's last agent run: makes a draft from its executed instructions. */
  'panel→bg:flow.fromRun': { req: Record<string, never>; res: { draft: Flow | null } }
  'panel→bg:flow.save': { req: { name: string; namespace?: string }; res: { id: string; action: string } }
  'panel→bg:flow.discard': { req: Record<string, never>; res: { ok: boolean } }
  'panel→bg:flow.list': { req: Record<string, never>; res: { flows: FlowSummary[] } }
  /** Values for the flow's secret and `${prompt:…}` variables come in `params`; they are never stored. */
  'panel→bg:flow.replay': {
    req: { id: string; params?: Record<string, string> }
    res: FlowRunResult & { flagged: number[] }
  }
  'panel→bg:flow.heal': { req: { id: string; stepId: number; accept: boolean }; res: { ok: boolean } }
  'panel→bg:flow.export': {
    req: { id: string; format: 'flow' | 'devtools' | 'playwright' | 'pack' }
    res: { filename: string; text: string }
  }
  /** One recorded event from the page's recorder (src/dom/recorder/record.ts). */
  'content→bg:flow.event': { req: { event: RawEvent }; res: { ok: boolean } }

  // Managing Ava: the options page and the popup's pack manager.
  /** The key itself, only on the person's click on "Show", only to the options page. */
  'options→bg:settings.revealKey': { req: { profileId: string }; res: { apiKey: string } }
  /** The endpoint's own model list (`GET {baseUrl}/models`), where it offers one. */
  'options→bg:settings.models': { req: { llm: LlmInput }; res: ModelsReport }
  'options→bg:settings.reset': { req: Record<string, never>; res: { settings: PublicSettings } }
  'options→bg:vault.list': { req: Record<string, never>; res: { entries: VaultEntry[] } }
  'options→bg:vault.set': { req: { name: string; value: string }; res: { entries: VaultEntry[] } }
  'options→bg:vault.remove': { req: { name: string }; res: { entries: VaultEntry[] } }
  /** Binds a secret to the sites (origins) it may be typed on; an empty list binds it to none. */
  'options→bg:vault.bind': { req: { name: string; sites: string[] }; res: { entries: VaultEntry[] } }
  'options→bg:storage.status': { req: Record<string, never>; res: StorageStatus }
  'options→bg:storage.discard': { req: { key: string }; res: StorageStatus }
  'options→bg:userScripts.status': { req: Record<string, never>; res: UserScriptsStatus }
  /** MCP clients the person allowed to drive a tab (docs/mcp.md); revoking one ends its session at once. */
  'options→bg:mcp.clients': { req: Record<string, never>; res: { clients: McpClientRow[] } }
  'options→bg:mcp.revoke': { req: { name: string }; res: { clients: McpClientRow[] } }
  /** The sites the person names for a client beyond its tab's (core/grant.ts); entries that name no site come back in `rejected`, and then nothing is saved. */
  'options→bg:mcp.sites': {
    req: { name: string; sites: string[] }
    res: { clients: McpClientRow[]; rejected: string[] }
  }

  /** Built-in and user packs, disabled ones included, with what the manager shows. */
  'popup→bg:packs.manage': { req: Record<string, never>; res: { packs: ManagedPack[] } }
  /** A pack's YAML: the stored text of a user pack, the bundled file of a built-in one. */
  'popup→bg:packs.get': { req: { namespace: string }; res: { namespace: string; text: string; source: string } }
  /** Fetches a pack from a URL (the popup has asked for the origin's host permission first). */
  'popup→bg:packs.fetch': { req: { url: string }; res: { text: string; url: string } }
  /** Validates again and saves; nothing is saved while the text has an error. */
  /** `consent`: the capabilities the person said yes to (capabilities.ts `capabilityConsent`). */
  'popup→bg:packs.install': {
    req: {
      text: string
      origin: string
      confirmed?: { namespace: string; source: 'user' | 'builtin'; from: string }
      consent?: string
    }
    res: InstallOutcome
  }
  'popup→bg:packs.setEnabled': { req: { namespace: string; enabled: boolean }; res: { ok: true } }
  'popup→bg:packs.delete': { req: { namespace: string }; res: { ok: true } }
  'popup→bg:packs.undoDelete': { req: { namespace: string }; res: { ok: boolean } }
  'popup→bg:cache.list': { req: Record<string, never>; res: { entries: CacheEntry[] } }
  /** Replaces one entry with edited JSON; the reply says what is wrong with it, if anything. */
  'popup→bg:cache.replace': { req: { key: string; json: string }; res: { ok: true } | ({ ok: false } & ErrorData) }
  'popup→bg:cache.remove': { req: { key: string }; res: { ok: true } }
  /** The person approved a plan a page could have shaped (core/agent/provenance.ts): it replays unasked from now on. */
  'popup→bg:cache.approve': { req: { key: string }; res: { ok: true } }
  /** Web tabs an action can run in, and the one to offer first (see docs/packs-ui.md). */
  'popup→bg:tabs.targets': { req: Record<string, never>; res: TabTargets }
  /**
   * The popup's Run: in the tab the person chose (null: the active tab). It passes the gate every
   * step passes; its questions wait under `runId` for the popup to fetch (`question.next`) and answer.
   */
  'popup→bg:action.runIn': {
    req: { tabId: number | null; action: string; params: Record<string, unknown>; runId: string }
    res: ActionResult
  }
  /** Schedules (docs/agent.md, "Schedules"): from the panel, the popup, the options and `ava schedule`. */
  'ui→bg:schedule.list': { req: Record<string, never>; res: { schedules: Schedule[] } }
  'ui→bg:schedule.add': { req: ScheduleDraft; res: { schedule: Schedule } }
  'ui→bg:schedule.remove': { req: { id: string }; res: { removed: boolean } }
  /** A watch's last report as CSV (formula signs defused), null before its first run. */
  'ui→bg:schedule.csv': { req: { id: string }; res: { csv: string | null } }
  /** The person's notes per exact origin (docs/agent.md, "Site notes"). */
  'ui→bg:notes.list': { req: Record<string, never>; res: { notes: SiteNotes } }
  'ui→bg:notes.add': { req: { site: string; text: string }; res: { notes: SiteNotes } }
  'ui→bg:notes.remove': { req: { origin: string; index: number }; res: { notes: SiteNotes } }
  /** The next question of a popup run, once there is one; null when the run has ended. */
  'popup→bg:question.next': {
    req: { runId: string }
    res: { question: { id: string; reason: string; msg: Msg } | null }
  }
  /**
   * The person's Allow or Deny to a question waiting on them (src/background/questions.ts): from a
   * tab's panel, `id` is the card's message id; from the popup, `runId` is its Run and `id` the
   * question it showed. Refused (`reason`) when it was answered already, has closed, or is not
   * that place's to answer.
   */
  'ui→bg:question.answer': {
    req: { id: string; allow: boolean; runId?: string }
    res: { ok: boolean; reason?: 'answered' | 'closed' | 'elsewhere' | 'unknown' }
  }
}

export type MessageName = keyof Protocol
export type Req<N extends MessageName> = Protocol[N]['req']
export type Res<N extends MessageName> = Protocol[N]['res']

/** A profile as the options page sees it: the key only as a mask. */
export type PublicProfile = Omit<Profile, 'apiKey'> & { apiKeyMask: string }
/** Settings as the options page sees them (with the UI preferences, which live apart). */
export type PublicSettings = Omit<Settings, 'profiles'> & { profiles: PublicProfile[]; ui: UiPrefs }
/** What the options page sends: a missing `apiKey` keeps the stored one of the profile with that id. */
export type ProfileInput = Omit<Profile, 'apiKey'> & { apiKey?: string }
export type LlmInput = Omit<LlmSettings, 'apiKey'> & { apiKey?: string; id?: string }
export type SettingsInput = Omit<Settings, 'profiles' | 'version'> & {
  profiles: ProfileInput[]
  ui: Omit<UiPrefs, 'version'>
}

export type ModelsReport = { ok: true; models: string[] } | { ok: false; error: ErrorData }
export interface VaultEntry {
  name: string
  /** Always the same mask: not even the length of a value is shown. */
  mask: string
  /** The origins it may be typed on; empty: typed nowhere until bound. */
  sites: string[]
}
export interface StorageStatus {
  invalid: { key: string; issues: string[]; at: number; json: string }[]
  lastError?: { key: string; code: string; message: string; at: number }
  bytesInUse: number
  quotaBytes: number
  versions: Record<string, number>
}
export interface UserScriptsStatus {
  /** The optional `userScripts` permission is granted. */
  permission: boolean
  /** `chrome.userScripts` can be called (the per-extension "Allow User Scripts" switch is on). */
  available: boolean
  chromeVersion: number | null
}
export interface ManagedPack {
  namespace: string
  version: string
  description: string
  descriptionZh?: string
  actions: number
  /** `builtin`, `user`, or both when a user pack extends or overrides a built-in namespace. */
  source: string
  /** A user pack (which can be disabled, updated and deleted). */
  user: boolean
  enabled: boolean
  origin?: string
  installedAt?: number
  /** `use`: the action an alias stands for, so the notice can be said in the UI's language. */
  deprecated: { action: string; message?: string; messageZh?: string; use?: string }[]
  /** Problems the registry reported when it loaded this pack. */
  issues: PackIssue[]
}
/**
 * A pack whose namespace is installed already (a built-in or the person's own) is an update: the
 * first answer is `update` with its diff, and nothing is saved until the install is sent again
 * with `confirmed` naming that same installed version (a pack claiming `common` had
 * replaced a built-in without a word).
 */
export interface PackUpdate {
  namespace: string
  /** What is installed now: the person's own pack, or Ava's built-in one. */
  source: 'user' | 'builtin'
  /** Whether Ava ships a built-in pack of this namespace, which the new pack overrides. */
  overridesBuiltin: boolean
  diff: PackDiff
}
export type InstallOutcome =
  | { ok: true; namespace: string; version: string; previous?: string }
  | { ok: false; issues: PackIssue[] }
  | { ok: false; update: PackUpdate }
  | { ok: false; consent: PackConsent }
/**
 * What a pack can do, asked before it is installed when it does more than click and type on its
 * own sites (docs/packs-ui.md, "What a pack can do"); `added`: what an update adds.
 */
export interface PackConsent {
  namespace: string
  lines: CapabilityLine[]
  added: CapabilityLine[]
  consent: string
}
export interface TabTargets {
  tabs: { id: number; title: string; url: string }[]
  /** The active tab when it is a web page, else the web tab used most recently. */
  suggested: number | null
  /** Whether the active tab is a web page (false when the popup itself was opened as a tab). */
  activeIsWeb: boolean
}

/** `endpoint`: the base URL that was tried, so the person sees where their key went. */
export type ConnectionReport =
  | {
      ok: true
      endpoint: string
      model: string
      latencyMs: number
      reply: string
      /** How the plan will come back from this server (docs/settings.md). */ plan?: 'schema' | 'tools' | 'text'
    }
  | { ok: false; endpoint: string; error: ErrorData }

/** A profile imported without its stored key: the file moved it from one endpoint to another. */
export interface KeyDropped {
  profile: string
  from: string
  to: string
}

export interface PackSummary {
  namespace: string
  version: string
  description: string
  actions: number
  source: string
}

/** The wire shape. Responses are wrapped so that errors survive structured cloning as data. */
export interface Envelope<N extends MessageName = MessageName> {
  ava: 1
  name: N
  req: Req<N>
}
export type Reply<N extends MessageName = MessageName> = { ok: true; res: Res<N> } | { ok: false; error: ErrorData }

/**
 * The panel's long-lived port, opened by the panel itself: the background checks its sender (tab,
 * frame, parent frame, URL) and token, and it carries run events, focus and close. Nothing of it
 * passes through the page.
 */
export const kPanelPortName = 'ava-panel'
export type PanelPortIn =
  | { type: 'hello'; token: string; childOfTop: boolean }
  | { type: 'close' }
  | { type: 'drawn'; id: number; at: number; x: number; y: number }
export type PanelPortOut =
  | { type: 'welcome' }
  | { type: 'refused' }
  | { type: 'focus' }
  | { type: 'focusTaken' }
  | { type: 'pageDpr'; dpr: number }
  | { type: 'event'; event: RunEvent; seq: number }
  | { type: 'drawn'; id: number; fault: string | null }

/** A saved flow as the panel lists it (src/background/recorder.ts listFlows). */
export interface FlowSummary {
  id: string
  name: string
  action: string
  steps: number
  savedAt: number
  /** Heal proposals waiting for review. */
  pending: number
  /** Steps that needed healing on each of their last runs (flagged). */
  flagged: number[]
  /** Variables to ask for before a replay. */
  asks: { name: string; label: string; secret: boolean }[]
}
