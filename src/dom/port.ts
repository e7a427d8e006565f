/**
 * The page side of the registry's step engine: `BrowserPort` (src/core/registry/port.ts, seed 000
 * §4.4.5 BrowserAdapter, §6.3.5 step actions) implemented on the DOM executor, so registry actions
 * run in real pages. Every failure is thrown as a PortError with the registry's code and the
 * executor's message, candidates included.
 */
import type { ExecFailure, ExecOutcome } from '../core/exec'
import { PortError, type BrowserPort, type WaitCondition } from '../core/registry/port'
import type { ParsedSelector, SelectorCache } from '../core/registry/selectors'
import type { ActionErrorCode } from '../core/registry/errors'
import { observe } from './observe'
import { LocatorSyntaxError, queryAll } from './locators'
import { kDefaultTimeoutMs, runCommand, semanticMatch, type DomCommand, type TargetSpec } from './executor'
import { kAvaUiAttr } from './executor/dom'

export interface PagePortOptions {
  /**
   * The engine's selector cache (ActionEngine.cache): cleared when the page navigates, since
   * another page may need other selectors (seed 000 §6.6.4 页面导航时清除).
   */
  cache?: Pick<SelectorCache, 'clear'>
  /** Called on every navigation the port sees (its own `navigate`, or the URL changing between calls). */
  onNavigate?: (url: string) => void
  /** How long an element may take to become actionable inside one call (the step's signal still wins). */
  timeoutMs?: number
  /**
   * Reads a global of the page. The default reads this window, which is the page's own only in
   * the main world; a content script (isolated world) passes a reader that asks the main world.
   */
  readGlobal?: (path: string[]) => unknown | Promise<unknown>
}

const kExecToPort: Partial<Record<ExecFailure['code'], ActionErrorCode>> = {
  ELEMENT_NOT_FOUND: 'ELEMENT_NOT_FOUND',
  ELEMENT_STALE: 'ELEMENT_NOT_FOUND',
  TIMEOUT: 'TIMEOUT',
  VERIFY_FAILED: 'VERIFY_FAILED',
}

/** Property names that would reach outside plain data (seed 000 §6.2.9). */
const kForbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

function toPortError(f: ExecFailure): PortError {
  const candidates = f.candidates?.length ? ` Candidates: ${f.candidates.map((c) => `${c.label} (${c.id})`).join('; ')}.` : ''
  return new PortError(kExecToPort[f.code] ?? 'STEP_FAILED', `${f.code}: ${f.message}${candidates}`)
}

function spec(selector: ParsedSelector): TargetSpec {
  return { selectors: [selector.raw] }
}

function focused(): TargetSpec {
  const el = document.activeElement && document.activeElement !== document.body ? document.activeElement : null
  if (!el) throw new PortError('ELEMENT_NOT_FOUND', 'Nothing has the focus to type into; give the step a selector.')
  return { element: el }
}

export function createPagePort(options: PagePortOptions = {}): BrowserPort {
  let lastUrl = location.href
  const seeNavigation = () => {
    if (location.href === lastUrl) return
    lastUrl = location.href
    options.cache?.clear()
    options.onNavigate?.(lastUrl)
  }
  const run = async (cmd: DomCommand, signal: AbortSignal): Promise<Extract<ExecOutcome, { ok: true }>> => {
    seeNavigation()
    if (signal.aborted) throw signal.reason
    const out = await runCommand(cmd, { timeoutMs: options.timeoutMs ?? kDefaultTimeoutMs, signal })
    seeNavigation()
    if (!out.ok) throw toPortError(out)
    return out
  }
  const count = (selector: ParsedSelector): number => {
    try {
      return queryAll(selector).filter((el) => !el.closest(`[${kAvaUiAttr}]`)).length
    } catch (e) {
      if (e instanceof LocatorSyntaxError) throw new PortError('STEP_FAILED', e.message)
      throw e
    }
  }
  const waitCommand = (c: WaitCondition): DomCommand => {
    if (c.kind === 'selector') return { action: 'wait', target: spec(c.selector), state: c.state }
    if (c.kind === 'text') return { action: 'wait', text: c.text }
    return { action: 'wait', url: c.pattern }
  }

  return {
    async query(selector) {
      seeNavigation()
      return count(selector)
    },
    async click(target, { button, count: n }, signal) {
      await run({ action: n === 2 && button === 'left' ? 'dblclick' : 'click', target: spec(target), button, count: n }, signal)
    },
    async fill(target, value, signal) {
      await run({ action: 'fill', target: spec(target), value }, signal)
    },
    async type(target, text, { delayMs }, signal) {
      await run({ action: 'type', target: target ? spec(target) : focused(), value: text, delayMs }, signal)
    },
    async press(key, target, signal) {
      await run({ action: 'press', key, target: target ? spec(target) : undefined }, signal)
    },
    async hover(target, signal) {
      await run({ action: 'hover', target: spec(target) }, signal)
    },
    async select(target, values, signal) {
      await run({ action: 'select', target: spec(target), value: values }, signal)
    },
    async check(target, checked, signal) {
      await run({ action: checked ? 'check' : 'uncheck', target: spec(target) }, signal)
    },
    async scroll(target, { direction, amount }, signal) {
      await run({ action: 'scroll', target: target ? spec(target) : undefined, direction, amount }, signal)
    },
    async waitFor(condition, timeoutMs, signal) {
      seeNavigation()
      const out = await runCommand(waitCommand(condition), { timeoutMs, signal })
      seeNavigation()
      if (!out.ok) throw toPortError(out)
    },
    async snapshot() {
      seeNavigation()
      return observe()
    },
    async find(query) {
      seeNavigation()
      const m = semanticMatch(query)
      if (m.ambiguous) throw new PortError('STEP_FAILED', `AMBIGUOUS: "${query}" fits several elements: ${m.candidates.map((c) => `${c.label} (${c.id})`).join('; ')}.`)
      if (!m.best) return null
      return { ...m.candidates[0], candidates: m.candidates }
    },
    async navigate(url) {
      const target = new URL(url, location.href)
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new PortError('STEP_FAILED', `Ava only opens http(s) pages, not ${target.protocol}`)
      options.cache?.clear()
      options.onNavigate?.(target.href)
      location.assign(target.href)
      lastUrl = target.href
    },
    async getText(target, signal) {
      return String((await run({ action: 'getText', target: spec(target) }, signal)).data ?? '')
    },
    async getAttribute(target, name, signal) {
      return ((await run({ action: 'getAttribute', target: spec(target), name }, signal)).data as string | null) ?? null
    },
    async getUrl() {
      seeNavigation()
      return location.href
    },
    async readGlobal(path) {
      if (path.some((k) => kForbiddenKeys.has(k))) throw new PortError('STEP_FAILED', `Refused to read ${path.join('.')}: it reaches outside plain data.`)
      if (options.readGlobal) return options.readGlobal(path)
      let value: unknown = globalThis
      for (const key of path) {
        if (value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'function')) return undefined
        // Version markers are plain data; only primitives are returned, never page objects.
        value = (value as Record<string, unknown>)[key]
      }
      return typeof value === 'object' ? undefined : value
    },
  }
}
