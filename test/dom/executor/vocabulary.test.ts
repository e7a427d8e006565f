// @vitest-environment happy-dom
// Every DOM action of the vocabulary (src/core/vocabulary.ts) runs in the page: the executor has
// a `run` for it, a sample step of it passes the vocabulary's strict schema, and the receiver acts
// on it. `kSamples` is keyed by DomActionName, so a new action without a sample fails typecheck
// (the recipe in docs/architecture.md, "A new action").
import { beforeEach, describe, expect, it } from 'vitest'
import { kDomActions, PageActionSchema, type DomActionName } from '../../../src/core/vocabulary'
import { parsedTarget, type PageAction } from '../../../src/core/page/command'
import { actionRegistry } from '../../../src/dom/executor'
import { clearAgentIds } from '../../../src/dom/observe'
import { createReceiver } from '../../../src/dom/page/receiver'

const byId = (id: string) => parsedTarget({ selectors: [`#${id}`] })

const kSamples: Record<DomActionName, PageAction> = {
  // A fragment: the document stays where it is.
  navigate: { action: 'navigate', value: '#top' },
  click: { action: 'click', target: byId('go') },
  dblclick: { action: 'dblclick', target: byId('go') },
  fill: { action: 'fill', target: byId('user'), value: 'alice' },
  type: { action: 'type', target: byId('user'), value: 'bob' },
  select: { action: 'select', target: byId('role'), value: 'Editor' },
  check: { action: 'check', target: byId('keep') },
  uncheck: { action: 'uncheck', target: byId('keep') },
  hover: { action: 'hover', target: byId('go') },
  drag: {
    action: 'drag',
    target: byId('go'),
    path: [
      { x: 1, y: 1 },
      { x: 5, y: 5 },
    ],
  },
  focus: { action: 'focus', target: byId('user') },
  press: { action: 'press', key: 'Tab', target: byId('user') },
  scroll: { action: 'scroll', direction: 'down' },
  submit: { action: 'submit', target: byId('user') },
  wait: { action: 'wait', target: byId('go'), state: 'attached' },
  verify: { action: 'verify', assertion: 'shows "Dashboard"' },
  getText: { action: 'getText', target: byId('title') },
  getAttribute: { action: 'getAttribute', target: byId('user'), name: 'name' },
  upload: {
    action: 'upload',
    target: byId('doc'),
    files: [{ name: 'a.txt', mimeType: 'text/plain', base64: btoa('hello') }],
  },
}

const kNeedsLayout = new Set<DomActionName>(['hover', 'drag'])

beforeEach(() => {
  clearAgentIds()
  document.body.innerHTML = `
    <form id="f" onsubmit="return false">
      <label>Username <input id="user" name="login"></label>
      <label><input id="keep" type="checkbox"> Keep me signed in</label>
      <label>Role <select id="role"><option>Viewer</option><option>Editor</option></select></label>
      <label>Document <input id="doc" type="file"></label>
      <button id="go" type="button">Log in</button>
    </form>
    <h1 id="title">Dashboard</h1>`
})

describe('every DOM action of the vocabulary runs in the page', () => {
  it.each(kDomActions.map((d) => d.name))('%s', async (name) => {
    expect(actionRegistry.has(name), `${name}: no run in src/dom/executor/actions.ts`).toBe(true)
    const step = kSamples[name]
    expect(step.action).toBe(name)
    const parsed = PageActionSchema.safeParse(step)
    expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true)
    if (name === 'check') document.querySelector<HTMLInputElement>('#keep')!.checked = false
    if (name === 'uncheck') document.querySelector<HTMLInputElement>('#keep')!.checked = true
    // A budget, not a wait, except where happy-dom's missing layout makes the step wait it out.
    const out = await createReceiver()({ kind: 'act', step, timeoutMs: kNeedsLayout.has(name) ? 1_000 : 10_000 })
    // happy-dom lays nothing out, and a hover (unlike a click) is never forced onto an element
    // with no box: there, reaching the visibility check is the page's answer (e2e/executor hovers).
    if (kNeedsLayout.has(name) && !out.ok) expect(out.code, `${name}: ${out.message}`).toBe('NOT_ACTIONABLE')
    else expect(out.ok, `${name}: ${out.ok ? '' : out.message}`).toBe(true)
  })

  it('what each returns', async () => {
    const receive = createReceiver()
    const text = await receive({ kind: 'act', step: kSamples.getText, timeoutMs: 10_000 })
    expect(text.ok && text.data).toBe('Dashboard')
    const attr = await receive({ kind: 'act', step: kSamples.getAttribute, timeoutMs: 10_000 })
    expect(attr.ok && attr.data).toBe('login')
  })
})
