import { describe, it, expect } from 'vitest'
import { createRegistry, loadPacks, type PackSource } from '../../../src/core/registry'

const pack = (ns: string, body: string, extra = '') => `namespace: ${ns}\nversion: 1.0.0\n${extra}actions:\n${body}`
const action = (
  name: string,
  description: string,
  steps = '      - action: wait\n        args: { ms: 1 }\n',
  params = '',
) => `  ${name}:\n    description: ${description}\n${params}    steps:\n${steps}`

describe('loader', () => {
  it('later sources override earlier ones, action by action, and record where each came from', () => {
    const sources: PackSource[] = [
      {
        source: 'builtin',
        files: [
          {
            path: 'actions/site.yaml',
            text: pack(
              'site',
              action('a:one', 'builtin one') + action('a:two', 'builtin two'),
              'selectors:\n  btn: css:.b1\n  keep: css:.k\n',
            ),
          },
        ],
      },
      {
        source: 'cli-home',
        files: [
          {
            path: '~/.ava/actions/site.yaml',
            text: pack('site', action('a:two', 'home two'), 'selectors:\n  btn: css:.b2\n'),
          },
        ],
      },
      {
        source: 'cli-project',
        files: [{ path: '.ava/actions/site.yaml', text: pack('site', action('a:three', 'project three')) }],
      },
    ]
    const registry = createRegistry()
    registry.load(sources)
    expect(registry.get('site:a:one')).toMatchObject({
      description: 'builtin one',
      source: { source: 'builtin', file: 'actions/site.yaml' },
    })
    expect(registry.get('site:a:two')).toMatchObject({ description: 'home two', source: { source: 'cli-home' } })
    expect(registry.get('site:a:three')?.source.source).toBe('cli-project')
    expect(registry.getNamespace('site')?.selectors).toEqual({
      btn: { primary: 'css:.b2', fallback: [] },
      keep: { primary: 'css:.k', fallback: [] },
    })
    expect(registry.list('site')[0].sources.map((s) => s.source)).toEqual(['builtin', 'cli-home', 'cli-project'])
  })

  it('resolves extends with the merge rules', () => {
    const parent = pack(
      'base',
      action('d:open', 'open it') + action('d:close', 'close it'),
      'description: Base\ncompatibility:\n  min_version: 1.0.0\n  version_overrides:\n    "1.x":\n      selectors:\n        btn: css:.v1\nselectors:\n  btn: css:.b\n  other: css:.o\n',
    )
    const child = `namespace: kid\nversion: 2.0.0\nextends: [base]\ncompatibility:\n  max_version: 3.0.0\nselectors:\n  btn: css:.kid\nactions:\n${action('d:close', 'close differently')}${action('d:extra', 'new')}`
    const { namespaces, issues } = loadPacks([
      {
        source: 'user',
        files: [
          { path: 'c.yaml', text: child },
          { path: 'p.yaml', text: parent },
        ],
      },
    ])
    expect(issues).toEqual([])
    const kid = namespaces.find((n) => n.namespace === 'kid')
    expect(kid?.version).toBe('2.0.0')
    expect(kid?.description).toBe('Base')
    expect(Object.keys(kid?.actions ?? {}).sort()).toEqual(['d:close', 'd:extra', 'd:open'])
    expect(kid?.actions['d:open']).toMatchObject({
      fullName: 'kid:d:open',
      namespace: 'kid',
      inheritedFrom: 'base',
      source: { file: 'p.yaml' },
    })
    expect(kid?.actions['d:close'].description).toBe('close differently')
    expect(kid?.selectors.btn.primary).toBe('css:.kid')
    expect(kid?.selectors.other.primary).toBe('css:.o')
    expect(kid?.compatibility).toMatchObject({
      minVersion: '1.0.0',
      maxVersion: '3.0.0',
      versionOverrides: [{ pattern: '1.x' }],
    })
  })

  it('skips a file whose extends names no pack, or extends in a circle, and keeps the rest', () => {
    const { namespaces, files } = loadPacks([
      {
        source: 'user',
        files: [
          { path: 'orphan.yaml', text: pack('orphan', action('a:b', 'x'), 'extends: missing\n') },
          { path: 'x.yaml', text: pack('x', action('a:b', 'x'), 'extends: y\n') },
          { path: 'y.yaml', text: pack('y', action('a:b', 'y'), 'extends: x\n') },
          { path: 'ok.yaml', text: pack('ok', action('a:b', 'fine')) },
        ],
      },
    ])
    expect(namespaces.map((n) => n.namespace)).toEqual(['ok'])
    expect(files.map((f) => [f.path, f.ok, f.issues.map((i) => i.code)])).toEqual([
      ['orphan.yaml', false, ['EXTENDS_NOT_FOUND']],
      ['x.yaml', false, ['EXTENDS_CYCLE']],
      ['y.yaml', false, ['EXTENDS_CYCLE']],
      ['ok.yaml', true, []],
    ])
    expect(files[0].issues[0]).toMatchObject({ line: 3, col: 10 })
  })

  it('finds run cycles that span files, and warns about run targets nobody defines', () => {
    const runStep = (target: string) => `      - action: run\n        args: { action: "${target}" }\n`
    const { files } = loadPacks([
      {
        source: 'user',
        files: [
          { path: 'a.yaml', text: pack('a', action('x:go', 'to b', runStep('b:x:go'))) },
          {
            path: 'b.yaml',
            text: pack(
              'b',
              action('x:go', 'to a', runStep('a:x:go')) + action('x:lost', 'nowhere', runStep('c:x:none')),
            ),
          },
        ],
      },
    ])
    const codes = files.flatMap((f) => f.issues.map((i) => `${f.path}:${i.code}:${i.severity}`))
    expect(codes).toContain('b.yaml:UNKNOWN_ACTION_REF:warning')
    expect(codes.filter((c) => c.includes('CIRCULAR_RUN'))).toHaveLength(1)
  })
})

describe('registry', () => {
  const registry = createRegistry()
  registry.load([
    {
      source: 'builtin',
      files: [
        {
          path: 'ui.yaml',
          text: pack(
            'ui',
            action(
              'dialog:open',
              'Open a modal dialog',
              undefined,
              '    params:\n      trigger:\n        type: string\n        description: label\n',
            ) +
              action(
                'select:choose',
                'Pick an option in a dropdown',
                undefined,
                '    params:\n      option:\n        type: string\n        description: text\n',
              ) +
              '  dialog:show:\n    deprecated: true\n    deprecated_message: Use dialog:open\n    alias_of: dialog:open\n',
          ),
        },
        { path: 'other.yaml', text: pack('other', action('select:choose', 'Another select')) },
      ],
    },
  ])

  it('indexes by namespace:component:action and accepts unique short names', () => {
    expect(registry.get('ui:dialog:open')?.fullName).toBe('ui:dialog:open')
    expect(registry.get('dialog:open')?.fullName).toBe('ui:dialog:open')
    expect(registry.get('select:choose')).toBeUndefined()
    const lookup = registry.lookup('select:choose')
    expect(lookup.ok).toBe(false)
    if (!lookup.ok) expect(lookup.message).toContain('ui:select:choose, other:select:choose')
  })

  it('follows alias_of and warns about deprecation', () => {
    const lookup = registry.lookup('ui:dialog:show')
    expect(lookup.ok && lookup.action.fullName).toBe('ui:dialog:open')
    expect(lookup.ok && lookup.warnings).toEqual(['ui:dialog:show is deprecated: Use dialog:open'])
  })

  it('suggests a near name when one is missing', () => {
    const lookup = registry.lookup('ui:dialog:opne')
    expect(lookup.ok).toBe(false)
    if (!lookup.ok) expect(lookup.message).toBe('No action "ui:dialog:opne". Did you mean "ui:dialog:open"?')
  })

  it('lists namespaces, optionally one', () => {
    expect(registry.list().map((n) => [n.namespace, n.actions.map((a) => a.name)])).toEqual([
      ['other', ['other:select:choose']],
      ['ui', ['ui:dialog:open', 'ui:dialog:show', 'ui:select:choose']],
    ])
    expect(registry.list('other')).toHaveLength(1)
  })

  it('searches names, param names and descriptions, names first', () => {
    expect(registry.search('select').map((a) => a.name)).toEqual(['other:select:choose', 'ui:select:choose'])
    expect(registry.search('trigger').map((a) => a.name)).toEqual(['ui:dialog:open'])
    expect(registry.search('modal').map((a) => a.name)).toEqual(['ui:dialog:open'])
    expect(registry.search('dropdown option').map((a) => a.name)).toEqual(['ui:select:choose'])
    expect(registry.search('nothing-like-this')).toEqual([])
  })

  it('describes an action with its params', () => {
    expect(registry.describe('ui:dialog:open')).toMatchObject({
      name: 'ui:dialog:open',
      params: ['trigger'],
      paramDetails: { trigger: { type: 'string' } },
    })
  })

  it('reloads from its provider and tells listeners', async () => {
    let version = 1
    const live = createRegistry(() => [
      { source: 'user', files: [{ path: 'p.yaml', text: pack('live', action(`a:v${version}`, 'v')) }] },
    ])
    let told = 0
    live.onReload(() => told++)
    await live.reload()
    expect(live.get('live:a:v1')).toBeDefined()
    version = 2
    await live.reload()
    expect(live.get('live:a:v1')).toBeUndefined()
    expect(live.get('live:a:v2')).toBeDefined()
    expect(told).toBe(2)
  })
})
