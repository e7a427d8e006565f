/**
 * Every action on real Ant Design Vue 4.2 components, with the effect asserted in the page's own
 * Vue state: login, form widgets, table row actions with Modal.confirm, modals,
 * tabs, dropdown menu, autocomplete, ambiguity and a covering modal mask.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { exec, okOf, run, startHarness, state, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

describe('Ant Design Vue login', () => {
  test('fills a-input and a-input-password, submits, verifies the dashboard', async () => {
    const page = await h.open('/antd-login.html')
    okOf(await exec(page, { action_type: 'input', params: { semantic_locator: 'Username', value: 'bob' } }))
    okOf(
      await exec(page, { action_type: 'input', params: { semantic_locator: 'Password field', value: 'wonderland' } }),
    )
    expect((await state(page)).form).toEqual({ username: 'bob', password: 'wonderland' })
    okOf(await exec(page, { action_type: 'click', params: { semantic_locator: 'Log in button' } }))
    okOf(await exec(page, { action_type: 'verify', params: { assertion: '"Welcome, bob"' } }))
    expect((await state(page)).user).toBe('bob')
  })
})

describe('Ant Design Vue form widgets', () => {
  test('select, multiple select, cascader, date picker, checkbox group, switch, radio and submit', async () => {
    const page = await h.open('/antd-form.html')
    okOf(await run(page, { action: 'fill', target: { semantic: '姓名' }, value: '小明' }))
    const status = okOf(await run(page, { action: 'select', target: { semantic: '状态' }, value: '禁用' }))
    expect(status.changes!.value).toBe('禁用')
    okOf(await run(page, { action: 'select', target: { semantic: '标签' }, value: ['前端', '测试'] }))
    okOf(await run(page, { action: 'select', target: { semantic: '地区' }, value: '浙江 / 杭州 / 西湖区' }))
    okOf(await run(page, { action: 'select', target: { semantic: '日期' }, value: '2024-05-01' }))
    okOf(await run(page, { action: 'check', target: { semantic: '旅行' } }))
    okOf(await run(page, { action: 'check', target: { semantic: '启用通知' } }))
    okOf(await run(page, { action: 'check', target: { semantic: '女' } }))
    okOf(await run(page, { action: 'click', target: { semantic: '提交' } }))
    const s = await state(page)
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
    expect(s.submitted).toBe(true)
  })

  test('submitting without the required fields shows the validation messages', async () => {
    const page = await h.open('/antd-form.html')
    okOf(await run(page, { action: 'click', target: { semantic: '提交' } }))
    okOf(await run(page, { action: 'verify', assertion: '"请输入姓名" and "请选择状态"' }))
    const s = await state(page)
    expect([s.submitted, s.failed]).toEqual([false, 1])
  })
})

describe('Ant Design Vue table', () => {
  test('"click 删除" is AMBIGUOUS with the five visible rows; the named row is deleted after Modal.confirm', async () => {
    const page = await h.open('/antd-table.html')
    const out = await exec(page, { action_type: 'click', params: { semantic_locator: '删除' } })
    expect(out.ok || out.code).toBe('AMBIGUOUS')
    expect(out.ok ? 0 : out.candidates!.length).toBe(5)
    const del = okOf(await run(page, { action: 'click', target: { semantic: '删除 赵六' } }))
    expect(del.changes!.newModals.length).toBe(1)
    okOf(await run(page, { action: 'click', target: { semantic: '确定' } }))
    const s = await state(page)
    expect(s.deleted).toEqual(['赵六'])
    expect(s.rows).toHaveLength(11)
  })

  test('edits a row in the a-modal, which closes on save; pagination moves to page 3', async () => {
    const page = await h.open('/antd-table.html')
    okOf(await run(page, { action: 'click', target: { semantic: '编辑 张三' } }))
    okOf(await run(page, { action: 'fill', target: { semantic: '姓名' }, value: '张小三' }))
    okOf(await run(page, { action: 'click', target: { semantic: '保存' } }))
    let s = await state(page)
    expect(s.dialogOpen).toBe(false)
    expect(s.rows[0].name).toBe('张小三')
    okOf(await run(page, { action: 'click', target: { selectors: ['css:.ant-pagination-item-3'] } }))
    s = await state(page)
    expect(s.page).toBe(3)
  })
})

describe('Ant Design Vue modals, tabs, menus', () => {
  test('tabs, dropdown menu, autocomplete', async () => {
    const page = await h.open('/antd-widgets.html')
    okOf(await run(page, { action: 'click', target: { selectors: ['role:tab[name="角色管理"]'] } }))
    okOf(await run(page, { action: 'select', target: { semantic: '更多操作' }, value: '导出' }))
    okOf(await run(page, { action: 'select', target: { semantic: '输入城市' }, value: '杭州湾' }))
    const s = await state(page)
    expect([s.tab, s.command, s.city]).toEqual(['roles', 'export', '杭州湾'])
  })

  test('a modal opens, its mask covers the page (obscured), then it saves and closes', async () => {
    const page = await h.open('/antd-widgets.html')
    okOf(await run(page, { action: 'click', target: { semantic: '新建' } }))
    const covered = await run(page, { action: 'click', target: { semantic: '计数' } }, 800)
    expect(covered.ok || covered.reason).toBe('obscured')
    expect(covered.ok || covered.message).toMatch(/covered by div\.ant-modal/)
    okOf(await run(page, { action: 'fill', target: { semantic: '名称' }, value: '小红' }))
    okOf(await run(page, { action: 'click', target: { semantic: '确定' } }))
    const s = await state(page)
    expect([s.created, s.dialogOpen, s.clicks]).toEqual([['小红'], false, 0])
  })

  test('Modal.info is answered', async () => {
    const page = await h.open('/antd-widgets.html')
    okOf(await run(page, { action: 'click', target: { semantic: '显示提示' } }))
    okOf(await run(page, { action: 'click', target: { semantic: '知道了' } }))
    expect((await state(page)).alerted).toBe(1)
  })
})
