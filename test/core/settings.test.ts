import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, maskKey, safeParseSettings } from '../../src/core/settings'

describe('settings', () => {
  it('defaults validate and point at a local model with no key', () => {
    expect(safeParseSettings(DEFAULT_SETTINGS)).toEqual({ ok: true, value: DEFAULT_SETTINGS })
    expect(DEFAULT_SETTINGS.llm).toMatchObject({ provider: 'local', baseUrl: 'http://localhost:11434/v1', apiKey: '' })
  })

  it.each([
    ['a non-http base URL', { llm: { ...DEFAULT_SETTINGS.llm, baseUrl: 'file:///etc/passwd' } }, 'llm.baseUrl'],
    ['an unknown provider', { llm: { ...DEFAULT_SETTINGS.llm, provider: 'skynet' } }, 'llm.provider'],
    ['an empty model', { llm: { ...DEFAULT_SETTINGS.llm, model: '' } }, 'llm.model'],
    ['a step limit of zero', { agent: { stepLimit: 0 } }, 'agent.stepLimit'],
    ['a future version', { version: 99 }, 'version'],
  ])('rejects %s and names the field', (_name, patch, path) => {
    const r = safeParseSettings({ ...DEFAULT_SETTINGS, ...patch })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.issues.map((i) => i.path)).toContain(path)
  })

  it('masks keys down to their last four characters', () => {
    expect(maskKey('')).toBe('')
    expect(maskKey('short')).toBe('•••••')
    expect(maskKey('sk-ant-1234567890abcd')).toBe('••••••••abcd')
  })
})
