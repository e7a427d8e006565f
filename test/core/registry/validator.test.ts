import { describe, it, expect } from 'vitest'
import {
  parsePack,
  PackValidationError,
  safeParsePack,
  validateExpression,
  validatePack,
} from '../../../src/core/registry'

const kValid = `namespace: eresh
version: 1.2.0
description: Example pack
compatibility:
  min_version: 4.0.0
  version_overrides:
    "4.x":
      selectors:
        dialog: "css:.v4-dialog"
selectors:
  dialog: "css:.e-dialog"
  trigger:
    primary: "role:button[name='新建']"
    fallback: ["text:新建"]
actions:
  dialog:open:
    description: Open a dialog
    since: 1.0.0
    params:
      trigger:
        type: string
        description: Button text
        required: true
      triggerBy:
        type: enum
        description: How to find the trigger
        values: [text, role]
        default: text
    steps:
      - action: click
        when: "\${params.triggerBy} == 'text'"
        args:
          selector: "text:\${params.trigger}"
        retry: 2
        retryDelay: 100
        fallback:
          - action: click
            args:
              selector: "\${selectors.trigger}"
      - action: find
        output: found
        args:
          query: dialog
      - action: wait
        args:
          selector: "\${selectors.dialog}"
    returns:
      ref: "\${steps.found.ref}"
    verify:
      - condition: "\${steps.found} != null"
        message: Dialog did not open
  dialog:show:
    deprecated: true
    deprecated_message: 请使用 dialog:open
    alias_of: dialog:open
`

describe('schema validation', () => {
  it('合法完整定义: a complete pack validates', () => {
    const result = validatePack(kValid, { file: 'eresh.yaml' })
    expect(result.issues).toEqual([])
    expect(result.ok).toBe(true)
    expect(result.pack?.namespace).toBe('eresh')
  })
  it('缺少 namespace: error "namespace required"', () => {
    const result = validatePack(kValid.replace('namespace: eresh\n', ''), { file: 'x.yaml' })
    expect(result.ok).toBe(false)
    expect(result.issues[0]).toMatchObject({ code: 'MISSING_FIELD', line: 1, col: 1, path: [] })
    expect(result.issues[0].message).toMatch(/namespace is required/)
  })
  it('非法 param type: error "invalid enum value"', () => {
    const result = validatePack(kValid.replace('type: string', 'type: invalid'), { file: 'x.yaml' })
    expect(result.issues).toHaveLength(1)
    expect(result.issues[0]).toMatchObject({ code: 'INVALID_ENUM_VALUE', line: 21, col: 15 })
    expect(result.issues[0].message).toBe(
      'actions.dialog:open.params.trigger.type is "invalid"; allowed: string, number, boolean, enum, array, object.',
    )
  })
  it('循环 fallback: a fallback that refers to its own action is a circular reference', () => {
    const text = kValid
      .replace('args:\n              selector: "${selectors.trigger}"', 'args:\n              action: dialog:open')
      .replace(
        '          - action: click\n            args:\n              action',
        '          - action: run\n            args:\n              action',
      )
    const result = validatePack(text, { file: 'x.yaml' })
    expect(result.issues.map((i) => i.code)).toEqual(['CIRCULAR_FALLBACK'])
    expect(result.issues[0].message).toMatch(/eresh:dialog:open → eresh:dialog:open/)
  })
})

describe('validation API', () => {
  it('parsePack throws a PackValidationError listing every issue; safeParsePack returns it', () => {
    const bad = kValid.replace('version: 1.2.0', 'version: one').replace('action: find', 'action: fnd')
    expect(() => parsePack(bad, { file: 'b.yaml' })).toThrow(PackValidationError)
    const result = safeParsePack(bad, { file: 'b.yaml' })
    expect(result.success).toBe(false)
    if (!result.success) {
      expect(result.error.issues.map((i) => i.code)).toEqual(['INVALID_VALUE'])
      expect(result.error.message).toBe(
        'b.yaml:2:10: INVALID_VALUE version is "one"; expected a semantic version such as 1.2.0.',
      )
    }
    const ok = safeParsePack(kValid)
    expect(ok.success).toBe(true)
  })
  it('structure errors stop before semantics, as the layers are ordered', () => {
    const result = validatePack(kValid.replace('version: 1.2.0', 'version: 1').replace('action: find', 'action: fnd'))
    expect(result.issues.map((i) => i.code)).toEqual(['INVALID_TYPE'])
    expect(result.issues[0].message).toBe('version is 1; expected string.')
  })
  it('reports several semantic problems at once, each with its own position', () => {
    const bad = kValid
      .replace('action: find', 'action: fnd')
      .replace('${selectors.dialog}', '${selectors.dialg}')
      .replace("== 'text'", "= 'text'")
    const result = validatePack(bad, { file: 'b.yaml' })
    expect(result.issues.map((i) => `${i.code}@${i.line}:${i.col}`)).toEqual([
      'EXPR_FORBIDDEN_OPERATOR@31:36',
      'UNKNOWN_STEP_ACTION@40:17',
      'UNKNOWN_SELECTOR@46:22',
    ])
    expect(result.issues[1].message).toContain('Did you mean "find"?')
  })
  it('warns about undocumented params without failing the pack', () => {
    const result = validatePack(kValid.replace('        description: Button text\n', ''))
    expect(result.ok).toBe(true)
    expect(result.issues).toMatchObject([{ code: 'PARAM_UNDOCUMENTED', severity: 'warning' }])
  })
  it('requires a description and steps unless the action is an alias', () => {
    const result = validatePack('namespace: a\nversion: 1.0.0\nactions:\n  x:y:\n    params: {}\n')
    expect(result.issues.map((i) => i.code)).toEqual(['MISSING_FIELD', 'MISSING_FIELD'])
  })
  it('checks alias targets inside the pack', () => {
    const result = validatePack('namespace: a\nversion: 1.0.0\nactions:\n  x:y:\n    alias_of: x:z\n')
    expect(result.issues.map((i) => i.code)).toEqual(['UNKNOWN_ALIAS_TARGET'])
  })
  it('leaves selectors and run targets unchecked when they may come from an extended pack', () => {
    const text =
      'namespace: child\nversion: 1.0.0\nextends: parent\nactions:\n  x:y:\n    description: d\n    steps:\n      - action: click\n        args: { selector: "${selectors.fromParent}" }\n      - action: run\n        args: { action: p:inherited }\n'
    expect(validatePack(text).issues).toEqual([])
  })
  it('checks step argument types only where they are literal', () => {
    const text = (count: string) =>
      `namespace: a\nversion: 1.0.0\nactions:\n  x:y:\n    description: d\n    params:\n      n:\n        type: number\n        description: n\n    steps:\n      - action: click\n        args: { selector: "css:.x", count: ${count} }\n`
    expect(validatePack(text('"${params.n}"')).issues).toEqual([])
    expect(validatePack(text('"two"')).issues.map((i) => i.code)).toEqual(['INVALID_STEP_ARGS'])
    expect(validatePack(text('9')).issues[0].message).toContain('must be at most 3')
  })
  it('validateExpression lists scope and syntax problems', () => {
    expect(validateExpression("${params.a} == 'x'", { params: ['a'] })).toEqual([])
    expect(validateExpression('${foo.a} == 1')).toEqual([
      'Unknown variable scope "foo" at column 1; allowed: params, env, selectors, steps.',
    ])
    expect(validateExpression('${params.b} == 1', { params: ['a'] })[0]).toMatch(/Unknown params name "b"/)
    expect(validateExpression('a + 1')[0]).toMatch(/Operator "\+" is not allowed/)
  })
})
