// Compiled by `npm run typecheck`, never run. The package entries declare their public types
// themselves (their declarations ship alone: scripts/build-lib.mjs), restating core's. Each line
// says that what the code hands out fits the public type, and that what a caller hands in fits
// the code (both ways where a caller may build the value): a change to either side that breaks the
// promise stops the typecheck here.
import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { AvaMcpServer, McpModel, McpTransport, RiskCategory, SitePolicy } from '../../src/cli/mcp/api'
import type { RiskCategory as CoreRiskCategory } from '../../src/core/exec'
import type { Flow as CoreFlow, FlowRunResult, StepReport } from '../../src/core/flows'
import type { SitePolicy as CoreSitePolicy } from '../../src/core/offsite'
import type { ActionResult, StepTrace } from '../../src/core/registry'
import type { LlmSettings } from '../../src/core/settings'
import type {
  AvaActionResult,
  AvaActionStepTrace,
  AvaFlowResult,
  AvaFlowStepReport,
  AvaProvider,
  Flow,
} from '../../src/playwright/fixture'

type Fits<A extends B, B> = [A, B]

export type PublicTypesFit = [
  // What the fixture reports.
  Fits<StepReport, AvaFlowStepReport>,
  Fits<StepTrace, AvaActionStepTrace>,
  Fits<FlowRunResult, AvaFlowResult>,
  Fits<ActionResult, AvaActionResult>,
  // What a test writes: a flow object, a model.
  Fits<CoreFlow, Flow>,
  Fits<AvaProvider, LlmSettings>,
  Fits<LlmSettings, AvaProvider>,
  // The MCP library's options, and the SDK's server and transports.
  Fits<RiskCategory, CoreRiskCategory>,
  Fits<CoreRiskCategory, RiskCategory>,
  Fits<SitePolicy, CoreSitePolicy>,
  Fits<McpModel, LlmSettings>,
  Fits<LlmSettings, McpModel>,
  Fits<McpServer, AvaMcpServer>,
  Fits<StdioServerTransport, McpTransport>,
  Fits<StreamableHTTPServerTransport, McpTransport>,
  Fits<InMemoryTransport, McpTransport>,
]
