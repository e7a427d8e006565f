// Ask Ava: the agent's own run, with the model `ava mcp` was started with, through the guard.
import { z } from 'zod'
import { askAva, type AskReport } from '../agent'
import { framed, McpToolError } from '../gate'

import { loadRegistry, type ToolContext } from './context'

/**
 * A request for Ava's own agent, from `tool`: in the person's browser (`--chrome`) their panel
 * runs it with their model, through the extension's one gate; else the model `ava mcp` was started
 * with runs it on the client's tab. `shape`: the rows to extract.
 */
export async function askThrough(
  ctx: ToolContext,
  tool: string,
  request: string,
  signal: AbortSignal,
  shape?: Parameters<typeof askAva>[1]['shape'],
): Promise<AskReport> {
  const { o, tab } = ctx
  if (o.place.ask) return o.place.ask(request, signal, shape)
  if (typeof o.llm !== 'object')
    throw new McpToolError(
      'NO_MODEL',
      o.llm ??
        `${tool} needs a model: start ava mcp with AVA_PROVIDER (openai, anthropic or local), AVA_BASE_URL, AVA_MODEL and AVA_API_KEY in its environment (docs/environment.md).`,
    )
  return askAva(request, {
    tab: await tab(signal),
    llm: o.llm,
    registry: loadRegistry(),
    asker: o.asker,
    secrets: o.secrets,
    stepLimit: o.stepLimit,
    signal,
    ...(shape ? { shape } : {}),
  })
}

export function registerAgentTools(ctx: ToolContext): void {
  const { text, tool } = ctx
  // ---- Ask Ava.
  ctx.server.registerTool(
    'ava_ask',
    {
      title: 'Ask Ava',
      description:
        'Gives Ava a request in words (e.g. "sign in as alice", "what is the order total?"). Ava\'s own agent reads the client\'s tab and carries it out step by step under its gate, and returns its answer and steps.',
      inputSchema: { request: z.string().min(1).max(4000) },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    tool(async ({ request }: { request: string }, signal) => {
      const r = await askThrough(ctx, 'ava_ask', request, signal)
      const steps = r.steps.map(
        (s) =>
          `${s.status} step ${s.index} ${s.action}${s.description ? ` (${s.description})` : ''}${s.detail ? `: ${s.detail}` : ''}`,
      )
      const body = [
        `Ava's run ended: ${r.status}.`,
        `Ava's answer (written by Ava's model after reading the page):`,
        framed([r.answer || '(no answer)']),
        'Steps (what they report quotes the page):',
        framed(steps.length ? steps : ['(no steps)']),
        ...(r.notes.length ? ['Notes:', framed(r.notes)] : []),
      ].join('\n')
      if (r.status !== 'done') {
        const denied = r.notes.some((n) => n.startsWith('asked (denied)'))
        throw new McpToolError(denied ? 'DENIED' : 'FAILED', body)
      }
      return text(body)
    }),
  )
}
