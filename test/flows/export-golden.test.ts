// Golden files for every way a flow or a pack leaves Ava: the DevTools Recorder JSON, the
// Playwright spec, the pack action, and a pack's capabilities. The flow holds every flow step
// action in each form its exporters tell apart, so moving a step's export rules into its
// descriptor (src/core/vocabulary.ts) must keep every byte.
import { describe, expect, it } from 'vitest'
import { parseFlow, type Flow } from '../../src/core/flows'
import { toDevTools } from '../../src/core/flows/devtools'
import { toPlaywrightSpec } from '../../src/core/flows/playwright'
import { flowToAction } from '../../src/core/flows/to-pack'
import { packCapabilities, type PackLike } from '../../src/core/registry/capabilities'
import { kFlowSteps } from '../../src/core/vocabulary'

const sel = (value: string) => ({
  primary: { type: 'css' as const, value },
  fallback: [{ type: 'role' as const, value: 'role:button[name="Go"]' }],
})
const snap = (text: string) => ({ tag: 'button', text, attributes: {} })

let id = 0
const step = (action: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  step_id: ++id,
  action,
  params,
  ...extra,
})
const el = (value: string) => ({ selectors: sel(value), element_snapshot: snap(value) })

const flow: Flow = parseFlow({
  version: '1.0',
  metadata: { name: 'Every step', start_url: 'https://shop.example/', created_at: '2026-01-01T00:00:00.000Z' },
  variables: {
    user: { value: 'ada' },
    pass: { secret: true },
    doc: { value: '${file:./a.pdf}' },
    city: { value: '${prompt:Which city?}' },
  },
  steps: [
    step('navigate', { url: 'https://shop.example/${user}' }),
    step('click', {}, el('#save')),
    step('click', { button: 'right' }, el('#menu')),
    step('dblclick', {}, el('#cell')),
    step('fill', { value: '${user}' }, el('#name')),
    step('fill', { value: '${pass}' }, el('#pw')),
    step('select', { value: 'Paris' }, el('#city')),
    step('check', {}, el('#tos')),
    step('uncheck', {}, el('#news')),
    step('press', { key: 'Control+A' }),
    step('press', { key: 'Enter' }, el('#q')),
    step('hover', {}, el('#nav')),
    step('scroll', { direction: 'up' }),
    step('scroll', { direction: 'down', amount: 300 }),
    step('wait', { ms: 250 }),
    step('wait', {}, el('#ready')),
    step('run', { action: 'acme:orders:open', id: '${user}' }),
    step('verify', { url: '*/orders' }),
    step('verify', { text: 'Saved' }),
    step('expect', { text: 'Done' }, el('#status')),
    step('verify', { state: 'visible' }, el('#toast')),
    step('verify', { state: 'hidden' }, el('#spinner')),
    step('verify', { state: 'checked' }, el('#tos')),
    step('verify', { value: 'ada' }, el('#name')),
    step('expect', { count: 3 }, el('.row')),
    step('extract', { name: 'total' }, el('#total')),
    step('extract', { name: 'link', attribute: 'href' }, el('#a')),
    step('upload', { file: '${doc}' }, el('#file')),
    step('go_back'),
    step('tab', { index: 1 }),
    step('tab', { url: 'https://shop.example/cart' }),
    step('tab'),
    step('click', {}, { ...el('#late'), retry: 2, timeout: 9000, wait_after: 100 }),
    step('done', { text: 'ordered', success: true }),
    step('click', {}, el('#never')),
  ],
})

describe('the exporters, byte for byte', () => {
  it('the flow uses every flow step action', () => {
    expect(new Set(flow.steps.map((s) => s.action))).toEqual(new Set(kFlowSteps.map((d) => d.name)))
  })
  it('DevTools Recorder', async () => {
    await expect(JSON.stringify(toDevTools(flow), null, 2) + '\n').toMatchFileSnapshot('golden/devtools.json')
  })
  it('Playwright spec', async () => {
    await expect(toPlaywrightSpec(flow)).toMatchFileSnapshot('golden/playwright.spec.ts.txt')
  })
  it('pack action', async () => {
    await expect(JSON.stringify(flowToAction(flow), null, 2) + '\n').toMatchFileSnapshot('golden/pack.json')
  })
})

describe("a pack's capabilities, step by step", () => {
  const steps: { action: string; args?: Record<string, unknown> }[] = [
    { action: 'click', args: { selector: 'button[type=submit]' } },
    { action: 'click', args: { selector: '#x' } },
    { action: 'fill', args: { selector: '#a', value: '${steps.s.value}' } },
    { action: 'type', args: { text: 'x' } },
    { action: 'select', args: { selector: '#s', value: 'a' } },
    { action: 'press', args: { key: 'Enter' } },
    { action: 'press', args: { key: 'Tab' } },
    { action: 'hover', args: { selector: '#h' } },
    { action: 'check', args: { selector: '#c' } },
    { action: 'uncheck', args: { selector: '#c' } },
    { action: 'upload', args: { selector: '#f', files: [{ path: 'a' }] } },
    { action: 'scroll', args: {} },
    { action: 'wait', args: { ms: 1 } },
    { action: 'snapshot' },
    { action: 'find', args: { query: 'x' } },
    { action: 'open', args: { url: 'https://a.example/x' } },
    { action: 'navigate', args: { url: '${params.u}' } },
    { action: 'getText', args: { selector: 'input#card' } },
    { action: 'getAttribute', args: { selector: '#a', name: 'value' } },
    { action: 'getUrl' },
    { action: 'eval', args: { script: '1' } },
    { action: 'evaluate', args: { script: '1' } },
    { action: 'run', args: { action: 'a:b:c' } },
    { action: 'fail', args: { message: 'x' } },
  ]
  it.each(steps.map((s) => [s.action, s] as const))('%s', async (_name, s) => {
    const pack: PackLike = { actions: { a: { steps: [s] } } }
    expect(packCapabilities(pack)).toMatchSnapshot()
  })
})
