import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import {
  flowFromEvents,
  flowToAction,
  kNoAssertionWarning,
  parseFlow,
  replayFlow,
  safeParseFlow,
  validateFlow,
  type FlowPort,
  type FlowStep,
  type StepOutcome,
} from '../../src/core/flows'
import { target } from './fixtures'

// flows that check their outcome. The schema of every new step kind, the validator's
// warning, the replay loop's handling of done / tab / extract / a failing check, and a recorded
// "check this" becoming a verify step.

const sel = { primary: { type: 'role' as const, value: 'role:status[name="Saved"]' }, fallback: [] }
const meta = { name: 'f', created_at: '2026-01-01T00:00:00.000Z', source: 'manual' as const }
const flowOf = (steps: unknown[], variables: Record<string, unknown> = {}): unknown => ({
  version: '1.0',
  metadata: meta,
  variables,
  steps: steps.map((s, i) => ({ step_id: i + 1, ...(s as object) })),
})
const issuesOf = (input: unknown): string[] => {
  const r = safeParseFlow(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path}: ${i.message}`)
}

describe('the schema of the new steps', () => {
  test('verify and expect take exactly one check, with what it needs', () => {
    const good = [
      { action: 'verify', params: { text: 'Saved' } },
      { action: 'expect', params: { text: 'Saved' }, selectors: sel },
      { action: 'verify', params: { url: '*/dashboard' } },
      { action: 'verify', params: { state: 'checked' }, selectors: sel },
      { action: 'verify', params: { value: 'alice' }, selectors: sel },
      { action: 'verify', params: { count: 0 }, selectors: sel },
    ]
    expect(issuesOf(flowOf(good))).toEqual([])
    expect(issuesOf(flowOf([{ action: 'verify', params: {} }]))).toEqual([
      'steps[0].params: a verify step checks exactly one of text, url, state, value, count',
    ])
    expect(issuesOf(flowOf([{ action: 'expect', params: { text: 'a', url: 'b' } }]))).toEqual([
      'steps[0].params: a expect step checks exactly one of text, url, state, value, count; it has text, url',
    ])
    expect(issuesOf(flowOf([{ action: 'verify', params: { state: 'pink' }, selectors: sel }]))).toEqual([
      'steps[0].params.state: params.state is one of visible, hidden, enabled, disabled, checked, unchecked',
    ])
    expect(issuesOf(flowOf([{ action: 'verify', params: { state: 'visible' } }]))).toEqual([
      'steps[0].selectors: a verify step that checks state needs selectors',
    ])
    expect(issuesOf(flowOf([{ action: 'verify', params: { count: 1.5 }, selectors: sel }]))).toEqual([
      'steps[0].params.count: params.count is a whole number from 0',
    ])
    expect(issuesOf(flowOf([{ action: 'verify', params: { url: 'x' }, selectors: sel }]))).toEqual([
      'steps[0].selectors: a verify step that checks the url takes no selectors',
    ])
    expect(issuesOf(flowOf([{ action: 'verify', params: { text: '' } }]))).toEqual([
      'steps[0].params.text: params.text is the text the page must show; it is empty',
    ])
  })

  test('extract needs an element and a name no other extract returns', () => {
    expect(issuesOf(flowOf([{ action: 'extract', params: { name: 'order_id' }, selectors: sel }]))).toEqual([])
    expect(issuesOf(flowOf([{ action: 'extract', params: { name: '1x' } }]))).toEqual([
      'steps[0].selectors: an extract step needs selectors: the element to read',
      'steps[0].params.name: an extract step needs params.name, the identifier its value is returned under',
    ])
    expect(
      issuesOf(
        flowOf([
          { action: 'extract', params: { name: 'a' }, selectors: sel },
          { action: 'extract', params: { name: 'a' }, selectors: sel },
        ]),
      ),
    ).toEqual(['steps[1].params.name: "a" is returned by an earlier extract step too'])
  })

  test('go_back, tab and done', () => {
    expect(
      issuesOf(
        flowOf([
          { action: 'go_back' },
          { action: 'tab' },
          { action: 'tab', params: { index: 1 } },
          { action: 'tab', params: { url: '*/orders/*' } },
          { action: 'done', params: { text: 'ok', success: true } },
        ]),
      ),
    ).toEqual([])
    expect(
      issuesOf(
        flowOf([
          { action: 'tab', params: { index: -1 } },
          { action: 'tab', params: { index: 0, url: 'x' } },
          { action: 'done', params: { success: 'yes' } },
        ]),
      ),
    ).toEqual([
      "steps[0].params.index: params.index is the tab's position, a whole number from 0",
      'steps[1].params: a tab step takes index or url, not both',
      'steps[2].params.success: params.success is true or false',
    ])
  })

  test('a check reads variables like any step', () => {
    expect(
      issuesOf(flowOf([{ action: 'verify', params: { text: 'Welcome, ${who}' } }], { who: { value: 'alice' } })),
    ).toEqual([])
    expect(issuesOf(flowOf([{ action: 'verify', params: { text: 'Welcome, ${nobody}' } }]))).toEqual([
      'steps[0].params.text: "${nobody}" names no variable; variables: (none)',
    ])
  })
})

describe('validateFlow', () => {
  test('a flow without any check is valid, with a warning', () => {
    const r = validateFlow(flowOf([{ action: 'navigate', params: { url: 'https://a.test/' } }]))
    expect(r).toMatchObject({ valid: true, errors: [], warnings: [{ path: 'steps', message: kNoAssertionWarning }] })
  })

  test('a flow with a check has no warning; expect counts as one', () => {
    for (const action of ['verify', 'expect'])
      expect(validateFlow(flowOf([{ action, params: { url: '/done' } }])).warnings).toEqual([])
  })

  test('steps after done are warned about; an invalid flow gives errors and no flow', () => {
    expect(
      validateFlow(flowOf([{ action: 'verify', params: { text: 'x' } }, { action: 'done' }, { action: 'go_back' }]))
        .warnings,
    ).toEqual([{ path: 'steps[2]', message: 'Steps after the done step (step_id 2) never run.' }])
    const bad = validateFlow('{"version":"1.0"')
    expect(bad.valid).toBe(false)
    expect(bad.flow).toBeUndefined()
    expect(bad.errors[0].message).toMatch(/not valid JSON/)
  })

  test('property: the warning appears exactly when no step is verify or expect', () => {
    const step = fc.oneof(
      fc.constant({ action: 'verify', params: { text: 'x' } }),
      fc.constant({ action: 'expect', params: { url: '/x' } }),
      fc.constant({ action: 'go_back' }),
      fc.constant({ action: 'wait', params: { ms: 1 } }),
      fc.constant({ action: 'navigate', params: { url: 'https://a.test/' } }),
    )
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const r = validateFlow(flowOf(steps))
        const checks = steps.some((s) => s.action === 'verify' || s.action === 'expect')
        expect(r.valid).toBe(true)
        expect(r.warnings.some((w) => w.message === kNoAssertionWarning)).toBe(!checks)
      }),
      { numRuns: 100 },
    )
  })
})

/** A port that answers each step from a table, and records what it was asked. */
function fakePort(
  answer: (step: FlowStep) => StepOutcome,
  extra: Partial<FlowPort> = {},
): FlowPort & { seen: FlowStep[] } {
  const seen: FlowStep[] = []
  return {
    seen,
    runStep: async (step) => (seen.push(step), answer(step)),
    navigate: async () => undefined,
    ...extra,
  }
}
const okOutcome = (extra: Partial<Extract<StepOutcome, { ok: true }>> = {}): StepOutcome => ({
  ok: true,
  level: null,
  alternative: 0,
  resolveMs: 0,
  actMs: 0,
  detail: 'ok',
  ...extra,
})

describe('replaying the new steps', () => {
  test('extract values are returned by name; a secret one is masked', async () => {
    const flow = parseFlow(
      flowOf(
        [
          { action: 'extract', params: { name: 'order' }, selectors: sel },
          { action: 'extract', params: { name: 'token' }, selectors: sel },
          { action: 'verify', params: { text: 'x' } },
        ],
        { pw: { secret: true, value: 's3cr3t-value' } },
      ),
    )
    const port = fakePort((s) =>
      okOutcome(
        s.action === 'extract' ? { value: s.params.name === 'order' ? '#742' : 'has s3cr3t-value inside' } : {},
      ),
    )
    const r = await replayFlow(flow, { port, navigateToStart: false })
    expect(r.success).toBe(true)
    expect(r.returns).toEqual({ order: '#742', token: 'has *** inside' })
  })

  test('a failing check fails the replay with its message; later steps do not run', async () => {
    const flow = parseFlow(flowOf([{ action: 'verify', params: { text: 'Welcome, bob' } }, { action: 'go_back' }]))
    const message = 'Check failed: expected the page to show "Welcome, bob", but it shows "Welcome, alice".'
    const port = fakePort(() => ({
      ok: false,
      code: 'VERIFY_FAILED',
      message,
      candidates: [],
      resolveMs: 800,
      acted: false,
    }))
    const r = await replayFlow(flow, { port, navigateToStart: false })
    expect(r.success).toBe(false)
    expect(r.error).toEqual({ step_id: 1, code: 'VERIFY_FAILED', message, candidates: [] })
    expect(port.seen.map((s) => s.action)).toEqual(['verify'])
  })

  test('done ends the replay with its text; success: false fails it', async () => {
    const port = fakePort(() => okOutcome())
    const ok = await replayFlow(
      parseFlow(
        flowOf([
          { action: 'verify', params: { text: 'a' } },
          { action: 'done', params: { text: 'Order placed' } },
          { action: 'go_back' },
        ]),
      ),
      { port, navigateToStart: false },
    )
    expect(ok).toMatchObject({ success: true, done: 'Order placed' })
    expect(ok.steps.map((s) => s.action)).toEqual(['verify', 'done'])
    const no = await replayFlow(
      parseFlow(flowOf([{ action: 'done', params: { text: 'Out of stock', success: false } }])),
      { port, navigateToStart: false },
    )
    expect(no.error).toMatchObject({ code: 'VERIFY_FAILED', message: 'Out of stock' })
  })

  test('tab goes through the port; a port without tabs fails the step saying so', async () => {
    const asked: unknown[] = []
    const port = fakePort(() => okOutcome(), {
      switchTab: async (to) => (asked.push(to), { url: 'https://a.test/receipt' }),
    })
    const r = await replayFlow(
      parseFlow(
        flowOf([
          { action: 'tab' },
          { action: 'tab', params: { index: 0 } },
          { action: 'tab', params: { url: '*/receipt' } },
        ]),
      ),
      { port, navigateToStart: false },
    )
    expect(r.success).toBe(true)
    expect(asked).toEqual([{}, { index: 0 }, { url: '*/receipt' }])
    expect(r.steps[2].detail).toBe('Switched to the tab at */receipt (https://a.test/receipt)')
    const one = await replayFlow(parseFlow(flowOf([{ action: 'tab' }])), {
      port: fakePort(() => okOutcome()),
      navigateToStart: false,
    })
    expect(one.error).toMatchObject({
      code: 'STEP_FAILED',
      message: 'This runner drives one tab and cannot switch to the tab the previous step opened.',
    })
  })
})

describe('"check this" while recording', () => {
  test('a check event becomes a verify step with the element, in its place among the actions', () => {
    const url = 'https://a.test/'
    const status = target('status', 'status', 'Saved')
    const save = target('save', 'button', 'Save')
    const flow = flowFromEvents(
      [
        { kind: 'load', t: 1, url },
        { kind: 'click', t: 2, url, target: save, role: 'other' },
        { kind: 'check', t: 3, url, target: status, check: { text: 'Saved' } },
        { kind: 'check', t: 4, url, target: save, check: { state: 'disabled' } },
      ],
      { name: 'save', source: 'recording' },
    )
    expect(flow.steps.map((s) => [s.action, s.params])).toEqual([
      ['click', {}],
      ['verify', { text: 'Saved' }],
      ['verify', { state: 'disabled' }],
    ])
    expect(flow.steps[1].selectors).toEqual(status.selectors)
    expect(validateFlow(flow).warnings).toEqual([])
  })
})

describe('as a pack action', () => {
  test('checks the registry can express become waits, extract becomes getText and returns', () => {
    const flow = parseFlow(
      flowOf([
        { action: 'verify', params: { text: 'Saved' } },
        { action: 'verify', params: { url: '*/done' } },
        { action: 'verify', params: { state: 'visible' }, selectors: sel },
        { action: 'extract', params: { name: 'order' }, selectors: sel },
        { action: 'done', params: { text: 'ok' } },
      ]),
    )
    const { action } = flowToAction(flow, { action: 'f' })
    expect(action.steps!.map((s) => [s.action, s.args, s.output])).toEqual([
      ['wait', { text: 'Saved' }, undefined],
      ['wait', { url: '*/done' }, undefined],
      ['wait', { selector: '${selectors.f__s3}', state: 'visible' }, undefined],
      ['getText', { selector: '${selectors.f__s4}' }, 'order'],
    ])
    expect(action.returns).toEqual({ order: '${steps.order}' })
  })
})

describe('DevTools export', () => {
  test('checks become Recorder assertions that @puppeteer/replay parses', async () => {
    const { parse } = await import('@puppeteer/replay')
    const { toDevTools } = await import('../../src/core/flows')
    const flow = parseFlow(
      flowOf([
        { action: 'verify', params: { text: 'Saved' } },
        { action: 'verify', params: { url: 'http://a.test/orders/*' } },
        { action: 'verify', params: { count: 2 }, selectors: sel },
        { action: 'expect', params: { state: 'checked' }, selectors: sel },
        { action: 'verify', params: { value: 'alice' }, selectors: sel },
      ]),
    )
    const steps = toDevTools(flow).steps.slice(1)
    expect(steps).toEqual([
      { type: 'waitForElement', selectors: [['text/Saved']] },
      {
        type: 'waitForExpression',
        expression: 'new RegExp("^http:\\\\/\\\\/a\\\\.test\\\\/orders\\\\/.*$").test(location.href)',
      },
      { type: 'waitForElement', selectors: [['aria/Saved[role="status"]']], operator: '==', count: 2 },
      { type: 'waitForElement', selectors: [['aria/Saved[role="status"]']], properties: { checked: true } },
      { type: 'waitForElement', selectors: [['aria/Saved[role="status"]']], properties: { value: 'alice' } },
    ])
    expect(parse(toDevTools(flow)).steps).toHaveLength(6)
    expect(
      new RegExp(JSON.parse(/new RegExp\((".*")\)/.exec(String(steps[1].expression))![1])).test(
        'http://a.test/orders/742',
      ),
    ).toBe(true)
  })
})
