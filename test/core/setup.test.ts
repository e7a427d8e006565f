import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, kDefaultBaseUrls, type Settings } from '../../src/core/settings'
import { setupStatus } from '../../src/core/setup'

const withProfile = (p: Partial<Settings['profiles'][number]>): Settings => {
  const s = structuredClone(DEFAULT_SETTINGS)
  Object.assign(s.profiles[0], p)
  return s
}

describe('setupStatus', () => {
  it('says a model is missing on the settings Ava installs with, until one has answered', () => {
    expect(setupStatus(DEFAULT_SETTINGS, false)).toEqual({
      missing: 'model',
      answered: false,
      provider: 'local',
      endpoint: 'http://localhost:11434/v1',
    })
    // A person with Ollama on the default address who tested it once is not asked again.
    expect(setupStatus(DEFAULT_SETTINGS, true).missing).toBeNull()
  })

  it('lets a chosen local server through: a failure then names its URL', () => {
    expect(setupStatus(withProfile({ baseUrl: 'http://192.168.1.9:1234/v1' }), false).missing).toBeNull()
    expect(setupStatus(withProfile({ model: 'llama3.1:8b' }), false).missing).toBeNull()
  })

  it("names a missing key for OpenAI's and Anthropic's own endpoints, even after a model answered", () => {
    for (const provider of ['openai', 'anthropic'] as const) {
      const baseUrl = kDefaultBaseUrls[provider]
      expect(setupStatus(withProfile({ provider, baseUrl, apiKey: '' }), true).missing).toBe('key')
      expect(setupStatus(withProfile({ provider, baseUrl: `${baseUrl}/`, apiKey: '   ' }), false).missing).toBe('key')
      expect(setupStatus(withProfile({ provider, baseUrl, apiKey: 'sk-1' }), false).missing).toBeNull()
      // A compatible server of one's own may take no key (the demo's stand-in model does not).
      expect(
        setupStatus(withProfile({ provider, baseUrl: 'http://127.0.0.1:8000/v1', apiKey: '' }), false).missing,
      ).toBeNull()
    }
  })

  it('reads the active profile, not the first', () => {
    const s = structuredClone(DEFAULT_SETTINGS)
    s.profiles.push({
      ...s.profiles[0],
      id: 'cloud',
      name: 'Cloud',
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: '',
    })
    s.activeProfile = 'cloud'
    expect(setupStatus(s, false)).toMatchObject({
      missing: 'key',
      provider: 'openai',
      endpoint: 'https://api.openai.com/v1',
    })
  })
})
