import { describe, it, expect } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRegistry, kMaxPackBytes, validatePack, type PackSource } from '../../../src/core/registry'

const dir = join(import.meta.dirname, '../../fixtures/packs')
const read = (sub: string, name: string) => ({
  path: `${sub}/${name}`,
  text: readFileSync(join(dir, sub, name), 'utf8'),
})

// Every broken pack, the code it must be rejected with, and the line:col of the offending node.
const kExpected: Record<string, [code: string, line: number, col: number]> = {
  'syntax-unclosed-quote.yaml': ['YAML_SYNTAX', 10, 1],
  'syntax-bad-indent.yaml': ['YAML_SYNTAX', 5, 18],
  'missing-namespace.yaml': ['MISSING_FIELD', 1, 1],
  'wrong-type-steps.yaml': ['INVALID_TYPE', 6, 12],
  'invalid-param-type.yaml': ['INVALID_ENUM_VALUE', 8, 15],
  'unknown-field.yaml': ['UNKNOWN_FIELD', 8, 9],
  'default-mismatch.yaml': ['DEFAULT_TYPE_MISMATCH', 10, 18],
  'unknown-step-action.yaml': ['UNKNOWN_STEP_ACTION', 7, 17],
  'unknown-scope.yaml': ['UNKNOWN_SCOPE', 9, 26],
  'unknown-param.yaml': ['UNKNOWN_PARAM', 10, 19],
  'unknown-selector.yaml': ['UNKNOWN_SELECTOR', 10, 28],
  'unknown-step-output.yaml': ['UNKNOWN_STEP_OUTPUT', 10, 19],
  'forbidden-operator.yaml': ['EXPR_FORBIDDEN_OPERATOR', 12, 28],
  'assignment-operator.yaml': ['EXPR_FORBIDDEN_OPERATOR', 12, 28],
  'function-call.yaml': ['EXPR_FUNCTION_CALL', 8, 16],
  'prototype-key.yaml': ['FORBIDDEN_KEY', 10, 11],
  'prototype-path.yaml': ['EXPR_FORBIDDEN_KEY', 10, 19],
  'constructor-in-when.yaml': ['EXPR_FORBIDDEN_KEY', 8, 16],
  'circular-run.yaml': ['CIRCULAR_RUN', 13, 25],
  'self-run.yaml': ['CIRCULAR_RUN', 9, 19],
  'circular-fallback.yaml': ['CIRCULAR_FALLBACK', 11, 29],
  'alias-bomb.yaml': ['YAML_ALIAS_LIMIT', 3, 5],
  'duplicate-keys.yaml': ['YAML_DUPLICATE_KEY', 9, 3],
  'deep-flow-nesting.yaml': ['YAML_TOO_DEEP', 10, 90],
  'deep-block-nesting.yaml': ['YAML_TOO_DEEP', 69, 129],
  'deep-expression.yaml': ['EXPR_TOO_DEEP', 8, 66],
  'too-many-steps.yaml': ['TOO_MANY_STEPS', 6, 5],
  'invalid-selector.yaml': ['INVALID_SELECTOR', 9, 21],
  'bad-version-pattern.yaml': ['INVALID_VERSION_PATTERN', 5, 5],
  'fallback-missing.yaml': ['FALLBACK_MISSING', 8, 18],
  'bad-step-args.yaml': ['INVALID_STEP_ARGS', 9, 11],
  'namespace-with-colon.yaml': ['INVALID_VALUE', 1, 12],
}

const brokenFiles = readdirSync(join(dir, 'broken'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()

describe('broken pack corpus', () => {
  it('has an expectation for every file and a file for every expectation', () => {
    expect(brokenFiles).toEqual(Object.keys(kExpected).sort())
  })

  it.each(brokenFiles)('%s is rejected with the right code and position', (name) => {
    const { path, text } = read('broken', name)
    const result = validatePack(text, { file: path })
    const [code, line, col] = kExpected[name]
    expect(result.ok).toBe(false)
    const errors = result.issues.filter((i) => i.severity === 'error')
    expect(errors[0]).toMatchObject({ code, line, col, file: path })
    expect(errors[0].message.length).toBeGreaterThan(20)
  })

  it('rejects a file over the size limit before parsing it', () => {
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(kMaxPackBytes / 1000) + 2)
    const result = validatePack(`namespace: big\nversion: 1.0.0\nactions: {}\n${filler}`, { file: 'big.yaml' })
    expect(result.issues).toMatchObject([{ code: 'FILE_TOO_LARGE', line: 1, col: 1 }])
  })

  it('counts bytes, not characters: 400k Chinese characters are too large', () => {
    const result = validatePack(`namespace: big\nversion: 1.0.0\ndescription: ${'中'.repeat(400_000)}\nactions: {}\n`)
    expect(result.issues[0].code).toBe('FILE_TOO_LARGE')
  })

  it('loading the whole corpus beside valid packs leaves the valid ones usable', () => {
    const sources: PackSource[] = [
      { source: 'builtin', files: [read('valid', 'shop.yaml')] },
      { source: 'user', files: brokenFiles.map((f) => read('broken', f)) },
      { source: 'env-path', files: [read('valid', 'shop-plus.yaml')] },
    ]
    const registry = createRegistry()
    const result = registry.load(sources)
    expect(result.files.filter((f) => !f.ok).map((f) => f.path)).toEqual(brokenFiles.map((f) => `broken/${f}`))
    expect(registry.list().map((n) => n.namespace)).toEqual(['shop', 'shopplus'])
    expect(registry.get('shop:product:find')?.params.name.required).toBe(true)
    expect(registry.get('shopplus:cart:empty')?.source).toEqual({ source: 'env-path', file: 'valid/shop-plus.yaml' })
    for (const name of brokenFiles) {
      expect(result.issues.some((i) => i.file === `broken/${name}` && i.code === kExpected[name][0])).toBe(true)
    }
  })
})
