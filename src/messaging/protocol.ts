import type { ChatMessage, RunEvent, RunView } from '../core/chat'
export type { RunEvent }
import type { ErrorData } from '../core/errors'
import type { ExecOutcome, ExecRequest } from '../core/exec'
import type { LlmSettings, Settings } from '../core/settings'
import type { ActionCommand } from '../core/registry/api'

/**
 * Every message Ava's contexts exchange: name → request and response. The name says who sends it
 * (`panel→bg`, `bg→content`, ...); the handler side declares which senders it accepts and the
 * transport checks that before the handler runs (STYLE.md, "One typed protocol").
 */
export interface Protocol {
  // The boot script, in a tab's content script.
  'content→bg:ready': { req: { url: string }; res: { panelOpen: boolean } }
  /** A one-time token the boot script hands to the panel frame it created (see background/panels.ts). */
  'content→bg:panel.token': { req: Record<string, never>; res: { token: string } }

  // The chat panel: an extension page framed by the boot script inside a closed shadow root.
  'panel→bg:run.start': { req: { text: string; noCache?: boolean }; res: { runId: string } }
  'panel→bg:run.confirm': { req: { runId: string; allow: boolean }; res: { ok: boolean } }
  'panel→bg:run.stop': { req: Record<string, never>; res: { stopped: boolean } }
  'panel→bg:chat.load': { req: Record<string, never>; res: { messages: ChatMessage[]; run: RunView | null; seq: number; origin: string } }
  'panel→bg:chat.clear': { req: Record<string, never>; res: { cleared: boolean } }

  // Extension pages.
  'options→bg:settings.get': { req: Record<string, never>; res: { settings: PublicSettings } }
  'options→bg:settings.save': { req: { settings: SettingsInput }; res: { settings: PublicSettings } }
  'options→bg:settings.test': { req: { llm: LlmInput }; res: ConnectionReport }
  'options→bg:settings.export': { req: Record<string, never>; res: { json: string } }
  'options→bg:settings.import': { req: { json: string }; res: { settings: PublicSettings } }
  'popup→bg:packs.list': { req: Record<string, never>; res: { packs: PackSummary[] } }

  /** The registry's `action.*` commands (seed 000 §3.1); `action.run` acts in the sender's tab, or the active tab. */
  'ui→bg:action': { req: ActionCommand; res: unknown }
  /** A slash command typed in the panel (/actions, /describe, /run, /dry-run); the answer goes into the chat. */
  'panel→bg:slash': { req: { text: string }; res: { ok: boolean } }

  // The background, to the content script of a tab.
  /** One BrowserPort call of the step engine, run by the page port (src/dom/port.ts). */
  'bg→content:port': { req: { method: string; args: unknown[] }; res: { value?: unknown } }
  'bg→content:exec': { req: ExecRequest; res: ExecOutcome }
  'content→bg:panel.state': { req: { open: boolean }; res: { open: boolean } }
  'bg→content:panel.open': { req: Record<string, never>; res: { ok: true } }
  'bg→content:page.info': { req: { request?: string }; res: PageInfo }
}

export type MessageName = keyof Protocol
export type Req<N extends MessageName> = Protocol[N]['req']
export type Res<N extends MessageName> = Protocol[N]['res']

/** Settings as the options page sees them: the key only as a mask. */
export type PublicSettings = Omit<Settings, 'llm'> & { llm: Omit<LlmSettings, 'apiKey'> & { apiKeyMask: string } }
/** What the options page sends: a missing `apiKey` keeps the stored one. */
export type LlmInput = Omit<LlmSettings, 'apiKey'> & { apiKey?: string }
export type SettingsInput = Omit<Settings, 'llm'> & { llm: LlmInput }

export type ConnectionReport = { ok: true; model: string; latencyMs: number; reply: string } | { ok: false; error: ErrorData }

export interface PackSummary {
  namespace: string
  version: string
  description: string
  actions: number
  source: string
}

export interface PageInfo {
  url: string
  title: string
  /** The Observe listing of the page, budgeted for the request. */
  listing: string
}

/** The wire shape. Responses are wrapped so that errors survive structured cloning as data. */
export interface Envelope<N extends MessageName = MessageName> {
  ava: 1
  name: N
  req: Req<N>
}
export type Reply<N extends MessageName = MessageName> = { ok: true; res: Res<N> } | { ok: false; error: ErrorData }

/** The panel's long-lived port: it authorises the frame and carries live run events to it. */
export const kPanelPortName = 'ava-panel'
export type PanelPortIn = { type: 'hello'; token: string }
export type PanelPortOut = { type: 'welcome' } | { type: 'event'; event: RunEvent; seq: number }
