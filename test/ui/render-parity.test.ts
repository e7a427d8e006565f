import { describe, expect, it } from 'vitest'
import { setLocale, t, type MessageKey } from '../../src/ui/i18n'
import { createRenderer, renderEn } from '../../src/core/locales/render'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'

// The CLI's renderer (src/core/locales/render.ts) and the panel's vue-i18n say every message of
// both tables the same way, plurals and literals included: what `ava run` prints in English is what
// the panel shows.

const placeholders = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))]

describe('renderEn and the panel', () => {
  it.each([
    ['en', en, renderEn],
    ['zh-CN', zhCN, createRenderer(zhCN, 'zh-CN')],
  ] as const)('say every %s message alike, for one and for several', async (locale, table, render) => {
    await setLocale(locale)
    for (const [key, text] of Object.entries(table)) {
      for (const n of [1, 3]) {
        const params: Record<string, string | number> = Object.fromEntries(placeholders(text).map((p) => [p, `<${p}>`]))
        params.n = n
        expect(render({ key, params }), `${key} n=${n}`).toBe(t(key as MessageKey, params))
      }
    }
  })

  it('picks the plural from n and says a literal as itself', () => {
    expect(createRenderer({ a: '{n} step | {n} steps', b: "name{'@'}site" })({ key: 'a', params: { n: 1 } })).toBe(
      '1 step',
    )
    expect(createRenderer({ a: '{n} step | {n} steps' })({ key: 'a', params: { n: 2 } })).toBe('2 steps')
    expect(createRenderer({ b: "name{'@'}site" })({ key: 'b' })).toBe('name@site')
    expect(renderEn({ key: 'no.such.key' })).toBe('no.such.key')
  })
})
