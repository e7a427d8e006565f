import { z } from 'zod'
import type { SafeParseResult } from '../result'
import {
  instructionKind,
  instructionOpens,
  kInstructionNames,
  kPageInstructionNames,
  seesOnly,
  type InstructionName,
} from '../vocabulary'
import type { FailureCode } from '../failure'

/**
 * The Unified Instruction Schema: the contract between the planner's LLM and the
 * page-side executor. One instruction is one step; the LLM streams an array of them.
 *
 * `target_id` is our extension of the design: the id of an element from the Observe
 * listing. When it is given the executor uses it first (and fails loudly if it went stale).
 */
/**
 * The nine page actions and `upload` (value: the name of a file the
 * person attached), plus two for the agent loop: `run_action` calls a registry action by
 * name with arguments, `done` ends the task with an answer for the person; `ask` pauses the run on
 * a question to the person, `collect` scrolls a feed or table and gathers its items (docs/agent.md,
 * "Asking the person", "Reading a whole feed"). For models that see (docs/agent.md, "Screenshots"):
 * `screenshot` asks for a marked screenshot with the next page read, `x`/`y` name a point in the
 * last screenshot instead of an element, and `drag` moves the pointer along `path` (a signature, a
 * slider). Defined once, with what each needs and the DOM
 * action it becomes, in src/core/vocabulary.ts (`kInstructions`).
 */
export const PAGE_ACTION_TYPES = kPageInstructionNames
export const ACTION_TYPES = kInstructionNames
export type ActionType = InstructionName
export type PageActionType = (typeof PAGE_ACTION_TYPES)[number]

export const SCROLL_DIRECTIONS = ['up', 'down', 'top', 'bottom'] as const

// Text fields the LLM fills are bounded: a runaway generation must not become a megabyte value.
const kMaxText = 2_000 // characters; longer than any real label, assertion or typed value we saw
const kMaxUrl = 4_096 // browsers accept more, but no link a person asks for is that long

/** ask: choices beyond this are a form, not a question. */
const kMaxChoices = 10
/** collect: the most items one step gathers (a long feed is read in parts, each asked for). */
export const kMaxCollectLimit = 500
const kMaxCoord = 100_000 // pixels of a screenshot; no screen is that large
const kMaxPathPoints = 500 // a signature's stroke, sampled; more is a runaway generation
/** The most tabs one run keeps (core/agent/tabs.ts); a higher number names none of them. */
const kMaxTabs = 50
const kMaxClaims = 50 // an answer's claims about the page, each shown with its marks
const kMaxClaimSources = 20
const coord = z.number().finite().min(0).max(kMaxCoord)

const text = (what: string) => z.string().max(kMaxText, `${what} is longer than ${kMaxText} characters`)

export const InstructionParamsSchema = z
  .object({
    url: z.string().max(kMaxUrl).optional(),
    semantic_locator: text('semantic_locator').optional(),
    fallback_selector: text('fallback_selector').optional(),
    target_id: z.string().max(200).optional(),
    value: text('value').optional(),
    assertion: text('assertion').optional(),
    selector: text('selector').optional(),
    key: z.string().max(100).optional(),
    direction: z.enum(SCROLL_DIRECTIONS).optional(),
    /** A point in the last screenshot's pixels: the element drawn there is the target. */
    x: coord.optional(),
    y: coord.optional(),
    /** drag: the pointer's way, as [x, y] points in the last screenshot's pixels. */
    path: z
      .array(z.tuple([coord, coord]))
      .min(2)
      .max(kMaxPathPoints)
      .optional(),
    /** run_action: the registry action's full name, `namespace:component:action`. */
    action: z.string().max(200).optional(),
    /** run_action: its parameters. */
    args: z.record(z.string(), z.union([z.string().max(kMaxText), z.number(), z.boolean(), z.null()])).optional(),
    /** done: the final answer shown to the person. */
    answer: z.string().max(20_000).optional(),
    /**
     * done: the answer's claims about the page, each with the listing ids or collected items
     * (`2.5`: step 2's item 5) it was read from (docs/sourced-answers.md).
     */
    claims: z
      .array(
        z.object({
          text: text('a claim'),
          sources: z.array(z.string().max(200)).max(kMaxClaimSources).default([]),
        }),
      )
      .max(kMaxClaims, `done takes at most ${kMaxClaims} claims`)
      .optional(),
    /** done, for a run asked for a shape: each field's part of a collected item, or null (docs/extraction.md). */
    fields: z.record(z.string().max(200), z.number().int().min(0).max(1000).nullable()).optional(),
    /** ask: the question for the person, in the language of the request. */
    question: text('question').optional(),
    /** ask: the answers the person may pick from (they may still write their own). */
    choices: z
      .array(z.string().max(200, 'a choice is longer than 200 characters'))
      .max(kMaxChoices, `ask takes at most ${kMaxChoices} choices`)
      .optional(),
    /** switch_tab, read_tab, close_tab: one of the run's tabs, by its number in the prompt's list. */
    tab: z.number().int().min(1).max(kMaxTabs).optional(),
    /** collect: how many items to gather at most (default and ceiling: collect.ts). */
    limit: z
      .number()
      .int()
      .positive()
      .max(kMaxCollectLimit, `collect takes at most ${kMaxCollectLimit} items`)
      .optional(),
  })
  .strict()

export const InstructionSchema = z
  .object({
    step_id: z.number().int().nonnegative(),
    action_type: z.enum(ACTION_TYPES),
    params: InstructionParamsSchema.default({}),
    description: text('description').optional(),
  })
  .strict()
  .superRefine((ins, ctx) => {
    // What each action needs beyond the common fields, from its descriptor.
    const rule: { all?: readonly (keyof InstructionParams)[]; oneOf?: readonly (keyof InstructionParams)[] } =
      instructionKind(ins.action_type) ?? {}
    for (const key of rule.all ?? []) {
      // An empty value is a real input (clearing a field); an empty url or assertion is not.
      if (ins.params[key] === undefined || (ins.params[key] === '' && key !== 'value')) {
        ctx.addIssue({ code: 'custom', path: ['params', key], message: `${ins.action_type} needs params.${key}` })
      }
    }
    if (rule.oneOf && !rule.oneOf.some((k) => ins.params[k] !== undefined && ins.params[k] !== '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['params'],
        message: `${ins.action_type} needs one of ${rule.oneOf.map((k) => `params.${k}`).join(', ')}`,
      })
    }
    // A question of blanks would pause the run on nothing the person could answer.
    if (
      instructionKind(ins.action_type)?.own?.includes('question') &&
      ins.params.question !== undefined &&
      ins.params.question !== '' &&
      !ins.params.question.trim()
    ) {
      ctx.addIssue({ code: 'custom', path: ['params', 'question'], message: 'ask needs params.question' })
    }
    // A point is both coordinates; either alone names nothing.
    if ((ins.params.x === undefined) !== (ins.params.y === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['params', ins.params.x === undefined ? 'x' : 'y'],
        message: 'a point needs both params.x and params.y',
      })
    }
    if (instructionOpens(ins.action_type) && ins.params.url && !isNavigableUrl(ins.params.url)) {
      ctx.addIssue({
        code: 'custom',
        path: ['params', 'url'],
        message: `${ins.action_type} accepts http(s) URLs or paths, not "${ins.params.url.slice(0, 80)}"`,
      })
    }
  })

export type Instruction = z.infer<typeof InstructionSchema>
export type InstructionParams = z.infer<typeof InstructionParamsSchema>

/** `javascript:` and `data:` URLs would be code execution by another name. */
export function isNavigableUrl(url: string): boolean {
  const t = url.trim()
  if (t.startsWith('/') || t.startsWith('./') || t.startsWith('../') || t.startsWith('?') || t.startsWith('#'))
    return true
  return /^https?:\/\//i.test(t)
}

export class InstructionError extends Error {
  override name = 'InstructionError'
  constructor(
    readonly code: Extract<FailureCode, 'JSON_PARSE' | 'SCHEMA'>,
    message: string,
    /** The raw text of the instruction as the LLM sent it, for the error shown to the person. */
    readonly raw: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message)
  }
}

/** Validates one instruction given as parsed JSON. */
export function safeParseInstruction(
  value: unknown,
  raw = JSON.stringify(value) ?? '',
): SafeParseResult<Instruction, InstructionError> {
  const r = InstructionSchema.safeParse(value)
  if (r.success) return { success: true, data: r.data }
  const issues = r.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message }))
  const summary = issues.map((i) => `${i.path}: ${i.message}`).join('; ')
  return {
    success: false,
    error: new InstructionError('SCHEMA', `Invalid instruction ${abbreviate(raw)} — ${summary}`, raw, issues),
  }
}

/** Parses and validates one instruction from its JSON text. */
export function safeParseInstructionText(raw: string): SafeParseResult<Instruction, InstructionError> {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (e) {
    return {
      success: false,
      error: new InstructionError('JSON_PARSE', `Not valid JSON: ${abbreviate(raw)} (${(e as Error).message})`, raw),
    }
  }
  return safeParseInstruction(value, raw)
}

export function parseInstruction(value: unknown): Instruction {
  const r = safeParseInstruction(value)
  if (!r.success) throw r.error
  return r.data
}

function abbreviate(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max)}…` : s
}

/** JSON Schema of one instruction, for providers that accept a schema and for docs. */
export function instructionJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(InstructionSchema, { io: 'input' }) as Record<string, unknown>
}

/**
 * The plan as native tool calls (docs/agent.md, "Structured output", the third path): one function
 * per action, named as the action, taking that action's own params and a `description`. A server
 * that has tools but no JSON-schema output streams one call per step; each call's arguments are
 * read as that step (background/llm.ts turns a call into `{"action_type": name, "params": args}`).
 */
export function planTools(
  opts: { vision?: boolean } = {},
): { name: string; description: string; inputSchema: Record<string, unknown> }[] {
  const params = (z.toJSONSchema(InstructionParamsSchema, { io: 'input' }) as { properties: Record<string, unknown> })
    .properties
  return kInstructionNames
    .filter((name) => opts.vision || !seesOnly(name))
    .map((name) => {
      const d = instructionKind(name) as {
        all?: readonly string[]
        oneOf?: readonly string[]
        own?: readonly string[]
        may?: readonly string[]
        says: { en: string }
      }
      const fields = new Set([...(d.all ?? []), ...(d.oneOf ?? []), ...(d.own ?? [])])
      if (fields.has('x')) fields.add('y')
      for (const f of d.may ?? []) fields.add(f)
      const properties: Record<string, unknown> = Object.fromEntries(
        [...fields].filter((f) => f in params).map((f) => [f, params[f]]),
      )
      properties.description = {
        type: 'string',
        description: 'one line for the person, in the language of the request',
      }
      return {
        name,
        description: d.says.en,
        inputSchema: { type: 'object', properties, ...(d.all?.length ? { required: [...d.all] } : {}) },
      }
    })
}
