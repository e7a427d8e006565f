import { describe, expect, it } from 'vitest'
import { jsonErrorAt } from '../../src/core/json-error'

/** JSON.parse's own message for `text` (this engine's words, as the extension's background gets them). */
function reasonFor(text: string): string {
  try {
    JSON.parse(text)
  } catch (e) {
    return (e as Error).message
  }
  throw new Error(`${text} parsed`)
}

describe('where JSON.parse gave up, as line and column', () => {
  it('reads the position the engine names and counts lines and columns from 1', () => {
    const text = '{\n  "version": 1,\n}'
    expect(jsonErrorAt(text, reasonFor(text))).toEqual({ line: 3, column: 1 })
    // Chromium's words for a missing colon (its background is where settings files are read).
    const chromium = "Expected ':' after property name in JSON at position 26 (line 3 column 9)"
    expect(jsonErrorAt('{\n  "version": 1,\n  "llm" {}\n}', chromium)).toEqual({ line: 3, column: 9 })
  })

  it('puts text that ended too early at its end', () => {
    const text = '{\n  "a": ['
    expect(jsonErrorAt(text, reasonFor(text))).toEqual({ line: 2, column: 9 })
  })

  it('says nothing when the message names no place', () => {
    expect(jsonErrorAt('abc', reasonFor('abc'))).toBeNull()
  })
})
