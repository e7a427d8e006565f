import { packStepComposes } from '../vocabulary'
import semver from 'semver'
import type { z } from 'zod'
import type { SafeParseResult } from '../result'
import { findCycles, type RunEdge } from './cycles'
import { ExpressionError, PackValidationError, type PackIssue, type PackIssueCode, type PathSegment } from './errors'
import { collectReferences } from './expr/references'
import { parseExpression } from './expr/parser'
import { parseTemplate } from './interpolate'
import { qualify } from './model'
import { kScopes } from './paths'
import {
  ActionSchema,
  CompatibilitySchema,
  PackSchema,
  ParamSchema,
  StepSchema,
  VerifySchema,
  VersionOverrideSchema,
  type PackFile,
  type RawAction,
  type RawStep,
} from './schema'
import { parseSelector, SelectorSyntaxError } from '../page/selectors'
import { getStepAction, kStepActionNames, selectorArgsOf } from './step-actions'
import { readYaml, type Locate } from './yaml-source'

/** "max_steps: 100": the most steps one action may hold, fallbacks included. */
export const kMaxSteps = 100

export interface ValidateOptions {
  /** Shown in every issue; defaults to `<input>`. */
  file?: string
}

export interface ValidationResult {
  ok: boolean
  /** The checked pack when `ok`. */
  pack?: PackFile
  /** Errors and warnings; `ok` means no errors. */
  issues: PackIssue[]
  /** Positions of nodes in this file, for checks made later (cross-file cycles). */
  locate?: Locate
}

// ---------------------------------------------------------------------------------------------
// Messages

function show(value: unknown): string {
  if (value === undefined) return 'missing'
  const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value))
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

function dotted(path: readonly PathSegment[]): string {
  if (path.length === 0) return 'the pack'
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
    node = (node as Record<string | number, unknown>)[key]
  }
  return node
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const temp = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = temp
    }
  }
  return row[b.length]
}

/** "did you mean …?" for a near miss (two edits or fewer), the way compilers help with typos. */
export function didYouMean(input: string, allowed: readonly string[]): string {
  let best = ''
  let bestDistance = 3
  for (const candidate of allowed) {
    const d = editDistance(input.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) {
      best = candidate
      bestDistance = d
    }
  }
  return best ? ` Did you mean "${best}"?` : ''
}

// Which strict object sits at a path, so an unknown key can be answered with the allowed ones.
function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape
  return shape ? Object.keys(shape) : []
}

function objectKind(path: readonly PathSegment[]): string[] {
  const last = path[path.length - 1]
  const parent = path[path.length - 2]
  if (path.length === 0) return shapeKeys(PackSchema)
  if (path.length === 1 && last === 'compatibility') return shapeKeys(CompatibilitySchema)
  if (path[0] === 'compatibility' && path.length === 3) return shapeKeys(VersionOverrideSchema)
  if (path.length === 2 && path[0] === 'actions') return shapeKeys(ActionSchema)
  if (parent === 'params') return shapeKeys(ParamSchema)
  if (parent === 'steps' || parent === 'fallback') return shapeKeys(StepSchema)
  if (parent === 'verify') return shapeKeys(VerifySchema)
  if (path.includes('selectors')) return ['primary', 'fallback']
  return []
}

const kFormatHints: Array<[RegExp, string]> = [
  [/^namespace$/, 'lowercase letters, digits, - and _, starting with a letter (no ":")'],
  [/^actions$/, '"component:action", e.g. "dialog:open"'],
  [/params$/, 'a name of letters, digits, - and _'],
  [/output$/, 'a name of letters, digits, - and _'],
  [/version_global$/, 'a property path such as ElementPlus.version'],
]

function formatHint(path: readonly PathSegment[]): string {
  const text = path.filter((p) => typeof p === 'string').join('.')
  for (const [re, hint] of kFormatHints) if (re.test(text)) return hint
  return 'a value of the documented form'
}

type ZIssue = z.core.$ZodIssue

interface IssueSink {
  add(
    code: PackIssueCode,
    message: string,
    path: PathSegment[],
    at?: 'key' | 'value',
    severity?: 'error' | 'warning',
  ): void
  addAt(code: PackIssueCode, message: string, path: PathSegment[], text: string, offset: number): void
}

function mapZodIssue(issue: ZIssue, root: unknown, base: PathSegment[], sink: IssueSink): void {
  const path = [...base, ...(issue.path as PathSegment[])]
  const input = valueAt(root, path)
  const name = dotted(path)
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) {
        sink.add(
          'MISSING_FIELD',
          `${name} is required (expected ${issue.expected}).`,
          path.slice(0, -1),
          path.length > 1 ? 'key' : 'value',
        )
      } else {
        sink.add('INVALID_TYPE', `${name} is ${show(input)}; expected ${issue.expected}.`, path)
      }
      return
    case 'invalid_value':
      sink.add(
        'INVALID_ENUM_VALUE',
        `${name} is ${show(input)}; allowed: ${issue.values.map(String).join(', ')}.`,
        path,
      )
      return
    case 'unrecognized_keys': {
      const allowed = objectKind(path)
      for (const key of issue.keys) {
        sink.add(
          'UNKNOWN_FIELD',
          `Unknown field "${key}" in ${name}; allowed: ${allowed.join(', ')}.${didYouMean(key, allowed)}`,
          [...path, key],
          'key',
        )
      }
      return
    }
    case 'invalid_key': {
      const key = path[path.length - 1]
      sink.add(
        'INVALID_VALUE',
        `Name "${String(key)}" in ${dotted(path.slice(0, -1))} is not allowed; expected ${formatHint(path.slice(0, -1))}.`,
        path,
        'key',
      )
      return
    }
    case 'invalid_format':
      sink.add('INVALID_VALUE', `${name} is ${show(input)}; expected ${formatHint(path)}.`, path)
      return
    case 'too_small':
      sink.add(
        'INVALID_VALUE',
        `${name} is ${show(input)}; ${issue.origin === 'array' ? `needs at least ${issue.minimum} item(s)` : issue.origin === 'string' ? 'may not be empty' : `must be at least ${issue.minimum}`}.`,
        path,
      )
      return
    case 'too_big':
      sink.add('INVALID_VALUE', `${name} is ${show(input)}; must be at most ${issue.maximum}.`, path)
      return
    case 'invalid_union': {
      // An object that matches no branch: report the object branch's own problems, which are
      // precise ("fallback must be a list") rather than "matches no union member".
      if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
        const branch = issue.errors.find((errs) => !errs.some((e) => e.code === 'invalid_type' && e.path.length === 0))
        if (branch) {
          for (const e of branch) mapZodIssue(e, root, path, sink)
          return
        }
      }
      const expected = issue.errors.flatMap((errs) =>
        errs
          .filter((e) => e.path.length === 0 && e.code === 'invalid_type')
          .map((e) => (e as { expected: string }).expected),
      )
      sink.add(
        'INVALID_TYPE',
        `${name} is ${show(input)}; expected ${[...new Set(expected)].join(' or ') || 'another shape'}.`,
        path,
      )
      return
    }
    case 'custom': {
      const expected = (issue.params as { expected?: string } | undefined)?.expected
      sink.add(
        'INVALID_VALUE',
        `${name} is ${show(input)}; ${expected ? `expected ${expected}` : issue.message}.`,
        path,
      )
      return
    }
    default:
      sink.add('INVALID_VALUE', `${name} is ${show(input)}: ${issue.message}.`, path)
  }
}

// ---------------------------------------------------------------------------------------------
// Layer 3: semantics

const kTypeChecks: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  enum: (v) => typeof v === 'string',
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
}

interface ActionScope {
  namespace: string
  name: string
  params: Set<string>
  selectors: Set<string> | null // null: inherited via extends, so unknown names cannot be judged
  outputs: Set<string>
}

function countSteps(steps: readonly RawStep[] | undefined): number {
  let n = 0
  for (const s of steps ?? []) n += 1 + countSteps(s.fallback)
  return n
}

function allOutputs(steps: readonly RawStep[] | undefined, into: Set<string> = new Set()): Set<string> {
  for (const s of steps ?? []) {
    if (s.output) into.add(s.output)
    allOutputs(s.fallback, into)
  }
  return into
}

class SemanticChecker {
  readonly edges: RunEdge[] = []

  constructor(
    private readonly pack: PackFile,
    private readonly sink: IssueSink,
  ) {}

  check(): void {
    const inherits = this.pack.extends !== undefined
    this.checkSelectors()
    this.checkCompatibility()
    const selectors = inherits ? null : new Set(Object.keys(this.pack.selectors ?? {}))
    for (const [name, action] of Object.entries(this.pack.actions)) {
      const scope: ActionScope = {
        namespace: this.pack.namespace,
        name,
        params: new Set(Object.keys(action.params ?? {})),
        selectors,
        outputs: new Set(),
      }
      this.checkAction(name, action, scope, inherits)
    }
    this.checkAliases(inherits)
  }

  private checkSelector(text: string, path: PathSegment[]): void {
    if (text.includes('${')) return
    try {
      parseSelector(text)
    } catch (error) {
      if (error instanceof SelectorSyntaxError) this.sink.add('INVALID_SELECTOR', error.message, path)
      else throw error
    }
  }

  private checkSelectorDefinition(def: string | { primary: string; fallback?: string[] }, path: PathSegment[]): void {
    if (typeof def === 'string') return this.checkSelector(def, path)
    this.checkSelector(def.primary, [...path, 'primary'])
    def.fallback?.forEach((f, i) => this.checkSelector(f, [...path, 'fallback', i]))
  }

  private checkSelectors(): void {
    for (const [alias, def] of Object.entries(this.pack.selectors ?? {}))
      this.checkSelectorDefinition(def, ['selectors', alias])
  }

  private checkCompatibility(): void {
    const c = this.pack.compatibility
    if (!c) return
    if (c.version_selector) this.checkSelector(c.version_selector, ['compatibility', 'version_selector'])
    for (const [pattern, override] of Object.entries(c.version_overrides ?? {})) {
      if (semver.validRange(pattern) === null) {
        this.sink.add(
          'INVALID_VERSION_PATTERN',
          `Version pattern "${pattern}" is not a semver range; write e.g. 4.x, >=4.2.0, ~4.2.0, ^4.2.0 or ">=2.0.0 <2.5.0".`,
          ['compatibility', 'version_overrides', pattern],
          'key',
        )
      }
      for (const [alias, def] of Object.entries(override.selectors)) {
        this.checkSelectorDefinition(def, ['compatibility', 'version_overrides', pattern, 'selectors', alias])
        const known = this.pack.selectors ?? {}
        if (this.pack.extends === undefined && !Object.hasOwn(known, alias)) {
          this.sink.add(
            'UNKNOWN_SELECTOR',
            `Override of unknown selector alias "${alias}"; aliases: ${Object.keys(known).join(', ') || '(none)'}.`,
            ['compatibility', 'version_overrides', pattern, 'selectors', alias],
            'key',
          )
        }
      }
    }
  }

  private checkAction(name: string, action: RawAction, scope: ActionScope, inherits: boolean): void {
    const base: PathSegment[] = ['actions', name]
    if (action.alias_of === undefined) {
      if (!action.description)
        this.sink.add(
          'MISSING_FIELD',
          `actions.${name}.description is required: say what the action does, for people and for the planner.`,
          base,
          'key',
        )
      if (!action.steps || action.steps.length === 0)
        this.sink.add(
          'MISSING_FIELD',
          `actions.${name}.steps is required (at least one step) unless the action is an alias_of another.`,
          base,
          'key',
        )
    } else if (action.steps && action.steps.length > 0) {
      this.sink.add(
        'INVALID_VALUE',
        `actions.${name} has alias_of "${action.alias_of}" and steps; an alias runs its target and has no steps of its own.`,
        [...base, 'steps'],
        'key',
      )
    }
    this.checkParams(base, action)
    const total = countSteps(action.steps)
    if (total > kMaxSteps) {
      this.sink.add(
        'TOO_MANY_STEPS',
        `actions.${name} has ${total} steps (fallbacks included); at most ${kMaxSteps} are allowed. Split it and compose with run.`,
        [...base, 'steps'],
        'key',
      )
    }
    this.checkSteps(action.steps ?? [], [...base, 'steps'], scope, 'run', inherits)
    const everyOutput = allOutputs(action.steps)
    const finalScope = { ...scope, outputs: everyOutput }
    action.verify?.forEach((v, i) => {
      if (typeof v.condition === 'string')
        this.checkCondition(v.condition, [...base, 'verify', i, 'condition'], finalScope)
      this.checkTemplates(v.message, [...base, 'verify', i, 'message'], finalScope)
      if (v.message_zh !== undefined)
        this.checkTemplates(v.message_zh, [...base, 'verify', i, 'message_zh'], finalScope)
    })
    for (const [key, template] of Object.entries(action.returns ?? {}))
      this.checkTemplates(template, [...base, 'returns', key], finalScope)
  }

  private checkParams(base: PathSegment[], action: RawAction): void {
    for (const [pname, p] of Object.entries(action.params ?? {})) {
      const path = [...base, 'params', pname]
      if (p.type === 'enum' && !p.values)
        this.sink.add(
          'MISSING_FIELD',
          `${dotted(path)}.values is required for type enum: list the allowed values.`,
          path,
          'key',
        )
      if (p.type !== 'enum' && p.values)
        this.sink.add(
          'INVALID_VALUE',
          `${dotted(path)}.values only applies to type enum (this param is ${p.type}).`,
          [...path, 'values'],
          'key',
        )
      if (p.default !== undefined) {
        if (!kTypeChecks[p.type](p.default)) {
          this.sink.add(
            'DEFAULT_TYPE_MISMATCH',
            `${dotted(path)}.default is ${show(p.default)}, which is not a ${p.type}.`,
            [...path, 'default'],
          )
        } else if (p.type === 'enum' && p.values && !p.values.includes(p.default as string)) {
          this.sink.add(
            'DEFAULT_TYPE_MISMATCH',
            `${dotted(path)}.default is ${show(p.default)}; allowed: ${p.values.join(', ')}.`,
            [...path, 'default'],
          )
        }
      }
      if (!p.description)
        this.sink.add(
          'PARAM_UNDOCUMENTED',
          `${dotted(path)} has no description; say what it is for.`,
          path,
          'key',
          'warning',
        )
    }
  }

  private checkSteps(
    steps: readonly RawStep[],
    base: PathSegment[],
    scope: ActionScope,
    kind: 'run' | 'fallback',
    inherits: boolean,
  ): void {
    steps.forEach((step, i) => {
      const path = [...base, i]
      const descriptor = getStepAction(step.action)
      if (!descriptor) {
        this.sink.add(
          'UNKNOWN_STEP_ACTION',
          `Unknown step action "${step.action}"; allowed: ${kStepActionNames.join(', ')}.${didYouMean(step.action, kStepActionNames)}`,
          [...path, 'action'],
        )
      } else {
        this.checkArgs(step, path, descriptor.args, selectorArgsOf(descriptor, step.args ?? {}))
      }
      if (typeof step.when === 'string') this.checkCondition(step.when, [...path, 'when'], scope)
      this.checkTemplates(step.args ?? {}, [...path, 'args'], scope)
      if (step.onError === 'fallback' && !step.fallback) {
        this.sink.add(
          'FALLBACK_MISSING',
          `onError is "fallback" but the step has no fallback steps; add fallback or use continue/abort.`,
          [...path, 'onError'],
        )
      }
      if (packStepComposes(step.action)) this.addRunEdge(step, path, scope, kind, inherits)
      if (step.fallback)
        this.checkSteps(
          step.fallback,
          [...path, 'fallback'],
          { ...scope, outputs: new Set(scope.outputs) },
          'fallback',
          inherits,
        )
      if (step.output) scope.outputs.add(step.output)
      for (const o of allOutputs(step.fallback)) scope.outputs.add(o)
    })
  }

  private addRunEdge(
    step: RawStep,
    path: PathSegment[],
    scope: ActionScope,
    kind: 'run' | 'fallback',
    inherits: boolean,
  ): void {
    const target = step.args?.action
    if (typeof target !== 'string' || target.includes('${')) return
    const full = qualify(target, scope.namespace)
    this.edges.push({ from: `${scope.namespace}:${scope.name}`, to: full, kind, path: [...path, 'args', 'action'] })
    const local = full.startsWith(`${scope.namespace}:`) ? full.slice(scope.namespace.length + 1) : undefined
    if (local !== undefined && !inherits && !Object.hasOwn(this.pack.actions, local)) {
      this.sink.add(
        'UNKNOWN_ACTION_REF',
        `run targets "${target}", which this pack does not define; actions: ${Object.keys(this.pack.actions).join(', ')}.${didYouMean(local, Object.keys(this.pack.actions))}`,
        [...path, 'args', 'action'],
      )
    }
  }

  private checkArgs(step: RawStep, path: PathSegment[], schema: z.ZodType, selectorArgs: readonly string[]): void {
    const args = step.args ?? {}
    const result = schema.safeParse(args)
    if (!result.success) {
      for (const issue of result.error.issues) {
        const value = valueAt(args, issue.path as PathSegment[])
        // A template's type is only known at run time; only literal values can be judged now.
        if (typeof value === 'string' && value.includes('${') && issue.code !== 'unrecognized_keys') continue
        if (issue.code === 'unrecognized_keys') {
          const allowed = shapeKeys(schema)
          for (const key of issue.keys) {
            this.sink.add(
              'INVALID_STEP_ARGS',
              `Step "${step.action}" has no argument "${key}"; allowed: ${allowed.join(', ') || '(none)'}.${didYouMean(key, allowed)}`,
              [...path, 'args', key],
              'key',
            )
          }
        } else if (issue.path.length === 0) {
          this.sink.add('INVALID_STEP_ARGS', `Step "${step.action}": ${issue.message}.`, [...path, 'args'], 'key')
        } else {
          mapZodIssue(issue, args, [], {
            add: (_code, message, p, at, severity) =>
              this.sink.add(
                'INVALID_STEP_ARGS',
                `Step "${step.action}": args.${message}`,
                [...path, 'args', ...p],
                at,
                severity,
              ),
            addAt: this.sink.addAt,
          })
        }
      }
    }
    for (const key of selectorArgs) {
      const value = args[key]
      if (typeof value === 'string') this.checkSelectorText(value, [...path, 'args', key])
    }
  }

  private checkSelectorText(value: string, path: PathSegment[]): void {
    if (!value.includes('${')) this.checkSelector(value, path)
  }

  private checkCondition(expression: string, path: PathSegment[], scope: ActionScope): void {
    try {
      const ast = parseExpression(expression)
      for (const ref of collectReferences(ast)) this.checkReference(ref.path, expression, ref.position, path, scope)
    } catch (error) {
      if (error instanceof ExpressionError) this.sink.addAt(error.code, error.message, path, expression, error.offset)
      else throw error
    }
  }

  /** Checks every `${...}` in every string of `value`. */
  private checkTemplates(value: unknown, path: PathSegment[], scope: ActionScope): void {
    if (typeof value === 'string') {
      if (!value.includes('${')) return
      try {
        for (const piece of parseTemplate(value))
          if (typeof piece !== 'string') this.checkReference(piece.path, value, piece.start, path, scope)
      } catch (error) {
        if (error instanceof ExpressionError) this.sink.addAt(error.code, error.message, path, value, error.offset)
        else throw error
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => this.checkTemplates(v, [...path, i], scope))
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) this.checkTemplates(v, [...path, k], scope)
  }

  private checkReference(
    refPath: string[],
    text: string,
    offset: number,
    path: PathSegment[],
    scope: ActionScope,
  ): void {
    const [root, name] = refPath
    const ref = refPath.join('.')
    if (!(kScopes as readonly string[]).includes(root)) {
      this.sink.addAt(
        'UNKNOWN_SCOPE',
        `Unknown variable scope "${root}" in "${ref}"; allowed: ${kScopes.join(', ')}.${didYouMean(root, kScopes)}`,
        path,
        text,
        offset,
      )
      return
    }
    if (name === undefined) return
    if (root === 'params' && !scope.params.has(name)) {
      const known = [...scope.params]
      this.sink.addAt(
        'UNKNOWN_PARAM',
        `"${ref}" names no declared param of ${scope.name}; params: ${known.join(', ') || '(none)'}.${didYouMean(name, known)}`,
        path,
        text,
        offset,
      )
    } else if (root === 'selectors' && scope.selectors && !scope.selectors.has(name)) {
      const known = [...scope.selectors]
      this.sink.addAt(
        'UNKNOWN_SELECTOR',
        `"${ref}" names no selector alias of this pack; aliases: ${known.join(', ') || '(none)'}.${didYouMean(name, known)}`,
        path,
        text,
        offset,
      )
    } else if (root === 'steps' && !scope.outputs.has(name)) {
      const known = [...scope.outputs]
      this.sink.addAt(
        'UNKNOWN_STEP_OUTPUT',
        `"${ref}" is no output of an earlier step; outputs so far: ${known.join(', ') || '(none)'}. A step's result is kept with output: <name>.`,
        path,
        text,
        offset,
      )
    }
  }

  private checkAliases(inherits: boolean): void {
    const actions = this.pack.actions
    const ns = this.pack.namespace
    for (const [name, action] of Object.entries(actions)) {
      if (action.alias_of === undefined) continue
      const full = qualify(action.alias_of, ns)
      const local = full.startsWith(`${ns}:`) ? full.slice(ns.length + 1) : undefined
      if (local === undefined || inherits) continue
      if (!Object.hasOwn(actions, local)) {
        this.sink.add(
          'UNKNOWN_ALIAS_TARGET',
          `alias_of "${action.alias_of}" names no action of this pack; actions: ${Object.keys(actions).join(', ')}.${didYouMean(local, Object.keys(actions))}`,
          ['actions', name, 'alias_of'],
        )
        continue
      }
      // Follow the chain; coming back to where it started is a loop that would never resolve.
      const seen = [name]
      let cursor: string | undefined = local
      while (cursor !== undefined && Object.hasOwn(actions, cursor)) {
        if (seen.includes(cursor)) {
          if (cursor === name)
            this.sink.add('CIRCULAR_ALIAS', `alias_of chain loops: ${[...seen, cursor].join(' → ')}.`, [
              'actions',
              name,
              'alias_of',
            ])
          break
        }
        seen.push(cursor)
        const next: string | undefined = actions[cursor].alias_of
        cursor = next === undefined ? undefined : qualify(next, ns).slice(ns.length + 1)
      }
    }
  }
}

/** Cycle issues for a set of run edges; used per file and again across files by the loader. */
export function cycleIssues(
  edges: readonly RunEdge[],
  report: (code: PackIssueCode, message: string, edge: RunEdge, chain: string[]) => void,
): void {
  for (const cycle of findCycles(edges)) {
    const code = cycle.throughFallback ? 'CIRCULAR_FALLBACK' : 'CIRCULAR_RUN'
    const what = cycle.throughFallback
      ? 'A fallback runs an action that leads back to itself'
      : 'run steps call each other in a circle'
    report(
      code,
      `${what}: ${cycle.chain.join(' → ')}. It would recurse until the depth limit.`,
      cycle.closing,
      cycle.chain,
    )
  }
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Full three-layer validation of one pack file: YAML, structure, semantics. Every issue
 * carries the file, line and column of the node it is about.
 */
export function validatePack(text: string, options: ValidateOptions = {}): ValidationResult & { edges: RunEdge[] } {
  const file = options.file ?? '<input>'
  const read = readYaml(text, file)
  if (!read.ok) return { ok: false, issues: read.issues, locate: read.locate, edges: [] }
  const { locate } = read
  const issues: PackIssue[] = []
  const sink: IssueSink = {
    add: (code, message, path, at = 'value', severity = 'error') => {
      const { line, col } = locate(path, at)
      issues.push({ code, severity, message, path, file, line, col })
    },
    addAt: (code, message, path, snippet, offset) => {
      const pos = locate(path)
      // Point inside the string when the source holds it verbatim on one line (plain or quoted).
      const line = pos.line
      let col = pos.col
      for (const quote of [0, 1]) {
        if (text.startsWith(snippet, pos.offset + quote) && !snippet.slice(0, offset).includes('\n')) {
          col += quote + offset
          break
        }
      }
      issues.push({ code, severity: 'error', message, path, file, line, col })
    },
  }

  const structure = PackSchema.safeParse(read.value)
  if (!structure.success) {
    for (const issue of structure.error.issues) mapZodIssue(issue, read.value, [], sink)
    return { ok: false, issues: dedupe(issues), locate, edges: [] }
  }
  const pack = structure.data
  const checker = new SemanticChecker(pack, sink)
  checker.check()
  cycleIssues(checker.edges, (code, message, edge) => sink.add(code, message, edge.path))
  const ok = !issues.some((i) => i.severity === 'error')
  return { ok, pack: ok ? pack : undefined, issues: dedupe(issues), locate, edges: checker.edges }
}

function dedupe(issues: PackIssue[]): PackIssue[] {
  const seen = new Set<string>()
  return issues.filter((i) => {
    const key = `${i.code}|${i.line}|${i.col}|${i.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Validates and returns the pack, or throws `PackValidationError` listing every issue. */
export function parsePack(text: string, options: ValidateOptions = {}): PackFile {
  const result = validatePack(text, options)
  if (!result.ok || !result.pack) throw new PackValidationError(result.issues)
  return result.pack
}

/** Like `parsePack`, the pack alone; `validatePack` also returns the warnings. */
export type SafeParsePackResult = SafeParseResult<PackFile, PackValidationError>

export function safeParsePack(text: string, options: ValidateOptions = {}): SafeParsePackResult {
  const result = validatePack(text, options)
  if (!result.ok || !result.pack) return { success: false, error: new PackValidationError(result.issues) }
  return { success: true, data: result.pack }
}

/**
 * validateExpression: parse a condition and check its variable scopes. Returns readable
 * problems (empty when fine).
 */
export function validateExpression(
  expression: string,
  available: { params?: string[]; selectors?: string[]; steps?: string[] } = {},
): string[] {
  const out: string[] = []
  try {
    const ast = parseExpression(expression)
    for (const ref of collectReferences(ast)) {
      const [root, name] = ref.path
      if (!(kScopes as readonly string[]).includes(root))
        out.push(`Unknown variable scope "${root}" at column ${ref.position + 1}; allowed: ${kScopes.join(', ')}.`)
      else if (name !== undefined && root !== 'env') {
        const list = available[root as 'params' | 'selectors' | 'steps']
        if (list && !list.includes(name))
          out.push(
            `Unknown ${root} name "${name}" at column ${ref.position + 1}; known: ${list.join(', ') || '(none)'}.`,
          )
      }
    }
  } catch (error) {
    if (error instanceof ExpressionError) out.push(error.message)
    else throw error
  }
  return out
}
