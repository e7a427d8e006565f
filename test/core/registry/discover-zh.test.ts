import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRegistry } from '../../../src/core/registry'
import { discoverActions, requestTerms } from '../../../src/core/registry/discover'

// a Chinese request finds pack actions through `description_zh`; an English one
// still finds them through `description`.

const dir = join(import.meta.dirname, '../../../actions')
const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .map((f) => ({ path: `actions/${f}`, text: readFileSync(join(dir, f), 'utf8') }))
const builtin = createRegistry()
builtin.load([{ source: 'builtin', files }])

const top = (request: string) => discoverActions(builtin, request)[0]

describe('discovery from the built-in packs', () => {
  it.each([
    ['登录', 'common:auth:login'],
    ['帮我登录这个网站', 'common:auth:login'],
    ['用 alice 的账号登录', 'common:auth:login'],
    ['退出登录', 'common:auth:logout'],
    ['筛选出状态为已发货的订单', 'elementplus:select:choose'],
    ['搜索蓝牙耳机', 'common:page:search'],
    ['删除第三行订单', 'elementplus:table:row-action'],
    ['关闭对话框', 'elementplus:dialog:close'],
    ['log in as alice', 'common:auth:login'],
    ['choose Shipped in the Status select', 'elementplus:select:choose'],
  ])('%s → %s', (request, expected) => {
    expect(top(request)).toBe(expected)
  })

  it('does not offer a login action for a filter request, nor logout for a login request', () => {
    expect(discoverActions(builtin, '筛选出状态为已发货的订单')).not.toContain('common:auth:login')
    expect(discoverActions(builtin, '筛选出状态为已发货的订单')).not.toContain('common:auth:logout')
    const login = discoverActions(builtin, '登录')
    expect(login.indexOf('common:auth:login')).toBeLessThan(
      login.indexOf('common:auth:logout') === -1 ? Infinity : login.indexOf('common:auth:logout'),
    )
  })

  it('finds nothing for a Chinese request no action is about', () => {
    expect(discoverActions(builtin, '今天天气怎么样')).toEqual([])
  })
})

describe('discovery', () => {
  const pack = (actions: string) => {
    const r = createRegistry()
    const { issues } = r.load([
      { source: 'user', files: [{ path: 'shop.yaml', text: `namespace: shop\nversion: 1.0.0\nactions:\n${actions}` }] },
    ])
    expect(issues.filter((i) => i.severity === 'error')).toEqual([])
    return r
  }
  const step = '    steps:\n      - action: click\n        args: { selector: "css:#x" }\n'

  it('matches description_zh, and never a deprecated action', () => {
    const r = pack(
      `  orders:ship:\n    description: Mark the order as shipped.\n    description_zh: 将订单标记为已发货。\n${step}` +
        `  orders:ship-old:\n    description: Mark the order as shipped (old form).\n    description_zh: 将订单标记为已发货（旧版）。\n    deprecated: true\n    deprecated_message: Use orders:ship.\n${step}`,
    )
    expect(discoverActions(r, '把这个订单标记为已发货')).toEqual(['shop:orders:ship'])
    expect(discoverActions(r, 'mark the order as shipped')).toEqual(['shop:orders:ship'])
  })

  it('reads every overlapping pair of Han characters, so a word is found wherever it starts', () => {
    expect(requestTerms('筛选出状态')).toEqual(['筛选', '选出', '出状', '状态'])
    expect(requestTerms('Log in, 然后搜索')).toEqual(['log', '后搜', '搜索'])
  })
})

describe('parameters described in both languages', () => {
  it('every parameter of a built-in action has a Chinese description next to its English one', () => {
    for (const name of [
      'common:auth:login',
      'common:page:search',
      'elementplus:select:choose',
      'elementplus:form:fill',
    ]) {
      const d = builtin.describe(name)
      expect(d, name).toBeDefined()
      for (const [param, p] of Object.entries(d!.paramDetails)) {
        expect(p.description, `${name} ${param}`).not.toBe('')
        expect(p.descriptionZh ?? '', `${name} ${param}`).toMatch(/[\u4e00-\u9fff]/)
      }
    }
  })
})
