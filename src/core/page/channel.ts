/**
 * The registry's BrowserPort and the flows' FlowPort, both spoken over the one page channel: a
 * pack step or a flow step becomes a PageCommand here, in core, and whoever carries commands (the
 * extension's background, `ava run`'s Playwright page) supplies only `send`. Page failures arrive
 * as data and become the caller's error type once, here.
 */
import type { FlowPort, StepOutcome } from '../flows/replay'
import type { FlowStep } from '../flows/schema'
import { kForbiddenKeys } from '../registry/paths'
import { PortError, type BrowserPort, type UploadSource, type WaitCondition } from '../registry/port'
import type { ParsedSelector } from './selectors'
import type { ExecFailure } from '../exec'
import { fieldsOf } from '../vocabulary'
import type { PageAction, PageCommand, PageTarget, SendCommand, UploadFile } from './command'
import { holdsShape } from '../agent/redact'
import { askThroughGuard, counts, judgeNavigation, plannedOf, type StepGuard } from '../gate/guard'
import { flowPageStep } from '../flows/plan'

/** SPA components get this long to mount before a pack step gives up. */
export const kPortStepTimeoutMs = 10_000

/** A page failure as the step engine reports it: the page's own code, candidates named so the person can pick one. */
export function portErrorOf(f: ExecFailure): PortError {
  const candidates = f.candidates?.length
    ? ` Candidates: ${f.candidates.map((c) => `${c.label} (${c.id})`).join('; ')}.`
    : ''
  return new PortError(f.code, `${f.message}${candidates}`)
}

/** The step guard a door builds (core/gate/guard.ts): who asks, who answers, the count. */
export type { StepGuard } from '../gate/guard'

/** What only the carrier can do: leave the page, read the main world, run the person's own script. */
export interface PortExtras {
  navigate(url: string, signal: AbortSignal): Promise<void>
  /** Without one, steps go out unchecked (`ava run`, the person's own /run). */
  guard?: StepGuard
  readGlobal?(path: string[], signal: AbortSignal): Promise<unknown>
  runUserScript?(script: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>
  /** How long an element may take to become actionable inside one call. */
  timeoutMs?: number
  /** Reads a file an upload step names by path (`ava run`); without it such a step fails. */
  readFile?(path: string, signal: AbortSignal): Promise<UploadFile>
  /**
   * The vault's values and the origins each is bound to. Any step whose value holds
   * one goes out with `secretSites`, so the page refuses it on another origin whatever wrote it:
   * a pack's `${env.*}`, a param the model filled, a flow that moved to another site.
   */
  secrets?: readonly BoundSecret[]
}

export interface BoundSecret {
  value: string
  sites: readonly string[]
}

/** Shorter values are bound only where they are the whole value: "ab" is inside too many words. */
const kMinBoundSubstring = 3

/**
 * The origins a value may be typed on when it holds saved secrets: those every secret in it is
 * bound to (none when they share none). Undefined when it holds none.
 */
export function secretSitesOf(value: unknown, secrets: readonly BoundSecret[] | undefined): string[] | undefined {
  if (!secrets?.length || value === undefined || value === null) return undefined
  const texts = Array.isArray(value) ? value.map(String) : typeof value === 'object' ? [] : [String(value)]
  // [trust] In any shape a page or a model may give it: spaced, reversed, case changed, a long part (redact.ts).
  const held = secrets.filter(
    (s) =>
      s.value !== '' &&
      texts.some((t) => t === s.value || (s.value.length >= kMinBoundSubstring && holdsShape(t, s.value))),
  )
  if (!held.length) return undefined
  return held[0].sites.filter((o) => held.every((s) => s.sites.includes(o)))
}

function selectorTarget(selector: ParsedSelector | null): PageTarget {
  return selector ? { selectors: [selector] } : { focused: true }
}

function waitAction(c: WaitCondition): PageAction {
  if (c.kind === 'selector') return { action: 'wait', target: selectorTarget(c.selector), state: c.state }
  if (c.kind === 'text') return { action: 'wait', text: c.text }
  return { action: 'wait', url: c.pattern }
}

export function createChannelPort(send: SendCommand, extras: PortExtras): BrowserPort {
  const timeoutMs = extras.timeoutMs ?? kPortStepTimeoutMs
  const { guard } = extras
  // A refused or over-limit step ends the port for good: the engine's retry, fallback and
  // `onError: continue` must not find another way to send it.
  let closed: unknown = null
  const count = (): void => {
    if (closed) throw closed
    try {
      guard?.step()
    } catch (e) {
      throw (closed = e)
    }
  }
  const act = async (step: PageAction, signal: AbortSignal, stepTimeoutMs = timeoutMs): Promise<unknown> => {
    if (signal.aborted) throw signal.reason
    if (closed) throw closed
    if (counts({ dom: step.action })) count()
    const secretSites = secretSitesOf(fieldsOf(step).value, extras.secrets)
    const command: PageCommand<'act'> = {
      kind: 'act',
      step,
      timeoutMs: stepTimeoutMs,
      ...(guard ? { confirm: guard.confirm, sites: guard.sites } : {}),
      ...plannedOf(guard, step),
      ...(secretSites ? { secretSites } : {}),
    }
    // The one gate loop (core/gate/step.ts): a yes binds to the element the question showed.
    const { out, refusal } = await askThroughGuard(command, (c) => send(c, signal), guard, 'action')
    if (refusal) throw (closed = new PortError(refusal.code, refusal.message))
    // The element the person allowed is gone, or the pointer would land elsewhere: no retry or
    // fallback of the engine may look for another element to act on in its place.
    if (!out.ok && (out.reason === 'unbound' || out.reason === 'swapped')) throw (closed = portErrorOf(out))
    if (!out.ok) throw portErrorOf(out)
    return out.data
  }
  const port: BrowserPort = {
    async query(selector, signal) {
      const out = await send({ kind: 'count', selector }, signal)
      if (!out.ok) throw new PortError('STEP_FAILED', out.message)
      return out.count
    },
    async click(target, { button, count }, signal) {
      await act(
        {
          action: count === 2 && button === 'left' ? 'dblclick' : 'click',
          target: selectorTarget(target),
          button,
          count,
        },
        signal,
      )
    },
    async fill(target, value, signal) {
      await act({ action: 'fill', target: selectorTarget(target), value }, signal)
    },
    async type(target, text, { delayMs }, signal) {
      await act({ action: 'type', target: selectorTarget(target), value: text, delayMs }, signal)
    },
    async press(key, target, signal) {
      await act({ action: 'press', key, target: target ? selectorTarget(target) : undefined }, signal)
    },
    async hover(target, signal) {
      await act({ action: 'hover', target: selectorTarget(target) }, signal)
    },
    async select(target, values, signal) {
      await act({ action: 'select', target: selectorTarget(target), value: values }, signal)
    },
    async check(target, checked, signal) {
      await act({ action: checked ? 'check' : 'uncheck', target: selectorTarget(target) }, signal)
    },
    async scroll(target, { direction, amount }, signal) {
      await act({ action: 'scroll', target: target ? selectorTarget(target) : undefined, direction, amount }, signal)
    },
    async waitFor(condition, waitMs, signal) {
      await act(waitAction(condition), signal, waitMs)
    },
    async snapshot(signal) {
      // The engine only learns that the page could be read; the listing stays in the page.
      const out = await send({ kind: 'read', request: undefined }, signal)
      if (!out.ok) throw portErrorOf(out)
      return true
    },
    async find(query, signal) {
      const out = await send({ kind: 'find', query }, signal)
      if (!out.ok) throw portErrorOf(out)
      return out.found
    },
    async navigate(url, signal) {
      if (closed) throw closed
      if (guard) {
        // Judged and counted by the guard; a refused or over-limit navigation ends the port.
        const refused = await judgeNavigation(guard, url).catch((e: unknown) => {
          throw (closed = e)
        })
        if (refused) throw (closed = new PortError(refused.code, refused.message))
      }
      await extras.navigate(url, signal)
    },
    async getText(target, signal) {
      return String((await act({ action: 'getText', target: selectorTarget(target) }, signal)) ?? '')
    },
    async upload(target, files, signal) {
      const read = async (f: UploadSource): Promise<UploadFile> => {
        if (!('path' in f)) return f
        if (!extras.readFile)
          throw new PortError(
            'STEP_FAILED',
            `Cannot read ${f.path} here: the browser cannot open files on disk. Attach the file in the panel, or run the pack with \`ava run\`.`,
          )
        return extras.readFile(f.path, signal)
      }
      await act({ action: 'upload', target: selectorTarget(target), files: await Promise.all(files.map(read)) }, signal)
    },
    async getAttribute(target, name, signal) {
      return (
        ((await act({ action: 'getAttribute', target: selectorTarget(target), name }, signal)) as string | null) ?? null
      )
    },
    async getUrl(signal) {
      const out = await send({ kind: 'url' }, signal)
      if (!out.ok) throw portErrorOf(out)
      return out.url
    },
  }
  const { readGlobal } = extras
  // version_global reads plain data only, whichever world the carrier reads it in.
  if (readGlobal) {
    port.readGlobal = async (path, signal) => {
      if (path.some((k) => kForbiddenKeys.has(k)))
        throw new PortError('STEP_FAILED', `Refused to read ${path.join('.')}: it reaches outside plain data.`)
      return readGlobal(path, signal)
    }
  }
  const { runUserScript } = extras
  // An `eval` step acts on the page like any other: it counts against the step limit.
  if (runUserScript) {
    port.runUserScript = async (script, args, signal) => {
      count()
      return runUserScript(script, args, signal)
    }
  }
  return port
}

/** A flow step that never reached a page that could run it: the page's code as it said it. */
function stepFailure(f: ExecFailure): StepOutcome {
  return { ok: false, code: f.code, message: f.message, candidates: [], resolveMs: 0, acted: false }
}

export function createChannelFlowPort(
  send: SendCommand,
  extras: Pick<PortExtras, 'navigate' | 'guard' | 'secrets'>,
): FlowPort {
  const { guard } = extras
  // A plan's approved element is taken once per flow step (its retries carry the same one); a
  // repaired step was never shown, so it and every step after it are judged as any step.
  const planned = new Map<number, ReturnType<typeof plannedOf>>()
  let repaired = false
  const plannedFor = (step: FlowStep, repair: boolean): ReturnType<typeof plannedOf> => {
    repaired ||= repair
    if (repaired) return {}
    const page = flowPageStep(step)
    if (!page) return {}
    if (!planned.has(step.step_id)) planned.set(step.step_id, plannedOf(guard, page))
    return planned.get(step.step_id)!
  }
  return {
    async runStep(step, opts, signal) {
      if (guard && counts({ flow: step.action })) {
        try {
          guard.step()
        } catch (e) {
          return {
            ok: false,
            code: 'CANCELLED',
            message: (e as Error).message ?? String(e),
            candidates: [],
            resolveMs: 0,
            acted: false,
          }
        }
      }
      const secretSites = secretSitesOf(step.params.value, extras.secrets)
      const command: PageCommand<'flow.step'> = {
        kind: 'flow.step',
        step,
        timeoutMs: opts.timeoutMs,
        trusted: opts.trusted,
        ...(opts.files?.length ? { files: opts.files } : {}),
        ...(guard ? { confirm: guard.confirm, sites: guard.sites } : {}),
        ...plannedFor(step, !!opts.trusted),
        ...(secretSites ? { secretSites } : {}),
      }
      // The same gate as the agent's and a pack's steps (core/gate/step.ts).
      const { out, refusal } = await askThroughGuard(command, (c) => send(c, signal), guard)
      if (refusal && out.ok && !out.outcome.ok)
        return {
          ...out.outcome,
          code: refusal.code,
          message: `${refusal.message} The replay stopped before step ${step.step_id}.`,
        }
      return out.ok ? out.outcome : stepFailure(out)
    },
    async navigate(url, signal) {
      const refused = guard && (await judgeNavigation(guard, url))
      if (refused) throw new PortError(refused.code, refused.message)
      await extras.navigate(url, signal)
    },
    async url(signal) {
      const out = await send({ kind: 'url' }, signal)
      if (!out.ok) throw new Error(out.message)
      return out.url
    },
  }
}
