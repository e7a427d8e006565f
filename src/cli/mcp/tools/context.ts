// What every tool of `ava mcp` is built with: the server, its options, the gate, and the helpers
// that make a tool's result (secrets redacted, errors with Ava's code) and find the client's tab.
import { z } from 'zod'
import { createRegistry, type ActionRegistry } from '../../../core/registry'
import { cliSources } from '../../sources'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { GateOptions } from '../gate'
import type { McpTab } from '../place'
import type { McpOptions } from '../server'

export interface ToolContext {
  server: McpServer
  o: McpOptions
  gate: GateOptions
  /** A result: saved secrets and the named hidden values become placeholders. */
  text(body: string, hidden?: string[]): CallToolResult
  /** A tool error carrying Ava's code. */
  failure(e: unknown): CallToolResult
  /** Wraps a tool body: its errors become tool errors, a navigation the site list stopped becomes BLOCKED. */
  tool<A>(
    body: (args: A, signal: AbortSignal) => Promise<CallToolResult>,
  ): (args: A, extra: { signal: AbortSignal }) => Promise<CallToolResult>
  /** The client's tab, or NO_TAB. */
  tab(signal: AbortSignal): Promise<McpTab>
}

/** The installed packs, read afresh for each call: a pack added while the server runs is there. */
export function loadRegistry(): ActionRegistry {
  const registry = createRegistry(() => cliSources().sources)
  registry.load(cliSources().sources)
  return registry
}

/** An action's or a flow's parameters as a client passes them. */
export const kParams = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({})
