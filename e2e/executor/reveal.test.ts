/**
 * Targets a person must move to first: row actions and card tools shown only on
 * CSS :hover or a script's mouseenter, hover menus of Element Plus and Ant Design Vue, switches in
 * closed collapsibles, and an item that loads only after scrolling an infinite list. The page's
 * own handlers record what was clicked.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { exec, okOf, run, startHarness, state, type Harness } from './harness'

/**
 * Step timeout for targets found only after a reveal: the ladder looks for the whole wait before
 * its miss path hovers or scrolls, and the click after it needs time for the menu's animation.
 */
const kRevealMs = 3_000

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

describe('hover-revealed controls', () => {
  test('a CSS-only row action is clicked after hovering its row, and only that row', async () => {
    const page = await h.open('/reveal.html')
    const out = okOf(await run(page, { action: 'click', target: { semantic: 'the Delete button for Bob' } }, kRevealMs))
    expect(out.forced).toBeFalsy()
    expect((await state(page)).acts).toEqual(['delete:Bob'])
    // The emulated hover is gone again: nothing of Ava's stays in the page.
    expect(
      await page.evaluate(
        () => document.querySelectorAll('[data-ava-hover]').length + document.adoptedStyleSheets.length,
      ),
    ).toBe(0)
  })

  test('a hidden action in every row is AMBIGUOUS, never the first row', async () => {
    const page = await h.open('/reveal.html')
    const out = await run(page, { action: 'click', target: { semantic: 'Delete button' } }, kRevealMs)
    expect(out.ok || out.code).toBe('AMBIGUOUS')
    expect(out.ok ? 0 : out.candidates!.length).toBeGreaterThanOrEqual(3)
    expect((await state(page)).acts).toEqual([])
  })

  test('a row action found by selector is hovered into view, not forced', async () => {
    const page = await h.open('/reveal.html')
    const out = okOf(
      await run(page, { action: 'click', target: { selectors: ['css:tr:nth-child(3) button:first-child'] } }),
    )
    expect(out.forced).toBeFalsy()
    expect((await state(page)).acts).toEqual(['edit:Carol'])
  })

  test('opacity:0 card tools and a card whose script shows its menu on mouseenter', async () => {
    const page = await h.open('/reveal.html')
    expect(okOf(await run(page, { action: 'click', target: { semantic: 'Share' } }, kRevealMs)).forced).toBeFalsy()
    expect(okOf(await run(page, { action: 'click', target: { semantic: 'Archive' } }, kRevealMs)).forced).toBeFalsy()
    expect((await state(page)).acts).toEqual(['share:report', 'archive:draft'])
  })

  test('Element Plus el-dropdown trigger="hover": an item picked by name only, and by "in the menu"', async () => {
    const page = await h.open('/reveal-ep.html')
    okOf(await exec(page, { action_type: 'click', params: { semantic_locator: '打印' } }, kRevealMs))
    expect((await state(page)).command).toBe('print')
    await page.mouse.move(600, 700)
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.el-dropdown-menu')].every((m) => !(m as HTMLElement).offsetParent),
    )
    okOf(await exec(page, { action_type: 'click', params: { semantic_locator: '更多操作菜单里的导出' } }, kRevealMs))
    expect((await state(page)).command).toBe('export')
  })

  test('Ant Design Vue a-dropdown on hover: the menu is rendered only once its trigger is hovered', async () => {
    const page = await h.open('/reveal-antd.html')
    expect(await page.evaluate(() => document.querySelector('.ant-dropdown'))).toBeNull()
    okOf(
      await exec(
        page,
        { action_type: 'click', params: { semantic_locator: 'the Export item in the More menu' } },
        kRevealMs,
      ),
    )
    expect((await state(page)).command).toBe('export')
  })
})

describe('closed collapsibles', () => {
  test('a switch inside a closed <details> named by the instruction', async () => {
    const page = await h.open('/reveal.html')
    okOf(
      await run(
        page,
        { action: 'check', target: { semantic: 'Dark mode switch in the Advanced settings section' } },
        kRevealMs,
      ),
    )
    expect((await state(page)).dark).toBe(true)
    expect(await page.evaluate(() => (document.getElementById('adv') as HTMLDetailsElement).open)).toBe(true)
  })

  test("Element Plus el-collapse: 折叠面板'高级设置'里的开关", async () => {
    const page = await h.open('/reveal-ep.html')
    okOf(await run(page, { action: 'check', target: { semantic: "折叠面板'高级设置'里的开关" } }, kRevealMs))
    const s = await state(page)
    expect(s.cache).toBe(true)
    expect(s.open).toContain('advanced')
  })

  test('Ant Design Vue a-collapse: a panel whose content is rendered only when opened', async () => {
    const page = await h.open('/reveal-antd.html')
    okOf(
      await run(page, { action: 'check', target: { semantic: 'Use cache switch in the Advanced panel' } }, kRevealMs),
    )
    expect((await state(page)).cache).toBe(true)
  })
})

describe('scrolled-away targets', () => {
  test('an item that loads only after scrolling an infinite list', async () => {
    const page = await h.open('/reveal-scroll.html')
    expect((await state(page)).loaded).toBeLessThan(37)
    okOf(await exec(page, { action_type: 'click', params: { semantic_locator: 'Open order 1037' } }, kRevealMs))
    const s = await state(page)
    expect(s.opened).toEqual([1037])
    expect(s.loaded).toBeLessThan(50)
  })

  test('a settled page without lazy regions never scrolls to look', async () => {
    const page = await h.open('/reveal.html')
    const out = await run(page, { action: 'click', target: { semantic: 'Open order 1037' } }, 500)
    expect(out.ok || out.code).toBe('ELEMENT_NOT_FOUND')
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    expect((await state(page)).scrolls).toBe(0)
  })

  test('an item that never appears fails after a bounded scroll (it looked, then gave up)', async () => {
    const page = await h.open('/reveal-scroll.html')
    const before = (await state(page)).loaded
    const out = await exec(page, { action_type: 'click', params: { semantic_locator: 'Open order 2000' } }, 500)
    expect(out.ok || out.code).toBe('ELEMENT_NOT_FOUND')
    const s = await state(page)
    expect(s.opened).toEqual([])
    expect(s.loaded).toBeGreaterThan(before)
  })
})
