import { describe, expect, it } from 'vitest'
import { activeLlm, DEFAULT_SETTINGS, maskKey, safeParseSettings } from '../../src/core/settings'

const local = DEFAULT_SETTINGS.profiles[0]

describe('settings', () => {
  it('defaults validate and point at a local model with no key', () => {
    expect(safeParseSettings(DEFAULT_SETTINGS)).toEqual({ success: true, data: DEFAULT_SETTINGS })
    expect(activeLlm(DEFAULT_SETTINGS)).toMatchObject({ provider: 'local', baseUrl: 'http://localhost:11434/v1', apiKey: '' })
  })

  it.each([
    ['a non-http base URL', { profiles: [{ ...local, baseUrl: 'file:///etc/passwd' }] }, 'profiles.0.baseUrl'],
    ['an unknown provider', { profiles: [{ ...local, provider: 'skynet' }] }, 'profiles.0.provider'],
    ['an empty model', { profiles: [{ ...local, model: '' }] }, 'profiles.0.model'],
    ['a step limit of zero', { agent: { stepLimit: 0, useCache: true } }, 'agent.stepLimit'],
    ['a future version', { version: 99 }, 'version'],
  ])('rejects %s and names the field', (_name, patch, path) => {
    const r = safeParseSettings({ ...DEFAULT_SETTINGS, ...patch })
    expect(r.success).toBe(false)
    if (!r.success) expect(r.error.issues.map((i) => i.path)).toContain(path)
  })

  it('masks keys down to their last four characters', () => {
    expect(maskKey('')).toBe('')
    expect(maskKey('short')).toBe('•••••')
    expect(maskKey('sk-ant-1234567890abcd')).toBe('••••••••abcd')
  })
})
