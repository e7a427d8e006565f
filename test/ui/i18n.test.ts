import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { deprecationNote, described, detectLocale, i18n, setLocale, t, type MessageKey } from '../../src/ui/i18n'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'

const messages = { en, 'zh-CN': zhCN }

const src = resolve(import.meta.dirname, '../../src')
function* uiFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* uiFiles(p)
    else if (/\.(vue|ts)$/.test(name)) yield p
  }
}

describe('UI strings', () => {
  it('exist in both English and Simplified Chinese for every key', () => {
    const en = Object.keys(messages.en).sort()
    const zh = Object.keys(messages['zh-CN']).sort()
    expect(zh).toEqual(en)
  })

  it('use the same {placeholders} in both languages', () => {
    // As a set: a plural repeats its placeholders in each form, and Chinese usually has one form.
    const ph = (s: string) => [...new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort()
    for (const key of Object.keys(messages.en) as (keyof typeof messages.en)[]) {
      expect(ph(messages['zh-CN'][key]), key).toEqual(ph(messages.en[key]))
    }
  })

  it('cover every key the panel, popup and options ask for, including keys built from a prefix', () => {
    const keys = new Set(Object.keys(messages.en))
    const missing: string[] = []
    for (const dir of ['panel', 'popup', 'options']) {
      for (const file of uiFiles(join(src, dir))) {
        const text = readFileSync(file, 'utf8')
        for (const m of text.matchAll(/\bt\(\s*(['`])([a-zA-Z0-9_.-]+)(\$\{)?/g)) {
          const [, quote, key, dynamic] = m
          if (quote === '`' && dynamic) {
            if (![...keys].some((k) => k.startsWith(key))) missing.push(`${file}: ${key}*`)
          } else if (!keys.has(key)) missing.push(`${file}: ${key}`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('are valid vue-i18n messages in both languages (a stray @, | or { breaks a whole screen)', async () => {
    const broken: string[] = []
    for (const [l, table] of Object.entries(messages)) {
      await setLocale(l as keyof typeof messages)
      for (const key of Object.keys(table) as MessageKey[]) {
        const params = Object.fromEntries(
          [...table[key].matchAll(/\{(\w+)\}/g)].map((m) => [m[1], m[1] === 'n' || m[1] === 'count' ? 2 : `<${m[1]}>`]),
        )
        try {
          const out = t(key, params)
          // Every placeholder was filled: none is left as written, none came out empty.
          for (const p of Object.keys(params))
            if (p !== 'n' && p !== 'count' && !out.includes(`<${p}>`)) broken.push(`${l} ${key}: {${p}} not filled`)
        } catch (e) {
          broken.push(`${l} ${key}: ${(e as Error).message.split('\n')[0]}`)
        }
      }
    }
    await setLocale('en')
    expect(broken).toEqual([])
  })

  it('follows the browser language', () => {
    expect(detectLocale('zh-CN')).toBe('zh-CN')
    expect(detectLocale('zh-TW')).toBe('zh-CN')
    expect(detectLocale('en-GB')).toBe('en')
    expect(detectLocale('fr')).toBe('en')
  })
})

describe('t', () => {
  it('picks the plural form from n, in each language', async () => {
    await setLocale('en')
    expect(t('popup.actions', { n: 1 })).toBe('1 action')
    expect(t('popup.actions', { n: 0 })).toBe('0 actions')
    expect(t('popup.actions', { n: 12 })).toBe('12 actions')
    await setLocale('zh-CN')
    expect(t('popup.actions', { n: 1 })).toBe('1 个操作')
    expect(t('popup.actions', { n: 12 })).toBe('12 个操作')
    await setLocale('en')
  })

  it('loads Chinese on first use and switches back', async () => {
    await setLocale('en')
    expect(t('popup.title')).toBe(en['popup.title'])
    await setLocale('zh-CN')
    expect(i18n.global.locale.value).toBe('zh-CN')
    expect(t('popup.title')).toBe(zhCN['popup.title'])
    await setLocale('en')
    expect(t('popup.title')).toBe(en['popup.title'])
  })

  it('keeps the last language asked for when an earlier load finishes later', async () => {
    const zh = setLocale('zh-CN')
    const back = setLocale('en')
    await Promise.all([zh, back])
    expect(i18n.global.locale.value).toBe('en')
  })

  it('reads dotted keys whole, so a key may be the prefix of another', async () => {
    await setLocale('en')
    i18n.global.mergeLocaleMessage('en', {
      'probe.step': 'Step',
      'probe.step.ok': 'Step done',
      'probe.stepped': 'Stepped',
    } as never)
    const tt = t as (key: string, params?: Record<string, string | number>) => string
    expect([tt('probe.step'), tt('probe.step.ok'), tt('probe.stepped')]).toEqual(['Step', 'Step done', 'Stepped'])
    // And the real table: every key that prefixes another still reads as itself.
    const keys = Object.keys(en) as MessageKey[]
    for (const k of keys.filter((k) => keys.some((o) => o.startsWith(`${k}.`)))) expect(t(k)).toBe(en[k])
  })
})

describe('pack text in the UI language', () => {
  const action = { description: 'Log in.', descriptionZh: '登录。' }
  const alias = { action: 'demo:signup:old', message: 'Use signup:fill.', use: 'demo:signup:fill' }

  it('shows description_zh and a Chinese deprecation notice in Chinese', async () => {
    await setLocale('zh-CN')
    expect(described(action)).toBe('登录。')
    expect(described({ description: 'Log in.' })).toBe('Log in.')
    expect(deprecationNote(alias)).toBe('demo:signup:old 已弃用，请改用 demo:signup:fill。')
    await setLocale('en')
  })

  it('keeps the author’s English in English', async () => {
    await setLocale('en')
    expect(described(action)).toBe('Log in.')
    expect(deprecationNote(alias)).toBe('demo:signup:old is deprecated. Use signup:fill.')
    expect(deprecationNote({ action: 'a:b:c', use: 'a:b:d' })).toBe('a:b:c is deprecated: use a:b:d instead.')
  })
})
