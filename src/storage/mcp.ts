import { z } from 'zod'
import { typedKey } from './area'

/**
 * MCP clients the person has allowed to drive a tab in this browser (docs/mcp.md, "In your own
 * Chrome"), by the name each gave; the options list them with Revoke. Kept in chrome.storage.local
 * so the list outlives the browser; a client's tab itself is the worker's while its port is open.
 * A grant names its sites: the site of the tab the person gives, and those they name here.
 */
export const McpClientsSchema = z
  .array(
    z.object({
      name: z.string().max(80),
      since: z.number(),
      /** Sites the person named for this client, beyond the site of the tab they give it (core/grant.ts). */
      sites: z.array(z.string().max(253)).max(50).default([]),
    }),
  )
  .max(100)
export type McpClient = z.infer<typeof McpClientsSchema>[number]
export const DEFAULT_MCP_CLIENTS = (): McpClient[] => []
export const mcpClientsStore = typedKey<McpClient[]>('local', 'mcpClients', McpClientsSchema, DEFAULT_MCP_CLIENTS)
