// `ava-assistant/mcp`: the MCP server as a library, for a program that connects Ava's tools to a
// transport of its own (built to lib/mcp.cjs by scripts/build-lib.mjs; docs/mcp.md, "As a library").
//
// The declarations of this file are shipped as they are emitted, so every type an export mentions
// is declared here: the public types restate what a caller passes and gets back, and the code below
// that hands core's values out through them stops compiling when they drift. The build refuses a
// declaration that reaches into another file or a package the package does not ship.
import { createAvaMcpServer as createServer, kServerInfo as serverInfo } from './server'
import { modelFromEnv as modelFrom } from './agent'
import { allowListAsker as allowList, McpToolError as ToolError } from './gate'
import { parseAllow as parse } from '../unattended'
import { chromiumPlace as chromium, type McpPlace as Place } from './place'

/** Kinds of risky step a caller may allow without asking (docs/mcp.md, `--allow`). */
export type RiskCategory =
  'credentials' | 'payment' | 'destructive' | 'cross_site' | 'high_risk_action' | 'permission' | 'data_send'

/** Sites the tools may go to: when `allow` is not empty, only those hosts (`*.` matches subdomains). */
export interface SitePolicy {
  allow: string[]
  deny: string[]
}

/** A saved secret: the value (from the environment), the origins it may be typed on. */
export interface McpSecret {
  name: string
  value: string
  sites: string[]
}

/**
 * Who answers a risky step's question (allowListAsker: yes only to the categories given): true is
 * yes, false is the person's no (DENIED), `{ unattended }` is "nobody is there to ask", naming what
 * would allow the step (UNATTENDED).
 */
export interface Asker {
  ask(
    question: { reason: string; category?: RiskCategory; offsite?: string },
    signal: AbortSignal,
  ): Promise<boolean | { unattended: string }>
}

/** The model `ava_ask` talks to (docs/providers.md). */
export interface McpModel {
  provider: 'anthropic' | 'openai' | 'local'
  baseUrl: string
  authStyle: 'x-api-key' | 'bearer'
  apiKey: string
  model: string
  requestTimeoutMs: number
  structuredOutput?: 'auto' | 'on' | 'off'
  vision?: 'auto' | 'on' | 'off'
}

declare const kPlace: unique symbol
/** Where the tools act: made by chromiumPlace() (a Chromium of the server's own). */
export interface McpPlace {
  readonly [kPlace]: true
  close(): Promise<void>
}

/** A transport of the MCP SDK (stdio, Streamable HTTP, in-memory), as the server uses it. */
export interface McpTransport {
  start(): Promise<void>
  send(message: object, options?: object): Promise<void>
  close(): Promise<void>
  // Methods, not properties: the SDK's own are typed for its message union, which these accept.
  onclose?(): void
  onerror?(error: Error): void
  onmessage?(message: unknown, extra?: unknown): void
  sessionId?: string
}

/** The server: connect it to one transport (one client connection). */
export interface AvaMcpServer {
  connect(transport: McpTransport): Promise<void>
  close(): Promise<void>
  isConnected(): boolean
}

export interface McpOptions {
  place: McpPlace
  /** Who answers a risky step. */
  asker: Asker
  /** The risk categories acting commands carry (Ava's default: all of them). */
  confirm?: readonly RiskCategory[]
  /** Steps one tool call may take. */
  stepLimit: number
  sites: SitePolicy
  secrets: readonly McpSecret[]
  /** Folders whose *.flow.json files the client may list and run. */
  flowDirs: string[]
  /** The model ava_ask uses, or why there is none. */
  llm: McpModel | string | undefined
}

/** A tool call refused or failed: `code` is Ava's failure code (docs/troubleshooting.md). */
export interface McpToolError extends Error {
  readonly code: string
}
/** For `instanceof`: the server makes these, a caller does not (hence no constructor's parameters). */
export const McpToolError: { new (...never: never[]): McpToolError; readonly prototype: McpToolError } = ToolError

/** The server's name and version, as MCP clients show them. */
export const kServerInfo: { readonly name: string; readonly version: string } = serverInfo

/**
 * Builds the server. One server serves one client connection; the place (the browser and the
 * client's tab) is shared by every server made with it.
 */
export function createAvaMcpServer(o: McpOptions): AvaMcpServer {
  // A McpPlace comes only from chromiumPlace() below (the brand keeps others out).
  return createServer({ ...o, place: o.place as unknown as Place })
}

/** Place (a): a Chromium of the server's own, started on the first ava_navigate. */
export function chromiumPlace(o: { executablePath: string; headed: boolean }): McpPlace {
  return chromium(o) as unknown as McpPlace
}

/** An Asker for a place without a person: yes only to the categories given. */
export function allowListAsker(allowed: readonly RiskCategory[]): Asker {
  return allowList(allowed)
}

/** `['credentials,payment']` → the categories, or why not. `all` is every category. */
export function parseAllow(raw: readonly string[]): RiskCategory[] | string {
  return parse(raw)
}

/** The model from the environment (docs/mcp.md, "ava_ask"), or why not; undefined when none is named. */
export function modelFromEnv(env: Record<string, string | undefined> = process.env): McpModel | string | undefined {
  return modelFrom(env)
}
