// @vitest-environment happy-dom
import { beforeEach, describe, expect, test } from 'vitest'
import { generateSelectors, isGeneratedId, isTransientClass, snapshotOf } from '../../src/dom/recorder'
import { similarity, textSimilarity } from '../../src/core/flows'

// Selector generation where happy-dom is faithful (attributes, labels, roles, ids, classes);
// layout-dependent behaviour is covered in real Chromium (e2e/flows).

beforeEach(() => {
  document.body.innerHTML = `
    <form id="signup">
      <label for="el-id-1024-3">User name</label><input id="el-id-1024-3" name="user">
      <input type="email" placeholder="Email">
      <div class="card is-focus ant-select-open css-1x2y3z"><button type="button" data-testid="save-btn" class="btn primary is-active">Save</button></div>
      <span id="hint">Saved</span>
    </form>`
})

describe('selector generation', () => {
  test('order of resilience: test id, role, text, then css and index; generated ids skipped', () => {
    const save = generateSelectors(document.querySelector('button')!)!
    // happy-dom has no XPath evaluator, so the xpath level is checked in Chromium (e2e/flows/replay.test.ts).
    expect([save.primary, ...save.fallback].map((s) => s.type)).toEqual(['testid', 'role', 'text', 'css', 'index'])
    expect(save.primary.value).toBe('testid:save-btn')
    const user = generateSelectors(document.querySelector('input[name=user]')!)!
    const types = [user.primary, ...user.fallback].map((s) => s.type)
    expect(types).not.toContain('id')
    expect(user.fallback.find((s) => s.type === 'css')!.value).toBe('css:input[name="user"]')
  })

  test('transient state classes never reach a CSS path', () => {
    const all = [...Object.values(generateSelectors(document.querySelector('button')!)!.fallback)]
      .map((s) => s.value)
      .join(' ')
    expect(all).not.toMatch(/is-active|is-focus|ant-select-open|css-1x2y3z/)
  })

  test('a stable id is used when nothing semantic is unique', () => {
    document.body.innerHTML = '<div id="toolbar"><i id="refresh-icon"></i><i></i></div>'
    const sel = generateSelectors(document.querySelector('#refresh-icon')!)!
    expect(sel.primary).toEqual({ type: 'id', value: 'css:#refresh-icon' })
  })

  test('generated-looking ids and transient classes', () => {
    for (const id of [
      'el-id-1024-3',
      ':r3:',
      'rc_select_0',
      'mui-123',
      'f-8d2k1x',
      '3f2a1c9e-aaaa-bbbb',
      'ember42x9',
      'input-17',
    ])
      expect(isGeneratedId(id), id).toBe(true)
    for (const id of ['user', 'save', 'next-link', 'signup', 'h1-title', 'late-btn'])
      expect(isGeneratedId(id), id).toBe(false)
    for (const c of ['is-focus', 'ant-select-open', 'el-select--focus', 'ng-touched', 'fade-enter-active', 'active'])
      expect(isTransientClass(c), c).toBe(true)
    for (const c of ['btn', 'primary', 'el-button', 'ant-btn-primary', 'card'])
      expect(isTransientClass(c), c).toBe(false)
  })

  test('snapshots keep tag, role, name and key attributes only', () => {
    expect(snapshotOf(document.querySelector('button')!)).toEqual({
      tag: 'button',
      role: 'button',
      text: 'Save',
      attributes: { type: 'button', 'data-testid': 'save-btn' },
    })
  })
})

describe('similarity', () => {
  const save = { tag: 'button', role: 'button', text: 'Save', attributes: { type: 'button' } }
  test('the same control after a redesign is similar; another label or role is not', () => {
    expect(similarity(save, { ...save, attributes: { type: 'button', title: 'Save' } }).score).toBeGreaterThan(0.8)
    expect(similarity(save, { ...save, text: 'Save changes' }).score).toBeGreaterThanOrEqual(0.6)
    expect(similarity(save, { ...save, text: 'Delete account' }).score).toBeLessThan(0.6)
    expect(similarity(save, { tag: 'a', role: 'link', text: 'Save', attributes: {} }).score).toBeLessThan(0.6)
    expect(textSimilarity('提交订单', '提交')).toBeGreaterThan(0.4)
  })
})
