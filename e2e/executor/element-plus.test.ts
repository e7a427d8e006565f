/**
 * Every action on real Element Plus 2.14 components, with the effect asserted in the page's own
 * Vue state: login, form widgets, table row actions with confirm, dialogs,
 * message boxes, tabs, dropdown menu, autocomplete, ambiguity, stale ids and a covering mask.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { exec, okOf, run, startHarness, state, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

describe('Element Plus login', () => {
  test('types into el-input through v-model, clicks Log in, verifies the dashboard', async () => {
    const page = await h.open('/ep-login.html')
    okOf(await exec(page, { action_type: 'input', params: { semantic_locator: 'username input', value: 'alice' } }))
    okOf(
      await exec(page, {
        action_type: 'input',
        params: { semantic_locator: 'password input', fallback_selector: 'input[type=password]', value: 'wonderland' },
      }),
    )
    const s = await state(page)
    expect(s.form).toEqual({ username: 'alice', password: 'wonderland' })
    const click = okOf(await exec(page, { action_type: 'click', params: { semantic_locator: 'Log in button' } }))
    expect(click.rung).toBe('semantic')
    okOf(
      await exec(page, {
        action_type: 'verify',
        params: { assertion: 'The page shows "Welcome, alice" and "Dashboard"' },
      }),
    )
    expect((await state(page)).user).toBe('alice')
  })

  test('validation messages are found by verify, and a missing keyword is reported', async () => {
    const page = await h.open('/ep-login.html')
    okOf(await exec(page, { action_type: 'click', params: { semantic_locator: 'Log in' } }))
    okOf(await exec(page, { action_type: 'verify', params: { assertion: '"Please enter a username"' } }))
    const out = await exec(
      page,
      { action_type: 'verify', params: { assertion: '"Please enter a username" and "Dashboard"' } },
      500,
    )
    expect(out.ok).toBe(false)
    expect(out.ok || out.code).toBe('VERIFY_FAILED')
    expect(out.ok || out.message).toContain('"Dashboard"')
    expect(out.ok || out.message).not.toContain('Not on the page: "Please enter a username"')
  })
})

describe('Element Plus form widgets', () => {
  test('select, multiple select, cascader, date picker, checkbox group, switch, radio and submit', async () => {
    const page = await h.open('/ep-form.html')
    okOf(await run(page, { action: 'fill', target: { semantic: '姓名' }, value: '小明' }))
    const status = okOf(await run(page, { action: 'select', target: { semantic: '状态 下拉框' }, value: '禁用' }))
    expect(status.changes!.value).toBe('禁用')
    okOf(await run(page, { action: 'select', target: { semantic: '标签' }, value: ['前端', '测试'] }))
    const region = okOf(
      await run(page, { action: 'select', target: { semantic: '地区' }, value: '浙江 / 杭州 / 西湖区' }),
    )
    expect(region.changes!.value).toContain('西湖区')
    const date = okOf(await run(page, { action: 'select', target: { semantic: '日期' }, value: '2024-05-01' }))
    // What the panel says of each, in the UI language: the component's words quoted as data.
    expect([status.msg?.key, status.msg?.params?.values]).toEqual(['step.result.selected', '"禁用"'])
    expect([region.msg?.key, region.msg?.params?.values]).toEqual(['step.result.selected', '"浙江 / 杭州 / 西湖区"'])
    expect([date.msg?.key, date.msg?.params?.value]).toEqual(['step.result.set', '"2024-05-01"'])
    okOf(await run(page, { action: 'check', target: { semantic: '旅行' } }))
    okOf(await run(page, { action: 'check', target: { semantic: '启用通知 开关' } }))
    okOf(await run(page, { action: 'check', target: { semantic: '女' } }))
    let s = await state(page)
    expect(s.form).toEqual({
      name: '小明',
      status: '禁用',
      tags: ['前端', '测试'],
      region: ['浙江', '杭州', '西湖区'],
      date: '2024-05-01',
      hobbies: ['旅行'],
      notify: true,
      gender: '女',
    })
    okOf(await run(page, { action: 'uncheck', target: { semantic: '启用通知' } }))
    const again = okOf(await run(page, { action: 'uncheck', target: { semantic: '启用通知' } }))
    expect(again.detail).toMatch(/already unchecked/)
    okOf(await run(page, { action: 'click', target: { semantic: '提交' } }))
    s = await state(page)
    expect(s.form.notify).toBe(false)
    expect(s.submitted).toBe(true)
  })

  test('an option that does not exist fails with the real options as candidates', async () => {
    const page = await h.open('/ep-form.html')
    const out = await run(page, { action: 'select', target: { semantic: '状态' }, value: '删除' })
    expect(out.ok || out.code).toBe('ELEMENT_NOT_FOUND')
    expect(out.ok ? [] : out.candidates!.map((c) => c.label)).toEqual(['启用', '禁用', '待审核'])
    expect((await state(page)).form.status).toBe('')
  })
})

describe('Element Plus table', () => {
  test('"click 删除" on a table of rows is AMBIGUOUS with every row as a candidate; nothing is deleted', async () => {
    const page = await h.open('/ep-table.html')
    const out = await exec(page, { action_type: 'click', params: { semantic_locator: '删除' } })
    expect(out.ok || out.code).toBe('AMBIGUOUS')
    expect(out.ok ? 0 : out.candidates!.length).toBe(5)
    expect((await state(page)).rows).toHaveLength(12)
  })

  test('deletes the row named in the description after the confirm message box', async () => {
    const page = await h.open('/ep-table.html')
    const del = okOf(await run(page, { action: 'click', target: { semantic: '删除 李四' } }))
    expect(del.changes!.newModals.map((m) => m.label)).toEqual(['提示'])
    okOf(await run(page, { action: 'click', target: { semantic: '确定' } }))
    const s = await state(page)
    expect(s.deleted).toEqual(['李四'])
    expect(s.rows.map((r: any) => r.name)).not.toContain('李四')
  })

  test('edits a row in the dialog, which closes on save; pagination moves to page 2', async () => {
    const page = await h.open('/ep-table.html')
    okOf(await run(page, { action: 'click', target: { semantic: '编辑 王五' } }))
    expect((await state(page)).dialogOpen).toBe(true)
    okOf(await run(page, { action: 'fill', target: { semantic: '姓名' }, value: '王小五' }))
    okOf(await run(page, { action: 'click', target: { semantic: '保存' } }))
    let s = await state(page)
    expect(s.dialogOpen).toBe(false)
    expect(s.rows[2].name).toBe('王小五')
    okOf(
      await run(page, {
        action: 'click',
        target: { selectors: ['role:listitem[name="page 2" i]', 'css:.el-pager li:nth-child(2)'] },
      }),
    )
    s = await state(page)
    expect(s.page).toBe(2)
  })

  test('a scanned id fails as ELEMENT_STALE after the table re-renders, and never hits another row', async () => {
    const page = await h.open('/ep-table.html')
    const id = await page.evaluate(() => {
      const snap = (window as any).__avaExec.observe()
      return snap.elements.find((e: any) => e.label === '删除' && (e.context ?? '').includes('张三')).id as string
    })
    okOf(await run(page, { action: 'click', target: { semantic: '2' } }))
    expect((await state(page)).page).toBe(2)
    const out = await exec(page, { action_type: 'click', params: { target_id: id } })
    expect(out.ok || out.code).toBe('ELEMENT_STALE')
    expect((await state(page)).deleted).toEqual([])
  })
})

describe('Element Plus dialogs, tabs, menus', () => {
  test('tabs, dropdown menu, autocomplete', async () => {
    const page = await h.open('/ep-widgets.html')
    okOf(await run(page, { action: 'click', target: { selectors: ['role:tab[name="配置管理"]'] } }))
    const menu = okOf(await run(page, { action: 'select', target: { semantic: '更多操作' }, value: '打印' }))
    expect([menu.msg?.key, menu.msg?.params?.value]).toEqual(['step.result.chose', '"打印"'])
    okOf(await run(page, { action: 'select', target: { semantic: '城市' }, value: '南京' }))
    const s = await state(page)
    expect([s.tab, s.command, s.city]).toEqual(['config', 'print', '南京'])
  })

  test('a dialog opens, its mask covers the page (obscured), then it saves and closes', async () => {
    const page = await h.open('/ep-widgets.html')
    const open = okOf(await run(page, { action: 'click', target: { semantic: '新建 按钮' } }))
    expect(open.changes!.newModals).toEqual([{ kind: 'dialog', label: '新建用户' }])
    const covered = await run(page, { action: 'click', target: { semantic: '计数' } }, 800)
    expect(covered.ok || covered.reason).toBe('obscured')
    expect(covered.ok || covered.message).toContain('covered by div.el-overlay')
    expect((await state(page)).clicks).toBe(0)
    okOf(await run(page, { action: 'fill', target: { semantic: '名称' }, value: '小红' }))
    okOf(await run(page, { action: 'click', target: { semantic: '确定' } }))
    const s = await state(page)
    expect(s.created).toEqual(['小红'])
    expect(s.dialogOpen).toBe(false)
  })

  test('a message box is answered', async () => {
    const page = await h.open('/ep-widgets.html')
    okOf(await run(page, { action: 'click', target: { semantic: '显示提示' } }))
    okOf(await run(page, { action: 'verify', assertion: '"操作已完成"' }))
    okOf(await run(page, { action: 'click', target: { semantic: '知道了' } }))
    expect((await state(page)).alerted).toBe(1)
  })
})
