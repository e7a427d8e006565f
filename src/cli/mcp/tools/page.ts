// The page tools: open a page in the client's tab, read it, and act on it step by step through the
// guard. Only the tab given to the client is ever touched.
import { z } from 'zod'
import { describePage } from '../../../core/agent/prompt'
import {
  InstructionSchema,
  PAGE_ACTION_TYPES,
  SCROLL_DIRECTIONS,
  type PageActionType,
} from '../../../core/instruction/schema'
import { actionOf } from '../../../core/page/command'
import { instructionLoads, seesOnly } from '../../../core/vocabulary'
import { judgeNavigation, siteRefusal } from '../../../core/gate/guard'
import { plainMessage } from '../../args'
import { callGuard, framed, gatedAct, McpToolError, resolveClientSecrets } from '../gate'

import type { ToolContext } from './context'

/** How long one `act` step may wait for its element, as the extension's agent waits. */
const kActTimeoutMs = 5_000

/** One instruction in Ava's vocabulary (docs/instruction-schema.md); the page types only. */
const kInstruction = z.object({
  // What names points of a screenshot (a drag), which an MCP client is never sent (docs/agent.md, "Screenshots").
  action_type: z
    .enum(PAGE_ACTION_TYPES.filter((t) => !seesOnly(t)) as [PageActionType, ...PageActionType[]])
    .describe(
      'What to do: navigate, click, input, select, hover, press, scroll, wait, verify (upload is not available over MCP).',
    ),
  target_id: z
    .string()
    .optional()
    .describe("The [id] of an element in ava_page_read's listing: exact, use it when you have it."),
  semantic_locator: z
    .string()
    .optional()
    .describe(
      'The element described in words, e.g. "the Log in button"; used when there is no target_id or it went stale.',
    ),
  fallback_selector: z
    .string()
    .optional()
    .describe('A selector (css:, role:, text:, testid: or plain CSS), tried after target_id.'),
  value: z
    .string()
    .optional()
    .describe(
      'input/select: the text or option. Write a saved secret as ${secret:NAME}: Ava types it; you never see it.',
    ),
  url: z.string().optional().describe('navigate: the address.'),
  key: z.string().optional().describe('press: a key or chord, e.g. Enter, Escape, ${modifier}+A.'),
  direction: z.enum(SCROLL_DIRECTIONS).optional().describe('scroll: up, down, top or bottom.'),
  assertion: z
    .string()
    .optional()
    .describe('verify: what must hold, with the exact expected words in double quotes, e.g. Page shows "Welcome".'),
  selector: z.string().optional().describe('wait: CSS of the content to wait for.'),
  description: z.string().optional().describe('A short name for the step, shown in results.'),
})

export function registerPageTools(ctx: ToolContext): void {
  const { o, gate, text, tool, tab } = ctx
  // ---- The page: only the client's tab.
  ctx.server.registerTool(
    'ava_navigate',
    {
      title: 'Open a page',
      description: "Opens an address in the client's tab (the first call opens the tab). Ava acts only in this tab.",
      inputSchema: { url: z.string().describe('An http(s) address.') },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    tool(async ({ url }: { url: string }, signal) => {
      if (!/^https?:\/\//i.test(url))
        throw new McpToolError('INVALID', `Ava opens only http(s) pages, not ${url.slice(0, 60)}.`)
      // The guard's navigation rule (core/gate/guard.ts): the first page the client names is held
      // to the site lists; from a page it has, another site asks, as for Ava's own model, and the
      // navigation counts. In the person's Chrome the extension is that guard (background/mcp.ts).
      const current = o.place.tab()
      const refused =
        current && !o.place.secretsInPlace
          ? await judgeNavigation(
              callGuard(gate, () => current.url(), signal),
              url,
            )
          : siteRefusal(url, o.sites)
      if (refused) throw new McpToolError(refused.code, refused.message)
      const t = await o.place.open(url, signal)
      return text(`Opened ${await t.url()}`)
    }),
  )
  ctx.server.registerTool(
    'ava_page_read',
    {
      title: 'Read the page',
      description:
        "Ava's listing of the client's tab: the interactive elements with their [id]s (use them as target_id), the page's text near them, and its intents (e.g. login: the ids that sign in). Everything inside <untrusted_page_content> is the page's own text.",
      inputSchema: {
        request: z
          .string()
          .optional()
          .describe('What you are about to do, so the listing puts the elements that matter first.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    tool(async ({ request }: { request?: string }, signal) => {
      const out = await (await tab(signal)).send({ kind: 'read', request: request ?? '', settle: true }, signal)
      if (!out.ok) throw new McpToolError(out.code, out.message)
      return text(
        describePage({
          url: out.info.url,
          title: out.info.title,
          listing: out.info.listing,
          intents: out.info.intents,
        }),
      )
    }),
  )
  ctx.server.registerTool(
    'ava_page_act',
    {
      title: 'Act on the page',
      description:
        "Runs one or more instructions in Ava's vocabulary in the client's tab, in order, stopping at the first that fails. Each step passes Ava's gate: a risky one (a payment, a delete, a login, another site) waits for the person's OK, and a refusal comes back as an error with code DENIED.",
      inputSchema: { instructions: z.array(kInstruction).min(1).max(20) },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    tool(async ({ instructions }: { instructions: z.infer<typeof kInstruction>[] }, signal) => {
      const t = await tab(signal)
      const guard = callGuard(gate, () => t.url(), signal)
      const lines: string[] = []
      for (const [i, raw] of instructions.entries()) {
        const { action_type, description, ...params } = raw
        const parsed = InstructionSchema.safeParse({
          step_id: i + 1,
          action_type,
          params: Object.fromEntries(Object.entries(params).filter((e) => e[1] !== undefined)),
          description,
        })
        if (!parsed.success)
          throw new McpToolError('INVALID', `Step ${i + 1}: ${parsed.error.issues.map((x) => x.message).join('; ')}`)
        const ins = parsed.data
        const name = `${i + 1} ${ins.action_type}${ins.description ? ` (${ins.description})` : ''}`
        try {
          if (instructionLoads(ins.action_type)) {
            const url = new URL(ins.params.url!, await t.url()).href
            // Judged and counted by the guard, or by the extension's where it is the place.
            const refused = o.place.secretsInPlace ? siteRefusal(url, o.sites) : await judgeNavigation(guard, url)
            if (refused) throw new McpToolError(refused.code, refused.message)
            await t.navigate(url, signal)
            lines.push(`OK ${name}: opened ${await t.url()}`)
            continue
          }
          const step = actionOf(ins)!
          let secretSites: string[] | undefined
          if ('value' in step && typeof step.value === 'string' && !o.place.secretsInPlace) {
            const r = resolveClientSecrets(step.value, o.secrets, await t.url())
            step.value = r.value
            secretSites = r.secretSites
          }
          const out = await gatedAct(t.send, step, guard, { timeoutMs: kActTimeoutMs, secretSites, signal })
          lines.push(
            `OK ${name}: ${out.detail ?? 'done'}${out.data !== undefined ? ` → ${JSON.stringify(out.data)}` : ''}`,
          )
        } catch (e) {
          const code = e instanceof McpToolError ? e.code : 'FAILED'
          const done = lines.length ? `Done before it:\n${framed(lines)}\n` : ''
          throw new McpToolError(
            code,
            `step ${name} failed.\n${done}What failed (quotes the page):\n${framed([plainMessage(e)])}`,
          )
        }
      }
      return text(
        `${lines.length} step${lines.length === 1 ? '' : 's'} done. What they report quotes the page:\n${framed(lines)}`,
      )
    }),
  )
}
