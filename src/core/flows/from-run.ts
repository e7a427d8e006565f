import { provenanceOf } from '../agent/provenance'
import type { Instruction } from '../instruction/schema'
import { buildFlow, type RecordedTarget } from './record'
import type { Flow, FlowSelector, FlowSelectors, FlowStep, FlowVariable, SelectorLevel } from './schema'
import { looksSecret, variableName } from './variables'
import { extractKeywords } from '../verify'
import { flowStep, instructionKind } from '../vocabulary'

/**
 * "Save as flow" on a finished agent run: the run's executed instructions
 * (already redacted by the agent) become flow steps, with the selectors and snapshot the page
 * made for each element just before the step acted on it; a step without them keeps the
 * instruction's own locators. Values from the vault stay references to it.
 */

/** What the agent writes in place of a value typed into a password field (core/agent/secrets). */
const kRedactedMarks = new Set(['***', '[redacted]', '•••'])

/** The flow level of a prefixed locator as a pack or the planner writes it. */
export function levelOfLocator(raw: string): SelectorLevel {
  const m = /^([a-z]+):/.exec(raw.trim())
  const prefix = m?.[1]
  if (prefix === 'testid' || prefix === 'role' || prefix === 'text' || prefix === 'xpath' || prefix === 'css')
    return prefix
  return raw.trim().startsWith('//') || raw.trim().startsWith('(//') ? 'xpath' : 'css'
}

function locatorSelectors(ins: Instruction): FlowSelectors | undefined {
  const p = ins.params
  const list: FlowSelector[] = []
  if (p.fallback_selector)
    list.push({
      type: levelOfLocator(p.fallback_selector),
      value: /^[a-z]+:/.test(p.fallback_selector)
        ? p.fallback_selector
        : `${levelOfLocator(p.fallback_selector)}:${p.fallback_selector}`,
    })
  // A description is not a selector; its exact words as visible text are the closest one.
  if (p.semantic_locator && p.semantic_locator.length <= 80)
    list.push({ type: 'text', value: `text:${p.semantic_locator.replace(/["“”]/g, '')}` })
  if (!list.length) return undefined
  return { primary: list[0], fallback: list.slice(1) }
}

/**
 * A keyword verify as the flow's assertions: one `verify {text}` per quoted word,
 * since a flow step checks one thing. A word that reads like a `${…}` reference is left out: the
 * flow would take it for a variable.
 */
function verifySteps(ins: Instruction): Omit<FlowStep, 'step_id'>[] {
  const description = (ins.description ?? ins.params.assertion ?? '').slice(0, 500)
  return extractKeywords(ins.params.assertion ?? '')
    .filter((k) => !k.includes('${'))
    .map((text) => ({
      action: 'verify' as const,
      params: { text: text.slice(0, 4_096) },
      ...(description ? { description } : {}),
    }))
}

export interface RunToFlowOptions {
  name: string
  request?: string
  startUrl?: string
  now?: Date
}

/** A whole value that names a vault entry: the flow keeps the name, never the value. */
const kVaultRef = /^\$\{(secret|env):([A-Za-z0-9_.-]+)\}$/

/**
 * `resolved[i]` is the element of `executed[i]`: as the page described it just before the step
 * acted (kept in the run), else as found on the page at save time, else null. Verify steps become
 * the flow's assertions, run_action steps `run` steps that call the same pack action; wait and
 * done instructions carry nothing a replay needs and are left out.
 */
export function flowFromRun(
  executed: readonly Instruction[],
  resolved: readonly (RecordedTarget | null)[],
  opts: RunToFlowOptions,
): Flow {
  const drafts: Parameters<typeof buildFlow>[0][number][] = []
  executed.forEach((ins, i) => {
    const p = ins.params
    // What the instruction is saved as, and with which params: its descriptor (src/core/vocabulary.ts).
    const kind = instructionKind(ins.action_type)
    if (kind?.checks) {
      for (const step of verifySteps(ins)) drafts.push({ step })
      return
    }
    const action = kind?.flow as FlowStep['action'] | undefined
    if (!action) return
    const found = resolved[i] ?? null
    const selectors = found?.selectors ?? locatorSelectors(ins)
    // A step on an element is saved only with selectors for it (the descriptor's `element`).
    const needsTarget = !!flowStep(action)?.element
    if (needsTarget && !selectors) return
    const step: Omit<FlowStep, 'step_id'> = { action, params: { ...kind?.saves?.(p) } }
    if (selectors && (needsTarget || p.target_id || p.fallback_selector || p.semantic_locator))
      step.selectors = selectors
    if (found) step.element_snapshot = found.snapshot
    if (ins.description || p.semantic_locator) step.description = (ins.description ?? p.semantic_locator)!.slice(0, 500)
    if (kind?.types) {
      const value = p.value ?? ''
      if (kVaultRef.test(value)) {
        // Written as a variable below, so the pack conversion can declare it.
        step.params.value = value
        drafts.push({ step })
        return
      }
      // Redacted by the run, a vault name inside other text, or a value that looks like a credential:
      // the flow keeps nothing of it and asks at replay.
      const secret = kRedactedMarks.has(value) || /\$\{(secret|env):/.test(value) || looksSecret(value, found?.field)
      drafts.push({
        step,
        typed: secret ? '' : value,
        secret,
        hint: found?.field?.label || found?.description || p.semantic_locator || 'value',
        fieldInfo: found?.field,
      })
      return
    }
    drafts.push({ step })
  })
  const flow = buildFlow(drafts, {
    name: opts.name,
    source: 'agent',
    sourceTask: opts.request,
    startUrl: opts.startUrl,
    now: opts.now,
  })
  // Where it came from: the model planned it with the page in front of it (core/agent/provenance.ts).
  const shaped = provenanceOf(executed, { pageShaped: true }).risky
  if (shaped.length)
    flow.metadata.page_shaped = shaped.map((r) => ({ step: r.index, why: r.why, text: r.text.slice(0, 500) }))
  const taken = new Set(Object.keys(flow.variables))
  const declare = (hint: string, variable: FlowVariable): string => {
    const name = variableName(hint, taken)
    taken.add(name)
    flow.variables[name] = variable
    return `\${${name}}`
  }
  for (const step of flow.steps) {
    // Which params become variables: the step's descriptor (a fill's value, a pack action's params).
    const lifts = flowStep(step.action)?.variables
    if (!lifts) continue
    for (const [key, v] of Object.entries(step.params)) {
      if (typeof v !== 'string' || key === 'action' || (lifts === 'value' && key !== 'value')) continue
      const ref = kVaultRef.exec(v)
      if (ref) step.params[key] = declare(ref[2], { secret: true, value: v, description: `vault ${ref[1]} ${ref[2]}` })
      else if (lifts === 'args') {
        // A pack action's string params become the flow's variables (defaults: what the run used);
        // anything redacted or secret-looking is asked for at replay instead.
        const secret = kRedactedMarks.has(v) || /\$\{(secret|env):/.test(v) || looksSecret(v, { name: key })
        step.params[key] = declare(
          key,
          secret ? { secret: true, value: `\${prompt:${key}}`, description: key } : { value: v, description: key },
        )
      }
    }
  }
  return flow
}
