import { describe, expect, it } from 'vitest'
import { isExtractCommand, parseExtractCommand } from '../../../src/core/extract/command'

const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^[^}]+$' } } }

describe('/extract typed in the panel', () => {
  it('takes the JSON object after the command as the schema and the rest as the request', () => {
    expect(isExtractCommand('/extract {} x')).toBe(true)
    expect(isExtractCommand('/extractor')).toBe(false)
    expect(parseExtractCommand(`/extract ${JSON.stringify(schema)}  every product name `)).toEqual({
      shape: schema,
      request: 'every product name',
    })
  })

  it('says what is missing or wrong, as EXTRACT_SCHEMA', () => {
    const fail = (t: string) => {
      try {
        parseExtractCommand(t)
      } catch (e) {
        return [(e as { code: string }).code, (e as Error).message]
      }
      return undefined
    }
    expect(fail('/extract every product')).toEqual([
      'EXTRACT_SCHEMA',
      'Write the schema after /extract: /extract {"type":"object",…} what to get.',
    ])
    expect(fail('/extract {"type": "object"')?.[1]).toBe('The schema after /extract is not a complete JSON object.')
    expect(fail(`/extract ${JSON.stringify(schema)}`)?.[1]).toMatch(/^Say what to get after the schema/)
    expect(fail('/extract {"type":"object","properties":{"x":{"type":"object"}}} get it')?.[1]).toMatch(
      /^Field "x" must be one of/,
    )
  })
})
