/**
 * The bridge between `ava mcp --chrome` and Ava's extension (docs/mcp.md, "In your own Chrome"):
 * the native host's name, and the messages the server sends. The extension answers each with
 * `{ id, ok: true, … }` or `{ id, ok: false, code, message }`, and tells the server of a Stop.
 */
import type { PageCommand } from './page/command'

/** The native-messaging host `ava mcp install` registers and the extension connects to. */
export const kBridgeHost = 'com.ava_assistant.bridge'

/** Page commands a client may send: reading and acting; recording, overlays and frame plumbing stay Ava's. */
export const kBridgeCommands = ['read', 'act', 'count', 'find', 'url', 'flow.step'] as const

export type BridgeRequest =
  | { id: number; kind: 'attach'; client: string }
  | { id: number; kind: 'command'; command: PageCommand }
  | { id: number; kind: 'navigate'; url: string }
  | { id: number; kind: 'url' }
  | { id: number; kind: 'ask'; request: string }

/** What the extension tells the server unasked: the person stopped or revoked the client. */
export interface BridgeStopped {
  kind: 'stopped'
  message: string
}
