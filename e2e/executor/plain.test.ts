/**
 * Plain HTML, controlled inputs, shadow DOM and same-origin frames: every action
 * with its effect in `window.__state`, the two-"删除" ambiguity, disabled, obscured, forced and
 * no-effect clicks, keys with `${modifier}`, scrolling, waits and keyword verification.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { exec, okOf, run, startHarness, state, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

describe('plain HTML', () => {
  test('fill, type, textarea, native selects, checkbox, radio, contenteditable', async () => {
    const page = await h.open('/plain.html')
    okOf(await exec(page, { action_type: 'input', params: { semantic_locator: 'user name input', value: 'bob' } }))
    okOf(await run(page, { action: 'type', target: { semantic: 'Email' }, value: 'b@x.io' }))
    okOf(
      await run(page, {
        action: 'fill',
        target: { selectors: ['css:#missing', 'role:textbox[name="Comment"]'] },
        value: 'hi',
      }),
    )
    okOf(await exec(page, { action_type: 'select', params: { semantic_locator: 'Country dropdown', value: 'Japan' } }))
    okOf(await run(page, { action: 'select', target: { semantic: 'Languages' }, value: ['English', 'de'] }))
    okOf(await run(page, { action: 'check', target: { semantic: 'Subscribe to news checkbox' } }))
    okOf(await run(page, { action: 'check', target: { semantic: 'Pro' } }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Notes' }, value: 'memo' }))
    const s = await state(page)
    expect(s).toMatchObject({
      user: 'bob',
      email: 'b@x.io',
      comment: 'hi',
      country: 'jp',
      langs: ['en', 'de'],
      subscribe: true,
      plan: 'pro',
      notes: 'memo',
    })
    // `type` sends one key press per character.
    expect(s.keys).toEqual(['b', '@', 'x', '.', 'i', 'o'])
  })

  test('the ladder records its rung: selector fallbacks in order, then the description', async () => {
    const page = await h.open('/plain.html')
    const bySelector = okOf(
      await run(page, { action: 'click', target: { selectors: ['css:#nope', 'text:"Save"'], semantic: 'Save' } }),
    )
    expect(bySelector.rung).toBe('selector')
    const bySemantic = okOf(
      await exec(page, {
        action_type: 'click',
        params: { fallback_selector: '#wrong-guess', semantic_locator: 'Save button' },
      }),
    )
    expect(bySemantic.rung).toBe('semantic')
    expect((await state(page)).saved).toBe(2)
  })

  test('two "删除" buttons and "click 删除" fail as AMBIGUOUS with both candidates; nothing is deleted', async () => {
    const page = await h.open('/plain.html')
    const out = await exec(page, { action_type: 'click', params: { semantic_locator: '删除' } })
    expect(out.ok).toBe(false)
    if (out.ok) return
    expect(out.code).toBe('AMBIGUOUS')
    expect(out.candidates!.map((c) => [c.id, c.label])).toEqual([
      ['css:#items > li:nth-of-type(1) > button', '删除'],
      ['css:#items > li:nth-of-type(2) > button', '删除'],
    ])
    expect((await state(page)).deleted).toEqual([])
    // A candidate id is a selector the AI fallback can send back.
    okOf(await run(page, { action: 'click', target: { selectors: [out.candidates![1].id] } }))
    expect((await state(page)).deleted).toEqual(['B'])
  })

  test('disabled, covered, invisible and dead targets are reported as such', async () => {
    const page = await h.open('/plain.html')
    const locked = await run(page, { action: 'click', target: { semantic: 'Locked' } }, 300)
    expect(locked.ok || [locked.code, locked.reason]).toEqual(['NOT_ACTIONABLE', 'disabled'])
    okOf(await run(page, { action: 'click', target: { semantic: 'Show mask' } }))
    const covered = await run(page, { action: 'click', target: { semantic: 'Behind mask' } }, 300)
    expect(covered.ok || covered.message).toContain('covered by div.modal-mask')
    const forced = okOf(await run(page, { action: 'click', target: { selectors: ['#ghost'] } }))
    expect(forced.forced).toBe(true)
    expect(forced.detail).toMatch(/forced/)
    const s = await state(page)
    expect([s.locked, s.behind, s.ghost]).toEqual([0, 0, 1])
  })

  test('a click that changes nothing is a failure, not a success', async () => {
    const page = await h.open('/plain.html')
    // The page mounts a late button after 600 ms; that unrelated change must be over first.
    await page.waitForSelector('#late-btn')
    const out = await run(page, { action: 'click', target: { semantic: 'Dead control' } })
    expect(out.ok || [out.code, out.reason]).toEqual(['NOT_ACTIONABLE', 'no-effect'])
  })

  test('double click, hover, link with URL change, late-mounted element, submit', async () => {
    const page = await h.open('/plain.html')
    okOf(await run(page, { action: 'dblclick', target: { semantic: 'Double me' } }))
    okOf(await exec(page, { action_type: 'hover', params: { semantic_locator: 'Products' } }))
    const link = okOf(await run(page, { action: 'click', target: { selectors: ['role:link[name="Next page"]'] } }))
    expect(link.changes).toMatchObject({ urlChanged: true, newUrl: expect.stringMatching(/#next$/) })
    const late = okOf(await exec(page, { action_type: 'click', params: { semantic_locator: 'Late button' } }))
    expect(late.detail, JSON.stringify(late)).toBe('Clicked "Late button"')
    okOf(await run(page, { action: 'submit', target: { selectors: ['#user'] } }))
    const s = await state(page)
    expect([s.dbl, s.hovered, s.late, s.submitted]).toEqual([1, 1, 1, 1])
  })

  test('press with ${modifier}, scroll the page and a scroll container, wait and verify', async () => {
    const page = await h.open('/plain.html')
    okOf(await exec(page, { action_type: 'press', params: { key: '${modifier}+k' } }))
    okOf(await run(page, { action: 'press', key: 'Shift+Tab' }))
    expect((await state(page)).keys).toEqual(['Control+k', 'Shift+Tab'])
    okOf(await exec(page, { action_type: 'scroll', params: { direction: 'bottom' } }))
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000)
    okOf(await exec(page, { action_type: 'scroll', params: { direction: 'top' } }))
    expect(await page.evaluate(() => scrollY)).toBe(0)
    okOf(await run(page, { action: 'scroll', direction: 'down', target: { selectors: ['#log'] } }))
    expect(await page.evaluate(() => document.querySelector('#log')!.scrollTop)).toBeGreaterThan(0)
    okOf(await exec(page, { action_type: 'scroll', params: { semantic_locator: 'Bottom button' } }))
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000)
    okOf(await exec(page, { action_type: 'wait', params: { selector: '#late-btn' } }))
    okOf(await run(page, { action: 'wait', target: { selectors: ['.modal-mask.on'] }, state: 'detached' }))
    okOf(await run(page, { action: 'wait', url: '*plain.html' }))
    okOf(await run(page, { action: 'wait' }))
    const miss = await exec(
      page,
      { action_type: 'verify', params: { assertion: 'shows "Products" and "Nowhere"' } },
      200,
    )
    expect(miss.ok || miss.message).toBe('Not on the page: "Nowhere" (found "Products").')
    const late = await exec(page, { action_type: 'wait', params: { selector: '#never' } }, 200)
    expect(late.ok || late.code).toBe('TIMEOUT')
  })
})

describe('navigation and focus', () => {
  test('navigate opens http(s) URLs and refuses others; focus moves the focus', async () => {
    const page = await h.open('/plain.html')
    const focus = okOf(await run(page, { action: 'focus', target: { semantic: 'Email' } }))
    expect(focus.changes!.focusChanged).toBe(true)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email')
    const bad = await run(page, { action: 'navigate', value: 'javascript:alert(1)' })
    expect(bad.ok || bad.code).toBe('INVALID')
    const go = okOf(await exec(page, { action_type: 'navigate', params: { url: '/shadow.html' } }))
    expect(go.navigating).toBe(true)
    await page.waitForURL('**/shadow.html')
    expect(await page.title()).toBe('Shadow DOM')
  })
})

describe('controlled inputs', () => {
  test('React-style tracked value and Vue v-model keep what was typed; a value the page rejects fails', async () => {
    const page = await h.open('/controlled.html')
    okOf(await run(page, { action: 'fill', target: { semantic: 'React name' }, value: 'Ann' }))
    okOf(await run(page, { action: 'type', target: { semantic: 'Vue name' }, value: 'Bo' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Vue bio' }, value: 'x\ny' }))
    const digits = await run(page, { action: 'fill', target: { semantic: 'Digits only' }, value: '12ab' })
    expect(digits.ok || [digits.code, digits.reason]).toEqual(['NOT_ACTIONABLE', 'value-rejected'])
    okOf(await run(page, { action: 'fill', target: { semantic: 'Search box' }, value: 'abc' }))
    okOf(await run(page, { action: 'press', key: 'Enter' }))
    const s = await state(page)
    expect(s).toEqual({
      react: { name: 'Ann' },
      vue: { name: 'Bo', bio: 'x\ny', digits: '12', search: 'abc', searched: 'abc' },
    })
    // The bug this guards against: writing `el.value` directly is undone by React's tracker.
    const naive = await page.evaluate(() => {
      const el = document.querySelector<HTMLInputElement>('#react-name')!
      el.value = 'Zed'
      el.dispatchEvent(new Event('input', { bubbles: true }))
      return el.value
    })
    expect(naive).toBe('Ann')
  })
})

describe('shadow DOM and frames', () => {
  test('targets inside open shadow roots, nested ones too', async () => {
    const page = await h.open('/shadow.html')
    okOf(await run(page, { action: 'fill', target: { semantic: 'Shadow name' }, value: 'Sam' }))
    okOf(await run(page, { action: 'click', target: { selectors: ['role:button[name="Shadow save"]'] } }))
    okOf(await run(page, { action: 'click', target: { selectors: ['testid:inner-btn'] } }))
    expect(await state(page)).toEqual({ shadowName: 'Sam', saved: 1, innerClicks: 1 })
  })

  test('targets inside a same-origin iframe', async () => {
    const page = await h.open('/iframe.html')
    await page.waitForFunction(() => document.querySelector('iframe')?.contentDocument?.querySelector('#fname'))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Frame name' }, value: 'Fay' }))
    okOf(await run(page, { action: 'click', target: { selectors: ['text:"Frame save"'] } }))
    expect(await state(page)).toEqual({ frameName: 'Fay', frameSaved: 1 })
  })
})
