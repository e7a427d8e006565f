import type { Flow, FlowStep } from './schema'
import { parseSource } from './variables'
import { flowStep, flowStepEnds, flowStepReturns } from '../vocabulary'

/**
 * Export to a Playwright Test spec that runs on Ava's fixture
 * (src/playwright/fixture.ts, the package entry `ava-assistant/playwright`). Each step is one
 * readable line, `await ava.step(flow, 3, params) // click "Save"`, and it replays with Ava's own
 * checks (unique, like the recorded element, actionable) rather than a bare locator, so the spec
 * passes and fails as `ava run` does. The flow itself, selectors and snapshots, follows the test.
 * Secret values are never written: a secret comes from the environment at run time.
 */

export interface PlaywrightSpecOptions {
  /** Where the spec imports the fixture from (a package entry, or a relative path). */
  fixture?: string
}

export const kDefaultFixtureImport = 'ava-assistant/playwright'

const q = (s: string) => JSON.stringify(s)
// A comment's text: one line. The spec's comments are all line comments, so only a line break
// ends them, and a URL glob such as "*" + "/orders" stays as written.
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim()

function cut(s: string, max = 60): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}

function targetName(step: FlowStep): string {
  const text = step.element_snapshot?.text || step.description
  if (text) return q(cut(oneLine(text)))
  return step.selectors ? step.selectors.primary.value : 'the page'
}

/** What a step does, as a person would say it; secret values are named, never shown. */
export function describeStep(flow: Flow, step: FlowStep): string {
  const value = (v: unknown): string => {
    const s = String(v ?? '')
    const only = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(s)
    if (only && flow.variables[only[1]]?.secret) return `the secret ${only[1]}`
    return q(cut(oneLine(s)))
  }
  // The words are the step's descriptor's (src/core/vocabulary.ts); none: its name and its element.
  const says = flowStep(step.action)?.says
  if (says)
    return says({ p: step.params, target: () => targetName(step), selector: step.selectors?.primary.value, value })
  return `${step.action}${step.selectors || step.element_snapshot ? ` ${targetName(step)}` : ''}`
}

/** The flow as it is embedded: without statistics, and without any secret's literal value. */
function embedded(flow: Flow): Omit<Flow, 'stats'> {
  const { stats: _stats, ...rest } = flow
  const variables = Object.fromEntries(
    Object.entries(flow.variables).map(([name, v]) => {
      if (!v.secret || parseSource(v.value)?.kind !== 'literal') return [name, v]
      const { value: _value, ...noValue } = v
      return [name, noValue]
    }),
  )
  return { ...rest, variables }
}

/** An environment variable name for a flow variable: `user_name` → `USER_NAME`. */
function envName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
}

/** The flow as a `.spec.ts` for Playwright Test on Ava's fixture. */
/** Whether a flow types a secret or into a password field: a sign-in, which a run nobody watches takes only where it says so. */
function signsIn(flow: Flow): boolean {
  if (Object.values(flow.variables ?? {}).some((v) => (v as { secret?: boolean }).secret)) return true
  return flow.steps.some((st) => st.element_snapshot?.attributes?.type === 'password')
}

export function toPlaywrightSpec(flow: Flow, opts: PlaywrightSpecOptions = {}): string {
  const data = embedded(flow)
  // Variables the flow cannot find by itself at replay: asked for in the panel (${prompt:…}),
  // positional (${arg:N}), or secrets with no source. In a spec they come from the environment.
  const asked = Object.entries(data.variables).filter(([, v]) => {
    const src = parseSource(v.value)
    return !src || src.kind === 'prompt' || src.kind === 'arg'
  })
  const lines = [
    `// ${oneLine(flow.metadata.name)}: exported by Ava from a flow (${flow.steps.length} steps). Run with \`npx playwright test\`.`,
    "// Each ava.step replays one step with Ava's checks: it acts only on a unique element that looks",
    '// like the recorded one, and fails with the candidates it saw otherwise (docs/flows.md).',
    `import { test } from ${q(opts.fixture ?? kDefaultFixtureImport)}`,
    '',
    ...(signsIn(flow)
      ? [
          '// This flow signs in: a test has nobody to say yes, so the spec lets that kind of step go, as',
          '// `ava run --allow credentials` does (docs/flows.md, "Risky steps in ava run").',
          "test.use({ avaAllow: ['credentials'] })",
          '',
        ]
      : []),
    `test(${q(flow.metadata.name)}, async ({ page, ava }) => {`,
  ]
  if (asked.length) {
    lines.push(`  // Asked for at replay: set these in the environment (a missing one fails the run and says which).`)
    lines.push(`  const params = { ${asked.map(([name]) => `${name}: process.env.${envName(name)}`).join(', ')} }`)
  }
  const args = asked.length ? ', params' : ''
  // A replay ends at its done step: the spec does too.
  const end = flow.steps.findIndex((st) => flowStepEnds(st.action))
  const steps = end >= 0 ? flow.steps.slice(0, end + 1) : flow.steps
  // What extract steps read, by name, as a flow's `returns` (a bracket key: a name may be a keyword).
  if (steps.some((st) => flowStepReturns(st.action)))
    lines.push('  const returns: Record<string, string | undefined> = {}')
  if (flow.metadata.start_url) lines.push(`  await page.goto(${q(flow.metadata.start_url)})`)
  for (const step of steps) {
    const call = `await ava.step(flow, ${step.step_id}${args})`
    const line = flowStepReturns(step.action) ? `returns[${q(String(step.params.name))}] = (${call}).value` : call
    lines.push(`  ${line} // ${oneLine(describeStep(flow, step))}`)
  }
  if (end >= 0 && end < flow.steps.length - 1)
    lines.push(`  // Steps after the done step (${flow.steps.length - end - 1}) never run.`)
  lines.push('})', '', `// The flow: selectors, element snapshots and variables (secrets come from the environment).`)
  lines.push(`const flow = ${JSON.stringify(data, null, 2)}`, '')
  return lines.join('\n')
}
