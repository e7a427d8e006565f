// `ava-assistant/mcp`: the MCP server as a library, for a program that embeds Ava's tools in its
// own MCP server or connects them to a transport of its own (built to lib/mcp.js by scripts/build-lib.mjs).
export { createAvaMcpServer, kServerInfo, type McpOptions } from './mcp'
export { chromiumPlace, type McpPlace, type McpTab } from './mcp-place'
export { allowListAsker, parseAllow, McpToolError, type Asker, type McpSecret } from './mcp-gate'
export { modelFromEnv } from './mcp-agent'
