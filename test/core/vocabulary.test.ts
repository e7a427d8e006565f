// The one step vocabulary (src/core/vocabulary.ts) and the meta-test that keeps it the only one:
// every descriptor has all its parts (schema, counting, navigation, gate, the person's words in
// both languages, the mapping to the other tables), its docs, and no other file under src/ keeps
// its own list of action names (the recipe in docs/architecture.md, "A new action").
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  countsAsStep,
  domAction,
  flowStepCounts,
  flowStepNavigates,
  kDomActions,
  kFlowSteps,
  instructionCounts,
  kInstructions,
  kTabActions,
  PageActionSchema,
  vocabularyMessages,
} from '../../src/core/vocabulary'
import { actionOf, mayNavigate, type PageCommand } from '../../src/core/page/command'
import { InstructionSchema } from '../../src/core/instruction/schema'
import { FlowStepSchema } from '../../src/core/flows/schema'
import {
  instructionLoads,
  instructionOnlyLooks,
  instructionOpens,
  kPackSteps,
  packStepComposes,
  packStepOpens,
  seesOnly,
} from '../../src/core/vocabulary'
import { kStepActionNames } from '../../src/core/registry/step-actions'
// @ts-expect-error: a plain script of the lint chain, without type declarations
import * as decisions from '../../scripts/check-vocabulary.mjs'
import en from '../../src/core/locales/en'
import zhCN from '../../src/core/locales/zh-CN'

const root = resolve(import.meta.dirname, '../..')
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('every descriptor has its parts', () => {
  it.each(kDomActions.map((d) => [d.name, d] as const))('DOM action %s', (name, d) => {
    expect(Object.keys(d.fields).length, `${name}: fields`).toBeGreaterThan(0)
    expect(['required', 'optional', 'none']).toContain(d.target)
    expect(typeof d.counts).toBe('boolean')
    expect(typeof d.navigates).toBe('boolean')
    expect(typeof d.gate.changes).toBe('boolean')
    // A risk reading is about what a step would do: an action that changes nothing has none.
    if (d.gate.risk) expect(d.gate.changes, `${name}: risky but changes nothing`).toBe(true)
    // Whatever may take its document with it, or change the page, is a step the limit counts.
    if (d.navigates || d.gate.changes) expect(d.counts, `${name}: acts but is not counted`).toBe(true)
    expect(d.says.en.trim(), `${name}: English words`).not.toBe('')
    expect(d.says.zh.trim(), `${name}: Chinese words`).not.toBe('')
    expect(placeholders(d.says.zh)).toEqual(placeholders(d.says.en))
    if (d.shownAs)
      expect(
        kInstructions.map((i) => i.name),
        `${name}: shownAs`,
      ).toContain(d.shownAs)
    // An element action's fields name its element; a page-wide one has none to name.
    expect('target' in d.fields, `${name}: target field`).toBe(d.target !== 'none' || d.name === 'wait')
  })

  it.each(kInstructions.map((d) => [d.name, d] as const))('instruction %s', (name, d) => {
    if (d.runs) expect(() => domAction(d.runs!), `${name}: runs`).not.toThrow()
    if (d.flow)
      expect(
        kFlowSteps.map((f) => f.name),
        `${name}: flow`,
      ).toContain(d.flow)
    expect(d.says.en.trim()).not.toBe('')
    expect(d.says.zh.trim()).not.toBe('')
  })

  it.each(kFlowSteps.map((d) => [d.name, d] as const))('flow step %s', (name, d) => {
    if (d.runs) expect(() => domAction(d.runs!), `${name}: runs`).not.toThrow()
    // A step that names its element runs a DOM action on it.
    if (d.element) expect(d.runs, `${name}: element without an action`).toBeDefined()
  })

  it.each(kTabActions.map((d) => [d.name, d] as const))('tab action %s', (name, d) => {
    // Each is the model's instruction of the same name, needing what it names, run as itself.
    const ins = kInstructions.find((i) => i.name === name) as { all?: readonly string[]; tab?: string; runs?: string }
    expect(ins, `${name}: its instruction`).toBeDefined()
    expect(ins.tab).toBe(name)
    expect(ins.runs, `${name}: a page never runs it`).toBeUndefined()
    expect(ins.all).toEqual([d.needs])
    expect(instructionCounts(name)).toBe(d.counts)
    // What loads a page is judged as opening one and counts.
    if (d.judges === 'open') expect(d.counts, `${name}: opens a page but is not counted`).toBe(true)
    expect(d.teach.trim(), `${name}: the prompt's line`).not.toBe('')
    expect(d.says.en.trim(), `${name}: English words`).not.toBe('')
    expect(d.says.zh.trim(), `${name}: Chinese words`).not.toBe('')
    expect(placeholders(d.did.en)).toEqual(['n'])
    expect(placeholders(d.did.zh)).toEqual(['n'])
  })

  it('names are unique in each table', () => {
    for (const table of [kDomActions, kInstructions, kFlowSteps, kTabActions]) {
      const names = table.map((d) => d.name)
      expect(new Set(names).size).toBe(names.length)
    }
  })

  it("the locale tables carry every descriptor's words, in both languages", () => {
    for (const [key, text] of Object.entries(vocabularyMessages('en')))
      expect((en as Record<string, string>)[key], key).toBe(text)
    for (const [key, text] of Object.entries(vocabularyMessages('zh')))
      expect((zhCN as Record<string, string>)[key], key).toBe(text)
    expect(Object.keys(vocabularyMessages('en')).length).toBe(
      kDomActions.length + kInstructions.length + kTabActions.length,
    )
  })
})

describe('every action is documented', () => {
  const doc = (file: string) => readFileSync(join(root, 'docs', file), 'utf8')
  const section = (text: string, heading: string) => {
    const start = text.indexOf(heading)
    expect(start, heading).toBeGreaterThanOrEqual(0)
    const next = text.indexOf('\n## ', start + heading.length)
    return text.slice(start, next < 0 ? undefined : next)
  }
  it('DOM actions in docs/executor.md, "Actions"', () => {
    const actions = section(doc('executor.md'), '## Actions')
    for (const d of kDomActions) expect(actions, d.name).toContain(`\`${d.name}\``)
  })
  it('instructions in docs/instruction-schema.md', () => {
    const text = doc('instruction-schema.md')
    for (const d of kInstructions) expect(text, d.name).toMatch(new RegExp(`\\b${d.name}\\b`))
  })
  it('tab actions in docs/agent.md, "Tabs"', () => {
    const tabs = section(doc('agent.md'), '### Tabs')
    for (const d of kTabActions) expect(tabs, d.name).toContain(`\`${d.name}\``)
  })
  it('flow steps in docs/flows.md', () => {
    const text = doc('flows.md')
    for (const d of kFlowSteps) expect(text, d.name).toContain(`\`${d.name}\``)
  })
  it('the recipe for a new action in docs/architecture.md', () => {
    expect(section(doc('architecture.md'), '## A new action')).toContain('src/core/vocabulary.ts')
  })
})

describe('the tables map onto each other in one place', () => {
  it('each page instruction becomes the DOM action its descriptor names', () => {
    const samples: Record<string, Record<string, unknown>> = {
      navigate: { url: 'https://a.example/' },
      verify: { assertion: 'shows "x"' },
      wait: { selector: '#x' },
      press: { key: 'Enter' },
      scroll: { direction: 'down' },
      ask: { question: 'Which one?' },
      drag: {
        path: [
          [1, 1],
          [5, 5],
        ],
      },
    }
    for (const d of kInstructions) {
      const params = samples[d.name] ?? {
        semantic_locator: 'the Save button',
        value: 'v',
        action: 'a:b:c',
        url: 'https://a.example/',
        tab: 2,
      }
      const ins = InstructionSchema.safeParse({
        step_id: 1,
        action_type: d.name,
        params: Object.fromEntries(
          Object.entries(params).filter(([k]) => [...(d.all ?? []), ...(d.oneOf ?? [])].includes(k as never)),
        ),
      })
      expect(ins.success, `${d.name}: ${ins.error?.message}`).toBe(true)
      const action = actionOf(ins.data!)
      expect(action?.action ?? null, d.name).toBe(d.runs ?? null)
      // What actionOf builds is a valid step of that action.
      if (action) expect(PageActionSchema.safeParse(action).success, `${d.name} → ${JSON.stringify(action)}`).toBe(true)
    }
  })

  it('an instruction without what its descriptor needs is refused', () => {
    for (const d of kInstructions) {
      if (!d.all?.length && !d.oneOf?.length) continue
      expect(InstructionSchema.safeParse({ step_id: 1, action_type: d.name, params: {} }).success, d.name).toBe(false)
    }
  })

  it('a flow step counts and navigates as the DOM action it runs', () => {
    for (const d of kFlowSteps) {
      if (!d.runs || d.counts !== undefined) continue
      expect(flowStepCounts(d.name), d.name).toBe(countsAsStep(d.runs))
    }
    // One rule: a replayed hover or scroll counts as the model's own does.
    expect(flowStepCounts('hover')).toBe(countsAsStep('hover'))
    expect(flowStepCounts('scroll')).toBe(countsAsStep('scroll'))
    expect(flowStepNavigates('go_back')).toBe(true)
    expect(flowStepNavigates('fill')).toBe(false)
  })

  it('mayNavigate asks the descriptors', () => {
    for (const d of kDomActions) {
      const command = { kind: 'act', step: { action: d.name, target: {} }, timeoutMs: 1 } as unknown as PageCommand
      expect(mayNavigate(command), d.name).toBe(d.navigates)
    }
  })

  it('each flow step action is accepted by the flow schema', () => {
    for (const d of kFlowSteps) {
      const r = FlowStepSchema.safeParse({ step_id: 1, action: d.name })
      // It may miss params, but never because the action's name is unknown.
      expect(r.error?.issues.some((i) => i.path[0] === 'action') ?? false, d.name).toBe(false)
    }
  })
})

describe('PageActionSchema: each action takes its own fields only', () => {
  it('refuses a click that carries an assertion or files', () => {
    expect(PageActionSchema.safeParse({ action: 'click', target: { semantic: 'Save' } }).success).toBe(true)
    expect(PageActionSchema.safeParse({ action: 'click', target: { semantic: 'Save' }, assertion: 'x' }).success).toBe(
      false,
    )
    expect(PageActionSchema.safeParse({ action: 'click', target: {}, files: [] }).success).toBe(false)
  })
  it('refuses an unknown action and a fill without its value', () => {
    expect(PageActionSchema.safeParse({ action: 'eval', target: {} }).success).toBe(false)
    expect(PageActionSchema.safeParse({ action: 'fill', target: { semantic: 'Name' } }).success).toBe(false)
    expect(PageActionSchema.safeParse({ action: 'fill', target: { semantic: 'Name' }, value: 'Ada' }).success).toBe(
      true,
    )
  })
  it('refuses a target with fields the page does not know', () => {
    expect(PageActionSchema.safeParse({ action: 'hover', target: { semantic: 'Menu', element: {} } }).success).toBe(
      false,
    )
  })
})

// ── no second list ──────────────────────────────────────────────────────────────────────────

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) yield* sources(p)
    else if (/\.(ts|vue)$/.test(name)) yield p
  }
}

/** Four names of one table in one literal (a list, a set, a record's keys) is a second vocabulary. */
const kMaxNamesOutside = 3
const kTables = {
  'DOM actions': kDomActions.map((d) => d.name) as readonly string[],
  instructions: kInstructions.map((d) => d.name) as readonly string[],
  'flow steps': kFlowSteps.map((d) => d.name) as readonly string[],
  'tab actions': kTabActions.map((d) => d.name) as readonly string[],
}

/** The literals of a source: each bracketed or braced run of text that holds no nested one of its kind. */
function literals(text: string): string[] {
  const out: string[] = []
  const stack: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '[' || c === '{') stack.push(i)
    else if ((c === ']' || c === '}') && stack.length) out.push(text.slice(stack.pop()!, i + 1))
  }
  return out
}

/** The names of a table a literal spells: as quoted strings, or as a record's keys. */
function namesIn(literal: string, names: readonly string[]): Set<string> {
  const found = new Set<string>()
  for (const n of names) {
    const quoted = new RegExp(`['"\`]${n}['"\`]`)
    const key = new RegExp(`[{,]\\s*${n}\\s*:`)
    if (quoted.test(literal) || key.test(literal)) found.add(n)
  }
  return found
}

describe('no other file keeps its own list of action names', () => {
  // descriptor.ts lists English words that say "an element" in a person's description (stop
  // words for the locator), not steps. dialects.ts lists other agents' and models' words, each
  // typed as a name of kInstructions (the compiler checks every one), so it adds no action.
  const kOwnVocabularies = new Set([
    'src/core/vocabulary.ts',
    'src/core/page/descriptor.ts',
    'src/core/instruction/dialects.ts',
  ])

  it('holds for src/', () => {
    const offences: string[] = []
    for (const file of sources(join(root, 'src'))) {
      const rel = relative(root, file).split('\\').join('/')
      if (kOwnVocabularies.has(rel)) continue
      const text = readFileSync(file, 'utf8')
      for (const literal of literals(text)) {
        // Only the innermost literals of reasonable size: a whole object body is not a list.
        if (literal.length > 400 || /[[{]/.test(literal.slice(1, -1))) continue
        for (const [table, names] of Object.entries(kTables)) {
          const found = namesIn(literal, names)
          if (found.size > kMaxNamesOutside)
            offences.push(`${rel}: ${table} ${[...found].join(', ')} in ${literal.slice(0, 120)}`)
        }
      }
    }
    expect(offences, 'ask src/core/vocabulary.ts instead of listing action names').toEqual([])
  })

  it('finds a list like the ones it replaced', () => {
    expect(
      literals("const kUncounted = new Set(['wait', 'verify', 'getText', 'getAttribute'])").some(
        (l) => namesIn(l, kTables['DOM actions']).size > kMaxNamesOutside,
      ),
    ).toBe(true)
    expect(
      namesIn("{ click: 'click', dblclick: 'click', check: 'click', uncheck: 'click' }", kTables['DOM actions']).size,
    ).toBe(4)
  })
})

// ── no decision by action name ──────────────────────────────────────────────────────────────

describe('pack steps and the port are part of the vocabulary', () => {
  it('the engine runs exactly the pack steps the vocabulary describes', () => {
    expect([...kStepActionNames].sort()).toEqual(kPackSteps.map((d) => d.name).sort())
  })
  it.each(kPackSteps.map((d) => [d.name, d] as const))('pack step %s', (name, d) => {
    if (d.dom) expect(() => domAction(d.dom!), `${name}: dom`).not.toThrow()
    // What calls the page through the port acts or reads; the engine's own steps (run, fail) call nothing.
    if (!d.port) expect(Object.keys(d.grants), `${name}: grants without a port call`).toEqual([])
  })
  it('the predicates that replaced comparisons name what the comparisons did', () => {
    const names = (f: (n: string) => boolean) => kInstructions.filter((d) => f(d.name)).map((d) => d.name)
    expect(names(instructionOnlyLooks)).toEqual(['verify', 'wait', 'hover', 'scroll', 'done'])
    expect(names(instructionLoads)).toEqual(['navigate'])
    expect(names(instructionOpens)).toEqual(['navigate', 'open_tab'])
    expect(kPackSteps.filter((d) => packStepComposes(d.name)).map((d) => d.name)).toEqual(['run'])
    expect(kPackSteps.filter((d) => packStepOpens(d.name)).map((d) => d.name)).toEqual(['open', 'navigate'])
  })
  it('only a model that sees is taught what names pixels of a screenshot', () => {
    expect(kInstructions.filter((d) => seesOnly(d.name)).map((d) => d.name)).toEqual(['drag', 'screenshot'])
  })
})

describe('no switch or comparison on action names outside the vocabulary', () => {
  const check = decisions as {
    offencesIn: (file: string, text: string) => string[]
    vocabularyOffences: (byFile?: Map<string, string[]>) => string[]
    decisionsByFile: () => Map<string, string[]>
  }

  it('holds for src/', () => {
    expect(check.vocabularyOffences(), 'ask a descriptor of src/core/vocabulary.ts instead').toEqual([])
  })

  it('finds a switch and comparisons planted in code', () => {
    const planted = [
      "switch (step.action) { case 'click': break; case 'fill': break }",
      "if (s.action === 'uncheck') go()",
      "const seen = 'drag' !== name",
      "if (ins.action_type == 'open_tab') go()",
      "if (d.runs !== 'navigate') go()",
      "if ((step as FlowStep).action === 'go_back') go()",
    ]
    for (const line of planted) expect(check.offencesIn('x.ts', line), line).toHaveLength(1)
  })

  it('leaves the page’s own words, strings, comments and marked lines alone', () => {
    const fine = [
      "if (e.type === 'click') go()", // a DOM event
      "if (el.localName === 'select') go()", // an element
      "if (kind === 'css') go()", // a selector kind, not an action name
      'const help = \'step.action === "click"\'',
      "// if (step.action === 'click')",
      'const ok = step.action === variable',
      "// not an action name: a slash command\nif (name === 'run') go()",
      "switch (e.type) { case 'click': break }",
    ]
    for (const line of fine) expect(check.offencesIn('x.ts', line), line).toEqual([])
  })

  it('a comparison planted in a real file of src/ fails the check', () => {
    const byFile = check.decisionsByFile()
    const file = 'src/core/flows/devtools.ts'
    const text =
      readFileSync(join(root, file), 'utf8') + "\nexport const planted = (s: FlowStep) => s.action === 'click'\n"
    byFile.set(file, check.offencesIn(file, text))
    expect(check.vocabularyOffences(byFile)).toEqual([`${file}:${text.split('\n').length - 1}: s.action === 'click'`])
  })
})
