// @vitest-environment happy-dom
// a yes binds to the element the question was about. The confirmed dispatch acts on
// that element or on nothing: never on whatever a selector or target_id finds there now.
import { beforeEach, describe, expect, it } from 'vitest'
import type { PageCommand } from '../../src/core/page/command'
import { clearAgentIds } from '../../src/dom/observe'
import { createReceiver } from '../../src/dom/page/receiver'

const click: PageCommand<'act'> = {
  kind: 'act',
  step: { action: 'click', target: { selectors: [{ kind: 'css', value: '#go', raw: '#go' }] } },
  timeoutMs: 10_000,
  confirm: ['destructive', 'payment'],
}

function mount(label: string): { clicks: string[] } {
  const clicks: string[] = []
  document.body.innerHTML = `<main><button id="go" type="button">${label}</button></main>`
  document.getElementById('go')!.addEventListener('click', () => clicks.push(label))
  return { clicks }
}

describe('receiver: the yes binds to the element asked about', () => {
  beforeEach(() => clearAgentIds())

  it('asks with the element as drawn and a handle', async () => {
    mount('Delete draft')
    const asked = await createReceiver()(click)
    expect(asked).toMatchObject({
      ok: false,
      code: 'NEEDS_CONFIRMATION',
      drawn: { role: 'button', name: 'Delete draft' },
    })
    expect(!asked.ok && asked.handle).toMatch(/\w{8}/)
  })

  it('a replaced element is not acted on, whatever the selector finds now (rule: navigated)', async () => {
    mount('Delete draft')
    const receive = createReceiver()
    const asked = await receive(click)
    const { clicks } = mount('Send $5,000') // same id, another node
    const out = await receive({ ...click, confirmed: true, bound: !asked.ok ? asked.handle : undefined })
    expect(out).toMatchObject({ ok: false, code: 'NOT_ACTIONABLE', reason: 'unbound' })
    expect(clicks).toEqual([])
  })

  it('a relabelled element asks again, naming what it reads now', async () => {
    mount('Delete draft')
    const receive = createReceiver()
    const asked = await receive(click)
    document.getElementById('go')!.textContent = 'Send $5,000'
    const again = await receive({ ...click, confirmed: true, bound: !asked.ok ? asked.handle : undefined })
    expect(again).toMatchObject({
      ok: false,
      code: 'NEEDS_CONFIRMATION',
      changed: true,
      drawn: { name: 'Send $5,000' },
    })
    expect(!again.ok && !asked.ok && again.handle !== asked.handle).toBe(true)
  })

  it("a yes with no handle, or another page's handle, acts on nothing", async () => {
    const { clicks } = mount('Delete draft')
    const receive = createReceiver()
    expect(await receive({ ...click, confirmed: true })).toMatchObject({ ok: false, reason: 'unbound' })
    expect(await receive({ ...click, confirmed: true, bound: 'made-up' })).toMatchObject({
      ok: false,
      reason: 'unbound',
    })
    expect(clicks).toEqual([])
  })
})
