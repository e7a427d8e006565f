// The registry's tools: list, describe, search and dry-run actions (read-only, no page needed), and
// run one in the client's tab through the guard; and the installed packs as resources.
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { existsSync, readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { z } from 'zod'
import { redactText } from '../../../core/agent/secrets'
import { createEngine, dryRun, type ActionRegistry } from '../../../core/registry'
import { actionQuestions, askBeforeAction, isRefusal } from '../../../core/gate/guard'
import { boundSecrets, callGuard, framed, McpToolError, resolveClientSecrets } from '../gate'
import { configEngineOptions } from '../../run'
import { actionEnv, lookupFailure, readGlobalConfig } from '../../sources'

import { kParams, loadRegistry, type ToolContext } from './context'

/** The values given for an action's `secret: true` parameters: never echoed in a result. */
function secretParams(registry: ActionRegistry, name: string, params: Record<string, unknown>): string[] {
  const found = registry.lookup(name)
  if (!found.ok) return []
  return Object.entries(found.action.params)
    .filter(([k, p]) => p.secret && typeof params[k] === 'string')
    .map(([k]) => String(params[k]))
}

export function registerActionTools(ctx: ToolContext): void {
  const { o, gate, text, tool, tab } = ctx
  // ---- The registry: read-only, no page needed.
  ctx.server.registerTool(
    'ava_action_list',
    {
      title: 'List actions',
      description:
        'Lists the deterministic actions of the installed packs, grouped by namespace (e.g. common, elementplus), with their descriptions.',
      inputSchema: { namespace: z.string().optional().describe('Only this namespace.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async ({ namespace }: { namespace?: string }) => {
      const list = loadRegistry().list(namespace)
      if (!list.length)
        throw new McpToolError('PACK_MISSING', namespace ? `No namespace "${namespace}".` : 'No actions are loaded.')
      return text(
        JSON.stringify(
          list.map((n) => ({
            namespace: n.namespace,
            version: n.version,
            description: n.description,
            actions: n.actions.map((a) => ({ name: a.name, description: a.description, risk: a.risk, asks: a.asks })),
          })),
          null,
          2,
        ),
      )
    }),
  )
  ctx.server.registerTool(
    'ava_action_describe',
    {
      title: 'Describe an action',
      description:
        "An action's parameters (types, required, secret), steps, returns and checks. Call before ava_action_run.",
      inputSchema: { name: z.string().describe('namespace:component:action, e.g. common:auth:login') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async ({ name }: { name: string }) => {
      const registry = loadRegistry()
      const d = registry.describe(name)
      if (!d) {
        const found = registry.lookup(name)
        throw new McpToolError('ACTION_NOT_FOUND', found.ok ? `No action "${name}".` : lookupFailure(found))
      }
      return text(JSON.stringify(d, null, 2))
    }),
  )
  ctx.server.registerTool(
    'ava_action_search',
    {
      title: 'Search actions',
      description: 'Finds actions by words in their name, description or parameters (English or Chinese).',
      inputSchema: { query: z.string().min(1).describe('Keywords, e.g. "login" or "date picker".') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async ({ query }: { query: string }) => {
      const results = loadRegistry().search(query)
      if (!results.length) throw new McpToolError('NO_MATCH', `Nothing matches "${query}".`)
      return text(JSON.stringify(results, null, 2))
    }),
  )
  ctx.server.registerTool(
    'ava_action_dry_run',
    {
      title: 'Plan an action',
      description:
        "Resolves an action's parameters, conditions and selectors and returns the plan; runs nothing on the page.",
      inputSchema: { name: z.string(), params: kParams },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    tool(async ({ name, params }: { name: string; params: Record<string, unknown> }) => {
      const registry = loadRegistry()
      const r = dryRun(registry, name, params, { env: actionEnv(registry) })
      if (!r.success) throw new McpToolError('INVALID', r.text)
      return text(r.text, secretParams(registry, name, params))
    }),
  )

  ctx.server.registerTool(
    'ava_action_run',
    {
      title: 'Run an action',
      description:
        "Runs a pack action (see ava_action_describe) in the client's tab. Its steps pass Ava's gate like Ava's own: risky ones wait for the person's OK. Give a secret parameter as ${secret:NAME}.",
      inputSchema: { name: z.string().describe('namespace:component:action'), params: kParams },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    tool(async ({ name, params }: { name: string; params: Record<string, unknown> }, signal) => {
      const t = await tab(signal)
      const registry = loadRegistry()
      const found = registry.lookup(name)
      if (!found.ok) throw new McpToolError('ACTION_NOT_FOUND', lookupFailure(found))
      const here = await t.url()
      const resolved: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(params))
        resolved[k] =
          typeof v === 'string' && !o.place.secretsInPlace ? resolveClientSecrets(v, o.secrets, here).value : v
      const guard = callGuard(gate, () => t.url(), signal)
      // The action's own questions, before its first step (core/gate/guard.ts): refused here,
      // nothing is half done. In the person's Chrome the extension asks each step in the panel.
      if (!o.place.secretsInPlace) {
        const before = await askBeforeAction(
          guard,
          actionQuestions(
            { name, risk: found.action.risk, params: found.action.params },
            { secrets: Object.keys(resolved).some((k) => found.action.params[k]?.secret), url: here },
            guard.confirm,
          ),
        )
        if (!before.ok) throw new McpToolError(before.code, `${name}: ${before.message}`)
        guard.confirm = before.confirm
      }
      const engine = createEngine({
        ...configEngineOptions(readGlobalConfig().config),
        registry,
        port: t.browserPort({ guard, secrets: boundSecrets(o.secrets) }),
        env: actionEnv(registry),
      })
      const r = await engine.run(name, resolved, { signal })
      const body = JSON.stringify(
        {
          success: r.success,
          action: r.action,
          data: r.data,
          error: r.error,
          steps: r.trace.map((s) => ({
            id: s.id,
            action: s.action,
            status: s.status,
            ...(s.error ? { error: s.error } : {}),
          })),
        },
        null,
        2,
      )
      const hidden = secretParams(registry, name, resolved)
      if (!r.success) {
        const code = r.error?.code ?? 'STEP_FAILED'
        throw new McpToolError(
          code,
          `${name} did not finish${isRefusal(code) ? `: ${redactText(r.error!.message, hidden)}` : ''}. Its report (quotes the page):\n${framed([redactText(body, hidden)])}`,
        )
      }
      return text(`${name} finished. Its report (quotes the page):\n${framed([body])}`, hidden)
    }),
  )
  // ---- Resources: the packs, as YAML.
  ctx.server.registerResource(
    'pack',
    new ResourceTemplate('ava-pack://{namespace}', {
      list: async () => ({
        resources: loadRegistry()
          .list()
          .map((n) => ({
            uri: `ava-pack://${n.namespace}`,
            name: `${n.namespace} pack`,
            description: n.description,
            mimeType: 'text/yaml',
          })),
      }),
    }),
    {
      title: 'Action pack',
      description: 'An installed action pack (YAML): its selectors and actions.',
      mimeType: 'text/yaml',
    },
    async (uri, { namespace }) => {
      const ns = loadRegistry().list(String(namespace))[0]
      const files = [...new Set(ns?.actions.map((a) => a.source.file) ?? [])].filter((f) => extname(f) && existsSync(f))
      if (!files.length) throw new McpToolError('PACK_MISSING', `No pack "${String(namespace)}".`)
      return { contents: files.map((f) => ({ uri: uri.href, mimeType: 'text/yaml', text: readFileSync(f, 'utf8') })) }
    },
  )
}
