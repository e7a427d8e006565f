/**
 * The bridge between `ava mcp --chrome` and Ava's extension (docs/mcp.md, "In your own Chrome"):
 * the native host's name, and the messages the server sends. The extension answers each with
 * `{ id, ok: true, … }` or `{ id, ok: false, code, message }`, and tells the server of a Stop.
 */
import type { PageCommand } from './page/command'
import type { ScheduleDraft } from './schedule/model'

/** The native-messaging host `ava mcp install` registers and the extension connects to. */
export const kBridgeHost = 'com.ava_assistant.bridge'

/** Page commands a client may send: reading and acting; recording, overlays and frame plumbing stay Ava's. */
export const kBridgeCommands = ['read', 'act', 'count', 'find', 'url', 'flow.step'] as const

/**
 * Every request names the server's session it comes from (one per MCP connection: an HTTP
 * `mcp-session-id`, or the one stdio connection): each session is given a tab of its own, and a
 * request of one session never reaches another's tab. A server that names none is one session.
 */
export type BridgeRequest = { id: number; session?: string } & (
  | { kind: 'attach'; client: string }
  | { kind: 'command'; command: PageCommand }
  | { kind: 'navigate'; url: string }
  | { kind: 'url' }
  /** `shape`: a JSON Schema of the rows to extract (ava_extract, docs/extraction.md), already read by the server. */
  | { kind: 'ask'; request: string; shape?: Record<string, unknown> }
  /** The server's session ended (an HTTP session closed): the extension ends it, and the tab is the person's again. */
  | { kind: 'detach' }
  /** `ava schedule`: the person's schedules (docs/agent.md, "Schedules"); no session or tab. */
  | ({ kind: 'schedule' } & BridgeScheduleOp)
)

/** What `ava schedule` asks of the extension (`schedule`, not `id`: a request's `id` is its number on the bridge). */
export type BridgeScheduleOp = { op: 'list' } | { op: 'add'; draft: ScheduleDraft } | { op: 'remove'; schedule: string }

/** What the extension tells the server unasked: the person stopped or revoked the session's client, or closed its tab. */
export interface BridgeStopped {
  kind: 'stopped'
  session?: string
  message: string
}
