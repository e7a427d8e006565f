import { describe, it, expect } from 'vitest'
import {
  applyOverrides,
  checkCompatibility,
  detectVersion,
  matchVersion,
  normalizeVersion,
  resolveCandidates,
  SelectorCache,
  type ActionCompatibility,
} from '../../../src/core/registry'
import { parseSelector, SelectorSyntaxError, type ParsedSelector } from '../../../src/core/page/selectors'
import { FakePort } from './fake-port'

describe('selector prefixes', () => {
  it.each<[string, Partial<ParsedSelector>]>([
    ['css:.ant-btn-primary', { kind: 'css', value: '.ant-btn-primary' }],
    ["xpath://button[@type='submit']", { kind: 'xpath', value: "//button[@type='submit']" }],
    ["role:button[name='Submit']", { kind: 'role', role: 'button', name: 'Submit', exact: true }],
    ["role:button[name='submit' i]", { kind: 'role', role: 'button', name: 'submit', exact: false }],
    ['role:dialog', { kind: 'role', role: 'dialog', exact: false }],
    ['text:提交', { kind: 'text', text: '提交', exact: false }],
    ['text:"提交"', { kind: 'text', text: '提交', exact: true }],
    ['testid:submit-btn', { kind: 'testid', value: 'submit-btn' }],
    ['.plain > .css', { kind: 'css', value: '.plain > .css' }],
    ['//div[1]', { kind: 'xpath', value: '//div[1]' }],
    ['a:hover', { kind: 'css', value: 'a:hover' }],
  ])('%s', (raw, expected) => {
    expect(parseSelector(raw)).toMatchObject({ ...expected, raw })
  })
  it.each(['', 'css:', 'css:div[', 'xpath:div', 'role:Button!', 'text:""', 'testid:has space', 'css:a[title="x]'])(
    'refuses %j',
    (raw) => {
      expect(() => parseSelector(raw)).toThrow(SelectorSyntaxError)
    },
  )
})

describe('primary then fallback, with a winner cache', () => {
  const signal = new AbortController().signal
  it('tries candidates in order and caches the winner', async () => {
    const port = new FakePort(['css:.b', 'css:.c'])
    const cache = new SelectorCache()
    const query = (s: ParsedSelector) => port.query(s)
    const first = await resolveCandidates(['css:.a', 'css:.b', 'css:.c'], {
      query,
      cache,
      cacheKey: 'k',
      signal,
      timeoutMs: 0,
    })
    expect(first).toMatchObject({ index: 1, selector: { raw: 'css:.b' } })
    expect(port.calls.map((c) => (c.args[0] as ParsedSelector).raw)).toEqual(['css:.a', 'css:.b'])
    port.calls = []
    await resolveCandidates(['css:.a', 'css:.b', 'css:.c'], { query, cache, cacheKey: 'k', signal, timeoutMs: 0 })
    expect(port.calls.map((c) => (c.args[0] as ParsedSelector).raw)).toEqual(['css:.b'])
  })
  it('keeps looking until the time is up, then gives null', async () => {
    const port = new FakePort()
    const query = (s: ParsedSelector) => port.query(s)
    setTimeout(() => port.present.add('css:.late'), 150)
    expect(await resolveCandidates(['css:.late'], { query, signal, timeoutMs: 10_000 })).toMatchObject({ index: 0 })
    expect(await resolveCandidates(['css:.never'], { query, signal, timeoutMs: 0 })).toBeNull()
  })
  it('is an LRU of bounded size, cleared whole or by scope', () => {
    const cache = new SelectorCache(2)
    cache.set('a:1', 'x')
    cache.set('b:1', 'y')
    cache.get('a:1')
    cache.set('c:1', 'z')
    expect([cache.get('a:1'), cache.get('b:1'), cache.get('c:1')]).toEqual(['x', undefined, 'z'])
    cache.clear('a:')
    expect(cache.size).toBe(1)
    cache.clear()
    expect(cache.size).toBe(0)
  })
})

describe('versions', () => {
  it('normalises what pages report', () => {
    expect(['2.4.1', 'v2.4.1', '2.4', 'Element Plus 2.3.9', '2.5.0-beta.1', 'nope', 3].map(normalizeVersion)).toEqual([
      '2.4.1',
      '2.4.1',
      '2.4.0',
      '2.3.9',
      '2.5.0-beta.1',
      null,
      '3.0.0',
    ])
  })
  it.each([
    ['4.5.2', '4.x', true],
    ['5.0.0', '4.x', false],
    ['5.0.0', '>=4.2.0', true],
    ['4.1.9', '>=4.2.0', false],
    ['4.2.5', '~4.2.0', true],
    ['4.3.0', '~4.2.0', false],
    ['4.9.0', '^4.2.0', true],
    ['5.0.0', '^4.2.0', false],
    ['2.4.9', '>=2.0.0 <2.5.0', true],
    ['2.5.0-beta.1', '<2.5.0', true],
    ['2.4.0', 'not a range', false],
  ])('%s matches %s: %s', (version, pattern, expected) => {
    expect(matchVersion(version, pattern)).toBe(expected)
  })

  const compat: ActionCompatibility = {
    minVersion: '2.0.0',
    maxVersion: '2.99.0',
    detect: { selector: 'css:.version', global: 'Lib.version', meta: 'lib-version' },
    versionOverrides: [
      { pattern: '<2.5.0', override: { selectors: { select: { primary: 'css:.old-select', fallback: [] } } } },
      {
        pattern: '2.4.x',
        override: {
          selectors: {
            select: { primary: 'css:.older-select', fallback: [] },
            extra: { primary: 'css:.x', fallback: [] },
          },
        },
      },
    ],
  }
  it('applies every matching override in order, later ones winning', () => {
    const base = {
      select: { primary: 'css:.el-select__wrapper', fallback: [] },
      dialog: { primary: 'css:.d', fallback: [] },
    }
    expect(applyOverrides(base, compat, '2.6.0')).toEqual({ selectors: base, applied: [] })
    expect(applyOverrides(base, compat, '2.3.0').selectors.select.primary).toBe('css:.old-select')
    const both = applyOverrides(base, compat, '2.4.2')
    expect(both.applied).toEqual(['<2.5.0', '2.4.x'])
    expect(both.selectors.select.primary).toBe('css:.older-select')
    expect(both.selectors.dialog.primary).toBe('css:.d')
    expect(applyOverrides(base, compat, null).selectors).toBe(base)
  })
  it('checks min and max version', () => {
    expect(checkCompatibility(compat, '2.4.0')).toEqual({ ok: true })
    expect(checkCompatibility(compat, '1.9.0')).toMatchObject({ ok: false })
    expect(checkCompatibility(compat, '3.0.0')).toMatchObject({ ok: false })
    expect(checkCompatibility(compat, null)).toEqual({ ok: true })
  })
  it('detects by selector, then global property path, then meta tag', async () => {
    const signal = new AbortController().signal
    const port = new FakePort()
    expect(await detectVersion(compat, port, signal)).toEqual({ version: null })
    port.attributes.set('css:meta[name="lib-version"]@content', '2.1.0')
    port.present.add('css:meta[name="lib-version"]')
    expect(await detectVersion(compat, port, signal)).toMatchObject({ version: '2.1.0', method: 'meta' })
    port.globals.set('Lib.version', 'v2.2.0')
    expect(await detectVersion(compat, port, signal)).toMatchObject({ version: '2.2.0', method: 'global' })
    port.present.add('css:.version')
    port.texts.set('css:.version', 'Version 2.3.1')
    expect(await detectVersion(compat, port, signal)).toMatchObject({
      version: '2.3.1',
      method: 'selector',
      raw: 'Version 2.3.1',
    })
    expect(port.calls.some((c) => c.method === 'readGlobal' && c.args[0] === 'Lib.version')).toBe(true)
  })
})
