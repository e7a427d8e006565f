// @vitest-environment happy-dom
// the page's receiver types a saved secret only into a field of a document on a site
// the secret is bound to, and remembers the field so its value is never listed.
import { beforeEach, describe, expect, it } from 'vitest'
import type { PageCommand } from '../../src/core/page/command'
import { serialize } from '../../src/core/page/serialize'
import { clearAgentIds, observe } from '../../src/dom/observe'
import { createReceiver } from '../../src/dom/page/receiver'

const kValue = 'SECRET-58213'

/**
 * happy-dom lays nothing out: every element is given a 120×24 box on screen, and the hit test at a
 * point answers the element last measured, so a field passes the "a person can see it" check
 * (src/dom/secret-trust.ts) unless a test gives it another box. The real layout is e2e/agent/trust.test.ts.
 */
let box = { x: 10, y: 10, width: 120, height: 24 }
let measured: Element | null = null
const measure = (el: Element) => void (measured = el)
HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
  measure(this)
  return {
    ...box,
    left: box.x,
    top: box.y,
    right: box.x + box.width,
    bottom: box.y + box.height,
    toJSON: () => ({}),
  } as DOMRect
}
document.elementFromPoint = () => measured

const fill = (secretSites?: string[]): PageCommand<'act'> => ({
  kind: 'act',
  step: { action: 'fill', value: kValue, target: { focused: true } },
  timeoutMs: 10_000,
  ...(secretSites ? { secretSites } : {}),
})

/** A field nothing marks as secret (no password type, autocomplete, name or id that says so). */
function field(): HTMLInputElement {
  document.body.innerHTML = '<label>Verification <input id="box"></label>'
  const input = document.getElementById('box') as HTMLInputElement
  input.focus()
  return input
}

describe('receiver: secrets only on their sites', () => {
  beforeEach(() => {
    clearAgentIds()
    box = { x: 10, y: 10, width: 120, height: 24 }
  })

  it.each([
    ['1×1', { x: 10, y: 10, width: 1, height: 1 }],
    ['off screen', { x: -9999, y: 0, width: 200, height: 24 }],
  ])('refuses a field a person cannot see (%s), typing nothing', async (_, at) => {
    box = at
    const input = field()
    const out = await createReceiver()(fill([location.origin]))
    expect(out).toMatchObject({ ok: false, code: 'BLOCKED', message: expect.stringMatching(/field you can see/) })
    expect(input.value).toBe('')
  })

  it('refuses a secret bound to another site, typing nothing', async () => {
    const input = field()
    const out = await createReceiver()(fill(['https://bank.example']))
    expect(out).toMatchObject({ ok: false, code: 'BLOCKED' })
    expect(input.value).toBe('')
  })

  it('types it on its own site, and the field is listed without its value from then on', async () => {
    const input = field()
    const out = await createReceiver()(fill([location.origin]))
    expect(out).toMatchObject({ ok: true, sensitive: true })
    expect(input.value).toBe(kValue)
    expect(JSON.stringify(out)).not.toContain(kValue)
    expect(
      serialize(observe({ root: document, includeContent: false }), { budgetTokens: Infinity }).text,
    ).not.toContain(kValue)
  })

  it('a plain value in a plain field stays listed (the control)', async () => {
    const input = field()
    const out = await createReceiver()(fill())
    expect(out).toMatchObject({ ok: true })
    expect(input.value).toBe(kValue)
    expect(serialize(observe({ root: document, includeContent: false }), { budgetTokens: Infinity }).text).toContain(
      kValue,
    )
  })
})

// Red-team finding 5: a flow replay that moved to another site typed its secrets there.
describe('receiver: a flow step carrying a secret', () => {
  beforeEach(() => clearAgentIds())

  const flowFill = (secretSites?: string[]): PageCommand<'flow.step'> => ({
    kind: 'flow.step',
    step: {
      step_id: 1,
      action: 'fill',
      params: { value: kValue },
      selectors: { primary: { type: 'css', value: 'css:#box' }, fallback: [] },
    },
    timeoutMs: 10_000,
    trusted: true,
    ...(secretSites ? { secretSites } : {}),
  })

  it('is refused on an origin the secret is not bound to, typing nothing', async () => {
    const input = field()
    const out = await createReceiver()(flowFill(['https://bank.example']))
    expect(out).toMatchObject({ ok: true, outcome: { ok: false } })
    expect(JSON.stringify(out)).toContain('saved secret is not typed')
    expect(input.value).toBe('')
  })

  it('is typed on its own origin, and the field is listed without its value', async () => {
    const input = field()
    const out = await createReceiver()(flowFill([location.origin]))
    expect(out).toMatchObject({ ok: true, outcome: { ok: true } })
    expect(input.value).toBe(kValue)
    expect(
      serialize(observe({ root: document, includeContent: false }), { budgetTokens: Infinity }).text,
    ).not.toContain(kValue)
  })
})

// Red-team finding 8: a GET form sends its fields in the address.
describe('receiver: a form holding a typed secret', () => {
  beforeEach(() => clearAgentIds())

  function form(method: string): { input: HTMLInputElement; sent: string[] } {
    document.body.innerHTML = `<form method="${method}" action="/next"><label>Verification <input id="box" name="v"></label><button id="go">Send</button></form>`
    const sent: string[] = []
    document.querySelector('form')!.addEventListener('submit', (e) => (sent.push(method), e.preventDefault()))
    const input = document.getElementById('box') as HTMLInputElement
    input.focus()
    return { input, sent }
  }
  const click: PageCommand<'act'> = {
    kind: 'act',
    step: { action: 'click', target: { selectors: [{ kind: 'css', value: '#go', raw: 'css:#go' }] } },
    timeoutMs: 10_000,
  }

  it('is not sent by GET, even confirmed', async () => {
    const { input, sent } = form('get')
    expect(await createReceiver()(fill([location.origin]))).toMatchObject({ ok: true })
    expect(input.value).toBe(kValue)
    const receive = createReceiver()
    expect(await receive(click)).toMatchObject({ ok: false, code: 'BLOCKED' })
    // A yes not bound to a question this page asked acts on nothing.
    expect(await receive({ ...click, confirmed: true })).toMatchObject({
      ok: false,
      code: 'NOT_ACTIONABLE',
      reason: 'unbound',
    })
    expect(sent).toEqual([])
  })

  it('is sent by POST; a GET form with no secret in it is sent too (the controls)', async () => {
    const post = form('post')
    await createReceiver()(fill([location.origin]))
    expect(await createReceiver()(click)).toMatchObject({ ok: true })
    expect(post.sent).toEqual(['post'])
    const get = form('get')
    await createReceiver()(fill())
    expect(await createReceiver()(click)).toMatchObject({ ok: true })
    expect(get.sent).toEqual(['get'])
  })
})
