// Recorded flows: list the flow files the client may run, and replay one through the guard.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { z } from 'zod'
import { parseFlow, replayFlow, formatReport } from '../../../core/flows'
import { plainMessage } from '../../args'
import { boundSecrets, callGuard, framed, McpToolError } from '../gate'

import { kParams, type ToolContext } from './context'

function flowFiles(dirs: string[]): { name: string; path: string }[] {
  return dirs.flatMap((dir) => {
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter((f) => f.endsWith('.flow.json'))
      .map((f) => ({ name: basename(f, '.flow.json'), path: resolve(dir, f) }))
  })
}

export function registerFlowTools(ctx: ToolContext): void {
  const { o, gate, text, tool, tab } = ctx
  // ---- Recorded flows.
  ctx.server.registerTool(
    'ava_flow_list',
    {
      title: 'List flows',
      description: 'The recorded flows this server may run (*.flow.json in its flow folders), with their variables.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async () => {
      const flows = flowFiles(o.flowDirs).map((f) => {
        try {
          const flow = parseFlow(readFileSync(f.path, 'utf8'))
          return {
            name: f.name,
            title: flow.metadata.name,
            start_url: flow.metadata.start_url,
            steps: flow.steps.length,
            variables: Object.keys(flow.variables),
          }
        } catch (e) {
          return { name: f.name, invalid: plainMessage(e) }
        }
      })
      return text(JSON.stringify(flows, null, 2))
    }),
  )
  ctx.server.registerTool(
    'ava_flow_run',
    {
      title: 'Run a flow',
      description:
        "Replays a recorded flow (see ava_flow_list) in the client's tab, from the page it is on. Risky steps wait for the person's OK.",
      inputSchema: { name: z.string(), params: kParams },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    tool(async ({ name, params }: { name: string; params: Record<string, unknown> }, signal) => {
      const t = await tab(signal)
      const file = flowFiles(o.flowDirs).find((f) => f.name === name)
      if (!file) throw new McpToolError('FLOW_MISSING', `No flow "${name}"; see ava_flow_list.`)
      const flow = parseFlow(readFileSync(file.path, 'utf8'))
      const guard = callGuard(gate, () => t.url(), signal)
      const port = t.flowPort({ guard, secrets: boundSecrets(o.secrets) })
      const vault = Object.fromEntries(o.secrets.map((s) => [s.name, s.value]))
      // The flow's ${env:X} and ${secret:X} read the saved secrets only (bound to their sites by the port), never the whole environment.
      const given = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))
      const r = await replayFlow(flow, {
        port,
        signal,
        navigateToStart: false,
        variables: { params: given, env: vault, secrets: vault, args: [] },
      }).finally(() => port.close())
      const report = formatReport(r)
      if (!r.success)
        throw new McpToolError(
          r.error?.code ?? 'STEP_FAILED',
          `${name} failed. Its report (quotes the page):\n${framed(report)}`,
        )
      return text(
        `${name} passed. Its report (quotes the page):\n${framed([...report, ...(Object.keys(r.returns).length ? [`returns: ${JSON.stringify(r.returns)}`] : [])])}`,
      )
    }),
  )
}
