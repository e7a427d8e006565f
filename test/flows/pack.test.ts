import { describe, expect, test } from 'vitest'
import { parse as parseRecording } from '@puppeteer/replay'
import { parse as parseYaml } from 'yaml'
import {
  addFlowToPack,
  applyHeal,
  flaggedSteps,
  flowFromEvents,
  healDiff,
  recordRun,
  toDevTools,
  toDevToolsSelector,
  type Flow,
  type StepReport,
} from '../../src/core/flows'
import { createEngine, createRegistry, validatePack } from '../../src/core/registry'
import { loginEvents } from './fixtures'

const flow: Flow = flowFromEvents(loginEvents(), { name: 'Log in', source: 'recording', now: new Date(0) })

describe('a flow as a pack action', () => {
  test('validates with the registry: selectors as aliases with fallbacks, the password a secret param', () => {
    const out = addFlowToPack(null, flow)
    expect(out).toMatchObject({ namespace: 'recorded', action: 'recorded:flow:log-in', version: '1.0.0' })
    const check = validatePack(out.text)
    expect(check.issues.filter((i) => i.severity === 'error')).toEqual([])
    const action = check.pack!.actions['flow:log-in']
    expect(action.params).toEqual({
      from_start: { type: 'boolean', default: false, description: 'Open https://app.test/login first.' },
      user_name: { type: 'string', description: 'User name', default: 'alice' },
      password: { type: 'string', description: 'Password', secret: true, required: true },
    })
    expect(check.pack!.selectors!['log_in__s1']).toEqual({
      primary: 'role:textbox[name="User name"]',
      fallback: ['css:#user'],
    })
    expect(action.steps!.map((s) => s.action)).toEqual(['navigate', 'fill', 'fill', 'click'])
  })

  test('adding to an existing pack keeps its other actions and bumps the patch version', () => {
    const first = addFlowToPack(null, flow, { namespace: 'mine' })
    const second = addFlowToPack(
      first.text,
      { ...flow, metadata: { ...flow.metadata, name: 'Other' } },
      { namespace: 'mine' },
    )
    expect(second.version).toBe('1.0.1')
    expect(Object.keys(parseYaml(second.text).actions)).toEqual(['flow:log-in', 'flow:other'])
    expect(() => addFlowToPack(null, flow, { namespace: 'Bad NS' })).toThrow(/not a namespace/)
  })

  test('the registry runs it with params; the secret is masked in the trace', async () => {
    const text = addFlowToPack(null, flow).text
    const registry = createRegistry(() => [])
    registry.load([{ source: 'user', files: [{ path: 'user:recorded', text }] }])
    const calls: string[] = []
    const port = new Proxy(
      {},
      {
        get:
          (_t, m: string) =>
          async (...a: unknown[]) => (
            calls.push(`${m} ${JSON.stringify(a.slice(0, -1))}`),
            m === 'query' ? 1 : undefined
          ),
      },
    )
    const r = await createEngine({ registry, port: port as never }).run('recorded:flow:log-in', {
      password: 'hunter22',
    })
    expect(r.success).toBe(true)
    expect(calls.filter((c) => c.startsWith('fill'))).toHaveLength(2)
    expect(JSON.stringify(r.trace)).not.toContain('hunter22')
  })
})

describe('DevTools Recorder export', () => {
  test('parses with @puppeteer/replay; secrets stay empty', () => {
    const rec = toDevTools(flow)
    const parsed = parseRecording(rec)
    expect(parsed.title).toBe('Log in')
    expect(parsed.steps.map((s) => s.type)).toEqual(['setViewport', 'navigate', 'change', 'change', 'click'])
    expect(rec.steps[3]).toMatchObject({ type: 'change', value: '' })
    expect(rec.steps[2]).toMatchObject({ value: 'alice', selectors: [['aria/User name[role="textbox"]'], ['#user']] })
  })

  test('selectors map onto the Recorder prefixes', () => {
    expect(toDevToolsSelector({ type: 'testid', value: 'testid:save' })).toBe('[data-testid="save"]')
    expect(toDevToolsSelector({ type: 'text', value: 'text:"Save"' })).toBe('text/Save')
    expect(toDevToolsSelector({ type: 'xpath', value: "xpath://*[@id='a']/b[1]" })).toBe("xpath///*[@id='a']/b[1]")
    expect(toDevToolsSelector({ type: 'index', value: 'css:button', index: 2, context_hash: '00000000' })).toBeNull()
  })
})

describe('heals', () => {
  const before = flow.steps[2].selectors!
  const after = {
    primary: { type: 'testid' as const, value: 'testid:save' },
    fallback: [before.primary, ...before.fallback],
  }

  test('the proposal is a diff of the alternatives, and accepting replaces the step selectors', () => {
    expect(healDiff(before, after)).toEqual([
      '+ testid testid:save',
      '  role role:button[name="Save"]',
      '  css css:#save',
    ])
    const healed = applyHeal(flow, { step_id: 3, kind: 'fallback', before, after, diff: [] })
    expect(healed.steps[2].selectors).toEqual(after)
    expect(healed.steps[0]).toBe(flow.steps[0])
  })

  test('a step healed on each of its last three runs flags the flow; a clean run clears it', () => {
    const report = (healed: boolean): StepReport => ({
      step_id: 3,
      action: 'click',
      status: 'ok',
      level: 'css',
      alternative: healed ? 1 : 0,
      healed: healed ? 'fallback' : null,
      attempts: 1,
      resolveMs: 1,
      durationMs: 1,
    })
    let stats = recordRun(undefined, [report(true)])
    stats = recordRun(stats, [report(true)])
    expect(flaggedSteps(stats)).toEqual([])
    stats = recordRun(stats, [report(true)])
    expect(flaggedSteps(stats)).toEqual([3])
    expect(stats).toMatchObject({ runs: 3, healed_runs: 3, steps: { '3': { runs: 3, heals: 3 } } })
    expect(flaggedSteps(recordRun(stats, [report(false)]))).toEqual([])
  })
})
