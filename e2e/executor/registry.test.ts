/**
 * Registry actions run in real pages through `createPagePort()` ("the page side of the
 * step engine"): the built-in `common` and `elementplus` packs from actions/*.yaml, loaded by the
 * core registry bundled into the page, against the fixture app; and the pack's "<2.5.0" version
 * override picked when the page reports Element Plus 2.3.0.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ActionResult } from '../../src/core/registry'
import { startHarness, state, type Harness } from './harness'

const packs = ['common', 'elementplus'].map((name) => {
  const path = `actions/${name}.yaml`
  return { path, text: readFileSync(resolve(import.meta.dirname, '../..', path), 'utf8') }
})

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

/** Loads the packs into a registry in the page, binds an engine to the page port, runs one action. */
function runAction(page: Page, action: string, params: Record<string, unknown>): Promise<ActionResult> {
  return page.evaluate(
    async ([files, name, args]) => {
      const x = (window as any).__avaExec
      const registry = x.createRegistry()
      const loaded = registry.load([{ source: 'builtin', files }])
      if (loaded.issues.some((i: any) => i.severity === 'error')) throw new Error(JSON.stringify(loaded.issues))
      const cache = new x.SelectorCache()
      const engine = x.createEngine({
        registry,
        port: x.createPagePort({ cache }),
        selectorCache: cache,
        stepTimeoutMs: 8_000,
      })
      return engine.run(name, args)
    },
    [packs, action, params] as const,
  )
}

function succeeded(r: ActionResult): ActionResult {
  if (!r.success) throw new Error(`${r.action} failed: ${r.error?.code} ${r.error?.message}`)
  return r
}

describe('common pack', () => {
  test('common:auth:login logs in on the Element Plus app', async () => {
    const page = await h.open('/ep-login.html')
    const r = succeeded(await runAction(page, 'common:auth:login', { username: 'alice', password: 'wonderland' }))
    expect((await state(page)).user).toBe('alice')
    expect(r.data!.url).toContain('/ep-login.html')
    // The secret never comes back.
    expect(JSON.stringify(r)).not.toContain('wonderland')
  })

  test('common:auth:login logs in on the Ant Design Vue app', async () => {
    const page = await h.open('/antd-login.html')
    succeeded(await runAction(page, 'common:auth:login', { username: 'bob', password: 'wonderland' }))
    expect((await state(page)).user).toBe('bob')
  })
})

describe('elementplus pack', () => {
  test('select:choose and date-picker:set change the form model', async () => {
    const page = await h.open('/ep-form.html')
    const r = succeeded(await runAction(page, 'elementplus:select:choose', { label: '状态', option: '待审核' }))
    // The version the page's own global reports: the one installed from npm.
    expect(r.version).toBe(
      JSON.parse(readFileSync(resolve(import.meta.dirname, '../../node_modules/element-plus/package.json'), 'utf8'))
        .version,
    )
    expect(r.data!.selected).toBe('待审核')
    expect(r.trace[0].selectors!.selector).toContain('el-select__wrapper')
    succeeded(await runAction(page, 'elementplus:date-picker:set', { label: '日期', value: '2024-06-30' }))
    const s = await state(page)
    expect([s.form.status, s.form.date]).toEqual(['待审核', '2024-06-30'])
  })

  test('table:row-action then message-box:confirm deletes that row', async () => {
    const page = await h.open('/ep-table.html')
    succeeded(await runAction(page, 'elementplus:table:row-action', { row_text: '王五', action_text: '删除' }))
    succeeded(await runAction(page, 'elementplus:message-box:confirm', {}))
    expect((await state(page)).deleted).toEqual(['王五'])
  })

  test('dialog:open and dialog:close', async () => {
    const page = await h.open('/ep-widgets.html')
    const r = succeeded(await runAction(page, 'elementplus:dialog:open', { trigger: '新建', title: '新建用户' }))
    expect(r.data!.title).toBe('新建用户')
    expect((await state(page)).dialogOpen).toBe(true)
    succeeded(await runAction(page, 'elementplus:dialog:close', {}))
    expect((await state(page)).dialogOpen).toBe(false)
  })

  test('a page reporting Element Plus 2.3.0 gets the "<2.5.0" selector override', async () => {
    const page = await h.open('/ep-legacy.html')
    const r = succeeded(await runAction(page, 'elementplus:select:choose', { label: '状态', option: '禁用' }))
    expect(r.version).toBe('2.3.0')
    expect(r.trace[0].selectors!.selector).toContain('el-input__inner')
    expect((await state(page)).status).toBe('禁用')
  })
})
