import { z } from 'zod'
import { typedKey } from './area'

/**
 * MCP clients the person has allowed to drive a tab in this browser (docs/mcp.md, "In your own
 * Chrome"), by the name each gave; the options list them with Revoke. Kept in chrome.storage.local
 * so the list outlives the browser; a client's tab itself is the worker's while its port is open.
 */
export const McpClientsSchema = z.array(z.object({ name: z.string().max(80), since: z.number() })).max(100)
export type McpClient = z.infer<typeof McpClientsSchema>[number]
export const DEFAULT_MCP_CLIENTS = (): McpClient[] => []
export const mcpClientsStore = typedKey<McpClient[]>('local', 'mcpClients', McpClientsSchema, DEFAULT_MCP_CLIENTS)
