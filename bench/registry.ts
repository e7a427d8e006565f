// npm run bench -- registry
// Cold load + validation of 20 generated packs holding 500 actions (aim: ≤ 50 ms on Node, issue 3),
// and evaluateCondition throughput.
import { evaluateCondition, loadPacks, createRegistry, type PackSource } from '../src/core/registry'
import { median, report } from './lib/report'

const kPacks = 20
const kActionsPerPack = 25
const kRuns = 15

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
  const files = Array.from({ length: kPacks }, (_, i) => ({ path: `bench/pack-${i}.yaml`, text: generatePack(i, salt) }))
  return [{ source: 'builtin', files }]
}

async function loadBench(): Promise<void> {
  // Generate texts outside the timed region; only loading and validation are measured.
  const inputs = Array.from({ length: kRuns + 1 }, (_, run) => sources(run + 1))
  const check = loadPacks(inputs[0])
  const actions = check.namespaces.reduce((n, ns) => n + Object.keys(ns.actions).length, 0)
  const errors = check.issues.filter((i) => i.severity === 'error')
  if (actions !== kPacks * kActionsPerPack || errors.length) {
    throw new Error(`bench packs did not load cleanly: ${actions} actions, ${errors.length} errors: ${errors[0]?.message}`)
  }
  const times: number[] = []
  for (let run = 1; run <= kRuns; run++) {
    const t0 = performance.now()
    createRegistry().load(inputs[run])
    times.push(performance.now() - t0)
  }
  const bytes = inputs[1][0].files.reduce((n, f) => n + f.text.length, 0)
  report({ suite: 'registry', case: `${kPacks}_packs_${actions}_actions`, metric: 'load_500_actions_ms', value: median(times), unit: 'ms' })
  report({ suite: 'registry', case: `${kPacks}_packs_${actions}_actions`, metric: 'load_min_ms', value: Math.min(...times), unit: 'ms' })
  report({ suite: 'registry', case: `${kPacks}_packs_${actions}_actions`, metric: 'pack_text_kb', value: bytes / 1024, unit: 'kB' })
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
  report({ suite: 'registry', case: 'when_conditions', metric: 'conditions_per_s', value: Math.round(n / ((performance.now() - t0) / 1000)), unit: '1/s' })

  let m = 0
  const t1 = performance.now()
  while (performance.now() - t1 < budgetMs) {
    for (let i = 0; i < 200; i++) evaluateCondition(`${expressions[i % expressions.length]} && ${m + i} >= 0`, context)
    m += 200
  }
  report({ suite: 'registry', case: 'when_conditions_unseen', metric: 'conditions_uncached_per_s', value: Math.round(m / ((performance.now() - t1) / 1000)), unit: '1/s' })
}

await loadBench()
conditionsBench()
