// The registry's BrowserPort and the flows' FlowPort spoken over the page channel
// (src/core/page/channel.ts): each call becomes one PageCommand, and a failure the page reports
// as data becomes the caller's own error once.
import { fieldsOf } from '../../../src/core/vocabulary'
import { describe, expect, it } from 'vitest'
import { createChannelFlowPort, createChannelPort, type StepGuard } from '../../../src/core/page/channel'
import { createEngine, createRegistry } from '../../../src/core/registry'
import type { PageCommand, PageOutcome, SendCommand } from '../../../src/core/page/command'
import { PortError } from '../../../src/core/registry/port'
import { parseSelector } from '../../../src/core/page/selectors'

/** A send that records every command and answers from a script keyed by kind. */
function recorder(answer: (c: PageCommand) => PageOutcome = () => ({ ok: true, detail: 'done' }) as PageOutcome) {
  const sent: PageCommand[] = []
  const send = (async (c: PageCommand) => {
    sent.push(c)
    return answer(c)
  }) as SendCommand
  return { sent, send }
}

const signal = new AbortController().signal
const sel = (raw: string) => parseSelector(raw)
const navigate = async () => undefined

describe('createChannelPort', () => {
  it('turns each step call into one act command with the selector as the page parses it', async () => {
    const { sent, send } = recorder()
    const port = createChannelPort(send, { navigate, timeoutMs: 4_000 })
    await port.click(sel('role:button[name="Save"]'), { button: 'left', count: 1 }, signal)
    await port.click(sel('#row'), { button: 'left', count: 2 }, signal)
    await port.fill(sel('#user'), 'alice', signal)
    await port.type(null, 'hi', { delayMs: 5 }, signal)
    await port.press('Enter', null, signal)
    await port.select(sel('#country'), ['FR', 'DE'], signal)
    await port.check(sel('#terms'), false, signal)
    await port.scroll(null, { direction: 'down', amount: 300 }, signal)
    await port.waitFor({ kind: 'text', text: 'Saved' }, 1_500, signal)
    expect(sent).toEqual([
      {
        kind: 'act',
        timeoutMs: 4_000,
        step: { action: 'click', target: { selectors: [sel('role:button[name="Save"]')] }, button: 'left', count: 1 },
      },
      {
        kind: 'act',
        timeoutMs: 4_000,
        step: { action: 'dblclick', target: { selectors: [sel('#row')] }, button: 'left', count: 2 },
      },
      {
        kind: 'act',
        timeoutMs: 4_000,
        step: { action: 'fill', target: { selectors: [sel('#user')] }, value: 'alice' },
      },
      { kind: 'act', timeoutMs: 4_000, step: { action: 'type', target: { focused: true }, value: 'hi', delayMs: 5 } },
      { kind: 'act', timeoutMs: 4_000, step: { action: 'press', key: 'Enter', target: undefined } },
      {
        kind: 'act',
        timeoutMs: 4_000,
        step: { action: 'select', target: { selectors: [sel('#country')] }, value: ['FR', 'DE'] },
      },
      { kind: 'act', timeoutMs: 4_000, step: { action: 'uncheck', target: { selectors: [sel('#terms')] } } },
      { kind: 'act', timeoutMs: 4_000, step: { action: 'scroll', target: undefined, direction: 'down', amount: 300 } },
      { kind: 'act', timeoutMs: 1_500, step: { action: 'wait', text: 'Saved' } },
    ])
  })

  it('returns what the page read: counts, text, attributes and the URL', async () => {
    const { send } = recorder((c) => {
      if (c.kind === 'count') return { ok: true, count: 3 }
      if (c.kind === 'url') return { ok: true, url: 'https://shop.test/cart' }
      if (c.kind === 'act' && c.step.action === 'getText') return { ok: true, detail: '', data: 'Total: 42' }
      if (c.kind === 'act' && c.step.action === 'getAttribute') return { ok: true, detail: '', data: null }
      throw new Error(`unexpected ${c.kind}`)
    })
    const port = createChannelPort(send, { navigate })
    expect(await port.query(sel('.item'), signal)).toBe(3)
    expect(await port.getUrl(signal)).toBe('https://shop.test/cart')
    expect(await port.getText(sel('#total'), signal)).toBe('Total: 42')
    expect(await port.getAttribute(sel('#total'), 'data-x', signal)).toBeNull()
  })

  it('throws the page’s own failure code, naming the candidates', async () => {
    const { send } = recorder(() => ({
      ok: false,
      code: 'ELEMENT_STALE',
      message: 'btn_3 is gone',
      candidates: [{ id: 'btn_4', label: 'Save', score: 0.8 }],
    }))
    const port = createChannelPort(send, { navigate })
    const e = await port.click(sel('#save'), { button: 'left', count: 1 }, signal).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(PortError)
    expect(e).toMatchObject({ code: 'ELEMENT_STALE', message: 'btn_3 is gone Candidates: Save (btn_4).' })
    const { send: timeout } = recorder(() => ({ ok: false, code: 'TIMEOUT', message: 'slow' }))
    await expect(createChannelPort(timeout, { navigate }).hover(sel('#m'), signal)).rejects.toMatchObject({
      code: 'TIMEOUT',
    })
    const { send: other } = recorder(() => ({
      ok: false,
      code: 'NOT_ACTIONABLE',
      message: 'disabled',
      reason: 'disabled',
    }))
    await expect(createChannelPort(other, { navigate }).hover(sel('#m'), signal)).rejects.toMatchObject({
      code: 'NOT_ACTIONABLE',
      message: 'disabled',
    })
  })

  it('sends nothing once the step is cancelled', async () => {
    const { sent, send } = recorder()
    const ctl = new AbortController()
    ctl.abort(new Error('stop'))
    await expect(
      createChannelPort(send, { navigate }).click(sel('#a'), { button: 'left', count: 1 }, ctl.signal),
    ).rejects.toThrow('stop')
    expect(sent).toEqual([])
  })

  it('leaves navigation and the main world to the carrier', async () => {
    const went: string[] = []
    const port = createChannelPort(recorder().send, { navigate: async (url) => void went.push(url) })
    await port.navigate('https://shop.test/login', signal)
    expect(went).toEqual(['https://shop.test/login'])
    expect(port.readGlobal).toBeUndefined()
    expect(port.runUserScript).toBeUndefined()
  })
})

describe('createChannelFlowPort', () => {
  it('sends a flow step as one command and returns the page’s outcome', async () => {
    const outcome = {
      ok: true as const,
      level: 'css' as const,
      alternative: 0,
      resolveMs: 3,
      actMs: 5,
      detail: 'Clicked',
    }
    const { sent, send } = recorder(() => ({ ok: true, outcome }))
    const step = { step_id: 1, action: 'click' as const, params: {} }
    const out = await createChannelFlowPort(send, { navigate }).runStep(
      step as never,
      { timeoutMs: 2_000, trusted: true },
      signal,
    )
    expect(out).toEqual(outcome)
    expect(sent).toEqual([{ kind: 'flow.step', step, timeoutMs: 2_000, trusted: true }])
  })

  it('reports a step that never reached a page as a failed step, not a throw', async () => {
    const { send } = recorder(() => ({ ok: false, code: 'TIMEOUT', message: 'The page did not answer' }))
    const out = await createChannelFlowPort(send, { navigate }).runStep(
      { step_id: 2, action: 'fill', params: {} } as never,
      { timeoutMs: 10 },
      signal,
    )
    expect(out).toEqual({
      ok: false,
      code: 'TIMEOUT',
      message: 'The page did not answer',
      candidates: [],
      resolveMs: 0,
      acted: false,
    })
  })
})

describe('createChannelPort with the agent’s guard', () => {
  /** A page whose "Delete account" button is risky: refused with NEEDS_CONFIRMATION until confirmed. */
  function riskyPage() {
    return recorder((c) => {
      if (c.kind === 'count') return { ok: true, count: 1 }
      if (c.kind !== 'act') return { ok: true } as PageOutcome
      const risky = fieldsOf(c.step).target?.selectors?.[0]?.raw === 'text:Delete account'
      if (risky && c.confirm?.includes('destructive') && !c.confirmed)
        return { ok: false, code: 'NEEDS_CONFIRMATION', message: '"Delete account" may delete something' }
      return { ok: true, detail: 'done' }
    })
  }
  function guardOf(answer: boolean, limit = Infinity) {
    const asked: string[] = []
    let used = 0
    const guard: StepGuard = {
      confirm: ['destructive', 'payment'],
      ask: async (reason) => {
        asked.push(reason)
        return answer
      },
      step: () => {
        if (used >= limit) throw new Error(`step limit ${limit}`)
        used++
      },
    }
    return { guard, asked, used: () => used }
  }

  it('sends every act with the categories to confirm, asks when the page refuses, and re-sends that one step confirmed', async () => {
    const { sent, send } = riskyPage()
    const { guard, asked } = guardOf(true)
    const port = createChannelPort(send, { navigate, guard, timeoutMs: 1_000 })
    await port.click(sel('text:Delete account'), { button: 'left', count: 1 }, signal)
    const step = { action: 'click', target: { selectors: [sel('text:Delete account')] }, button: 'left', count: 1 }
    expect(sent).toEqual([
      { kind: 'act', timeoutMs: 1_000, step, confirm: ['destructive', 'payment'] },
      { kind: 'act', timeoutMs: 1_000, step, confirm: ['destructive', 'payment'], confirmed: true },
    ])
    expect(asked).toEqual(['"Delete account" may delete something'])
  })

  it('fails the step as cancelled when the person says no, and sends nothing more through that port', async () => {
    const { sent, send } = riskyPage()
    const { guard, asked } = guardOf(false)
    const port = createChannelPort(send, { navigate, guard })
    const e = await port
      .click(sel('text:Delete account'), { button: 'left', count: 1 }, signal)
      .catch((x: unknown) => x)
    expect(e).toMatchObject({
      code: 'DENIED',
      message: 'You said no ("Delete account" may delete something); the action stopped before that step.',
    })
    await expect(port.click(sel('#other'), { button: 'left', count: 1 }, signal)).rejects.toBe(e)
    await expect(port.navigate('https://shop.test/', signal)).rejects.toBe(e)
    expect(sent.filter((c) => c.kind === 'act')).toHaveLength(1)
    expect(asked).toHaveLength(1)
  })

  it('counts each acting step and navigation, not reads and waits, and stops at the limit', async () => {
    const { sent, send } = riskyPage()
    const g = guardOf(true, 2)
    const went: string[] = []
    const port = createChannelPort(send, { navigate: async (url) => void went.push(url), guard: g.guard })
    await port.getText(sel('#total'), signal)
    await port.waitFor({ kind: 'text', text: 'Saved' }, 100, signal)
    await port.fill(sel('#q'), 'x', signal)
    await port.navigate('https://shop.test/a', signal)
    await expect(port.click(sel('#go'), { button: 'left', count: 1 }, signal)).rejects.toThrow('step limit 2')
    await expect(port.getText(sel('#total'), signal)).rejects.toThrow('step limit 2')
    expect(g.used()).toBe(2)
    expect(went).toEqual(['https://shop.test/a'])
    expect(sent.map((c) => (c.kind === 'act' ? c.step.action : c.kind))).toEqual(['getText', 'wait', 'fill'])
  })

  // A built-in-like pack: its declared risk is low, its trigger comes from the caller, and its
  // retry, fallback and `onError: continue` must not find another way past a refusal.
  const kPack = `namespace: ui
version: 1.0.0
actions:
  dialog:open:
    description: Open a dialog by its trigger text.
    risk: low
    params:
      trigger: { type: string, description: Trigger text, required: true }
    steps:
      - action: click
        retry: 2
        retryDelay: 1
        onError: continue
        args: { selector: "text:\${params.trigger}" }
        fallback:
          - action: click
            args: { selector: "css:#fallback" }
      - action: click
        args: { selector: "css:#after" }
  dialog:nested:
    description: Composes dialog:open.
    steps:
      - action: run
        args: { action: dialog:open, params: { trigger: "\${params.trigger}" } }
    params:
      trigger: { type: string, description: Trigger text, required: true }
`
  function engineWith(send: SendCommand, guard: StepGuard) {
    const registry = createRegistry()
    const loaded = registry.load([{ source: 'user', files: [{ path: 'ui.yaml', text: kPack }] }])
    expect(loaded.issues.filter((i) => i.severity === 'error')).toEqual([])
    return createEngine({ registry, port: createChannelPort(send, { navigate, guard }), sleep: async () => undefined })
  }

  it('a low-risk pack action (nested in `run` too) still asks before a risky click, and a no ends it', async () => {
    for (const name of ['ui:dialog:open', 'ui:dialog:nested']) {
      const { sent, send } = riskyPage()
      const g = guardOf(false)
      const r = await engineWith(send, g.guard).run(name, { trigger: 'Delete account' })
      expect(r.success).toBe(false)
      expect(g.asked).toEqual(['"Delete account" may delete something'])
      // One refused click; no retry, fallback or later step reached the page.
      expect(sent.filter((c) => c.kind === 'act')).toEqual([
        expect.objectContaining({
          step: expect.objectContaining({ action: 'click' }),
          confirm: ['destructive', 'payment'],
        }),
      ])
      expect(sent.some((c) => c.kind === 'act' && c.confirmed)).toBe(false)
    }
  })

  it('a yes runs the pack on, each of its steps counted', async () => {
    const { sent, send } = riskyPage()
    const g = guardOf(true)
    const r = await engineWith(send, g.guard).run('ui:dialog:nested', { trigger: 'Delete account' })
    expect(r.success).toBe(true)
    expect(
      sent
        .filter((c) => c.kind === 'act')
        .map((c) => [
          fieldsOf((c as PageCommand<'act'>).step).target?.selectors?.[0]?.raw,
          !!(c as PageCommand<'act'>).confirmed,
        ]),
    ).toEqual([
      ['text:Delete account', false],
      ['text:Delete account', true],
      ['css:#after', false],
    ])
    expect(g.used()).toBe(2)
  })
})

describe('a guarded port and other sites', () => {
  it('carries the site lists on every act, and opens the gate for a host the person allowed before the step goes again', async () => {
    const events: string[] = []
    let first = true
    const { sent, send } = recorder((c) => {
      if (c.kind === 'act' && first) {
        first = false
        return { ok: false, code: 'NEEDS_CONFIRMATION', message: 'goes to evil.test', offsite: 'evil.test' }
      }
      events.push(`sent confirmed=${c.kind === 'act' && !!c.confirmed}`)
      return { ok: true, detail: 'Clicked' } as PageOutcome
    })
    const sites = { allow: [], deny: ['blocked.test'] }
    const port = createChannelPort(send, {
      navigate,
      guard: {
        confirm: ['cross_site'],
        sites,
        ask: async () => (events.push('asked'), true),
        allowed: async (refusal) => void events.push(`allowed ${refusal.offsite}`),
        step: () => undefined,
      },
    })
    await port.click(sel('a.partner'), { button: 'left', count: 1 }, signal)
    expect(events).toEqual(['asked', 'allowed evil.test', 'sent confirmed=true'])
    expect(sent.map((c) => c.kind === 'act' && c.sites)).toEqual([sites, sites])
  })
})

describe('a guarded flow port', () => {
  const needs = {
    ok: false as const,
    code: 'NEEDS_CONFIRMATION' as const,
    message: '"Delete all" deletes',
    candidates: [],
    resolveMs: 2,
    acted: false,
  }
  const done = { ok: true as const, level: 'css' as const, alternative: 0, resolveMs: 1, actMs: 1, detail: 'Clicked' }
  const click = { step_id: 4, action: 'click' as const, params: {} }

  function guarded(answer: boolean, limit = Infinity) {
    const asked: string[] = []
    let used = 0
    const guard = {
      confirm: ['destructive' as const],
      sites: { allow: [], deny: [] },
      ask: async (reason: string) => (asked.push(reason), answer),
      step: () => {
        if (++used > limit) throw new Error('The replay reached the step limit (1)')
      },
    }
    return { guard, asked }
  }

  it('asks before a step the page refused and sends it again only with a yes', async () => {
    const { sent, send } = recorder((c) => ({
      ok: true,
      outcome: c.kind === 'flow.step' && c.confirmed ? done : needs,
    }))
    const { guard, asked } = guarded(true)
    const out = await createChannelFlowPort(send, { navigate, guard }).runStep(
      click as never,
      { timeoutMs: 1_000 },
      signal,
    )
    expect(out).toEqual(done)
    expect(asked).toEqual(['"Delete all" deletes'])
    expect(sent.map((c) => c.kind === 'flow.step' && [c.confirm, !!c.confirmed])).toEqual([
      [['destructive'], false],
      [['destructive'], true],
    ])
  })

  it('stops the replay at a no, and at the step limit before anything is sent', async () => {
    const { sent, send } = recorder(() => ({ ok: true, outcome: needs }))
    const no = await createChannelFlowPort(send, { navigate, guard: guarded(false).guard }).runStep(
      click as never,
      { timeoutMs: 1_000 },
      signal,
    )
    expect(no).toMatchObject({ ok: false, code: 'DENIED', acted: false })
    expect(sent).toHaveLength(1)
    const fine = recorder(() => ({ ok: true, outcome: done }))
    const port = createChannelFlowPort(fine.send, { navigate, guard: guarded(true, 1).guard })
    await port.runStep({ step_id: 1, action: 'wait', params: {} } as never, { timeoutMs: 10 }, signal) // a wait is not counted
    await port.runStep({ step_id: 2, action: 'fill', params: {} } as never, { timeoutMs: 10 }, signal)
    const over = await port.runStep({ step_id: 3, action: 'fill', params: {} } as never, { timeoutMs: 10 }, signal)
    expect(over).toMatchObject({ ok: false, code: 'CANCELLED', message: expect.stringContaining('step limit') })
    expect(fine.sent.map((c) => c.kind === 'flow.step' && c.step.step_id)).toEqual([1, 2])
  })
})

describe('a pack’s or a flow’s navigate step passes the off-site gate', () => {
  const gate = (answer: boolean) => {
    const asked: string[] = []
    const allowed: string[] = []
    const guard: StepGuard = {
      confirm: ['cross_site'],
      sites: { allow: [], deny: ['bank.test'] },
      here: async () => 'https://shop.test/cart',
      ask: async (r) => (asked.push(r), answer),
      allowed: async (f) => void allowed.push(f.offsite!),
      step: () => undefined,
    }
    return { guard, asked, allowed }
  }

  it('refuses a blocked site and asks before another one, for the registry port and the flow port alike', async () => {
    for (const make of ['port', 'flow'] as const) {
      const went: string[] = []
      const nav = async (url: string) => void went.push(url)
      const { sent, send } = recorder()
      const open = (g: StepGuard) =>
        make === 'port'
          ? createChannelPort(send, { navigate: nav, guard: g })
          : createChannelFlowPort(send, { navigate: nav, guard: g })
      await expect(open(gate(true).guard).navigate('https://bank.test/?q=1', signal)).rejects.toThrow(
        /bank\.test is not allowed/,
      )
      // A pack's step ends on the gate's own code: BLOCKED for a listed site, DENIED for a no.
      if (make === 'port')
        await expect(open(gate(true).guard).navigate('https://bank.test/', signal)).rejects.toMatchObject({
          code: 'BLOCKED',
        })
      if (make === 'port')
        await expect(open(gate(false).guard).navigate('https://other.test/', signal)).rejects.toMatchObject({
          code: 'DENIED',
        })
      const no = gate(false)
      await expect(open(no.guard).navigate('https://other.test/', signal)).rejects.toThrow(/You said no/)
      expect(no.asked).toEqual([expect.stringContaining('other.test')])
      const yes = gate(true)
      await open(yes.guard).navigate('https://other.test/', signal)
      await open(yes.guard).navigate('/orders', signal) // the same site goes without a question
      expect(yes.allowed).toEqual(['other.test'])
      expect(went).toEqual(['https://other.test/', '/orders'])
      expect(sent).toEqual([]) // the carrier knows where the page is: the page is not asked
    }
  })
})

describe('what only the carrier reads', () => {
  it('refuses a global path that reaches outside plain data before the carrier is asked, whoever carries', async () => {
    const read: string[][] = []
    const port = createChannelPort(recorder().send, {
      navigate,
      readGlobal: async (path) => (read.push(path), '2.4.0'),
    })
    expect(await port.readGlobal!(['ElementPlus', 'version'], signal)).toBe('2.4.0')
    await expect(port.readGlobal!(['ElementPlus', '__proto__', 'x'], signal)).rejects.toThrow(/outside plain data/)
    await expect(port.readGlobal!(['constructor'], signal)).rejects.toThrow(PortError)
    expect(read).toEqual([['ElementPlus', 'version']])
  })
})
