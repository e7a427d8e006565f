import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  activeLlm,
  confirmFor,
  DEFAULT_SETTINGS,
  maskKey,
  keptAnything,
  mergeSafety,
  mergeScreenshots,
  mergeVault,
  safeParseSettings,
} from '../../src/core/settings'
import { RISK_CATEGORIES } from '../../src/core/exec'

const local = DEFAULT_SETTINGS.profiles[0]

describe('settings', () => {
  it('defaults validate and point at a local model with no key', () => {
    expect(safeParseSettings(DEFAULT_SETTINGS)).toEqual({ success: true, data: DEFAULT_SETTINGS })
    expect(activeLlm(DEFAULT_SETTINGS)).toMatchObject({
      provider: 'local',
      baseUrl: 'http://localhost:11434/v1',
      apiKey: '',
    })
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

describe('mergeSafety: an imported file may tighten safety, never loosen it', () => {
  const all = [...RISK_CATEGORIES]
  const base = { confirm: all, allowDomains: [] as string[], denyDomains: ['evil.example'], skipOwnCommands: false }

  it('keeps every confirmation and block a file would drop, and reports them', () => {
    const r = mergeSafety(base, { confirm: ['credentials'], allowDomains: [], denyDomains: [], skipOwnCommands: false })
    expect(r.safety).toEqual({
      confirm: ['credentials', ...all.filter((c) => c !== 'credentials')],
      allowDomains: [],
      denyDomains: ['evil.example'],
      skipOwnCommands: false,
      showPlans: 'every',
    })
    expect(r.kept).toEqual({ confirm: all.filter((c) => c !== 'credentials'), allow: [], deny: ['evil.example'] })
  })

  it('never lets a file turn on skipping the questions of the person’s own commands; says so', () => {
    const r = mergeSafety(base, { ...base, skipOwnCommands: true })
    expect(r.safety.skipOwnCommands).toBe(false)
    expect(r.kept.ownCommands).toBe(true)
    // Turning it off is tightening: taken.
    expect(mergeSafety({ ...base, skipOwnCommands: true }, base).safety.skipOwnCommands).toBe(false)
  })

  it('never lets a file show fewer plans than the person sees; says so, and takes a file that shows more', () => {
    const r = mergeSafety(base, { ...base, showPlans: 'asking' })
    expect(r.safety.showPlans).toBe('every')
    expect(r.kept.plans).toBe(true)
    expect(mergeSafety({ ...base, showPlans: 'asking' }, { ...base, showPlans: 'asking' }).safety.showPlans).toBe(
      'asking',
    )
    expect(mergeSafety({ ...base, showPlans: 'asking' }, { ...base, showPlans: 'every' })).toMatchObject({
      safety: { showPlans: 'every' },
      kept: { confirm: [], allow: [] },
    })
  })

  it('takes what a file tightens: a new block, an allow list where every site was allowed', () => {
    const r = mergeSafety(
      { ...base, confirm: ['payment'] },
      {
        confirm: ['payment', 'destructive'],
        allowDomains: ['shop.example'],
        denyDomains: ['bad.example'],
        skipOwnCommands: false,
      },
    )
    expect(r.safety).toEqual({
      confirm: ['payment', 'destructive'],
      allowDomains: ['shop.example'],
      denyDomains: ['bad.example', 'evil.example'],
      skipOwnCommands: false,
      showPlans: 'every',
    })
    expect(r.kept).toEqual({ confirm: [], allow: [], deny: ['evil.example'] })
  })

  it('never widens a stored allow list: new sites and an empty list (every site) are kept out', () => {
    const stored = { ...base, allowDomains: ['a.example', 'b.example'] }
    expect(mergeSafety(stored, { ...base, allowDomains: ['a.example', 'c.example'] })).toMatchObject({
      safety: { allowDomains: ['a.example'] },
      kept: { allow: ['c.example'] },
    })
    expect(mergeSafety(stored, { ...base, allowDomains: [] })).toMatchObject({
      safety: { allowDomains: ['a.example', 'b.example'] },
      kept: { allow: ['*'] },
    })
    // Nothing in common: the stored list stays (an empty one would allow every site).
    expect(mergeSafety(stored, { ...base, allowDomains: ['c.example'] })).toMatchObject({
      safety: { allowDomains: ['a.example', 'b.example'] },
      kept: { allow: ['c.example'] },
    })
  })

  it('for any stored and file safety, the result asks about and blocks at least what was stored', () => {
    const cats = fc.subarray([...RISK_CATEGORIES])
    const hosts = fc.subarray(['a.example', 'b.example', 'c.example', 'd.example'])
    const safety = fc.record({ confirm: cats, allowDomains: hosts, denyDomains: hosts, skipOwnCommands: fc.boolean() })
    fc.assert(
      fc.property(safety, safety, (stored, file) => {
        const { safety: out } = mergeSafety(stored, file)
        for (const c of stored.confirm) expect(out.confirm).toContain(c)
        // The person's own commands skip questions only when the stored settings already let them.
        if (!stored.skipOwnCommands) expect(out.skipOwnCommands).toBe(false)
        for (const d of stored.denyDomains) expect(out.denyDomains).toContain(d)
        // Every site the result allows, the stored settings allowed.
        if (stored.allowDomains.length) {
          expect(out.allowDomains.length).toBeGreaterThan(0)
          for (const d of out.allowDomains) expect(stored.allowDomains).toContain(d)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('confirmFor: the person’s own commands skip risk questions only where they said so', () => {
  const safety = { confirm: [...RISK_CATEGORIES], allowDomains: [], denyDomains: [], skipOwnCommands: false }
  it('reads a version-4 object without the switch as off', () => {
    const { skipOwnCommands: _s, ...rest } = DEFAULT_SETTINGS.safety
    const r = safeParseSettings({ ...DEFAULT_SETTINGS, safety: rest })
    expect(r.success && r.data.safety.skipOwnCommands).toBe(false)
  })

  it('asks the whole list for every source while the switch is off', () => {
    expect(confirmFor(safety, true)).toEqual([...RISK_CATEGORIES])
    expect(confirmFor(safety, false)).toEqual([...RISK_CATEGORIES])
  })
  it('with the switch on, keeps only the question about where a step acts for the person’s own commands', () => {
    const on = { ...safety, skipOwnCommands: true }
    expect(confirmFor(on, true)).toEqual(['cross_site'])
    // The model's steps, MCP clients and replays never skip.
    expect(confirmFor(on, false)).toEqual([...RISK_CATEGORIES])
    // A category the person switched off stays off.
    expect(confirmFor({ ...on, confirm: ['payment'] }, true)).toEqual([])
  })
})

describe('an import never loosens screenshots or the vault', () => {
  it('keeps screenshots off and every never-capture site, and says which', () => {
    const stored = { enabled: false, offSites: ['bank.example', 'mail.example'] }
    expect(mergeScreenshots(stored, { enabled: true, offSites: [] })).toEqual({
      screenshots: { enabled: false, offSites: ['bank.example', 'mail.example'] },
      kept: { screenshotsOn: true, offSites: ['bank.example', 'mail.example'] },
    })
    // A file may take fewer pictures: off, and more sites never captured; a site it leaves out stays.
    expect(
      mergeScreenshots({ enabled: true, offSites: ['a.example'] }, { enabled: false, offSites: ['b.example'] }),
    ).toEqual({
      screenshots: { enabled: false, offSites: ['b.example', 'a.example'] },
      kept: { offSites: ['a.example'] },
    })
    expect(
      mergeScreenshots(
        { enabled: true, offSites: ['a.example'] },
        { enabled: true, offSites: ['a.example', 'b.example'] },
      ),
    ).toEqual({ screenshots: { enabled: true, offSites: ['a.example', 'b.example'] }, kept: {} })
  })

  it('adds new secrets and keeps every stored value, naming the ones the file would replace', () => {
    expect(mergeVault({ bank: 'mine', pin: '1234' }, { bank: 'theirs', pin: '1234', extra: 'x' })).toEqual({
      vault: { bank: 'mine', pin: '1234', extra: 'x' },
      kept: ['bank'],
    })
    expect(keptAnything({ confirm: [], allow: [], deny: [], vault: ['bank'] })).toBe(true)
    expect(keptAnything({ confirm: [], allow: [], deny: [], ownCommands: true })).toBe(true)
    expect(keptAnything({ confirm: [], allow: [], deny: [] })).toBe(false)
  })
})
