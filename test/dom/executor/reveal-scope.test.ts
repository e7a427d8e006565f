// The container a description names: "X in the Y menu", "Y 菜单里的 X". Pure
// parsing; what opening it does is tested in e2e/executor/reveal.test.ts.
import { describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { splitScope } from '../../../src/dom/executor/reveal'

describe('splitScope', () => {
  test('English: target, container and whether the words call it a menu or section', () => {
    expect(splitScope('the Export item in the More menu')).toEqual({
      target: 'Export item',
      container: 'More',
      kind: true,
    })
    expect(splitScope('Dark mode switch in the Advanced settings section')).toEqual({
      target: 'Dark mode switch',
      container: 'Advanced settings',
      kind: true,
    })
    expect(splitScope('"Print" inside "Actions"')).toEqual({ target: '"Print"', container: 'Actions', kind: false })
  })

  test('Chinese: kind words before or after the name, with or without quotes, and 在…里', () => {
    expect(splitScope("折叠面板'高级设置'里的开关")).toEqual({ target: '开关', container: '高级设置', kind: true })
    expect(splitScope('更多操作菜单里的导出')).toEqual({ target: '导出', container: '更多操作', kind: true })
    expect(splitScope('在「帮助」里点关于')).toEqual({ target: '点关于', container: '帮助', kind: false })
  })

  test('scopes the ladder handles, and words that only look like "in", name no container', () => {
    expect(splitScope('Save in the dialog')).toBeNull()
    expect(splitScope('the Sign in button')).toBeNull()
    expect(splitScope('中文设置')).toBeNull()
    expect(splitScope('Log in')).toBeNull()
  })

  test('never throws, and a container it names is never empty', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const r = splitScope(s)
        if (r) expect(r.container.length > 0 && r.target.length > 0).toBe(true)
      }),
      { numRuns: 100 },
    )
  })
})
