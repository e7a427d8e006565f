import { describe, it, expect } from 'vitest'
import fc from 'fast-check'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createEngine,
  createRegistry,
  decodeRegistry,
  dryRun,
  encodeRegistry,
  hashSources,
  kSourceKinds,
  loadPacks,
  loadPacksCached,
  type ActionRegistry,
  type CachedRegistry,
  type PackSource,
  type RegistryCacheStore,
} from '../../../src/core/registry'
import { FakePort } from './fake-port'

// the validated registry is restored from a stored form keyed by the packs' hash.

const dir = join(import.meta.dirname, '../../../actions')
const builtin = readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()
  .map((f) => ({ path: `actions/${f}`, text: readFileSync(join(dir, f), 'utf8') }))

// A user pack that reaches the parts of the model the built-in ones leave out: extends (inherited
// actions), version overrides, an alias, a deprecation, a cross-file warning, and a broken file.
const kChild = `namespace: shop
version: 2.0.0
extends: common
compatibility:
  min_version: 1.0.0
  version_global: Shop.version
  version_overrides:
    "<2.0.0":
      selectors:
        buy: "css:.old-buy"
selectors:
  buy:
    primary: "css:.buy"
    fallback: ["role:button[name='Buy']"]
actions:
  cart:buy:
    description: Buys what is in the cart.
    since: 1.1.0
    risk: high
    timeout: 9000
    params:
      count:
        type: number
        description: How many.
        default: 2
      mode:
        type: enum
        description: How.
        values: [fast, slow]
        default: fast
    steps:
      - action: click
        when: "\${params.mode} == 'fast'"
        retry: 1
        retryDelay: 5
        onError: fallback
        args:
          selector: "\${selectors.buy}"
        fallback:
          - action: press
            args: { key: Enter }
      - action: getText
        output: total
        args: { selector: "css:.total" }
      - action: run
        args: { action: "other:x:y" }
    returns:
      total: "\${steps.total}"
    verify:
      - condition: "\${steps.total} != ''"
        message: No total
  cart:old:
    description: The old name of cart:buy.
    alias_of: cart:buy
    deprecated: true
    deprecated_message: Use cart:buy.
`
const kBroken = 'namespace: broken\nversion: 1.0.0\nactions:\n  a:b:\n    steps:\n      - action: clik\n'

const sources: PackSource[] = [
  { source: 'builtin', files: builtin },
  {
    source: 'user',
    files: [
      { path: 'user:shop', text: kChild },
      { path: 'user:broken', text: kBroken },
    ],
  },
]

// What a good cache of `sources` holds; corrupt ones are made from it.
const good = encodeRegistry(loadPacks(sources), await hashSources(sources)) as CachedRegistry

/** A store in memory that counts writes, as chrome.storage would hold the form. */
function memoryStore(
  initial: CachedRegistry | null = null,
): RegistryCacheStore & { value: CachedRegistry | null; writes: number } {
  const store = {
    value: initial,
    writes: 0,
    async get() {
      return store.value
    },
    async set(value: CachedRegistry) {
      store.value = value
      store.writes++
    },
  }
  return store
}

function restored(result = loadPacks(sources), hash = 'h'): ActionRegistry {
  const form = encodeRegistry(result, hash)
  if (!form) throw new Error('not cacheable')
  // Through JSON text and back, as storage holds it.
  const decoded = decodeRegistry(JSON.parse(JSON.stringify(form)))
  if (!decoded.success) throw new Error(decoded.error)
  const registry = createRegistry()
  registry.adopt(decoded.data)
  return registry
}

function fresh(): ActionRegistry {
  const registry = createRegistry()
  registry.load(sources)
  return registry
}

describe('registry cache: round trip', () => {
  const a = fresh()
  const b = restored()

  it('the fixture reaches the parts of the model that matter', () => {
    const shop = a.getNamespace('shop')
    expect(shop?.compatibility?.versionOverrides).toHaveLength(1)
    expect(a.all().some((x) => x.inheritedFrom === 'common')).toBe(true)
    expect(a.issues.map((i) => i.code)).toEqual(expect.arrayContaining(['UNKNOWN_STEP_ACTION', 'UNKNOWN_ACTION_REF']))
    expect(a.files.map((f) => f.ok)).toContain(false)
  })

  it('lists, describes, searches and reports like a freshly loaded registry', () => {
    expect(b.size).toBe(a.size)
    expect(b.list()).toEqual(a.list())
    expect(b.files).toEqual(a.files)
    expect(b.issues).toEqual(a.issues)
    for (const action of a.all()) {
      expect(b.describe(action.fullName), action.fullName).toEqual(a.describe(action.fullName))
      expect(b.getNamespace(action.namespace)).toEqual(a.getNamespace(action.namespace))
    }
    for (const query of ['dialog', 'cart buy', 'login password', 'nothing-like-this'])
      expect(b.search(query)).toEqual(a.search(query))
  })

  it('looks up short names, aliases and unknown names the same way', () => {
    for (const name of [
      'shop:cart:old',
      'cart:buy',
      'auth:login',
      'shop:auth:login',
      'dialog:open',
      'nope:x:y',
      'cart:by',
    ]) {
      expect(b.lookup(name), name).toEqual(a.lookup(name))
    }
  })

  it('plans every action the same way', () => {
    for (const action of a.all()) {
      const params = Object.fromEntries(
        Object.entries(action.params)
          .filter(([, p]) => p.required)
          .map(([k]) => [k, 'x']),
      )
      for (const version of [undefined, '1.5.0'])
        expect(dryRun(b, action.fullName, params, { version })).toEqual(dryRun(a, action.fullName, params, { version }))
    }
  })

  it('runs actions with the same steps and results', async () => {
    const run = async (registry: ActionRegistry, name: string, params: Record<string, unknown>) => {
      // A page where every selector finds one element, so no step waits for its timeout.
      const port = new FakePort()
      port.query = async (selector) => {
        port.calls.push({ method: 'query', args: [selector] })
        return 1
      }
      port.texts.set('css:.total', '42')
      const result = await createEngine({ registry, port, env: {} }).run(name, params)
      // Timings differ from run to run; everything else must not.
      const timeless = JSON.parse(JSON.stringify(result, (key, value: unknown) => (key === 'durationMs' ? 0 : value)))
      return { result: timeless, calls: port.actions() }
    }
    // The alias ends in a run of an action nobody defines, so one failure is compared as well.
    for (const [name, params, success] of [
      ['shop:cart:old', { mode: 'fast' }, false],
      ['shop:auth:login', { username: 'u', password: 'p' }, true],
      ['elementplus:dialog:close', {}, true],
    ] as const) {
      const expected = await run(a, name, params)
      expect(expected.result.success, name).toBe(success)
      expect(await run(b, name, params), name).toEqual(expected)
    }
  })
})

describe('registry cache: hash', () => {
  const file = fc.record({ path: fc.string({ maxLength: 12 }), text: fc.string({ maxLength: 40 }) })
  const sourceList = fc.array(
    fc.record({ source: fc.constantFrom(...kSourceKinds), files: fc.array(file, { minLength: 1, maxLength: 3 }) }),
    { minLength: 1, maxLength: 3 },
  )

  it('is the same for the same sources and changes with any text, path or kind', async () => {
    await fc.assert(
      fc.asyncProperty(
        sourceList,
        fc.nat(),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 3 }),
        fc.constantFrom('text', 'path', 'kind'),
        async (list, si, fi, insert, what) => {
          const s = si % list.length
          const f = fi % list[s].files.length
          const changed = structuredClone(list)
          const target = changed[s].files[f]
          if (what === 'text') target.text = target.text + insert
          else if (what === 'path') target.path = insert + target.path
          else changed[s].source = kSourceKinds[(kSourceKinds.indexOf(list[s].source) + 1) % kSourceKinds.length]
          expect(await hashSources(structuredClone(list))).toBe(await hashSources(list))
          expect(await hashSources(changed)).not.toBe(await hashSources(list))
        },
      ),
      { numRuns: 300, interruptAfterTimeLimit: 20_000 },
    )
  })

  it('tells apart texts whose pieces only move across a file boundary', async () => {
    const one: PackSource[] = [
      {
        source: 'user',
        files: [
          { path: 'a', text: 'xy' },
          { path: 'b', text: 'z' },
        ],
      },
    ]
    const two: PackSource[] = [
      {
        source: 'user',
        files: [
          { path: 'a', text: 'x' },
          { path: 'b', text: 'yz' },
        ],
      },
    ]
    expect(await hashSources(one)).not.toBe(await hashSources(two))
  })
})

describe('registry cache: loading through a store', () => {
  it('parses and stores on a miss, then restores without writing', async () => {
    const store = memoryStore()
    const first = await loadPacksCached(sources, store)
    expect(first.cache).toBe('miss')
    expect(first.result).toEqual(loadPacks(sources))
    expect(store.writes).toBe(1)
    expect(store.value?.hash).toBe(first.hash)

    const second = await loadPacksCached(sources, store)
    expect(second.cache).toBe('hit')
    expect(second.result).toEqual(first.result)
    expect(store.writes).toBe(1)
  })

  it('parses again and rewrites the cache when any pack text changed', async () => {
    const store = memoryStore()
    await loadPacksCached(sources, store)
    const edited: PackSource[] = [
      sources[0],
      { source: 'user', files: [{ path: 'user:shop', text: kChild.replace('Buys what', 'Purchases what') }] },
    ]
    const next = await loadPacksCached(edited, store)
    expect(next.cache).toBe('miss')
    expect(next.result.namespaces.find((n) => n.namespace === 'shop')?.actions['cart:buy'].description).toBe(
      'Purchases what is in the cart.',
    )
    expect(store.writes).toBe(2)
    expect((await loadPacksCached(edited, store)).cache).toBe('hit')
  })

  const corrupt: Array<[string, CachedRegistry]> = [
    ['text that is not JSON', { ...good, json: good.json.slice(0, good.json.length >> 1) }],
    ['JSON of another shape', { ...good, json: JSON.stringify({ namespaces: 'all of them', files: [] }) }],
    ['an action missing a field', { ...good, json: good.json.replace('"steps":', '"stepz":') }],
    ['a field of the wrong type', { ...good, json: good.json.replace('"risk":"low"', '"risk":"medium"') }],
  ]
  it.each(corrupt)('falls back to a full parse on %s and replaces the cache', async (_what, form) => {
    const store = memoryStore(form)
    const out = await loadPacksCached(sources, store)
    expect(out.cache).toBe('invalid')
    expect(out.problem).toMatch(/cached registry/)
    expect(out.result).toEqual(loadPacks(sources))
    expect(store.value).toEqual(good)
  })

  it('falls back when the store cannot be read or written', async () => {
    const broken: RegistryCacheStore = {
      get: () => Promise.reject(new Error('storage gone')),
      set: () => Promise.reject(new Error('quota')),
    }
    const out = await loadPacksCached(sources, broken)
    expect(out).toMatchObject({ cache: 'invalid', problem: 'cache could not be read: storage gone' })
    expect(out.result).toEqual(loadPacks(sources))
  })

  it('does not store a pack whose values JSON would change (.inf, -0)', async () => {
    for (const param of [
      'type: object\n        description: o\n        default: { x: .inf }',
      'type: number\n        description: n\n        default: -0.0',
    ]) {
      const text = `namespace: odd\nversion: 1.0.0\nactions:\n  a:b:\n    description: d\n    params:\n      p:\n        ${param}\n    steps:\n      - action: getUrl\n`
      const odd: PackSource[] = [{ source: 'user', files: [{ path: 'odd', text }] }]
      expect(loadPacks(odd).issues, param).toEqual([])
      const store = memoryStore()
      expect((await loadPacksCached(odd, store)).cache).toBe('miss')
      expect(store.writes, param).toBe(0)
    }
  })
})
