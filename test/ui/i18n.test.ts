import { describe, expect, it } from 'vitest'
import { detectLocale, messages } from '../../src/ui/i18n'

describe('UI strings', () => {
  it('exist in both English and Simplified Chinese for every key', () => {
    const en = Object.keys(messages.en).sort()
    const zh = Object.keys(messages['zh-CN']).sort()
    expect(zh).toEqual(en)
  })

  it('use the same {placeholders} in both languages', () => {
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const key of Object.keys(messages.en) as (keyof typeof messages.en)[]) {
      expect(ph(messages['zh-CN'][key]), key).toEqual(ph(messages.en[key]))
    }
  })

  it('follows the browser language', () => {
    expect(detectLocale('zh-CN')).toBe('zh-CN')
    expect(detectLocale('zh-TW')).toBe('zh-CN')
    expect(detectLocale('en-GB')).toBe('en')
    expect(detectLocale('fr')).toBe('en')
  })
})
