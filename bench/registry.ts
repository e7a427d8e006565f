// npm run bench -- registry
// Loading the packs as a service worker start does, for the bundled packs and for 20
// generated packs holding 500 actions: cold (YAML parse + validation + merge) and cached (hash the
// texts, restore the stored form, check its shape). The chrome.storage read itself is not in the
// cached figure: Node has none. Then evaluateCondition throughput.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createRegistry,
  encodeRegistry,
  evaluateCondition,
  hashSources,
  loadPacks,
  loadPacksCached,
  type CachedRegistry,
  type PackSource,
} from '../src/core/registry'
import { median, report, runsOf } from './lib/report'

const kPacks = 20
const kActionsPerPack = 25
const kRuns = runsOf(15)

/**
 * A pack shaped like the built-in ones: selector aliases with fallbacks, documented params, a
 * few steps with conditions, a fallback and returns. `salt` changes every name and template so
 * no run can profit from caches filled by the one before: each load is cold.
 */
function generatePack(index: number, salt: number): string {
  const lines: string[] = [
    `namespace: bench${index}s${salt}`,
    'version: 1.2.3',
    `description: Generated pack ${index} for the registry bench (run ${salt}).`,
    'compatibility:',
    '  min_version: 1.0.0',
    '  version_overrides:',
    '    "<1.5.0":',
    '      selectors:',
    `        trigger: "css:.old-trigger-${salt}"`,
    'selectors:',
    '  trigger:',
    `    primary: "css:.trigger-${index}-${salt}"`,
    '    fallback:',
    `      - "role:button[name='Open ${salt}']"`,
    `      - "text:打开${salt}"`,
    `  dialog: "css:.dialog-${salt} .body"`,
    `  input: "xpath://div[@class='item-${salt}']//input"`,
    'actions:',
  ]
  for (let a = 0; a < kActionsPerPack; a++) {
    const p = `label${salt}x${a}`
    lines.push(
      `  comp${a}:act${salt}:`,
      `    description: Opens thing ${a} of pack ${index} and fills its field (${salt}).`,
      '    since: 1.0.0',
      '    params:',
      `      ${p}:`,
      '        type: string',
      '        description: The label to type.',
      '        required: true',
      '      mode:',
      '        type: enum',
      '        description: How to open it.',
      '        values: [click, keyboard]',
      '        default: click',
      '      count:',
      '        type: number',
      '        description: How many times.',
      `        default: ${a}`,
      '    steps:',
      '      - action: click',
      `        when: "\${params.mode} == 'click' && \${params.count} >= ${a % 7}"`,
      '        args:',
      '          selector: "${selectors.trigger}"',
      '        fallback:',
      '          - action: press',
      '            args:',
      '              key: Enter',
      '      - action: wait',
      '        args:',
      '          selector: "${selectors.dialog}"',
      '          state: visible',
      '      - action: fill',
      '        retry: 1',
      '        retryDelay: 200',
      '        args:',
      '          selector: "${selectors.input}"',
      `          value: "\${params.${p}} #${salt}"`,
      '      - action: getText',
      '        output: text',
      '        args:',
      '          selector: "${selectors.dialog}"',
      '    verify:',
      `      - condition: "\${steps.text} != ''"`,
      `        message: "Dialog ${a} stayed empty"`,
      '    returns:',
      '      text: "${steps.text}"',
    )
  }
  return `${lines.join('\n')}\n`
}

function sources(salt: number): PackSource[] {
  const files = Array.from({ length: kPacks }, (_, i) => ({
    path: `bench/pack-${i}.yaml`,
    text: generatePack(i, salt),
  }))
  return [{ source: 'builtin', files }]
}

function bundledSources(): PackSource[] {
  const dir = join(import.meta.dirname, '../actions')
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => ({ path: `actions/${f}`, text: readFileSync(join(dir, f), 'utf8') }))
  return [{ source: 'builtin', files }]
}

/**
 * Times a cold load of each input, then a cached load of each from the form its cold load left.
 * The cached path is the extension's own: `loadPacksCached` against a store holding that form,
 * then the registry's index.
 */
async function coldAndCached(name: string, inputs: PackSource[][], expectActions: number): Promise<void> {
  const cold: number[] = []
  const forms: CachedRegistry[] = []
  for (const sources of inputs) {
    const t0 = performance.now()
    const result = createRegistry().load(sources)
    cold.push(performance.now() - t0)
    const actions = result.namespaces.reduce((n, ns) => n + Object.keys(ns.actions).length, 0)
    const errors = result.issues.filter((i) => i.severity === 'error')
    if (actions !== expectActions || errors.length)
      throw new Error(`${name}: ${actions} actions, ${errors.length} errors: ${errors[0]?.message}`)
    const form = encodeRegistry(result, await hashSources(sources))
    if (!form) throw new Error(`${name}: the load result is not JSON-safe, so it would never be cached`)
    forms.push(form)
  }
  const cached: number[] = []
  for (const [i, sources] of inputs.entries()) {
    const store = { get: async () => forms[i], set: async () => undefined }
    const t0 = performance.now()
    const { result, cache } = await loadPacksCached(sources, store)
    const registry = createRegistry()
    registry.adopt(result)
    cached.push(performance.now() - t0)
    if (cache !== 'hit' || registry.size !== expectActions)
      throw new Error(`${name}: cached load was a ${cache} with ${registry.size} actions`)
  }
  const hashing: number[] = []
  for (const sources of inputs) {
    const t0 = performance.now()
    await hashSources(sources)
    hashing.push(performance.now() - t0)
  }
  const kb = (n: number) => n / 1024
  report({ suite: 'registry', case: name, metric: 'cold_load_ms', value: median(cold), unit: 'ms' })
  report({ suite: 'registry', case: name, metric: 'cold_load_min_ms', value: Math.min(...cold), unit: 'ms' })
  report({ suite: 'registry', case: name, metric: 'cached_load_ms', value: median(cached), unit: 'ms' })
  report({ suite: 'registry', case: name, metric: 'cached_load_min_ms', value: Math.min(...cached), unit: 'ms' })
  report({ suite: 'registry', case: name, metric: 'hash_ms', value: median(hashing), unit: 'ms' })
  report({
    suite: 'registry',
    case: name,
    metric: 'pack_text_kb',
    value: kb(inputs[0][0].files.reduce((n, f) => n + f.text.length, 0)),
    unit: 'kB',
  })
  report({ suite: 'registry', case: name, metric: 'cache_kb', value: kb(forms[0].json.length), unit: 'kB' })
}

async function loadBench(): Promise<void> {
  // Texts are made outside the timed region. The bundled packs are the same text every run, so
  // from the second run on their templates are in the interpolator's cache; the generated ones
  // are salted per run and stay cold.
  const bundled = bundledSources()
  const bundledActions = loadPacks(bundled).namespaces.reduce((n, ns) => n + Object.keys(ns.actions).length, 0)
  await coldAndCached(
    'bundled_packs',
    Array.from({ length: kRuns }, () => bundled),
    bundledActions,
  )
  await coldAndCached(
    `${kPacks}_packs_${kPacks * kActionsPerPack}_actions`,
    Array.from({ length: kRuns }, (_, run) => sources(run + 1)),
    kPacks * kActionsPerPack,
  )
}

function conditionsBench(): void {
  const expressions = [
    "${params.mode} == 'click' && ${params.count} >= 3",
    '${steps.found} != null || !${params.strict}',
    "(${params.a} > 1 && ${params.b} <= 2) || ${env.CI} == 'true'",
    "${params.user.name} == 'alice'",
    '!(${params.count} < 0) && ${params.enabled}',
  ]
  const context = {
    params: { mode: 'click', count: 5, strict: false, a: 2, b: 2, user: { name: 'alice' }, enabled: true },
    env: { CI: 'false' },
    steps: { found: { ref: 'e5' } },
    selectors: {},
  }
  // The engine evaluates the same few conditions of a pack over and over, so parsed trees are
  // cached (as in a real run); the uncached figure is the cost of a condition seen once.
  let n = 0
  const budgetMs = 400
  const t0 = performance.now()
  while (performance.now() - t0 < budgetMs) {
    for (let i = 0; i < 1000; i++) evaluateCondition(expressions[i % expressions.length], context)
    n += 1000
  }
  report({
    suite: 'registry',
    case: 'when_conditions',
    metric: 'conditions_per_s',
    value: Math.round(n / ((performance.now() - t0) / 1000)),
    unit: '1/s',
  })

  let m = 0
  const t1 = performance.now()
  while (performance.now() - t1 < budgetMs) {
    for (let i = 0; i < 200; i++) evaluateCondition(`${expressions[i % expressions.length]} && ${m + i} >= 0`, context)
    m += 200
  }
  report({
    suite: 'registry',
    case: 'when_conditions_unseen',
    metric: 'conditions_uncached_per_s',
    value: Math.round(m / ((performance.now() - t1) / 1000)),
    unit: '1/s',
  })
}

await loadBench()
conditionsBench()
