import { describe, it, expect } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRegistry, dryRun, validatePack } from '../../../src/core/registry'

// Meta-test (STYLE.md "Meta-tests guard conventions"): every built-in pack validates, without
// warnings, and every action and parameter says what it is for.

const dir = join(import.meta.dirname, '../../../actions')
const files = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
const read = (f: string) => ({ path: `actions/${f}`, text: readFileSync(join(dir, f), 'utf8') })

describe('built-in packs', () => {
  it('include common and elementplus', () => {
    expect(files).toEqual(expect.arrayContaining(['common.yaml', 'elementplus.yaml']))
  })

  it.each(files)('%s validates with no errors and no warnings', (f) => {
    const { path, text } = read(f)
    expect(validatePack(text, { file: path }).issues).toEqual([])
  })

  const registry = createRegistry()
  const loaded = registry.load([{ source: 'builtin', files: files.map(read) }])

  it('load together without cross-pack problems', () => {
    expect(loaded.issues).toEqual([])
  })

  it('document every action and every param', () => {
    for (const action of registry.all()) {
      if (action.aliasOf) continue
      expect(action.description.length, action.fullName).toBeGreaterThan(15)
      for (const [name, param] of Object.entries(action.params))
        expect(param.description.length, `${action.fullName} --${name}`).toBeGreaterThan(5)
    }
  })

  it('have the actions the bundled packs promise', () => {
    const names = registry.all().map((a) => a.fullName)
    expect(names).toEqual(
      expect.arrayContaining([
        'common:auth:login',
        'common:auth:logout',
        'common:page:search',
        'common:cookies:dismiss',
        'common:dialog:confirm',
        'elementplus:dialog:open',
        'elementplus:dialog:close',
        'elementplus:select:choose',
        'elementplus:date-picker:set',
        'elementplus:message-box:confirm',
        'elementplus:table:row-action',
        'elementplus:form:fill',
      ]),
    )
    expect(registry.get('common:auth:login')?.params.password.secret).toBe(true)
  })

  it('use Element Plus 2.x class names, and the pre-2.5 select markup through an override', () => {
    const current = dryRun(
      registry,
      'elementplus:select:choose',
      { label: '状态', option: '启用' },
      { version: '2.14.8' },
    )
    const old = dryRun(registry, 'elementplus:select:choose', { label: '状态', option: '启用' }, { version: '2.4.0' })
    expect(current.plan?.steps[0].selectors?.selector.candidates[0]).toContain('el-select__wrapper')
    expect(old.plan?.overridesApplied).toEqual(['<2.5.0'])
    expect(old.plan?.steps[0].selectors?.selector.candidates[0]).toContain('el-input__inner')
    const text = read('elementplus.yaml').text
    for (const cls of [
      '.el-dialog',
      '.el-dialog__headerbtn',
      'el-select-dropdown__item',
      '.el-message-box__btns',
      'el-table__row',
      'el-date-editor',
      'el-form-item',
    ])
      expect(text).toContain(cls)
  })

  it('every action plans cleanly with plausible params', () => {
    for (const action of registry.all()) {
      const lookup = registry.lookup(action.fullName)
      const target = lookup.ok ? lookup.action : action
      const params = Object.fromEntries(
        Object.entries(target.params)
          .filter(([, p]) => p.required)
          .map(([k]) => [k, 'x']),
      )
      const result = dryRun(registry, action.fullName, params)
      expect(result.error, action.fullName).toBeUndefined()
      const invalid = JSON.stringify(result.plan).includes('"invalid"')
      expect(invalid, `${action.fullName} has selectors that do not parse`).toBe(false)
    }
  })
})
