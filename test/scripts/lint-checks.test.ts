// The checks `npm run lint` adds to ESLint each catch what they are for: a comment citing an issue
// or a seed, a runtime import cycle, and an unformatted file.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import * as prettier from 'prettier'
import { afterAll, describe, expect, it } from 'vitest'
import { citingLines } from '../../scripts/check-comments.mjs'

const root = resolve(import.meta.dirname, '../..')

describe('comments that cite what a reader does not have', () => {
  it('are found in line comments, block comments and after code', () => {
    const text = [
      '// the guard (issue 33)',
      '/**',
      ' * Ids as Seed 003 writes them.',
      ' */',
      'const x = 1 // see task #12',
      '/* layer 1 of §6.1 */',
    ].join('\n')
    expect(citingLines(text).map((l) => l.split(':')[0])).toEqual(['1', '3', '5', '6'])
  })

  it('leave public standards, code and strings alone', () => {
    const text = [
      '// implicit submission (HTML §4.10.21.2)',
      '// RFC 4291 §2.5.5.2 mapped addresses',
      "const label = 'issue 33' // a string is not a comment",
      "const url = 'https://example.com/issues/33'",
      '// seeds of a random generator are numbers: seed them once',
    ].join('\n')
    expect(citingLines(text)).toEqual([])
  })
})

describe('runtime import cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ava-cycles-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  function dpdm(entry: string): number {
    try {
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules/dpdm/lib/bin/dpdm.js'),
          '--no-warning',
          '--no-tree',
          '-T',
          '--skip-dynamic-imports',
          'circular',
          '--exit-code',
          'circular:1',
          entry,
        ],
        { cwd: dir, stdio: 'pipe' },
      )
      return 0
    } catch (e) {
      return (e as { status: number }).status
    }
  }

  it('fail when two modules import each other at run time', () => {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b'\nexport const a = () => b()\n")
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a'\nexport const b = () => a\n")
    expect(dpdm('a.ts')).toBe(1)
  })

  it('pass when one side only needs a type', () => {
    writeFileSync(join(dir, 'c.ts'), "import { d } from './d'\nexport type C = { n: number }\nexport const c = d\n")
    writeFileSync(join(dir, 'd.ts'), "import type { C } from './c'\nexport const d = (x: C) => x.n\n")
    expect(dpdm('c.ts')).toBe(0)
  })
})

describe('the formatter', () => {
  it('rejects a file Prettier would change, with the project config', async () => {
    const options = { ...(await prettier.resolveConfig(join(root, 'src/core/exec.ts'))), filepath: 'x.ts' }
    expect(await prettier.check('const a = {b:1};\n', options)).toBe(false)
    expect(await prettier.check('const a = { b: 1 }\n', options)).toBe(true)
  })
})
