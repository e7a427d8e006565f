import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { replayFlow, type Flow } from '../../src/core/flows'
import {
  fillAndSave,
  pagePort,
  startFlowHarness,
  startRecorder,
  state,
  stopRecorder,
  type FlowHarness,
} from './harness'

// Record on the component fixture app's plain page by driving it with mouse and keyboard, then
// replay in real Chromium against the page as shipped and its variants (pages.ts).

let h: FlowHarness
let recorded: Flow

beforeAll(async () => {
  h = await startFlowHarness()
  const page = await h.open('/plain.html')
  await startRecorder(page)
  await fillAndSave(page)
  recorded = (await stopRecorder(page, 'Fill the signup form')).flow
  await page.close()
})
afterAll(() => h.close())

describe('recording the plain page', () => {
  test('noise is dropped: focus clicks and keystrokes merge into fills, the select and box are their own steps', () => {
    expect(recorded.steps.map((s) => s.action)).toEqual(['fill', 'fill', 'select', 'check', 'click'])
    expect(recorded.steps[2].params.value).toBe('jp')
    expect(Object.entries(recorded.variables)).toEqual([
      ['user_name', { value: 'alice', description: 'User name' }],
      ['email', { value: 'alice@example.com', description: 'Email' }],
    ])
  })

  test('selectors are in order of resilience, each unique, ids and positions last', () => {
    const save = recorded.steps[4].selectors!
    expect(save.primary).toEqual({ type: 'role', value: 'role:button[name="Save"]' })
    expect(save.fallback.map((s) => s.type)).toEqual(['text', 'id', 'css', 'xpath', 'index'])
    expect(recorded.steps[0].selectors!.primary).toEqual({ type: 'role', value: 'role:textbox[name="User name"]' })
    expect(recorded.steps[0].selectors!.fallback.map((s) => s.type)).toContain('label')
    expect(recorded.steps[1].selectors!.fallback[0]).toEqual({
      type: 'placeholder',
      value: 'css:input[placeholder="Email"]',
    })
    expect(recorded.steps[4].element_snapshot).toMatchObject({
      tag: 'button',
      role: 'button',
      text: 'Save',
      attributes: { type: 'button' },
    })
  })
})

describe('replay', () => {
  test('on the page as recorded: every step by its primary selector', async () => {
    const page = await h.open('/plain.html')
    const r = await replayFlow(recorded, { navigateToStart: false, port: pagePort(page) })
    expect(r.error).toBeUndefined()
    expect(r.steps.map((s) => [s.level, s.alternative])).toEqual([
      ['role', 0],
      ['role', 0],
      ['role', 0],
      ['role', 0],
      ['role', 0],
    ])
    expect(await state(page)).toMatchObject({
      user: 'alice',
      email: 'alice@example.com',
      country: 'jp',
      subscribe: true,
      saved: 1,
    })
  })

  test('after a redesign (ids regenerated, classes renamed, a wrapper, Save moved): passes; the id and path selectors it no longer needs are dead', async () => {
    const page = await h.open('/plain-redesigned.html')
    const r = await replayFlow(recorded, {
      navigateToStart: false,
      port: pagePort(page),
      variables: { params: { user_name: 'bob' } },
    })
    expect(r.success).toBe(true)
    expect(r.steps.every((s) => s.level === 'role')).toBe(true)
    expect(await state(page)).toMatchObject({ user: 'bob', country: 'jp', subscribe: true, saved: 1 })
    // What a recorder of ids and CSS paths would have used matches nothing any more.
    const save = recorded.steps[4].selectors!.fallback.filter(
      (s) => s.type === 'id' || s.type === 'css' || s.type === 'xpath',
    )
    expect(save).toHaveLength(3)
    for (const s of save) {
      const n = await page.evaluate(async (sel) => {
        const r = await (window as any).__avaFlows.resolveTarget({ primary: sel, fallback: [] }, undefined, {
          timeoutMs: 0,
        })
        return r.ok ? 1 : 0
      }, s)
      expect(n, s.value).toBe(0)
    }
  })

  test('a primary that broke falls back, reports the level, and proposes the change as a diff', async () => {
    const page = await h.open('/plain.html')
    // The app shipped a test id, recorded as the primary; the next release renamed it.
    await page.evaluate(() => document.querySelector('#save')!.setAttribute('data-testid', 'save-v2'))
    const flow: Flow = {
      ...recorded,
      steps: [
        {
          ...recorded.steps[4],
          step_id: 1,
          selectors: {
            primary: { type: 'testid', value: 'testid:save-button' },
            fallback: recorded.steps[4].selectors!.fallback,
          },
        },
      ],
    }
    const r = await replayFlow(flow, { navigateToStart: false, port: pagePort(page) })
    expect(r.success).toBe(true)
    expect(r.steps[0]).toMatchObject({ level: 'text', alternative: 1, healed: 'fallback' })
    expect(r.heals).toHaveLength(1)
    expect(r.heals[0].after.primary).toEqual({ type: 'testid', value: 'testid:save-v2' })
    expect(r.heals[0].diff).toContain('- testid testid:save-button')
    expect(r.heals[0].diff).toContain('+ testid testid:save-v2')
    expect(r.stats.steps['1']).toEqual({ runs: 1, heals: 1, recent: [true] })
    expect((await state(page)).saved).toBe(1)
  })

  test('two identical Save buttons: the step fails as AMBIGUOUS with both candidates, and neither is clicked', async () => {
    const page = await h.open('/plain-ambiguous.html')
    const flow: Flow = { ...recorded, steps: [{ ...recorded.steps[4], step_id: 1 }] }
    const r = await replayFlow(flow, { navigateToStart: false, port: pagePort(page) })
    expect(r.success).toBe(false)
    expect(r.error).toMatchObject({ step_id: 1, code: 'AMBIGUOUS' })
    expect(r.error!.candidates).toHaveLength(2)
    expect(r.error!.candidates.every((c) => c.label === 'Save')).toBe(true)
    expect((await state(page)).saved).toBe(0)
  })

  test('a selector that now finds a different element (Save became Delete) is refused as NOT_SIMILAR', async () => {
    const page = await h.open('/plain.html')
    await page.evaluate(() => (document.querySelector('#save')!.textContent = 'Delete account'))
    const flow: Flow = { ...recorded, steps: [{ ...recorded.steps[4], step_id: 1 }] }
    const r = await replayFlow(flow, { navigateToStart: false, port: pagePort(page), stepTimeoutMs: 300 })
    expect(r.error).toMatchObject({ code: 'NOT_SIMILAR' })
    expect((await state(page)).saved).toBe(0)
  })

  test('a removed target fails within the step timeout, listing look-alikes; a repair is used once and proposed', async () => {
    const page = await h.open('/plain-without-save.html')
    const flow: Flow = { ...recorded, steps: [{ ...recorded.steps[4], step_id: 1 }] }
    const failed = await replayFlow(flow, { navigateToStart: false, port: pagePort(page), stepTimeoutMs: 300 })
    // The XPath now reaches the Locked button, which does not look like Save: refused, not clicked.
    expect(failed.error?.code).toBe('NOT_SIMILAR')
    expect(failed.error!.candidates.map((c) => c.label)).toContain('Locked')
    expect(failed.error!.candidates.map((c) => c.label)).toContain('Double me')
    expect(failed.steps[0].durationMs).toBeLessThan(1_500)
    // The agent's repair picks "Double me" by its selector: used once, proposed, never saved by itself.
    const repaired = await replayFlow(flow, {
      navigateToStart: false,
      port: pagePort(page),
      stepTimeoutMs: 300,
      repair: async ({ failure }) => ({
        type: 'role',
        value: failure.candidates.find((c) => c.label === 'Double me')?.selector ?? 'role:button[name="Double me"]',
      }),
    })
    expect(repaired.steps[0]).toMatchObject({ status: 'ok', healed: 'repair', alternative: -1 })
    expect(repaired.heals[0].kind).toBe('repair')
  })
})
