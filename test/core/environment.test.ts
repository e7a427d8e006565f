import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test } from 'vitest'
import { kEnvironment, modelFromEnvironment, readEnvironment } from '../../src/core/environment'
import { modelFromEnv } from '../../src/cli/mcp/agent'

test("the README's names set the model for ava mcp", () => {
  const llm = modelFromEnv({
    AVA_PROVIDER: 'openai',
    AVA_BASE_URL: 'http://127.0.0.1:9/v1',
    AVA_MODEL: 'm',
    AVA_API_KEY: 'k',
  })
  expect(llm).toMatchObject({
    provider: 'openai',
    baseUrl: 'http://127.0.0.1:9/v1',
    model: 'm',
    apiKey: 'k',
    authStyle: 'bearer',
  })
})

test('the former names still work, each with one warning; the new name wins when both are set', () => {
  const old = readEnvironment({ AVA_MODEL_PROVIDER: 'anthropic', AVA_MODEL_BASE_URL: 'http://127.0.0.1:9/v1' })
  expect(old.values).toEqual({ AVA_PROVIDER: 'anthropic', AVA_BASE_URL: 'http://127.0.0.1:9/v1' })
  expect(old.warnings).toEqual([
    'AVA_MODEL_PROVIDER is read as AVA_PROVIDER, its new name; set AVA_PROVIDER instead (docs/environment.md)',
    'AVA_MODEL_BASE_URL is read as AVA_BASE_URL, its new name; set AVA_BASE_URL instead (docs/environment.md)',
  ])
  expect(modelFromEnvironment(old.values)).toMatchObject({ provider: 'anthropic', authStyle: 'x-api-key' })
  const both = readEnvironment({ AVA_PROVIDER: 'local', AVA_MODEL_PROVIDER: 'openai' })
  expect(both).toEqual({ values: { AVA_PROVIDER: 'local' }, warnings: [] })
})

test('no provider is no model; an unknown one is a sentence naming the choices', () => {
  expect(modelFromEnvironment({})).toBeUndefined()
  expect(modelFromEnvironment({ AVA_PROVIDER: 'gemini' })).toBe(
    'AVA_PROVIDER must be one of anthropic, openai, local, not "gemini"',
  )
})

test('docs/environment.md lists exactly the variables of the table', () => {
  const doc = readFileSync(resolve(import.meta.dirname, '../../docs/environment.md'), 'utf8')
  const rows = [...doc.matchAll(/^\| `(AVA_[A-Z_]+)` \|/gm)].map((m) => m[1])
  expect(rows.sort()).toEqual(Object.keys(kEnvironment).sort())
  for (const [name, spec] of Object.entries(kEnvironment))
    for (const old of 'formerly' in spec ? spec.formerly : []) expect(doc, `${name} was ${old}`).toContain(`\`${old}\``)
})
