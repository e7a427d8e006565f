// The page channel's translations in core (src/core/page/command.ts): every instruction type of
// the planner becomes the DOM action the page runs, and only steps that may navigate count a
// document going away under them as success.
import { fieldsOf } from '../../../src/core/vocabulary'
import { describe, expect, it } from 'vitest'
import { actionOf, mayNavigate, navigatedOutcome, type PageCommand } from '../../../src/core/page/command'
import type { Instruction } from '../../../src/core/instruction/schema'
import { parseSelector } from '../../../src/core/page/selectors'

const ins = (action_type: Instruction['action_type'], params: Instruction['params'] = {}): Instruction => ({
  step_id: 1,
  action_type,
  params,
})

describe('actionOf', () => {
  it.each([
    [
      ins('click', { target_id: 'btn_save' }),
      { action: 'click', target: { targetId: 'btn_save', selectors: undefined, semantic: undefined } },
    ],
    [
      ins('input', { fallback_selector: '#user', value: 'alice' }),
      {
        action: 'fill',
        target: { targetId: undefined, selectors: [parseSelector('#user')], semantic: undefined },
        value: 'alice',
      },
    ],
    [
      ins('select', { semantic_locator: 'the country list', value: 'France' }),
      {
        action: 'select',
        target: { targetId: undefined, selectors: undefined, semantic: 'the country list' },
        value: 'France',
      },
    ],
    [
      ins('hover', { target_id: 'menu_file' }),
      { action: 'hover', target: { targetId: 'menu_file', selectors: undefined, semantic: undefined } },
    ],
    [ins('press', { key: 'Enter' }), { action: 'press', key: 'Enter', target: { focused: true } }],
    [ins('scroll', { direction: 'down' }), { action: 'scroll', direction: 'down', target: undefined }],
    [
      ins('wait', { selector: '.done' }),
      {
        action: 'wait',
        target: { targetId: undefined, semantic: undefined, selectors: [parseSelector('.done')] },
        state: 'visible',
      },
    ],
    [ins('verify', { assertion: 'shows "Welcome"' }), { action: 'verify', assertion: 'shows "Welcome"' }],
    [ins('navigate', { url: '/orders' }), { action: 'navigate', value: '/orders' }],
  ])('maps %j', (instruction, expected) => {
    expect(actionOf(instruction)).toEqual(expected)
  })

  it('gives the agent its own types back: run_action and done are not page actions', () => {
    expect(actionOf(ins('run_action', { action: 'common:auth:login' }))).toBeNull()
    expect(actionOf(ins('done', { answer: 'ok' }))).toBeNull()
  })

  it('parses selector text once, in core, and keeps the reason a selector was refused for the page to report', () => {
    const step = actionOf(ins('click', { fallback_selector: 'role:button[name="Save"]', semantic_locator: 'Save' }))
    expect(fieldsOf(step!).target?.selectors).toEqual(
      [{ kind: 'role', role: 'button', exact: false, raw: 'role:button[name="Save"]', name: 'Save' }].map((x) =>
        expect.objectContaining({ kind: x.kind, raw: x.raw }),
      ),
    )
    const bad = actionOf(ins('click', { fallback_selector: 'css:button[', semantic_locator: 'Save' }))
    expect(fieldsOf(bad!).target).toMatchObject({
      selectors: [],
      semantic: 'Save',
      invalid: [expect.stringContaining('Invalid selector "css:button["')],
    })
  })

  it('keeps a click without any target as a click that the page will fail to locate, not a page-wide click', () => {
    expect(actionOf(ins('click'))).toEqual({ action: 'click', target: {} })
  })
})

describe('mayNavigate and navigatedOutcome', () => {
  const act = (action: 'click' | 'fill' | 'press' | 'getText'): PageCommand<'act'> => ({
    kind: 'act',
    step: { action, target: { targetId: 'x' } } as PageCommand<'act'>['step'],
    timeoutMs: 1000,
  })

  it('counts a document going away as success only for steps that can navigate it', () => {
    expect(mayNavigate(act('click'))).toBe(true)
    expect(mayNavigate(act('press'))).toBe(true)
    expect(mayNavigate(act('fill'))).toBe(false)
    expect(mayNavigate(act('getText'))).toBe(false)
    expect(mayNavigate({ kind: 'read' })).toBe(false)
    expect(
      mayNavigate({ kind: 'flow.step', step: { step_id: 1, action: 'click', params: {} } as never, timeoutMs: 1 }),
    ).toBe(true)
    expect(
      mayNavigate({ kind: 'flow.step', step: { step_id: 1, action: 'fill', params: {} } as never, timeoutMs: 1 }),
    ).toBe(false)
  })

  it('answers in the shape of the command that was cut off', () => {
    expect(navigatedOutcome(act('click'))).toMatchObject({ ok: true, navigating: true })
    expect(
      navigatedOutcome({ kind: 'flow.step', step: { step_id: 1, action: 'press', params: {} } as never, timeoutMs: 1 }),
    ).toMatchObject({ ok: true, outcome: { ok: true, level: null } })
    expect(navigatedOutcome(act('fill'))).toBeNull()
  })
})
