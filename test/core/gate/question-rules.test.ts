// Every rule for questions (src/core/gate/question-rules.ts) has code that enforces it, that code
// is wired into the extension, a test names the rule, and docs/architecture.md shows the same rows.
// A rule written down but never wired (a listener nobody registers) fails here.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { kQuestionRules } from '../../../src/core/gate/question-rules'

const root = join(import.meta.dirname, '../../..')

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? filesUnder(p, ext) : ext.test(name) ? [p] : []
  })
}

const sources = new Map(
  filesUnder(join(root, 'src'), /\.(ts|vue)$/).map((p) => [relative(root, p), readFileSync(p, 'utf8')]),
)
const tests = [...filesUnder(join(root, 'test'), /\.test\.ts$/), ...filesUnder(join(root, 'e2e'), /\.test\.ts$/)].map(
  (p) => readFileSync(p, 'utf8'),
)

/** Code with its comments taken out: a name mentioned in a comment is not a call. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

describe('the questions table', () => {
  it('has an id of its own for every row', () => {
    const ids = kQuestionRules.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  for (const rule of kQuestionRules) {
    it(`${rule.id}: enforced by an exported function that the extension calls`, () => {
      expect(rule.enforcedBy.length).toBeGreaterThan(0)
      for (const { file, symbol } of rule.enforcedBy) {
        const text = sources.get(file)
        expect(text, `${file} exists`).toBeDefined()
        expect(code(text!), `${file} exports ${symbol}`).toMatch(
          new RegExp(`export (async )?(function|const) ${symbol}\\b`),
        )
        const callers = [...sources]
          .filter(([f, t]) => f !== file && new RegExp(`\\b${symbol}\\(`).test(code(t)))
          .map(([f]) => f)
        expect(callers, `${symbol} (${file}) is called from the extension`).not.toEqual([])
      }
    })

    it(`${rule.id}: a test names it`, () => {
      expect(tests.some((t) => t.includes(`(rule: ${rule.id})`))).toBe(true)
    })
  }

  it('docs/architecture.md shows the same rows, in the same order', () => {
    const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8')
    const section = doc.slice(doc.indexOf('### Questions waiting on the person'))
    const lines = section.slice(section.indexOf('| situation |')).split('\n')
    const table = lines.slice(
      0,
      lines.findIndex((l) => !l.startsWith('|')),
    )
    expect(table.slice(2).map((l) => l.split(' | ')[0].slice(2))).toEqual(kQuestionRules.map((r) => r.situation))
  })
})
