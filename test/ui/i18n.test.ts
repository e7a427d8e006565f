import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { detectLocale, messages } from '../../src/ui/i18n'

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
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
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

  it('follows the browser language', () => {
    expect(detectLocale('zh-CN')).toBe('zh-CN')
    expect(detectLocale('zh-TW')).toBe('zh-CN')
    expect(detectLocale('en-GB')).toBe('en')
    expect(detectLocale('fr')).toBe('en')
  })
})
