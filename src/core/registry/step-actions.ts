import { z } from 'zod'
import { StepFailure } from './errors'
import type { BrowserPort, ElementState } from './port'
import type { ParsedSelector } from '../page/selectors'
import type { PackStepName } from '../vocabulary'

// The step actions, one descriptor each (STYLE.md: descriptors, not a switch). What each one is
// (the port call it makes, the DOM action that call runs, what it lets a pack do) is its entry
// in the vocabulary's `kPackSteps` (src/core/vocabulary.ts); here is how the engine runs it: which
// arguments it takes (zod, strict so typos surface), which of them name elements (resolved
// primary→fallback by the engine before `run`), and the call. The meta-test checks both tables
// name the same steps.

export interface StepContext {
  port: BrowserPort
  /** Fires on step timeout, action timeout or cancellation. */
  signal: AbortSignal
  /** What is left of this step's time budget, for port calls that wait themselves. */
  timeoutMs: number
  /** Runs another action (the `run` step); resolves to its returned data. */
  runAction: (name: string, params: Record<string, unknown>) => Promise<unknown>
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
}

export interface StepActionDescriptor<A extends Record<string, unknown> = Record<string, unknown>> {
  name: PackStepName
  summary: string
  args: z.ZodType<A>
  /** Argument names that hold selectors. */
  selectorArgs: readonly string[]
  /**
   * Whether the selectors must match before the step runs. Waiting for an element to disappear
   * is the one case where the engine only parses the selector and lets the port do the rest.
   */
  mustMatch?: (args: A) => boolean
  /** Argument names that hold selectors for these arguments only (a wait `condition` that is one). */
  selectorArgsOf?: (args: A) => readonly string[]
  /** Argument names that hold a URL: the engine refuses a secret in them (secrets never go into a URL). */
  urlArgs?: readonly string[]
  /** URL arguments that depend on the args (a wait `condition` that is a URL pattern). */
  urlArgsOf?: (args: A) => readonly string[]
  /** An argument that bounds the step's time (ms), as the step's own `timeout` does; the smaller wins. */
  timeoutArg?: string
  /** Whether running out of time falls back to "page loaded + 500 ms" instead of failing. */
  waitFallback?: (args: A) => boolean
  run: (ctx: StepContext, args: A, targets: Record<string, ParsedSelector>) => Promise<unknown>
}

const Selector = z.string().min(1)
/** 25 MB of file as base64: what a form upload takes, and still one message to the page. */
const kMaxUploadBase64 = 35_000_000
const Text = z.union([z.string(), z.number(), z.boolean()]).transform(String)

function define<A extends Record<string, unknown>>(descriptor: StepActionDescriptor<A>): StepActionDescriptor {
  return descriptor as unknown as StepActionDescriptor
}

/** Shown when an `eval` step meets a browser where user scripts are off (MV3 has no eval). */
export const kUserScriptsHint =
  'eval steps run through Chrome user scripts, which are off for Ava. Open chrome://extensions, choose Details on Ava and turn on "Allow User Scripts", then run the action again.'

const kStates: [ElementState, ...ElementState[]] = ['visible', 'hidden', 'attached', 'detached']

const evalStep = (name: PackStepName) =>
  define({
    name,
    summary: 'Runs a script in the page (needs "Allow User Scripts" for Ava).',
    args: z.strictObject({ script: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }),
    selectorArgs: [],
    run: async (ctx, args) => {
      if (!ctx.port.runUserScript) throw new StepFailure('STEP_FAILED', kUserScriptsHint)
      return ctx.port.runUserScript(args.script, args.args ?? {}, ctx.signal)
    },
  })

const openStep = (name: PackStepName) =>
  define({
    name,
    summary: 'Navigates the tab to a URL.',
    args: z.strictObject({ url: z.string().min(1) }),
    selectorArgs: [],
    urlArgs: ['url'],
    run: async (ctx, args) => ctx.port.navigate(args.url, ctx.signal),
  })

/**
 * What a wait's `condition` waits for, told apart by its form so a reader of the
 * pack can tell too (docs/action-packs.md "wait"): a number (or digits) is ms; `url:` starts a URL
 * pattern, as does `http://` or `https://`; `js:` starts a JavaScript expression polled in the page
 * until it is truthy; anything else is a selector in the pack's selector syntax, so a text is
 * `text:保存成功` (an element showing that text) and bare words are CSS, as everywhere else.
 */
export type WaitConditionKind =
  | { kind: 'ms'; ms: number }
  | { kind: 'url'; pattern: string }
  | { kind: 'script'; script: string }
  | { kind: 'selector'; selector: string }

export function waitConditionKind(condition: string | number): WaitConditionKind {
  if (typeof condition === 'number') return { kind: 'ms', ms: condition }
  const text = condition.trim()
  if (/^\d+$/.test(text)) return { kind: 'ms', ms: Number(text) }
  if (/^url:/i.test(text)) return { kind: 'url', pattern: text.slice(4).trim() }
  if (/^https?:\/\//i.test(text)) return { kind: 'url', pattern: text }
  if (/^js:/i.test(text)) return { kind: 'script', script: text.slice(3).trim() }
  return { kind: 'selector', selector: condition }
}

/** How often a `js:` wait condition is re-evaluated in the page. */
const kScriptPollMs = 100

/**
 * A `js:` condition runs like an `eval` step (user scripts; MV3 has no eval), in one call that
 * polls in the page, so a long wait is one step and not one per probe. False at the deadline is a
 * TIMEOUT, which the engine's wait fallback handles like any other.
 */
async function waitForScript(ctx: StepContext, expression: string): Promise<void> {
  if (!ctx.port.runUserScript) throw new StepFailure('STEP_FAILED', kUserScriptsHint)
  const body = `const until = Date.now() + args.timeoutMs
for (;;) {
  if (await (async () => (
${expression}
))()) return true
  if (Date.now() >= until) return false
  await new Promise((r) => setTimeout(r, args.pollMs))
}`
  const held = await ctx.port.runUserScript(body, { timeoutMs: ctx.timeoutMs, pollMs: kScriptPollMs }, ctx.signal)
  if (held !== true)
    throw new StepFailure('TIMEOUT', `The expression ${expression} was still false after ${ctx.timeoutMs} ms.`)
}

/** Every argument of these args that names an element: the fixed ones and those that depend on the args. */
export function selectorArgsOf(descriptor: StepActionDescriptor, args: Record<string, unknown>): string[] {
  return [...descriptor.selectorArgs, ...(descriptor.selectorArgsOf?.(args) ?? [])]
}

const kDescriptors: StepActionDescriptor[] = [
  define({
    name: 'click',
    summary: 'Clicks an element.',
    args: z.strictObject({
      selector: Selector,
      button: z.enum(['left', 'right', 'middle']).optional(),
      count: z.number().int().min(1).max(3).optional(),
    }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) =>
      ctx.port.click(t.selector, { button: args.button ?? 'left', count: args.count ?? 1 }, ctx.signal),
  }),
  define({
    name: 'fill',
    summary: 'Replaces the value of an input.',
    args: z.strictObject({ selector: Selector, value: Text }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) => ctx.port.fill(t.selector, args.value, ctx.signal),
  }),
  define({
    name: 'type',
    summary: 'Types text key by key, into an element or the focused one.',
    args: z.strictObject({
      selector: Selector.optional(),
      text: Text,
      delay: z.number().int().min(0).max(1000).optional(),
    }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) => ctx.port.type(t.selector ?? null, args.text, { delayMs: args.delay ?? 0 }, ctx.signal),
  }),
  define({
    name: 'press',
    summary: 'Presses a key or chord (Enter, Escape, Control+A).',
    args: z.strictObject({ key: z.string().min(1), selector: Selector.optional() }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) => ctx.port.press(args.key, t.selector ?? null, ctx.signal),
  }),
  define({
    name: 'hover',
    summary: 'Moves the pointer over an element.',
    args: z.strictObject({ selector: Selector }),
    selectorArgs: ['selector'],
    run: (ctx, _args, t) => ctx.port.hover(t.selector, ctx.signal),
  }),
  define({
    name: 'select',
    summary: 'Chooses options of a native <select> by value or label.',
    args: z.strictObject({ selector: Selector, value: z.union([Text, z.array(Text)]) }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) =>
      ctx.port.select(t.selector, Array.isArray(args.value) ? args.value : [args.value], ctx.signal),
  }),
  define({
    name: 'check',
    summary: 'Checks (or, with checked: false, unchecks) a checkbox or radio.',
    args: z.strictObject({ selector: Selector, checked: z.boolean().optional() }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) => ctx.port.check(t.selector, args.checked ?? true, ctx.signal),
  }),
  define({
    name: 'uncheck',
    summary: 'Unchecks a checkbox.',
    args: z.strictObject({ selector: Selector }),
    selectorArgs: ['selector'],
    run: (ctx, _args, t) => ctx.port.check(t.selector, false, ctx.signal),
  }),
  define({
    name: 'upload',
    summary:
      'Puts files into a file input, or the one behind an upload button (bytes in base64, or a path for `ava run`).',
    args: z.strictObject({
      selector: Selector,
      files: z
        .array(
          z.union([
            z.strictObject({
              name: z.string().min(1),
              mimeType: z.string().optional(),
              base64: z.string().max(kMaxUploadBase64),
            }),
            z.strictObject({ path: z.string().min(1) }),
          ]),
        )
        .min(1),
    }),
    selectorArgs: ['selector'],
    run: async (ctx, args, t) => {
      if (!ctx.port.upload) throw new StepFailure('STEP_FAILED', 'This browser connection cannot upload files.')
      return ctx.port.upload(t.selector, args.files, ctx.signal)
    },
  }),
  define({
    name: 'scroll',
    summary: 'Scrolls the page or an element.',
    args: z.strictObject({
      selector: Selector.optional(),
      direction: z.enum(['up', 'down', 'left', 'right']).optional(),
      amount: z.number().min(0).optional(),
    }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) =>
      ctx.port.scroll(
        t.selector ?? null,
        { direction: args.direction ?? 'down', amount: args.amount ?? 600 },
        ctx.signal,
      ),
  }),
  define({
    name: 'wait',
    summary:
      'Waits for a condition (an element, a text, a URL, a page expression) or a number of ms; a wait that times out falls back to the loaded page + 500 ms.',
    args: z
      .strictObject({
        // `wait: { condition, timeout }`; the kind is told by waitConditionKind.
        condition: z.union([z.string().min(1), z.number().int().min(0).max(300_000)]).optional(),
        timeout: z.number().int().min(1).max(300_000).optional(),
        // The forms before the seed's, kept as aliases: one of ms, selector, text, url.
        ms: z.number().int().min(0).max(300_000).optional(),
        selector: Selector.optional(),
        state: z.enum(kStates).optional(),
        text: z.string().min(1).optional(),
        url: z.string().min(1).optional(),
      })
      .refine((a) => [a.condition, a.ms, a.selector, a.text, a.url].filter((v) => v !== undefined).length === 1, {
        message: 'wait takes exactly one of condition, ms, selector, text, url',
      })
      .refine(
        (a) =>
          a.state === undefined ||
          a.selector !== undefined ||
          (a.condition !== undefined && waitConditionKind(a.condition).kind === 'selector'),
        {
          message: 'state applies only to a wait for an element (a selector condition)',
        },
      ),
    selectorArgs: ['selector'],
    selectorArgsOf: (args) =>
      args.condition !== undefined && waitConditionKind(args.condition).kind === 'selector' ? ['condition'] : [],
    urlArgs: ['url'],
    urlArgsOf: (args) =>
      args.condition !== undefined && waitConditionKind(args.condition).kind === 'url' ? ['condition'] : [],
    timeoutArg: 'timeout',
    waitFallback: (args) =>
      args.ms === undefined && !(args.condition !== undefined && waitConditionKind(args.condition).kind === 'ms'),
    mustMatch: (args) => args.state === undefined || args.state === 'visible' || args.state === 'attached',
    // True once the condition held; the seed's fallback makes it false (engine.ts waitFallback),
    // so `output:` and a `verify` can insist that it held.
    run: async (ctx, args, t) => {
      const state = args.state ?? 'visible'
      const c = args.condition !== undefined ? waitConditionKind(args.condition) : undefined
      if (c?.kind === 'ms') await ctx.sleep(c.ms, ctx.signal)
      else if (c?.kind === 'selector')
        await ctx.port.waitFor({ kind: 'selector', selector: t.condition, state }, ctx.timeoutMs, ctx.signal)
      else if (c?.kind === 'url') await ctx.port.waitFor({ kind: 'url', pattern: c.pattern }, ctx.timeoutMs, ctx.signal)
      else if (c) await waitForScript(ctx, c.script)
      else if (args.ms !== undefined) await ctx.sleep(args.ms, ctx.signal)
      else if (t.selector)
        await ctx.port.waitFor({ kind: 'selector', selector: t.selector, state }, ctx.timeoutMs, ctx.signal)
      else if (args.text !== undefined)
        await ctx.port.waitFor({ kind: 'text', text: args.text }, ctx.timeoutMs, ctx.signal)
      else await ctx.port.waitFor({ kind: 'url', pattern: args.url ?? '' }, ctx.timeoutMs, ctx.signal)
      return true
    },
  }),
  define({
    name: 'snapshot',
    summary: "Captures the page's state; the result can be kept with `output`.",
    args: z.strictObject({}),
    selectorArgs: [],
    run: (ctx) => ctx.port.snapshot(ctx.signal),
  }),
  define({
    name: 'find',
    summary: 'Finds an element by a semantic query; fails when nothing matches.',
    args: z.strictObject({ query: z.string().min(1) }),
    selectorArgs: [],
    run: async (ctx, args) => {
      const found = await ctx.port.find(args.query, ctx.signal)
      if (found === null || found === undefined)
        throw new StepFailure('ELEMENT_NOT_FOUND', `Nothing on the page matches "${args.query}".`)
      return found
    },
  }),
  openStep('open'),
  openStep('navigate'),
  define({
    name: 'getText',
    summary: "Reads an element's text.",
    args: z.strictObject({ selector: Selector }),
    selectorArgs: ['selector'],
    run: (ctx, _args, t) => ctx.port.getText(t.selector, ctx.signal),
  }),
  define({
    name: 'getAttribute',
    summary: "Reads one of an element's attributes.",
    args: z.strictObject({ selector: Selector, name: z.string().min(1) }),
    selectorArgs: ['selector'],
    run: (ctx, args, t) => ctx.port.getAttribute(t.selector, args.name, ctx.signal),
  }),
  define({
    name: 'getUrl',
    summary: "Reads the tab's URL.",
    args: z.strictObject({}),
    selectorArgs: [],
    run: (ctx) => ctx.port.getUrl(ctx.signal),
  }),
  evalStep('eval'),
  evalStep('evaluate'),
  define({
    name: 'run',
    summary: 'Runs another action with parameters (composition).',
    args: z.strictObject({ action: z.string().min(1), params: z.record(z.string(), z.unknown()).optional() }),
    selectorArgs: [],
    run: (ctx, args) => ctx.runAction(args.action, args.params ?? {}),
  }),
  define({
    name: 'fail',
    summary: 'Stops with an error message (use with `when`).',
    args: z.strictObject({ message: Text }),
    selectorArgs: [],
    run: async (_ctx, args) => {
      throw new StepFailure('STEP_FAILED', args.message)
    },
  }),
]

/** All step actions by name. */
export const kStepActions: ReadonlyMap<string, StepActionDescriptor> = new Map(kDescriptors.map((d) => [d.name, d]))

export const kStepActionNames: readonly string[] = kDescriptors.map((d) => d.name)

export function getStepAction(name: string): StepActionDescriptor | undefined {
  return kStepActions.get(name)
}
